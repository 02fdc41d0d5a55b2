"""MonotonicAttention: the battery, a float64 reference and its properties."""

from __future__ import annotations

import math

import keras
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention_zoo.layers.monotonic_attention import MonotonicAttention
from tests import numpy_reference as ref
from tests.helpers import gradients, to_numpy
from tests.layers.battery import AttentionLayerBattery

# ----------------------------------------------------- NumPy float64 reference


def energies(layer, query, key):
    """`e_{i,j} + r` `(B, Tq, Tv)` from the layer's weights, in float64."""
    return ref.layer_scores(layer._energy, query, key) + float(
        to_numpy(layer.score_bias)
    )


def expected_step(previous, energy, keep):
    """Raffel et al., eq. (9), with explicit loops over `j` and `k`.

    `alpha_j = p_j sum_{k<=j} previous_k prod_{l=k}^{j-1} (1 - p_l)`; a masked
    key has `p = 0`. `1 - p` is `sigmoid(-e)`, exact in float64 where
    `1 - sigmoid(e)` would round to 0.
    """
    p = np.where(keep, ref.sigmoid(energy), 0.0)
    one_minus_p = np.where(keep, ref.sigmoid(-energy), 1.0)
    alpha = np.zeros(len(energy))
    for j in range(len(energy)):
        total, product = 0.0, 1.0  # product = prod_{l=k}^{j-1} (1 - p_l)
        for k in range(j, -1, -1):
            total += previous[k] * product
            if k > 0:
                product *= one_minus_p[k - 1]
        alpha[j] = p[j] * total
    return alpha


def monotonic_reference(energy, value, query_mask, value_mask, mode):
    """Context and weights of the expected or the hard (algorithm 1) process."""
    energy = ref.f64(energy)
    batch, tq, tv = energy.shape
    query_mask = np.ones((batch, tq), bool) if query_mask is None else query_mask
    value_mask = np.ones((batch, tv), bool) if value_mask is None else value_mask
    weights = np.zeros(energy.shape)
    for b in range(batch):
        previous = np.eye(tv)[0]  # the attention starts at the first entry
        position, stopped = 0, False
        for i in range(tq):
            if not query_mask[b, i]:
                continue  # zero weights, state kept
            if mode == "expected":
                previous = expected_step(previous, energy[b, i], value_mask[b])
                weights[b, i] = previous
                continue
            if stopped:
                continue
            for j in range(position, tv):
                if value_mask[b, j] and ref.sigmoid(energy[b, i, j]) >= 0.5:
                    weights[b, i, j], position = 1.0, j
                    break
            else:
                stopped = True  # ran off the end: zero context from now on
    return weights @ ref.f64(value), weights


def naive_cumprod_division(previous, energy, clip):
    """The parallel form of tfa.seq2seq.monotonic_attention, NumPy float32.

    `alpha = p * cumprod(1 - p) * cumsum(previous / cumprod(1 - p))`, the
    exclusive cumulative product clipped to `[1e-10, 1]` (as tfa) or not.
    """
    energy = energy.astype("float32")
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        p = (1 / (1 + np.exp(-energy))).astype("float32")
        cumprod = np.concatenate(
            [np.ones(1, "float32"), np.cumprod(1 - p, dtype="float32")[:-1]]
        )
        divisor = np.clip(cumprod, 1e-10, 1) if clip else cumprod
        return p * cumprod * np.cumsum(previous.astype("float32") / divisor)


# --------------------------------------------------------------- the battery


def layer_reference(layer, query, value, key, query_mask, value_mask, training=False):
    """The battery's reference: hard attention at inference unless the layer's
    `inference` is "expected"; the expected one in training."""
    mode = "expected" if training or layer.inference == "expected" else "hard"
    return monotonic_reference(
        energies(layer, query, key), value, query_mask, value_mask, mode
    )


MECHANISMS = {
    # Hard attention at inference; noisy expected attention in training.
    "bahdanau": lambda **kw: MonotonicAttention(
        **{"units": 6, "sigmoid_noise": 1.0, **kw}
    ),
    "luong_expected": lambda **kw: MonotonicAttention(
        **{"score_mode": "luong", "inference": "expected", **kw}
    ),
}
BATTERY = AttentionLayerBattery(
    MECHANISMS, reference=layer_reference, weights_sum_to_one=False
)


# Checks of a monotonic battery, also run by test_monotonic_chunkwise_attention.py.


def check_training_matches_expected_reference(battery, name):
    layer = battery.built_layer(name, sigmoid_noise=0.0)
    query, value, key, query_mask, value_mask = battery.random_inputs(name, seed=7)
    context, weights = layer(
        query,
        value,
        key,
        query_mask=query_mask,
        value_mask=value_mask,
        training=True,
        return_attention_scores=True,
    )
    expected_context, expected_weights = battery.reference(
        layer, query, value, key, query_mask, value_mask, training=True
    )
    np.testing.assert_allclose(to_numpy(weights), expected_weights, atol=1e-6)
    np.testing.assert_allclose(to_numpy(context), expected_context, atol=1e-5)


def check_fully_masked_rows_in_both_modes(battery, name):
    """The battery's fully-masked check, in both the expected and the hard mode.

    The hard choice is piecewise constant: the query and the monotonic
    energy's weights get no gradient through it (None on TensorFlow and
    PyTorch, zeros on JAX), which the battery's version does not allow.
    """
    layer = battery.built_layer(name)
    query, value, key, _, value_mask = battery.random_inputs(name, seed=6)
    value_mask[1] = False

    def reduce_fn(outputs):
        context, weights = outputs
        return keras.ops.sum(context**2) + keras.ops.sum(weights**2)

    for training in (True, False):
        kwargs = {
            "value_mask": value_mask,
            "return_attention_scores": True,
            "training": training,
        }
        context, weights = layer(query, value, key, **kwargs)
        assert (to_numpy(weights)[1] == 0).all()
        assert (to_numpy(context)[1] == 0).all()
        grads = gradients(layer, [query, value, key], kwargs, reduce_fn)
        hard = not training and layer.inference == "hard"
        for i, g in enumerate(grads):
            if g is None:
                assert hard and i != 1, i  # the value always has one
                continue
            assert np.isfinite(g).all()
        assert (grads[1][1] == 0).all()
        if grads[2] is not None:
            assert (grads[2][1] == 0).all()


@pytest.mark.parametrize("name", list(MECHANISMS))
class TestMonotonicAttention:
    """The layer battery's checks (tests/layers/battery.py), per mechanism, with
    the monotonic attention's own two above."""

    def test_matches_numpy_float64_reference(self, name):
        BATTERY.check_matches_numpy_float64_reference(name)

    def test_training_matches_expected_reference(self, name):
        check_training_matches_expected_reference(BATTERY, name)

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
        check_fully_masked_rows_in_both_modes(BATTERY, name)

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


# ------------------------------------------------------- by hand, properties


def luong_layer(**kwargs):
    """A Luong energy `e = q k + r` for Dq = Dk = 1 (W = 1, r = 0)."""
    layer = MonotonicAttention(score_mode="luong", normalize=False, **kwargs)
    layer(np.zeros((1, 1, 1), "float32"), np.zeros((1, 2, 1), "float32"))
    layer._energy._key_dense.kernel.assign(np.ones((1, 1), "float32"))
    layer.score_bias.assign(0.0)
    return layer


def test_two_keys_by_hand():
    # e_{i,j} = q_i k_j with k = (-ln 3, ln 3): q = 1 gives p = (1/4, 3/4),
    # q = -1 gives p = (3/4, 1/4).
    layer = luong_layer()
    key = np.array([[[-math.log(3)], [math.log(3)]]], "float32")  # (1, 2, 1)
    value = np.array([[[1.0], [3.0]]], "float32")  # (1, 2, 1)
    query = np.array([[[1.0], [-1.0], [1.0]]], "float32")  # (1, 3, 1)
    # Expected, from alpha_0 = (1, 0):
    # step 1, p = (1/4, 3/4): (1/4, 3/4 * (1 * 3/4 + 0)) = (1/4, 9/16)
    # step 2, p = (3/4, 1/4): (3/4 * 1/4, 1/4 * (1/4 * 1/4 + 9/16)) = (3/16, 5/32)
    # step 3, p = (1/4, 3/4): (1/4 * 3/16, 3/4 * (3/16 * 3/4 + 5/32)) = (3/64, 57/256)
    expected = [[1 / 4, 9 / 16], [3 / 16, 5 / 32], [3 / 64, 57 / 256]]
    context, weights = layer(
        query, value, key, training=True, return_attention_scores=True
    )
    np.testing.assert_allclose(to_numpy(weights)[0], expected, rtol=1e-6)
    np.testing.assert_allclose(
        to_numpy(context)[0, :, 0], np.array(expected) @ [1.0, 3.0], rtol=1e-6
    )
    # Hard: step 1 passes entry 0 (p = 1/4) and stops at entry 1 (p = 3/4).
    # Step 2 starts at entry 1, whose p = 1/4 < 1/2: nothing is chosen (entry
    # 0, p = 3/4, lies behind), so steps 2 and 3 have zero weights.
    context, weights = layer(query, value, key, return_attention_scores=True)
    np.testing.assert_array_equal(to_numpy(weights)[0], [[0, 1], [0, 0], [0, 0]])
    np.testing.assert_array_equal(to_numpy(context)[0, :, 0], [3, 0, 0])
    # Staying is allowed: the entry attended at step i may be chosen again.
    _, weights = layer(query[:, [0, 0]], value, key, return_attention_scores=True)
    np.testing.assert_array_equal(to_numpy(weights)[0], [[0, 1], [0, 1]])


def property_layer():
    layer = MonotonicAttention(units=5)
    rng = np.random.default_rng(0)
    query = rng.normal(size=(2, 3, 4)).astype("float32")
    layer(query, rng.normal(size=(2, 6, 3)).astype("float32"))
    return layer


def random_case(rng, batch, tq, tv, scale, dq=4, dk=3):
    query = scale * rng.normal(size=(batch, tq, dq)).astype("float32")
    key = scale * rng.normal(size=(batch, tv, dk)).astype("float32")
    value = rng.normal(size=(batch, tv, 2)).astype("float32")
    value_mask = rng.random((batch, tv)) < 0.7
    query_mask = rng.random((batch, tq)) < 0.8
    return query, value, key, query_mask, value_mask


PROPERTY_SETTINGS = dict(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
PROPERTY_CASES = dict(
    tv=st.sampled_from([1, 4, 9]),
    scale=st.sampled_from([0.3, 1.0, 5.0]),
    bias=st.floats(-3.0, 3.0),
    seed=st.integers(0, 2**16),
)


def test_hard_attention_never_moves_backwards():
    layer = property_layer()

    @settings(**PROPERTY_SETTINGS)
    @given(**PROPERTY_CASES)
    def check(tv, scale, bias, seed):
        rng = np.random.default_rng(seed)
        layer.score_bias.assign(bias)
        query, value, key, query_mask, value_mask = random_case(rng, 2, 6, tv, scale)
        _, weights = layer(
            query,
            value,
            key,
            query_mask=query_mask,
            value_mask=value_mask,
            return_attention_scores=True,
        )
        weights = to_numpy(weights)
        assert np.isin(weights, [0.0, 1.0]).all()
        assert (weights.sum(-1) <= 1).all()
        assert (
            weights[np.broadcast_to(~value_mask[:, None], weights.shape)] == 0
        ).all()
        for b in range(weights.shape[0]):
            attended = weights[b].sum(-1) == 1
            positions = weights[b].argmax(-1)[attended]
            assert (np.diff(positions) >= 0).all(), positions
            # Once an unmasked step attends nothing, no later step attends.
            stopped = np.flatnonzero(query_mask[b] & ~attended)
            if stopped.size:
                assert not attended[stopped[0] :].any()

    check()


def test_expected_alignments_sum_to_at_most_one():
    layer = property_layer()

    @settings(**PROPERTY_SETTINGS)
    @given(**PROPERTY_CASES)
    def check(tv, scale, bias, seed):
        rng = np.random.default_rng(seed)
        layer.score_bias.assign(bias)
        query, value, key, query_mask, value_mask = random_case(rng, 2, 6, tv, scale)
        _, weights = layer(
            query,
            value,
            key,
            query_mask=query_mask,
            value_mask=value_mask,
            training=True,
            return_attention_scores=True,
        )
        weights = to_numpy(weights)
        assert np.isfinite(weights).all() and (weights >= 0).all()
        sums = weights.sum(-1)  # (B, Tq)
        assert (sums <= 1 + 1e-6).all(), sums
        # Mass only runs off the end: the sums never grow from step to step.
        for b in range(sums.shape[0]):
            assert (np.diff(sums[b][query_mask[b]]) <= 1e-6).all(), sums[b]

    check()


def long_memory_case():
    """200 keys in 5 segments of 40; energies about +7 on the segments a step
    selects and -33 elsewhere, give or take up to 25, so `1 - p` rounds to 0
    in float32 on some keys. Step 0 selects segment 1; step i >= 1 selects
    segment i + 1 ahead of the attention and segment 0 behind it.
    """
    rng = np.random.default_rng(0)
    segment = np.arange(200) // 40  # (Tv,)
    key = 40 * np.eye(5)[segment] + 5 * rng.normal(size=(2, 200, 5))  # (B, Tv, 5)
    query = np.stack([np.eye(5)[1]] + [np.eye(5)[0] + np.eye(5)[i] for i in (2, 3, 4)])
    query = np.stack([query, query])  # (B, Tq, 5)
    value = rng.normal(size=(2, 200, 3))
    query, key, value = (x.astype("float32") for x in (query, key, value))
    layer = MonotonicAttention(score_mode="luong", normalize=False)
    layer(query, value, key)
    layer._energy._key_dense.kernel.assign(np.eye(5, dtype="float32"))
    layer.score_bias.assign(-33.0)
    return layer, query, value, key


def test_expected_alignment_is_exact_for_long_memories():
    layer, query, value, key = long_memory_case()
    energy = energies(layer, query, key)
    assert (energy > 17).sum() > 20 and energy.min() < -50
    context, weights = layer(
        query, value, key, training=True, return_attention_scores=True
    )
    context, weights = to_numpy(context), to_numpy(weights)
    assert np.isfinite(weights).all() and np.isfinite(context).all()
    expected_context, expected = monotonic_reference(
        energy, value, None, None, "expected"
    )
    np.testing.assert_allclose(weights, expected, atol=1e-6)
    np.testing.assert_allclose(context, expected_context, atol=1e-5)
    # The attention travels along the memory, one segment a step.
    np.testing.assert_array_equal(expected.argmax(-1) // 40, [[1, 2, 3, 4]] * 2)
    # The cumulative-product division on the same steps fails in float32:
    # NaN unclipped (0 / 0), wrong weights clipped.
    clipped_error, any_nan = 0.0, False
    for b in range(2):
        previous = np.eye(energy.shape[-1])[0]
        for i in range(energy.shape[1]):
            clipped = naive_cumprod_division(previous, energy[b, i], clip=True)
            unclipped = naive_cumprod_division(previous, energy[b, i], clip=False)
            clipped_error = max(clipped_error, np.abs(clipped - expected[b, i]).max())
            any_nan |= bool(np.isnan(unclipped).any())
            previous = expected[b, i]
    assert any_nan
    assert clipped_error > 0.5


def test_expected_alignment_gradients_are_finite_for_long_memories():
    layer, query, value, key = long_memory_case()
    value_mask = np.ones(value.shape[:2], bool)
    value_mask[1, 150:] = False

    def reduce_fn(outputs):
        context, weights = outputs
        return keras.ops.sum(context**2) + keras.ops.sum(weights**2)

    grads = gradients(
        layer,
        [query, value, key],
        {"value_mask": value_mask, "training": True, "return_attention_scores": True},
        reduce_fn,
    )
    assert len(grads) == 3 + len(layer.trainable_variables)
    for g in grads:
        assert np.isfinite(g).all()
    assert np.abs(grads[0]).max() > 0  # the query does get a gradient
    assert (grads[1][1, 150:] == 0).all() and (grads[2][1, 150:] == 0).all()


def test_sigmoid_noise_is_training_only_and_seeded():
    rng = np.random.default_rng(0)
    query = rng.normal(size=(2, 3, 4)).astype("float32")
    value = rng.normal(size=(2, 6, 3)).astype("float32")

    def make(**kwargs):
        layer = MonotonicAttention(units=4, inference="expected", **kwargs)
        layer(query, value)
        return layer

    quiet = make()
    noisy, twin, other = (make(sigmoid_noise=1.0, seed=s) for s in (5, 5, 6))
    for layer in (noisy, twin, other):
        layer.set_weights(quiet.get_weights())

    def weights(layer, training):
        return to_numpy(
            layer(query, value, training=training, return_attention_scores=True)[1]
        )

    # No noise at inference: the noisy layer equals the quiet one.
    np.testing.assert_array_equal(weights(noisy, False), weights(quiet, False))
    assert np.array_equal(weights(quiet, True), weights(quiet, False))
    # In training, noise that the seed determines.
    noisy_weights = weights(noisy, True)
    assert not np.allclose(noisy_weights, weights(quiet, True), atol=1e-3)
    np.testing.assert_array_equal(noisy_weights, weights(twin, True))
    assert not np.allclose(noisy_weights, weights(other, True), atol=1e-3)
    # A new draw at every call.
    assert not np.allclose(noisy_weights, weights(noisy, True), atol=1e-3)


def test_initial_state_is_one_hot_at_the_first_entry_and_symbolic():
    layer = MonotonicAttention(units=3)
    (state,) = layer.get_initial_state(np.zeros((2, 4, 5), "float16"))
    assert keras.backend.standardize_dtype(state.dtype) == "float32"
    np.testing.assert_array_equal(to_numpy(state), [[1, 0, 0, 0]] * 2)
    (symbolic,) = layer.get_initial_state(keras.KerasTensor((None, None, 5)))
    assert tuple(symbolic.shape) == (None, None)


def test_score_bias_starts_at_score_bias_init():
    layer = MonotonicAttention(units=3, score_bias_init=-4.0)
    layer(np.zeros((1, 2, 3), "float32"), np.zeros((1, 4, 3), "float32"))
    assert float(to_numpy(layer.score_bias)) == -4.0
    assert MonotonicAttention(units=3).score_bias_init == -1.0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        pytest.param(
            dict(units=3, score_mode="dot"),
            r"`score_mode` must be one of \('bahdanau', 'luong'\). "
            r"Received: score_mode='dot'",
            id="score_mode",
        ),
        pytest.param(
            dict(),
            r"score_mode='bahdanau' needs `units`. Received: units=None",
            id="bahdanau_without_units",
        ),
        pytest.param(
            dict(units=4, score_mode="luong"),
            r"`units` is only used by score_mode='bahdanau'. Received: units=4",
            id="units_with_luong",
        ),
        *[
            pytest.param(
                dict(units=units),
                rf"`units` must be a positive integer. Received: units={units!r}",
                id=f"units_{units!r}",
            )
            for units in (0, -2, 2.5, True)
        ],
        *[
            pytest.param(
                dict(units=3, sigmoid_noise=noise),
                rf"`sigmoid_noise` must be a finite float >= 0. "
                rf"Received: sigmoid_noise={noise!r}",
                id=f"sigmoid_noise_{noise!r}",
            )
            for noise in (-0.5, float("inf"), "1")
        ],
        *[
            pytest.param(
                dict(units=3, score_bias_init=bias),
                rf"`score_bias_init` must be a finite float. "
                rf"Received: score_bias_init={bias!r}",
                id=f"score_bias_init_{bias!r}",
            )
            for bias in (float("nan"), None, "low")
        ],
        pytest.param(
            dict(units=3, inference="soft"),
            r"`inference` must be one of \('hard', 'expected'\). "
            r"Received: inference='soft'",
            id="inference",
        ),
        pytest.param(
            dict(units=3, dropout=1.0),
            r"`dropout` must be a float in \[0, 1\). Received: dropout=1.0",
            id="dropout",
        ),
    ],
)
def test_bad_constructor_arguments(kwargs, message):
    with pytest.raises(ValueError, match=f"MonotonicAttention: {message}"):
        MonotonicAttention(**kwargs)


def test_numpy_scalars_are_accepted_and_stored_as_floats():
    layer = MonotonicAttention(
        units=3, sigmoid_noise=np.float32(0.5), score_bias_init=np.int64(-2)
    )
    config = layer.get_config()
    assert type(config["sigmoid_noise"]) is float and config["sigmoid_noise"] == 0.5
    assert type(config["score_bias_init"]) is float
    assert config["score_bias_init"] == -2.0


@pytest.mark.parametrize(
    "inference, training",
    [("hard", False), ("expected", False), ("hard", True)],
    ids=["hard", "expected", "training"],
)
def test_nan_query_gives_nan_attention_not_zero(inference, training):
    # `p >= 0.5` is False for a NaN energy, which made hard inference read a
    # NaN query as "attend nowhere" (zero weights and context).
    rng = np.random.default_rng(0)
    layer = MonotonicAttention(4, inference=inference)
    query = rng.normal(size=(2, 3, 4)).astype("float32")
    value = rng.normal(size=(2, 5, 4)).astype("float32")
    query[0, 1, 0] = np.nan
    context, weights = layer(
        query, value, return_attention_scores=True, training=training
    )
    weights, context = to_numpy(weights), to_numpy(context)
    # The NaN step and the steps after it (its alignment is their state).
    assert np.isnan(weights[0, 1:]).all() and np.isnan(context[0, 1:]).all()
    assert np.isfinite(weights[0, 0]).all() and np.isfinite(weights[1]).all()
    state = layer.get_initial_state(value)
    _, step_weights, new_state = layer.step(
        query[:, 1], value, layer.project_key(value), state
    )
    assert np.isnan(to_numpy(step_weights)[0]).all()
    assert np.isnan(to_numpy(new_state[0])[0]).all()
    assert np.isfinite(to_numpy(step_weights)[1]).all()
