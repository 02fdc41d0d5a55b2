"""LocationSensitiveAttention: the battery, hand cases, state and arguments."""

from __future__ import annotations

import math

import keras
import numpy as np
import pytest

from attention_zoo.layers.bahdanau_attention import BahdanauAttention
from attention_zoo.layers.location_sensitive_attention import (
    LocationSensitiveAttention,
)
from tests.helpers import to_numpy
from tests.layers.battery import AttentionLayerBattery


def f64(variable):
    return np.asarray(to_numpy(variable), dtype=np.float64)


def softmax_over(scores, keep):
    """Softmax of a score row over the kept keys; zeros if none is kept."""
    out = np.zeros_like(scores)
    if keep.any():
        e = np.exp(scores[keep] - scores[keep].max())
        out[keep] = e / e.sum()
    return out


def location_sensitive_reference(layer, query, value, key, query_mask, value_mask):
    """Chorowski et al. 2015, eq. 8-9, in float64, one decoder step at a time.

    f_i = F * alpha_{i-1} ("same" zero padding; Keras kernels are applied as
    a cross-correlation: tap d reads position j + d - K // 2),
    e_ij = w^T tanh(W s_i + V h_j + U f_ij + b), alpha_i = softmax(e_i).
    With `cumulative`, F also reads sum_{i' < i} alpha_i' (Tacotron 2).
    """
    query, value = np.float64(query), np.float64(value)
    key = value if key is None else np.float64(key)
    w_query, w_key = f64(layer._query_dense.kernel), f64(layer._key_dense.kernel)
    bias, v = f64(layer._key_dense.bias), f64(layer.attention_v)
    if layer.normalize:
        v = float(f64(layer.attention_g)) * v / np.linalg.norm(v)
    conv = f64(layer._location_conv.kernel)  # (K, C, filters)
    w_location = f64(layer._location_dense.kernel)  # (filters, units)
    size, half = conv.shape[0], conv.shape[0] // 2
    batch, steps, length = query.shape[0], query.shape[1], value.shape[1]
    if query_mask is None:
        query_mask = np.ones((batch, steps), bool)
    if value_mask is None:
        value_mask = np.ones((batch, length), bool)
    weights = np.zeros((batch, steps, length))
    for b in range(batch):
        previous, cumulative = np.zeros(length), np.zeros(length)
        for i in range(steps):
            if not query_mask[b, i]:
                continue  # no weights, state kept
            channels = [previous, cumulative] if layer.cumulative else [previous]
            alignment = np.stack(channels, -1)  # (Tv, C)
            padded = np.pad(alignment, ((half, half), (0, 0)))
            features = np.stack(
                [
                    np.einsum("kc,kcf->f", padded[j : j + size], conv)
                    for j in range(length)
                ]
            )  # (Tv, filters)
            hidden = (
                query[b, i] @ w_query + key[b] @ w_key + features @ w_location + bias
            )  # (Tv, units)
            alpha = softmax_over(np.tanh(hidden) @ v, value_mask[b])
            weights[b, i] = alpha
            previous, cumulative = alpha, cumulative + alpha
    return weights @ value, weights


MECHANISMS = {
    "location_sensitive": lambda **kw: LocationSensitiveAttention(
        units=6, filters=4, kernel_size=5, **kw
    ),
    "location_sensitive_cumulative": lambda **kw: LocationSensitiveAttention(
        units=6, filters=3, kernel_size=3, cumulative=True, normalize=True, **kw
    ),
}
BATTERY = AttentionLayerBattery(MECHANISMS, reference=location_sensitive_reference)


@pytest.mark.parametrize("name", list(MECHANISMS))
class TestLocationSensitiveAttention:
    """The layer battery's checks (tests/layers/battery.py), per mechanism."""

    def test_matches_numpy_float64_reference(self, name):
        BATTERY.check_matches_numpy_float64_reference(name)

    def test_float64_layer_matches_the_reference_in_float64(self, name):
        BATTERY.check_float64_layer_matches_the_reference_in_float64(name)

    @pytest.mark.parametrize("policy", ["mixed_float16", "mixed_bfloat16"])
    def test_mixed_precision(self, name, policy):
        BATTERY.check_mixed_precision(name, policy)

    def test_weights_are_a_distribution_over_unmasked_keys(self, name):
        BATTERY.check_weights_are_a_distribution_over_unmasked_keys(name)

    def test_masked_query_rows_have_zero_context(self, name):
        BATTERY.check_masked_query_rows_have_zero_context(name)

    def test_fully_masked_rows_give_zeros_and_finite_gradients(self, name):
        BATTERY.check_fully_masked_rows_give_zeros_and_finite_gradients(name)

    def test_padding_with_masked_keys_never_changes_outputs(self, name):
        BATTERY.check_padding_with_masked_keys_never_changes_outputs(name)

    def test_query_without_steps_gives_empty_outputs(self, name):
        BATTERY.check_query_without_steps_gives_empty_outputs(name)

    def test_empty_memory_gives_zero_weights_and_context(self, name):
        BATTERY.check_empty_memory_gives_zero_weights_and_context(name)

    def test_single_step_query_equals_one_step_sequence(self, name):
        BATTERY.check_single_step_query_equals_one_step_sequence(name)

    def test_step_with_memory_projected_once_matches_call(self, name):
        BATTERY.check_step_with_memory_projected_once_matches_call(name)

    def test_step_rows_sharing_a_memory_keep_their_own_state(self, name):
        BATTERY.check_step_rows_sharing_a_memory_keep_their_own_state(name)

    def test_step_needs_the_state_of_get_initial_state(self, name):
        BATTERY.check_step_needs_the_state_of_get_initial_state(name)

    def test_value_none_is_refused_by_name(self, name):
        BATTERY.check_value_none_is_refused_by_name(name)

    def test_attend_and_step_check_their_inputs_like_a_call(self, name):
        BATTERY.check_attend_and_step_check_their_inputs_like_a_call(name)

    def test_feature_sizes_other_than_the_built_ones_are_refused(self, name):
        BATTERY.check_feature_sizes_other_than_the_built_ones_are_refused(name)

    def test_get_config_round_trip(self, name):
        BATTERY.check_get_config_round_trip(name)

    def test_keras_implicit_mask_is_honoured(self, name):
        BATTERY.check_keras_implicit_mask_is_honoured(name)

    def test_keras_save_and_load_give_identical_outputs(self, name, tmp_path):
        BATTERY.check_keras_save_and_load_give_identical_outputs(name, tmp_path)

    def test_symbolic_shapes_in_functional_model(self, name):
        BATTERY.check_symbolic_shapes_in_functional_model(name)

    def test_dropout_is_seeded_and_training_only(self, name):
        BATTERY.check_dropout_is_seeded_and_training_only(name)

    def test_fit_one_epoch_in_functional_model(self, name):
        BATTERY.check_fit_one_epoch_in_functional_model(name)


def set_scalar_weights(layer, w=1.0, v=1.0, b=0.0, location=(1.0,), u=1.0):
    """Weights of a units=1, filters=1 layer: W = V = w, F = location, U = u."""
    layer._query_dense.kernel.assign(np.full((1, 1), w))
    layer._key_dense.kernel.assign(np.full((1, 1), w))
    layer._key_dense.bias.assign(np.full((1,), b))
    layer.attention_v.assign(np.full((1,), v))
    channels = layer.num_states
    kernel = np.asarray(location, "float32").reshape(-1, channels, 1)
    layer._location_conv.kernel.assign(kernel)
    layer._location_dense.kernel.assign(np.full((1, 1), u))


def softmax(x):
    e = np.exp(np.asarray(x, np.float64))
    return e / e.sum()


def test_two_keys_two_steps_by_hand():
    # units = filters = kernel_size = 1 and unit weights: f_j = alpha_{i-1, j},
    # e_j = tanh(q + k_j + f_j).
    layer = LocationSensitiveAttention(units=1, filters=1, kernel_size=1)
    query = np.zeros((1, 2, 1), "float32")  # two steps, q = 0
    key = np.array([[[0.0], [1.0]]], "float32")
    value = np.array([[[1.0], [3.0]]], "float32")
    layer(query, value, key)
    set_scalar_weights(layer)
    context, weights = layer(query, value, key, return_attention_scores=True)
    e = math.exp(math.tanh(1.0))
    alpha_1 = [1 / (1 + e), e / (1 + e)]  # zero initial alignment
    alpha_2 = softmax([math.tanh(alpha_1[0]), math.tanh(1.0 + alpha_1[1])])
    np.testing.assert_allclose(to_numpy(weights)[0], [alpha_1, alpha_2], rtol=1e-6)
    np.testing.assert_allclose(
        to_numpy(context)[0, :, 0],
        [alpha_1[0] + 3 * alpha_1[1], alpha_2[0] + 3 * alpha_2[1]],
        rtol=1e-6,
    )


def test_cumulative_reads_the_previous_and_the_summed_alignment_by_hand():
    # F = (1, 1) over [alpha_{i-1}, sum_{i' < i} alpha_i']: three steps.
    layer = LocationSensitiveAttention(
        units=1, filters=1, kernel_size=1, cumulative=True
    )
    query = np.zeros((1, 3, 1), "float32")
    key = np.array([[[0.0], [1.0]]], "float32")
    layer(query, key)
    set_scalar_weights(layer, location=(1.0, 1.0))
    _, weights = layer(query, key, return_attention_scores=True)
    alpha_1 = softmax([math.tanh(0.0), math.tanh(1.0)])
    alpha_2 = softmax(np.tanh(np.array([0.0, 1.0]) + 2 * alpha_1))
    alpha_3 = softmax(np.tanh(np.array([0.0, 1.0]) + alpha_2 + (alpha_1 + alpha_2)))
    np.testing.assert_allclose(
        to_numpy(weights)[0], [alpha_1, alpha_2, alpha_3], rtol=1e-6
    )


def test_location_filter_is_centred_and_zero_padded():
    # W = V = 0, kernel (1, 0, 0) with U = 1: e_j = tanh(alpha_{i-1, j-1}), the
    # left neighbour's previous weight, 0 left of the first key.
    layer = LocationSensitiveAttention(units=1, filters=1, kernel_size=3)
    query = np.zeros((1, 2, 1), "float32")
    value = np.zeros((1, 3, 1), "float32")
    layer(query, value)
    set_scalar_weights(layer, w=0.0, location=(1.0, 0.0, 0.0))
    _, weights = layer(query, value, return_attention_scores=True)
    third = 1 / 3  # the first step has no location signal: uniform
    expected_2 = softmax([0.0, math.tanh(third), math.tanh(third)])
    np.testing.assert_allclose(
        to_numpy(weights)[0], [[third] * 3, expected_2], rtol=1e-6
    )


@pytest.mark.parametrize("cumulative", [False, True], ids=["plain", "cumulative"])
def test_state_is_the_previous_and_cumulative_alignment(cumulative):
    rng = np.random.default_rng(0)
    layer = LocationSensitiveAttention(
        units=4, filters=2, kernel_size=3, cumulative=cumulative
    )
    query = rng.normal(size=(2, 3, 4)).astype("float32")
    value = rng.normal(size=(2, 6, 5)).astype("float32")
    value_mask = np.array([[True] * 6, [True] * 4 + [False] * 2])
    layer(query, value)
    state = layer.get_initial_state(value, value_mask)
    assert len(state) == layer.num_states == 1 + cumulative
    for s in state:
        assert tuple(s.shape) == (2, 6)
        assert (to_numpy(s) == 0).all()
    projected = layer.project_key(value)
    total = np.zeros((2, 6), "float32")
    for t in range(3):
        _, weights, state = layer.step(
            query[:, t], value, projected, state, value_mask=value_mask
        )
        total += to_numpy(weights)
        np.testing.assert_array_equal(to_numpy(state[0]), to_numpy(weights))
    if cumulative:
        np.testing.assert_allclose(to_numpy(state[1]), total, rtol=1e-6)
    # A masked query step keeps the state.
    _, weights, final = layer.attend_sequence(
        query,
        value,
        projected,
        layer.get_initial_state(value),
        query_mask=np.array([[True, True, False]] * 2),
        value_mask=value_mask,
    )
    assert (to_numpy(weights)[:, 2] == 0).all()
    np.testing.assert_array_equal(to_numpy(final[0]), to_numpy(weights)[:, 1])


def test_zero_location_weights_give_bahdanau_attention():
    rng = np.random.default_rng(1)
    query = rng.normal(size=(2, 4, 3)).astype("float32")
    value = rng.normal(size=(2, 5, 4)).astype("float32")
    layer = LocationSensitiveAttention(units=6, filters=2, kernel_size=3)
    bahdanau = BahdanauAttention(units=6)
    layer(query, value)
    bahdanau(query, value)
    for source, target in (
        (layer.attention_v, bahdanau.attention_v),
        (layer._query_dense.kernel, bahdanau._query_dense.kernel),
        (layer._key_dense.kernel, bahdanau._key_dense.kernel),
    ):
        target.assign(to_numpy(source))
    bias = rng.normal(size=6).astype("float32")
    layer._key_dense.bias.assign(bias)
    bahdanau._key_dense.bias.assign(bias)
    layer._location_dense.kernel.assign(np.zeros((2, 6)))
    np.testing.assert_allclose(
        to_numpy(layer(query, value)), to_numpy(bahdanau(query, value)), atol=1e-6
    )


def test_initial_state_is_float32_symbolic_and_kept_under_mixed_precision():
    layer = LocationSensitiveAttention(
        units=3, filters=2, kernel_size=3, cumulative=True, dtype="mixed_float16"
    )
    symbolic = layer.get_initial_state(keras.Input((7, 5)))
    assert [tuple(s.shape) for s in symbolic] == [(None, 7), (None, 7)]
    assert all(keras.backend.standardize_dtype(s.dtype) == "float32" for s in symbolic)
    query = np.ones((2, 4), "float32")
    value = np.ones((2, 7, 5), "float32")
    layer(query, value)
    _, weights, state = layer.step(
        query, value, layer.project_key(value), layer.get_initial_state(value)
    )
    assert keras.backend.standardize_dtype(weights.dtype) == "float16"
    assert all(keras.backend.standardize_dtype(s.dtype) == "float32" for s in state)


def test_get_config_has_every_argument():
    layer = LocationSensitiveAttention(
        units=3, filters=5, kernel_size=7, cumulative=True, normalize=True
    )
    config = layer.get_config()
    assert (config["units"], config["filters"], config["kernel_size"]) == (3, 5, 7)
    assert config["cumulative"] is True and config["normalize"] is True
    assert LocationSensitiveAttention.from_config(config).num_states == 2


@pytest.mark.parametrize("units", [0, -3, 2.5, None, True])
def test_bad_units(units):
    with pytest.raises(
        ValueError,
        match=r"LocationSensitiveAttention: `units` must be a positive integer. "
        rf"Received: units={units!r}",
    ):
        LocationSensitiveAttention(units=units)


@pytest.mark.parametrize("filters", [0, -1, 2.5, True])
def test_bad_filters(filters):
    with pytest.raises(
        ValueError,
        match=rf"`filters` must be a positive integer. Received: filters={filters!r}",
    ):
        LocationSensitiveAttention(units=2, filters=filters)


@pytest.mark.parametrize("kernel_size", [0, 2, 4, -3, 3.0, True])
def test_bad_kernel_size(kernel_size):
    with pytest.raises(
        ValueError,
        match=r"`kernel_size` must be a positive odd integer .* Received: "
        rf"kernel_size={kernel_size!r}",
    ):
        LocationSensitiveAttention(units=2, kernel_size=kernel_size)


def test_bad_dropout():
    with pytest.raises(ValueError, match=r"Received: dropout=1.5"):
        LocationSensitiveAttention(units=2, dropout=1.5)
