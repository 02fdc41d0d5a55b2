"""The n-best list of every shipped preset whose search keeps beams: every
hypothesis in the search's order, the first being the answer itself."""

import inspect
import math

import numpy as np
import pytest

from attention_zoo.applications import from_preset, registry
from attention_zoo.presets import fixed_inputs

_loaded = {}


def _predictor(name):
    if name not in _loaded:
        _loaded[name] = from_preset(name)
    return _loaded[name]


def _inputs(name):
    inputs = fixed_inputs(name)[:3]
    return [p.read_bytes() if hasattr(p, "read_bytes") else p for p in inputs]


@pytest.mark.parametrize("app", registry.names())
def test_every_application_with_beam_search_gives_an_n_best_list(app):
    application = registry.get(app)
    takes = inspect.signature(application.predictor.predict_items).parameters
    assert application.n_best == application.beam_search
    assert ("n_best" in takes) == application.n_best


@pytest.mark.parametrize("name", ["bible_en_es", "shapes", "debian_synopsis"])
def test_the_n_best_list_starts_with_the_answer(name):
    predictor = _predictor(name)
    width = predictor.beam_width  # the preset's own search, compiled once more
    inputs = _inputs(name)
    plain = predictor(inputs)
    items = predictor(inputs, n_best=True)
    for item, expected in zip(items, plain, strict=True):
        assert len(item["n_best"]) == width
        best = item["n_best"][0]
        assert item["text"] == expected["text"] == best["text"]
        assert item["score"] == expected["score"] == best["score"]
        assert np.array_equal(item["attention"], expected["attention"])
        assert all(isinstance(h["score"], float) for h in item["n_best"])
        assert all(h["score"] <= 0 for h in item["n_best"])
    # A real search keeps different hypotheses, not one copied K times.
    assert any(len({h["text"] for h in i["n_best"]}) > 1 for i in items)
    with pytest.raises(TypeError, match="n_best"):
        predictor(inputs, n_best="all")


@pytest.mark.parametrize("name", ["bible_en_es", "debian_synopsis"])
def test_an_empty_text_has_no_scored_hypothesis(name):
    predictor = _predictor(name)
    item = predictor([""], n_best=True)[0]
    assert item["valid"] is False
    assert [h["score"] for h in item["n_best"]] == [None] * predictor.beam_width
    assert item["score"] is None or not math.isfinite(item["score"])


@pytest.mark.parametrize("name", ["bible_en_es", "shapes", "debian_synopsis"])
def test_the_n_best_list_is_in_the_order_of_its_ranking_score(name):
    """The list keeps the search's order, the ranking score's (the summed
    log-probability over the GNMT length penalty, none where the preset's
    `alpha` is 0), which the score per token need not follow: each
    hypothesis carries both."""
    predictor = _predictor(name)
    for item in predictor(_inputs(name), n_best=True):
        ranking = [h["ranking_score"] for h in item["n_best"]]
        assert all(isinstance(r, float) for r in ranking)
        # Recomputed from float32 per-token scores: equal up to rounding.
        assert all(a >= b - 1e-4 for a, b in zip(ranking, ranking[1:])), ranking
        assert all(r <= 0 for r in ranking)
    empty = predictor([""], n_best=True)[0] if name != "shapes" else None
    if empty is not None:
        assert [h["ranking_score"] for h in empty["n_best"]] == [None] * len(
            empty["n_best"]
        )
