import math

import keras
import numpy as np
import pytest

from attention_zoo.layers import LocalAttention, LuongAttention
from tests.helpers import to_numpy


def test_dot_two_keys_by_hand():
    layer = LuongAttention(score_mode="dot")
    query = np.array([[1.0, 0.0]], "float32")  # one step, (1, 2)
    value = np.array([[[1.0, 0.0], [0.0, 1.0]]], "float32")  # (1, 2, 2)
    context, weights = layer(query, value, return_attention_scores=True)
    e = math.e
    expected = [e / (1 + e), 1 / (1 + e)]  # softmax([1, 0])
    np.testing.assert_allclose(to_numpy(weights)[0], expected, rtol=1e-6)
    np.testing.assert_allclose(to_numpy(context)[0], expected, rtol=1e-6)


def test_use_scale_multiplies_scores():
    layer = LuongAttention(score_mode="dot", use_scale=True)
    query = np.array([[1.0, 0.0]], "float32")
    value = np.array([[[1.0, 0.0], [0.0, 1.0]]], "float32")
    layer(query, value)
    layer.set_weights([np.array(2.0, "float32")])
    _, weights = layer(query, value, return_attention_scores=True)
    e2 = math.exp(2.0)
    np.testing.assert_allclose(
        to_numpy(weights)[0], [e2 / (1 + e2), 1 / (1 + e2)], rtol=1e-6
    )


@pytest.mark.parametrize(
    "layer",
    [
        lambda: LuongAttention(score_mode="dot", dtype="mixed_float16"),
        lambda: LuongAttention(score_mode="general", dtype="mixed_float16"),
        lambda: LocalAttention(
            "local-m", window=2, score_mode="dot", dtype="mixed_float16"
        ),
    ],
    ids=["dot", "general", "local-m"],
)
def test_float16_scores_past_its_range_stay_finite(layer):
    # Scores of 4 * 200 * 100 = 80000 overflow float16 (largest 65504); the
    # weights and context must still be those of the float32 computation.
    layer = layer()
    query = np.full((1, 1, 4), 200.0, "float32")
    value = np.full((1, 3, 4), 100.0, "float32")
    value[0, 0] = 90.0
    value_mask = np.array([[True, True, False]])
    layer.build(query.shape, value.shape)
    if layer.score_mode == "general":
        layer.set_weights([np.eye(4, dtype="float32")])
    context, weights = layer(
        query, value, value_mask=value_mask, return_attention_scores=True
    )
    assert keras.backend.standardize_dtype(weights.dtype) == "float16"
    weights = to_numpy(keras.ops.cast(weights, "float32"))
    # Scores 72000 and 80000: all the weight on the second key.
    np.testing.assert_allclose(weights, [[[0.0, 1.0, 0.0]]], atol=1e-3)
    assert np.isfinite(to_numpy(keras.ops.cast(context, "float32"))).all()


def test_location_scores_ignore_key_content_and_truncate():
    layer = LuongAttention(score_mode="location", max_length=6)
    rng = np.random.default_rng(0)
    query = rng.normal(size=(2, 3, 4)).astype("float32")
    value = rng.normal(size=(2, 4, 5)).astype("float32")
    _, a = layer(query, value, return_attention_scores=True)
    _, b = layer(
        query,
        value,
        rng.normal(size=(2, 4, 7)).astype("float32"),
        return_attention_scores=True,
    )
    np.testing.assert_array_equal(to_numpy(a), to_numpy(b))
    assert tuple(a.shape) == (2, 3, 4)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        pytest.param(
            dict(score_mode="cosine"),
            r"`score_mode` must be one of \('dot', 'general', 'concat', 'location'\). Received: score_mode='cosine'",
            id="unknown_score_mode",
        ),
        pytest.param(
            dict(score_mode="concat"),
            r"needs `units`. Received: units=None",
            id="concat_without_units",
        ),
        pytest.param(
            dict(score_mode="concat", units=0),
            r"`units` must be a positive integer. Received: units=0",
            id="concat_units_zero",
        ),
        pytest.param(
            dict(score_mode="general", units=4),
            r"`units` is only used by score_mode='concat'. Received: units=4",
            id="units_with_general",
        ),
        pytest.param(
            dict(score_mode="location"),
            r"needs `max_length`. Received: max_length=None",
            id="location_without_max_length",
        ),
        pytest.param(
            dict(score_mode="location", max_length=-2),
            r"Received: max_length=-2",
            id="location_negative_max_length",
        ),
    ],
)
def test_bad_constructor_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        LuongAttention(**kwargs)


def test_location_rejects_memory_longer_than_max_length():
    layer = LuongAttention(score_mode="location", max_length=4)
    query = np.zeros((2, 3, 4), "float32")
    layer(query, np.zeros((2, 4, 5), "float32"))
    with pytest.raises(
        ValueError, match=r"at most max_length=4 steps. Received: value.shape\[1\]=5"
    ):
        layer(query, np.zeros((2, 5, 5), "float32"))


def test_dot_needs_matching_sizes():
    layer = LuongAttention(score_mode="dot")
    with pytest.raises(ValueError, match=r"query.shape\[-1\]=3, key.shape\[-1\]=5"):
        layer(np.zeros((2, 1, 3), "float32"), np.zeros((2, 4, 5), "float32"))


def test_location_scoring_nested_in_a_layer_with_a_memory_of_unknown_length():
    # Keras infers a nested layer's shapes by running it on placeholders:
    # JAX's symbolic lengths made the max_length check inconclusive, and
    # PyTorch's placeholder length 83 was refused as longer than max_length.
    class Head(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.attention = LuongAttention("location", max_length=9)

        def call(self, query, value):
            return self.attention(query, value)

    query, value = keras.Input((None, 4)), keras.Input((None, 6))
    head = Head()
    model = keras.Model([query, value], head(query, value))
    assert tuple(model.output.shape) == (None, None, 6)
    rng = np.random.default_rng(0)
    q, v = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 7, 6))
    expected = to_numpy(head.attention(q, v))
    np.testing.assert_allclose(model.predict([q, v], verbose=0), expected, atol=1e-6)
    with pytest.raises(
        ValueError, match=r"max_length=9 .*Received: value.shape\[1\]=12"
    ):
        head.attention(q, rng.normal(size=(2, 12, 6)))


@pytest.mark.parametrize(
    "make, sums_to_one",
    [
        (lambda: LuongAttention("dot"), True),
        (lambda: LuongAttention("general"), True),
        (lambda: LocalAttention("local-m", window=1, score_mode="dot"), True),
        (lambda: LocalAttention("local-p", window=2, score_mode="dot"), False),
    ],
    ids=["dot", "general", "local_m", "local_p"],
)
def test_scores_past_the_float32_range_give_finite_weights(make, sums_to_one):
    # Finite inputs around 1e19-1e20 give dot products past float32's range
    # (inf); the weights were all NaN (inf - inf in the softmax).
    rng = np.random.default_rng(0)
    query = (rng.normal(size=(2, 3, 4)) * 1e19).astype("float32")
    value = (rng.normal(size=(2, 5, 4)) * 1e20).astype("float32")
    context, weights = make()(query, value, return_attention_scores=True)
    weights, context = to_numpy(weights), to_numpy(context)
    assert np.isfinite(weights).all() and np.isfinite(context).all()
    assert (weights >= 0).all()
    if sums_to_one:
        np.testing.assert_allclose(weights.sum(-1), 1.0, atol=1e-6)
    else:
        assert (weights.sum(-1) <= 1.0 + 1e-6).all()
