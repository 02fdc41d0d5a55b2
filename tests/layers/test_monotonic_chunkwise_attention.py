"""MonotonicChunkwiseAttention (MoChA): the battery and a float64 reference."""

from __future__ import annotations

import math

import keras
import numpy as np
import pytest

from attention_zoo.layers.monotonic_attention import MonotonicAttention
from attention_zoo.layers.monotonic_chunkwise_attention import (
    MonotonicChunkwiseAttention,
)
from tests import numpy_reference as ref
from tests.helpers import gradients, to_numpy

# The monotonic attention's reference and its own two battery checks.
from tests.layers import test_monotonic_attention as monotonic
from tests.layers.battery import AttentionLayerBattery


def chunk_energies(layer, query, key):
    """`u_{i,j}` `(B, Tq, Tv)` from the layer's weights, in float64."""
    return ref.layer_scores(layer._chunk_energy, query, key)


def chunkwise_reference(alpha, u, value_mask, chunk_size):
    """MoChA's expected attention with explicit loops, float64.

    `beta_j = sum_{k=j}^{j+w-1} alpha_k exp(u_j) / sum_{l=k-w+1}^{k} exp(u_l)`
    over unmasked keys, written `1 / sum_l exp(u_l - u_j)`.
    """
    alpha, u = ref.f64(alpha), ref.f64(u)
    batch, tq, tv = alpha.shape
    beta = np.zeros(alpha.shape)
    for b, i, j in np.ndindex(batch, tq, tv):
        if not value_mask[b, j]:
            continue
        for k in range(j, min(j + chunk_size, tv)):
            chunk = [
                m for m in range(max(k - chunk_size + 1, 0), k + 1) if value_mask[b, m]
            ]
            beta[b, i, j] += alpha[b, i, k] / np.exp(u[b, i, chunk] - u[b, i, j]).sum()
    return beta


def layer_reference(layer, query, value, key, query_mask, value_mask, training=False):
    """The battery's reference: MoChA over the monotonic attention's alpha."""
    mode = "expected" if training or layer.inference == "expected" else "hard"
    value_mask = np.ones(value.shape[:2], bool) if value_mask is None else value_mask
    _, alpha = monotonic.monotonic_reference(
        monotonic.energies(layer, query, key), value, query_mask, value_mask, mode
    )
    u = chunk_energies(layer, query, key)
    beta = chunkwise_reference(alpha, u, value_mask, layer.chunk_size)
    return beta @ ref.f64(value), beta


MECHANISMS = {
    "bahdanau_chunk3": lambda **kw: MonotonicChunkwiseAttention(
        **{"chunk_size": 3, "units": 6, "sigmoid_noise": 1.0, **kw}
    ),
    "luong_expected_chunk2": lambda **kw: MonotonicChunkwiseAttention(
        **{"chunk_size": 2, "score_mode": "luong", "inference": "expected", **kw}
    ),
}
BATTERY = AttentionLayerBattery(
    MECHANISMS, reference=layer_reference, weights_sum_to_one=False
)


@pytest.mark.parametrize("name", list(MECHANISMS))
class TestMonotonicChunkwiseAttention:
    """The layer battery's checks (tests/layers/battery.py), per mechanism, with
    the monotonic attention's own two (test_monotonic_attention.py)."""

    def test_matches_numpy_float64_reference(self, name):
        BATTERY.check_matches_numpy_float64_reference(name)

    def test_training_matches_expected_reference(self, name):
        monotonic.check_training_matches_expected_reference(BATTERY, name)

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
        # Instead of the battery's check: hard attention has no gradient there.
        monotonic.check_fully_masked_rows_in_both_modes(BATTERY, name)

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


def luong_layer(chunk_size):
    """Both energies `q k` (+ r = 0 for the monotonic one), Dq = Dk = 1."""
    layer = MonotonicChunkwiseAttention(chunk_size, score_mode="luong", normalize=False)
    layer(np.zeros((1, 1, 1), "float32"), np.zeros((1, 2, 1), "float32"))
    layer._energy._key_dense.kernel.assign(np.ones((1, 1), "float32"))
    layer._chunk_energy._key_dense.kernel.assign(np.ones((1, 1), "float32"))
    layer.score_bias.assign(0.0)
    return layer


def test_two_keys_by_hand():
    # k = (-ln 3, ln 3), q = 1: p = (1/4, 3/4) and exp(u) = (1/3, 3).
    layer = luong_layer(chunk_size=2)
    key = np.array([[[-math.log(3)], [math.log(3)]]], "float32")  # (1, 2, 1)
    value = np.array([[[1.0], [3.0]]], "float32")
    query = np.array([[[1.0]]], "float32")  # (1, 1, 1)
    # alpha = (1/4, 9/16) (see the monotonic test). Chunk ending at key 0:
    # {0}; at key 1: {0, 1}, with softmax (1/10, 9/10).
    # beta_0 = 1/4 * 1 + 9/16 * 1/10 = 49/160, beta_1 = 9/16 * 9/10 = 81/160.
    context, weights = layer(
        query, value, key, training=True, return_attention_scores=True
    )
    np.testing.assert_allclose(to_numpy(weights)[0, 0], [49 / 160, 81 / 160], rtol=1e-6)
    np.testing.assert_allclose(to_numpy(context)[0, 0, 0], 292 / 160, rtol=1e-6)
    # Hard: key 1 is attended; its chunk {0, 1} gets the softmax of u.
    _, weights = layer(query, value, key, return_attention_scores=True)
    np.testing.assert_allclose(to_numpy(weights)[0, 0], [0.1, 0.9], rtol=1e-6)


def test_chunk_size_one_is_monotonic_attention():
    rng = np.random.default_rng(0)
    query = rng.normal(size=(2, 4, 3)).astype("float32")
    value = rng.normal(size=(2, 7, 5)).astype("float32")
    value_mask = rng.random((2, 7)) < 0.7
    mocha = MonotonicChunkwiseAttention(1, units=4, score_bias_init=0.5)
    plain = MonotonicAttention(units=4, score_bias_init=0.5)
    mocha(query, value)
    plain(query, value)
    # MoChA's weights: score_bias, the monotonic energy's, the chunk energy's.
    n = len(plain.get_weights())
    plain.set_weights(mocha.get_weights()[:n])
    for training in (False, True):
        kwargs = dict(
            value_mask=value_mask, training=training, return_attention_scores=True
        )
        for a, b in zip(mocha(query, value, **kwargs), plain(query, value, **kwargs)):
            np.testing.assert_allclose(to_numpy(a), to_numpy(b), atol=1e-6)


def test_hard_weights_are_a_softmax_over_the_chunk_ending_at_the_attended_key():
    layer = MonotonicChunkwiseAttention(3, units=4, score_bias_init=1.0)
    rng = np.random.default_rng(1)
    query = rng.normal(size=(2, 5, 3)).astype("float32")
    value = rng.normal(size=(2, 8, 2)).astype("float32")
    _, weights = layer(query, value, return_attention_scores=True)
    weights = to_numpy(weights)
    monotonic_layer = MonotonicAttention(units=4)
    monotonic_layer(query, value)
    monotonic_layer.set_weights(layer.get_weights()[: len(monotonic_layer.weights)])
    _, alpha = monotonic_layer(query, value, return_attention_scores=True)
    alpha = to_numpy(alpha)
    assert alpha.sum() > 0  # some steps attend
    for b, i in np.ndindex(alpha.shape[:2]):
        if alpha[b, i].sum() == 0:
            assert (weights[b, i] == 0).all()
            continue
        t = alpha[b, i].argmax()
        support = np.flatnonzero(weights[b, i])
        assert support.min() >= t - 2 and support.max() == t
        np.testing.assert_allclose(weights[b, i].sum(), 1.0, rtol=1e-6)


def test_extreme_chunk_energies_stay_finite_and_exact():
    """Chunk energies spread over +-150: a single exp overflows float32."""
    rng = np.random.default_rng(0)
    layer = MonotonicChunkwiseAttention(4, score_mode="luong", normalize=False)
    query = 5 * rng.normal(size=(2, 4, 4)).astype("float32")
    key = 5 * rng.normal(size=(2, 30, 4)).astype("float32")
    value = rng.normal(size=(2, 30, 3)).astype("float32")
    value_mask = rng.random((2, 30)) < 0.8
    layer(query, value, key)
    layer.score_bias.assign(-3.0)
    layer._energy._key_dense.kernel.assign(0.05 * np.eye(4, dtype="float32"))
    layer._chunk_energy._key_dense.kernel.assign(2 * np.eye(4, dtype="float32"))
    u = chunk_energies(layer, query, key)
    assert u.max() > 100 and u.min() < -100
    kwargs = dict(value_mask=value_mask, training=True, return_attention_scores=True)
    context, weights = layer(query, value, key, **kwargs)
    assert np.isfinite(to_numpy(context)).all()
    expected_context, expected = layer_reference(
        layer, query, value, key, None, value_mask, training=True
    )
    np.testing.assert_allclose(to_numpy(weights), expected, atol=1e-6)
    np.testing.assert_allclose(to_numpy(context), expected_context, atol=1e-5)
    # Moving sums of exp(u) without a shift: inf / inf in float32.
    with np.errstate(over="ignore", invalid="ignore"):
        exp_u = np.exp(u.astype("float32"))
        naive_share = exp_u[..., 3:] / (
            exp_u[..., :-3] + exp_u[..., 1:-2] + exp_u[..., 2:-1] + exp_u[..., 3:]
        )
    assert np.isnan(naive_share).any()

    def reduce_fn(outputs):
        context, weights = outputs
        return keras.ops.sum(context**2) + keras.ops.sum(weights**2)

    grads = gradients(layer, [query, value, key], kwargs, reduce_fn)
    for g in grads:
        assert np.isfinite(g).all()


@pytest.mark.parametrize("chunk_size", [0, -1, 2.5, True, None])
def test_bad_chunk_size(chunk_size):
    with pytest.raises(
        ValueError,
        match=r"MonotonicChunkwiseAttention: `chunk_size` must be a positive "
        rf"integer. Received: chunk_size={chunk_size!r}",
    ):
        MonotonicChunkwiseAttention(chunk_size, units=3)


def test_monotonic_arguments_are_checked_with_this_class_name():
    with pytest.raises(
        ValueError,
        match=r"MonotonicChunkwiseAttention: `inference` must be one of",
    ):
        MonotonicChunkwiseAttention(2, units=3, inference="soft")
