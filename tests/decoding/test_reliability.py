"""Reliability of the decoding functions at the edges of their arguments:
extreme temperatures, non-finite penalties, and bounded loop sizes."""

import math

import keras
import numpy as np
import pytest

from attention_zoo.decoding import (
    beam_search,
    best_hypothesis,
    coverage_penalty,
    greedy_search,
    length_penalty,
    sample,
)
from tests.helpers import to_numpy

PAD, START, END = 0, 1, 2
BATCH, STEPS = 16, 6


def step_fn(tokens, state, constants):
    """Fixed logits: pad by far the likeliest (forbidden to live sequences),
    then tokens 3, 4, END; every live token has log-probability < -1 after
    the softmax, so a finite pad mask would win at a tiny temperature."""
    (t,) = state
    logits = keras.ops.convert_to_tensor(
        np.array([8.0, -5.0, 0.5, 2.0, 1.0], "float32")
    )
    logits = keras.ops.broadcast_to(logits, (keras.ops.shape(tokens)[0], 5))
    attention = keras.ops.ones((keras.ops.shape(tokens)[0], 2)) / 2
    return logits, (t + 1,), attention


def inputs():
    return (keras.ops.zeros((BATCH,), "int32"),), np.full((BATCH,), START, "int32")


@pytest.mark.parametrize("temperature", [1e-12, 1e-9, 1e-3, 1.0, 1e6])
def test_sampling_never_emits_the_forbidden_pad_at_any_temperature(temperature):
    state, start = inputs()
    result = sample(step_fn, state, start, END, STEPS, temperature=temperature, seed=0)
    tokens, lengths = to_numpy(result["tokens"]), to_numpy(result["lengths"])
    scores = to_numpy(result["scores"])
    assert np.isfinite(scores).all()
    for row, length in zip(tokens, lengths):
        assert length >= 1
        assert PAD not in row[:length].tolist()
    if temperature <= 1e-3:
        greedy = greedy_search(step_fn, state, start, END, STEPS)
        np.testing.assert_array_equal(tokens, to_numpy(greedy["tokens"]))
        np.testing.assert_allclose(scores, to_numpy(greedy["scores"]), rtol=1e-6)


def test_top_k_with_a_tiny_temperature_is_greedy():
    state, start = inputs()
    drawn = sample(step_fn, state, start, END, STEPS, temperature=1e-12, top_k=2)
    greedy = greedy_search(step_fn, state, start, END, STEPS)
    np.testing.assert_array_equal(to_numpy(drawn["tokens"]), to_numpy(greedy["tokens"]))


@pytest.mark.parametrize("temperature", [1e-40, 1e-300, 5e-324])
def test_sample_refuses_a_temperature_below_the_float32_range(temperature):
    """1e-40 became a denormal or 0 in float32, and every scaled logit NaN:
    the loop emitted padding only (round 3, item 12)."""
    state, start = inputs()
    with pytest.raises(ValueError, match=r"`temperature` must be at least 1.175e-38"):
        sample(step_fn, state, start, END, STEPS, temperature=temperature)
    smallest = sample(step_fn, state, start, END, STEPS, temperature=1.2e-38, seed=0)
    greedy = greedy_search(step_fn, state, start, END, STEPS)
    np.testing.assert_array_equal(
        to_numpy(smallest["tokens"]), to_numpy(greedy["tokens"])
    )


BAD_FLOATS = [math.nan, math.inf, -math.inf, "0.5", True]


@pytest.mark.parametrize("value", BAD_FLOATS, ids=repr)
@pytest.mark.parametrize("argument", ["alpha", "beta"])
def test_beam_search_refuses_non_finite_penalties_by_name(argument, value):
    state, start = inputs()
    with pytest.raises(ValueError, match=rf"`{argument}` must be a finite real"):
        beam_search(step_fn, state, start, END, STEPS, 2, **{argument: value})


@pytest.mark.parametrize("argument", ["alpha", "beta"])
def test_beam_search_refuses_negative_penalties(argument):
    state, start = inputs()
    with pytest.raises(ValueError, match=rf"Received: {argument}=-0.5"):
        beam_search(step_fn, state, start, END, STEPS, 2, **{argument: -0.5})


@pytest.mark.parametrize("value", BAD_FLOATS + [0.0, -1.0], ids=repr)
def test_sample_refuses_a_bad_temperature_by_name(value):
    state, start = inputs()
    with pytest.raises(ValueError, match=r"`temperature` must be a finite real"):
        sample(step_fn, state, start, END, STEPS, temperature=value)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: length_penalty(3, math.nan), r"Received: alpha=nan"),
        (lambda: coverage_penalty(np.ones((1, 2)), None, math.inf), "beta=inf"),
        (
            lambda: coverage_penalty(np.ones((1, 2)), None, 0.2, epsilon=0.0),
            r"`epsilon` must be a finite real number > 0.0 and <= 1.0",
        ),
        (
            lambda: best_hypothesis(step_fn, *inputs(), END, STEPS, 2, alpha=math.nan),
            r"Received: alpha=nan",
        ),
    ],
    ids=["length_penalty", "coverage_penalty_beta", "epsilon", "best_hypothesis"],
)
def test_penalty_functions_check_their_floats(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_finite_penalties_still_give_finite_scores():
    state, start = inputs()
    out = beam_search(step_fn, state, start, END, STEPS, 3, alpha=0.6, beta=0.2)
    assert np.isfinite(to_numpy(out["scores"])[:, 0]).all()


def test_beam_width_and_max_length_have_a_documented_bound():
    state, start = inputs()
    with pytest.raises(ValueError, match=r"at most 1024 .*Received: beam_width=1025"):
        beam_search(step_fn, state, start, END, STEPS, beam_width=1025)
    with pytest.raises(ValueError, match=r"at most 1024 .*Received: beam_width=4096"):
        best_hypothesis(step_fn, state, start, END, STEPS, beam_width=4096)
    for search in (greedy_search, sample, beam_search):
        with pytest.raises(
            ValueError, match=r"at most 10000 .*Received: max_length=10001"
        ):
            search(step_fn, state, start, END, 10_001)
    assert "1024" in beam_search.__doc__
    assert "10,000" in greedy_search.__doc__
