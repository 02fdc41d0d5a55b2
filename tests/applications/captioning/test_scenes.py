"""Scenes and their caption grammar: parsing, ambiguity, words naming objects."""

import collections
import doctest
import itertools

import numpy as np
import pytest

from attention_zoo.applications.captioning import scenes as scenes_module
from attention_zoo.applications.captioning.captions import normalize_caption
from attention_zoo.applications.captioning.scene_generator import generate_scenes
from attention_zoo.applications.captioning.scenes import (
    MAX_CAPTION_WORDS,
    MIN_X_GAP,
    RELATION_RATIO,
    SHAPES,
    SceneObject,
    captions_for,
    parse_caption,
    scene_vocabulary,
)


@pytest.fixture(scope="module")
def scenes():
    return generate_scenes(600, seed=11, image_size=64)


def test_module_docstring_examples():
    result = doctest.testmod(scenes_module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_grid_mask_marks_the_cells_whose_centre_is_in_the_box():
    obj = SceneObject("circle", "red", "small", (0.0, 0.0, 0.2, 0.3))
    mask = obj.grid_mask(5)  # cell centres at 0.1, 0.3, 0.5, ...
    expected = np.zeros((5, 5), bool)
    expected[0:2, 0] = True  # rows (y) 0.1 and 0.3, column (x) 0.1
    np.testing.assert_array_equal(mask, expected)


def test_captions_parse_back_to_the_objects_and_their_layout(scenes):
    vocabulary = set(scene_vocabulary())
    for scene in scenes:
        assert scene.caption in scene.references
        assert len(set(scene.references)) == len(scene.references)
        assert normalize_caption(scene.caption) == scene.caption
        assert len(scene.caption.split(" ")) <= MAX_CAPTION_WORDS
        described = sorted((o.size, o.colour, o.shape) for o in scene.objects)
        for reference in scene.references:
            assert set(reference.split(" ")) <= vocabulary
            phrases, relation = parse_caption(reference)
            assert sorted(phrases) == described
            by_shape = {o.shape: o for o in scene.objects}
            first, *rest = (by_shape[shape] for _, _, shape in phrases)
            if relation is None:
                assert len(scene.objects) == 1
            elif relation == ",":
                xs = [first.centre[0]] + [o.centre[0] for o in rest]
                assert all(b - a >= MIN_X_GAP - 1e-9 for a, b in itertools.pairwise(xs))
            else:
                (second,) = rest
                dx = second.centre[0] - first.centre[0]
                dy = second.centre[1] - first.centre[1]
                ratio = RELATION_RATIO - 1e-6
                expected = {
                    "above": dy > 0 and abs(dy) >= ratio * abs(dx),
                    "below": dy < 0 and abs(dy) >= ratio * abs(dx),
                    "to the left of": dx > 0 and abs(dx) >= ratio * abs(dy),
                    "to the right of": dx < 0 and abs(dx) >= ratio * abs(dy),
                }
                assert expected[relation], (reference, first.box, second.box)
        # The training caption puts the upper or the left object first.
        assert parse_caption(scene.caption)[1] in (
            None,
            ",",
            "above",
            "to the left of",
        )
    relations = collections.Counter(parse_caption(s.caption)[1] for s in scenes)
    assert relations["above"] > 50 and relations["to the left of"] > 50
    assert {w for s in scenes for r in s.references for w in r.split()} == vocabulary


def test_parse_caption_rejects_captions_outside_the_grammar():
    assert parse_caption("a small red circle above") is None
    assert parse_caption("a small red circle near a large blue star") is None
    assert parse_caption("a  small red circle") is None
    assert parse_caption(
        "a small red circle , a small blue star and a large green square"
    ) == (
        [
            ("small", "red", "circle"),
            ("small", "blue", "star"),
            ("large", "green", "square"),
        ],
        ",",
    )


def test_captions_for_refuses_ambiguous_layouts():
    a = SceneObject("circle", "red", "small", (0.1, 0.1, 0.3, 0.3))
    b = SceneObject("star", "blue", "small", (0.4, 0.4, 0.6, 0.6))  # diagonal
    with pytest.raises(ValueError, match="neither clearly beside nor clearly above"):
        captions_for([a, b])
    c = SceneObject("square", "red", "small", (0.2, 0.7, 0.4, 0.9))
    with pytest.raises(ValueError, match="x-centres"):
        captions_for([a, b, c])


def test_words_map_to_the_objects_they_name(scenes):
    scene = next(s for s in scenes if len(s.objects) == 3)
    words = scene.caption.split(" ")
    mapping = scene.word_objects()
    assert sorted(mapping) == [3, 8, 13]
    assert all(mapping[i].shape == words[i] for i in mapping)
    full = scene.word_objects(include_adjectives=True)
    assert sorted(full) == [1, 2, 3, 6, 7, 8, 11, 12, 13]
    assert full[1] is full[3] and full[1].size == words[1]
    # A model's caption with a wrong colour and an absent shape.
    target = scene.objects[0]
    absent = next(s for s in SHAPES if scene.object_for_word(s) is None)
    output = f"a large blue {target.shape} above a small red {absent}"
    assert scene.word_objects(output) == {3: target}
    assert scene.object_for_word("red") is None
