"""The generated scene dataset: seeded, well laid out, and split without repeats."""

import collections
import doctest
import itertools

import numpy as np
import pytest

from attention_zoo.applications.captioning import scene_generator
from attention_zoo.applications.captioning.scene_generator import (
    BACKGROUND_MAX_CHROMA,
    BACKGROUNDS,
    BORDER,
    COLOUR_JITTER,
    GAP,
    MIN_BOX_FRACTION,
    SIZE_RANGES,
    generate_scenes,
    scene_splits,
)
from attention_zoo.applications.captioning.scenes import COLOURS, SHAPES, captions_for


@pytest.fixture(scope="module")
def scenes():
    return generate_scenes(600, seed=11, image_size=64)


def _chroma(pixels):
    pixels = np.asarray(pixels, dtype=np.int32)
    return pixels.max(axis=-1) - pixels.min(axis=-1)


def test_module_docstring_examples():
    result = doctest.testmod(scene_generator, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_scenes_are_seeded_and_a_prefix_of_longer_runs():
    a = generate_scenes(8, seed=5, image_size=48)
    b = generate_scenes(12, seed=5, image_size=48)[:8]
    assert [s.caption for s in a] == [s.caption for s in b]
    assert all(np.array_equal(x.image, y.image) for x, y in zip(a, b))
    assert [s.layout_key() for s in a] == [s.layout_key() for s in b]
    other = generate_scenes(8, seed=6, image_size=48)
    assert [s.caption for s in a] != [s.caption for s in other]


def test_argument_errors_name_the_value():
    with pytest.raises(ValueError, match="Received: n=-1"):
        generate_scenes(-1)
    with pytest.raises(ValueError, match="Received: image_size=8"):
        generate_scenes(1, image_size=8)
    with pytest.raises(ValueError, match="Received: n_test=-2"):
        scene_splits(1, 1, -2)


def test_objects_have_distinct_shapes_valid_sizes_and_never_overlap(scenes):
    counts = collections.Counter(len(s.objects) for s in scenes)
    assert set(counts) == {1, 2, 3}
    assert 0.13 < counts[1] / len(scenes) < 0.27
    size = scenes[0].image.shape[0]
    assert SIZE_RANGES["small"][1] < SIZE_RANGES["large"][0]
    for scene in scenes:
        assert scene.image.shape == (size, size, 3) and scene.image.dtype == np.uint8
        assert len({o.shape for o in scene.objects}) == len(scene.objects)
        for obj in scene.objects:
            assert obj.shape in SHAPES and obj.colour in COLOURS
            x0, y0, x1, y1 = obj.box
            assert BORDER - 1e-9 <= x0 < x1 <= 1 - BORDER + 1e-9
            assert BORDER - 1e-9 <= y0 < y1 <= 1 - BORDER + 1e-9
            assert x1 - x0 == pytest.approx(y1 - y0)  # squares
            low, high = SIZE_RANGES[obj.size]
            side = x1 - x0
            assert side >= MIN_BOX_FRACTION
            assert low - 1 / size <= side <= high + 1 / size
            assert obj.grid_mask(7).any()
        for a, b in itertools.combinations(scene.objects, 2):
            gap = GAP - 1e-9
            assert (
                a.box[2] + gap <= b.box[0]
                or b.box[2] + gap <= a.box[0]
                or a.box[3] + gap <= b.box[1]
                or b.box[3] + gap <= a.box[1]
            )


def test_pixels_show_the_objects_on_a_muted_background():
    scenes = generate_scenes(30, seed=2, image_size=224)
    assert {s.background for s in scenes} == set(BACKGROUNDS)
    for rgb in COLOURS.values():
        # The least saturated jittered version of each object colour.
        assert _chroma(rgb) - 2 * COLOUR_JITTER > 3 * BACKGROUND_MAX_CHROMA
    for scene in scenes:
        size = scene.image.shape[0]
        outside = np.ones((size, size), bool)
        for obj in scene.objects:
            x0, y0, x1, y1 = (int(round(v * size)) for v in obj.box)
            outside[y0:y1, x0:x1] = False
            cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
            patch = scene.image[cy - 2 : cy + 3, cx - 2 : cx + 3].reshape(-1, 3)
            assert (patch == patch[0]).all()  # a flat, filled interior
            difference = np.abs(patch[0].astype(int) - COLOURS[obj.colour])
            assert difference.max() <= COLOUR_JITTER, (obj, patch[0])
        assert _chroma(scene.image[outside]).max() <= BACKGROUND_MAX_CHROMA


def test_the_fallback_layout_keeps_every_rule(monkeypatch):
    monkeypatch.setattr(scene_generator, "_LAYOUT_TRIES", 0)
    scenes = generate_scenes(30, seed=0, image_size=64)
    for scene in scenes:
        assert all(o.size == "small" for o in scene.objects)
        captions_for(scene.objects)  # unambiguous
        for a, b in itertools.combinations(scene.objects, 2):
            assert (
                a.box[2] + GAP - 1e-9 <= b.box[0] or b.box[2] + GAP - 1e-9 <= a.box[0]
            )


def test_splits_never_share_a_layout():
    train, validation, test = scene_splits(150, 40, 40, seed=3, image_size=32)
    assert (len(train), len(validation), len(test)) == (150, 40, 40)
    keys = [{s.layout_key() for s in split} for split in (train, validation, test)]
    assert [len(k) for k in keys] == [150, 40, 40]
    assert not (keys[0] & keys[1] or keys[0] & keys[2] or keys[1] & keys[2])


def test_splits_drop_repeated_layouts(monkeypatch):
    pool = generate_scenes(6, seed=0, image_size=32)
    monkeypatch.setattr(
        scene_generator, "iter_scenes", lambda seed, size: itertools.cycle(pool)
    )
    train, validation, test = scene_splits(2, 2, 2, image_size=32)
    assert [s.caption for s in train + validation + test] == [s.caption for s in pool]
    with pytest.raises(RuntimeError, match="could only generate 0 of 1"):
        scene_splits(4, 2, 1, image_size=32)
