import math

import numpy as np
import pytest

from attention_zoo.layers import BahdanauAttention
from tests.helpers import to_numpy


def test_two_keys_by_hand():
    # units=1, W1 = W2 = v = 1, b = 0: score_j = tanh(q + k_j).
    layer = BahdanauAttention(units=1)
    query = np.array([[[0.0]]], "float32")  # (1, 1, 1)
    key = np.array([[[0.0], [1.0]]], "float32")  # (1, 2, 1)
    value = np.array([[[1.0], [3.0]]], "float32")  # (1, 2, 1)
    layer(query, value, key)
    layer._query_dense.kernel.assign(np.ones((1, 1)))
    layer._key_dense.kernel.assign(np.ones((1, 1)))
    layer._key_dense.bias.assign(np.zeros(1))
    layer.attention_v.assign(np.ones(1))
    context, weights = layer(query, value, key, return_attention_scores=True)
    e = math.exp(math.tanh(1.0))
    expected = [1 / (1 + e), e / (1 + e)]  # softmax([tanh 0, tanh 1])
    np.testing.assert_allclose(to_numpy(weights)[0, 0], expected, rtol=1e-6)
    np.testing.assert_allclose(
        to_numpy(context)[0, 0, 0], expected[0] + 3 * expected[1], rtol=1e-6
    )


def test_normalize_rescales_v_to_norm_g():
    query = np.random.default_rng(0).normal(size=(2, 3, 4)).astype("float32")
    value = np.random.default_rng(1).normal(size=(2, 5, 4)).astype("float32")
    plain = BahdanauAttention(units=3)
    normalized = BahdanauAttention(units=3, normalize=True)
    plain(query, value)
    normalized(query, value)
    v, w_q, w_k, b = plain.get_weights()  # own weights first, then sublayers'
    g = 0.5
    normalized.set_weights([10 * v, np.array(g, "float32"), w_q, w_k, b])
    plain.set_weights([g * v / np.linalg.norm(v), w_q, w_k, b])
    _, a = plain(query, value, return_attention_scores=True)
    _, b_ = normalized(query, value, return_attention_scores=True)
    np.testing.assert_allclose(to_numpy(a), to_numpy(b_), atol=1e-6)
    # g starts at sqrt(1 / units), as in tfa.seq2seq.
    fresh = BahdanauAttention(units=4, normalize=True)
    fresh(query, value)
    np.testing.assert_allclose(to_numpy(fresh.attention_g), math.sqrt(1 / 4), rtol=1e-6)


def test_normalize_with_zero_v_gives_uniform_weights_not_nan():
    layer = BahdanauAttention(units=3, normalize=True, kernel_initializer="zeros")
    query = np.ones((1, 2, 4), "float32")
    value = np.arange(15, dtype="float32").reshape(1, 5, 3)
    context, weights = layer(query, value, return_attention_scores=True)
    np.testing.assert_allclose(to_numpy(weights), np.full((1, 2, 5), 0.2), atol=1e-6)
    np.testing.assert_allclose(to_numpy(context)[0, 0], value[0].mean(0), rtol=1e-6)


@pytest.mark.parametrize("units", [0, -3, 2.5, None, True])
def test_bad_units(units):
    with pytest.raises(
        ValueError,
        match=f"`units` must be a positive integer. Received: units={units!r}",
    ):
        BahdanauAttention(units=units)


@pytest.mark.parametrize("dropout", [-0.1, 1.0, "a", None, float("nan")])
def test_bad_dropout(dropout):
    with pytest.raises(ValueError, match=f"`dropout` .* Received: dropout={dropout}"):
        BahdanauAttention(units=2, dropout=dropout)


@pytest.mark.parametrize("seed", ["a", 1.5, True])
def test_bad_seed(seed):
    with pytest.raises(ValueError, match=f"`seed` .* Received: seed={seed!r}"):
        BahdanauAttention(units=2, seed=seed)


Q = np.zeros((2, 3, 4), "float32")
V = np.zeros((2, 5, 6), "float32")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        pytest.param(
            dict(query=np.zeros((2, 3, 4, 1), "float32"), value=V),
            r"`query` must have rank 3 .* Received: query.shape=\(2, 3, 4, 1\)",
            id="query_rank",
        ),
        pytest.param(
            dict(query=Q, value=np.zeros((2, 5), "float32")),
            r"`value` must have rank 3 .* Received: value.shape=\(2, 5\)",
            id="value_rank",
        ),
        pytest.param(
            dict(query=Q, value=np.zeros((3, 5, 6), "float32")),
            r"same batch size. Received: query.shape\[0\]=2, value.shape\[0\]=3",
            id="batch_mismatch",
        ),
        pytest.param(
            dict(query=Q, value=V, key=np.zeros((2, 4, 6), "float32")),
            r"same length Tv. Received: key.shape=\(2, 4, 6\), value.shape=\(2, 5, 6\)",
            id="key_value_length",
        ),
        pytest.param(
            dict(query=Q, value=V, value_mask=np.ones((2, 4), bool)),
            r"`value_mask` must have shape \(2, 5\). Received: value_mask.shape=\(2, 4\)",
            id="value_mask_shape",
        ),
        pytest.param(
            dict(query=Q, value=V, query_mask=np.ones((2, 3, 1), bool)),
            r"`query_mask` must have shape \(2, 3\). Received: query_mask.shape=\(2, 3, 1\)",
            id="query_mask_shape",
        ),
    ],
)
def test_bad_inputs_name_the_argument(kwargs, message):
    layer = BahdanauAttention(units=2)
    with pytest.raises(ValueError, match=message):
        layer(**kwargs)


def test_attend_needs_a_built_layer():
    layer = BahdanauAttention(units=2)
    with pytest.raises(ValueError, match="needs a built layer"):
        layer.attend(Q[:, 0], V, V)


def test_project_key_needs_a_built_layer():
    with pytest.raises(ValueError, match=r"project_key\(\) needs a built layer"):
        BahdanauAttention(units=2).project_key(np.zeros((1, 3, 4), "float32"))
