"""CoverageAttention: the battery, a hand case, the coverage state, arguments."""

from __future__ import annotations

import math

import keras
import numpy as np
import pytest

from attention_zoo.layers.bahdanau_attention import BahdanauAttention
from attention_zoo.layers.coverage_attention import CoverageAttention
from tests.helpers import to_numpy
from tests.layers.battery import AttentionLayerBattery


def f64(variable):
    return np.asarray(to_numpy(variable), dtype=np.float64)


def coverage_reference(layer, query, value, key, query_mask, value_mask):
    """See et al. 2017, eq. 11, in float64, one decoder step at a time.

    e_i^t = v^T tanh(W_h h_i + W_s s_t + w_c c_i^t + b_attn),
    a^t = softmax(e^t) over the unmasked keys, c^{t+1} = c^t + a^t, c^0 = 0.
    """
    query, value = np.float64(query), np.float64(value)
    key = value if key is None else np.float64(key)
    w_s, w_h = f64(layer._query_dense.kernel), f64(layer._key_dense.kernel)
    b_attn, v = f64(layer._key_dense.bias), f64(layer.attention_v)
    if layer.normalize:
        v = float(f64(layer.attention_g)) * v / np.linalg.norm(v)
    w_c = f64(layer._coverage_dense.kernel)[0]  # (units,)
    batch, steps, length = query.shape[0], query.shape[1], value.shape[1]
    if query_mask is None:
        query_mask = np.ones((batch, steps), bool)
    if value_mask is None:
        value_mask = np.ones((batch, length), bool)
    weights = np.zeros((batch, steps, length))
    for b in range(batch):
        coverage = np.zeros(length)
        for t in range(steps):
            if not query_mask[b, t]:
                continue  # no weights, coverage kept
            scores = np.zeros(length)
            for i in range(length):
                hidden = key[b, i] @ w_h + query[b, t] @ w_s + coverage[i] * w_c
                scores[i] = np.tanh(hidden + b_attn) @ v
            keep = value_mask[b]
            if keep.any():
                e = np.exp(scores[keep] - scores[keep].max())
                weights[b, t, keep] = e / e.sum()
            coverage = coverage + weights[b, t]
    return weights @ value, weights


MECHANISMS = {
    "coverage": lambda **kw: CoverageAttention(units=6, normalize=True, **kw),
}
BATTERY = AttentionLayerBattery(MECHANISMS, reference=coverage_reference)


@pytest.mark.parametrize("name", list(MECHANISMS))
class TestCoverageAttention:
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


def softmax(x):
    e = np.exp(np.asarray(x, np.float64))
    return e / e.sum()


def test_two_keys_three_steps_by_hand():
    # units = 1, W_h = W_s = v = 1, b = 0, w_c = -2: e_i = tanh(q + k_i - 2 c_i).
    layer = CoverageAttention(units=1)
    query = np.zeros((1, 3, 1), "float32")
    key = np.array([[[0.0], [1.0]]], "float32")
    value = np.array([[[1.0], [3.0]]], "float32")
    layer(query, value, key)
    for variable in (
        layer._query_dense.kernel,
        layer._key_dense.kernel,
        layer.attention_v,
    ):
        variable.assign(np.ones(variable.shape))
    layer._key_dense.bias.assign(np.zeros(1))
    layer._coverage_dense.kernel.assign(np.full((1, 1), -2.0))
    context, weights = layer(query, value, key, return_attention_scores=True)
    e = math.exp(math.tanh(1.0))
    a_0 = np.array([1 / (1 + e), e / (1 + e)])  # zero coverage
    a_1 = softmax(np.tanh(np.array([0.0, 1.0]) - 2 * a_0))
    a_2 = softmax(np.tanh(np.array([0.0, 1.0]) - 2 * (a_0 + a_1)))
    np.testing.assert_allclose(to_numpy(weights)[0], [a_0, a_1, a_2], rtol=1e-6)
    np.testing.assert_allclose(
        to_numpy(context)[0, :, 0], [a @ [1.0, 3.0] for a in (a_0, a_1, a_2)], rtol=1e-6
    )
    # The negative w_c moves attention to the less covered first key.
    assert a_1[0] > a_0[0] and a_2[0] > a_0[0]


def test_coverage_is_the_sum_of_the_returned_weights():
    rng = np.random.default_rng(0)
    layer = CoverageAttention(units=4)
    query = rng.normal(size=(2, 4, 3)).astype("float32")
    value = rng.normal(size=(2, 6, 5)).astype("float32")
    value_mask = np.array([[True] * 6, [True] * 3 + [False] * 3])
    layer(query, value)
    state = layer.get_initial_state(value, value_mask)
    assert len(state) == layer.num_states == 1
    assert tuple(state[0].shape) == (2, 6) and (to_numpy(state[0]) == 0).all()
    projected = layer.project_key(value)
    total = np.zeros((2, 6), "float32")
    for t in range(4):
        _, weights, state = layer.step(
            query[:, t], value, projected, state, value_mask=value_mask
        )
        total += to_numpy(weights)
        np.testing.assert_allclose(to_numpy(state[0]), total, rtol=1e-6)
    # The coverage of a masked key stays 0; each step adds 1 in total.
    assert (to_numpy(state[0])[1, 3:] == 0).all()
    np.testing.assert_allclose(to_numpy(state[0]).sum(-1), [4.0, 4.0], rtol=1e-5)
    # Through a sequence: a masked query step adds nothing.
    _, weights, final = layer.attend_sequence(
        query,
        value,
        projected,
        layer.get_initial_state(value),
        query_mask=np.array([[True, False, True, True]] * 2),
        value_mask=value_mask,
    )
    assert (to_numpy(weights)[:, 1] == 0).all()
    np.testing.assert_allclose(to_numpy(final[0]), to_numpy(weights).sum(1), rtol=1e-6)


def test_beam_rows_keep_their_own_coverage():
    rng = np.random.default_rng(2)
    layer = CoverageAttention(units=4)
    query = rng.normal(size=(2, 3, 3)).astype("float32")
    value = rng.normal(size=(2, 5, 4)).astype("float32")
    layer(query, value)
    projected = layer.project_key(value)
    # Row r of each memory sees its own query sequence (B, R=3, Dq).
    state = [keras.ops.stack([layer.get_initial_state(value)[0]] * 3, axis=1)]
    total = np.zeros((2, 3, 5), "float32")
    for t in range(2):
        step_query = np.roll(query, t, axis=1)  # (B, R, Dq)
        _, weights, state = layer.step(step_query, value, projected, state)
        total += to_numpy(weights)
    assert tuple(state[0].shape) == (2, 3, 5)
    np.testing.assert_allclose(to_numpy(state[0]), total, rtol=1e-6)


def test_zero_coverage_weights_give_bahdanau_attention():
    rng = np.random.default_rng(1)
    query = rng.normal(size=(2, 4, 3)).astype("float32")
    value = rng.normal(size=(2, 5, 4)).astype("float32")
    layer, bahdanau = CoverageAttention(units=6), BahdanauAttention(units=6)
    layer(query, value)
    bahdanau(query, value)
    for source, target in (
        (layer.attention_v, bahdanau.attention_v),
        (layer._query_dense.kernel, bahdanau._query_dense.kernel),
        (layer._key_dense.kernel, bahdanau._key_dense.kernel),
    ):
        target.assign(to_numpy(source))
    layer._coverage_dense.kernel.assign(np.zeros((1, 6)))
    np.testing.assert_allclose(
        to_numpy(layer(query, value)), to_numpy(bahdanau(query, value)), atol=1e-6
    )


def test_coverage_stays_float32_under_mixed_precision():
    layer = CoverageAttention(units=3, dtype="mixed_bfloat16")
    symbolic = layer.get_initial_state(keras.Input((7, 5)))
    assert tuple(symbolic[0].shape) == (None, 7)
    assert keras.backend.standardize_dtype(symbolic[0].dtype) == "float32"
    query = np.ones((2, 4), "float32")
    value = np.ones((2, 7, 5), "float32")
    layer(query, value)
    _, weights, state = layer.step(
        query, value, layer.project_key(value), layer.get_initial_state(value)
    )
    assert keras.backend.standardize_dtype(weights.dtype) == "bfloat16"
    assert keras.backend.standardize_dtype(state[0].dtype) == "float32"


@pytest.mark.parametrize("units", [0, -3, 2.5, None, True])
def test_bad_units(units):
    with pytest.raises(
        ValueError,
        match=r"CoverageAttention: `units` must be a positive integer. "
        rf"Received: units={units!r}",
    ):
        CoverageAttention(units=units)


def test_bad_dropout():
    with pytest.raises(ValueError, match=r"Received: dropout=-0.5"):
        CoverageAttention(units=2, dropout=-0.5)
