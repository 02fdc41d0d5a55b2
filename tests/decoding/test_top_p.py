"""Nucleus (top-p) sampling: the filter against a NumPy float64 reference,
the draws inside the nucleus, seeds, bounds, and its limits."""

import keras
import numpy as np
import pytest

from attention_zoo.decoding import greedy_search, sample
from attention_zoo.decoding.sampling import nucleus
from tests.decoding.test_search import END, START, FixedLogits, ToyModel
from tests.helpers import to_numpy


def reference_nucleus(logits, top_p):
    logits = np.asarray(logits, "float64")
    out = np.full_like(logits, -np.inf)
    for row, values in enumerate(logits):
        order = np.argsort(-values, kind="stable")
        probs = np.exp(values[order] - values[order[0]])
        probs /= probs.sum()
        before = np.cumsum(probs) - probs
        cutoff = values[order][before < top_p].min()
        keep = values >= cutoff
        out[row, keep] = values[keep]
    return out


@pytest.mark.parametrize("top_p", [0.05, 0.3, 0.6, 0.9, 0.999])
def test_the_nucleus_is_the_references(top_p):
    rng = np.random.default_rng(0)
    logits = rng.normal(scale=2.0, size=(16, 11)).astype("float32")
    logits[3, 4] = -np.inf  # a forbidden token stays out
    logits[5, :] = np.round(logits[5, :])  # ties at the cutoff are kept together
    got = to_numpy(nucleus(keras.ops.convert_to_tensor(logits), top_p))
    want = reference_nucleus(logits, top_p)
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    np.testing.assert_allclose(got[np.isfinite(got)], want[np.isfinite(want)])
    assert np.isfinite(got).any(axis=-1).all()  # the best token is always in


def test_draws_stay_inside_the_nucleus_and_explore_it():
    # Step 0: tokens 3, 4, 5 with 0.5, 0.3, 0.15 (and 0.05 for END): the
    # nucleus of 0.7 is {3, 4}; of 0.9, {3, 4, 5}.
    table = np.array(
        [[1e-6, 1e-6, 0.05, 0.5, 0.3, 0.15], [1e-6, 1e-6, 1, 1e-6, 1e-6, 1e-6]]
    )
    step = FixedLogits(table / table.sum(-1, keepdims=True))
    state, start = (keras.ops.zeros((256,), "int32"),), np.full((256,), START)
    for top_p, allowed in ((0.7, {3, 4}), (0.9, {3, 4, 5})):
        first = to_numpy(
            sample(step, state, start, END, 2, top_p=top_p, seed=1)["tokens"]
        )
        assert set(first[:, 0].tolist()) == allowed
    # Seeded: the same seed draws the same tokens.
    a = sample(step, state, start, END, 2, top_p=0.9, seed=5)["tokens"]
    b = sample(step, state, start, END, 2, top_p=0.9, seed=5)["tokens"]
    np.testing.assert_array_equal(to_numpy(a), to_numpy(b))


def test_a_tiny_top_p_is_greedy_and_one_changes_nothing():
    model = ToyModel(seed=4)
    state, constants, start = model.inputs()
    args = (model.step_fn, state, start, END, 5)
    greedy = greedy_search(*args, constants=constants)
    tiny = sample(*args, constants=constants, top_p=1e-6, seed=3)
    np.testing.assert_array_equal(to_numpy(tiny["tokens"]), to_numpy(greedy["tokens"]))
    plain = sample(*args, constants=constants, seed=3)
    whole = sample(*args, constants=constants, top_p=1.0, seed=3)
    np.testing.assert_array_equal(to_numpy(plain["tokens"]), to_numpy(whole["tokens"]))
    # The attention comes with the drawn tokens, as for every search.
    assert to_numpy(tiny["attention"]).shape[:2] == to_numpy(tiny["tokens"]).shape


@pytest.mark.parametrize("top_p", [0, 0.0, -0.1, 1.5, float("nan"), "0.5", True])
def test_a_bad_top_p_is_named(top_p):
    model = ToyModel(seed=1)
    state, constants, start = model.inputs()
    with pytest.raises(ValueError, match=r"top_p"):
        sample(model.step_fn, state, start, END, 3, constants=constants, top_p=top_p)
