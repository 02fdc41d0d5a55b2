"""Luong local attention (local-m, local-p): the battery and the paper's properties."""

from __future__ import annotations

import math

import keras
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention_zoo.layers.base_attention import BaseAttention
from attention_zoo.layers.local_attention import LocalAttention
from attention_zoo.layers.luong_attention import LuongAttention
from tests import numpy_reference as ref
from tests.helpers import to_numpy
from tests.layers.battery import DK, DQ, DV, AttentionLayerBattery

# --------------------------------------------------- NumPy float64 reference


def w64(variable):
    return to_numpy(variable).astype(np.float64)


def reference_scores(layer, query, key):
    """Luong's content scores (eq. 8) from the layer's weights."""
    mode = layer.score_mode
    return ref.luong_scores(
        mode,
        query,
        key,
        kernel=w64(layer._key_dense.kernel) if mode in ("general", "concat") else None,
        query_kernel=w64(layer._query_dense.kernel) if mode == "concat" else None,
        v=w64(layer.attention_v) if mode == "concat" else None,
        scale=w64(layer.scale) if layer.use_scale else None,
    )


def masks_or_ones(scores, query_mask, value_mask):
    b, tq, tv = scores.shape
    query_mask = np.ones((b, tq), bool) if query_mask is None else query_mask
    value_mask = np.ones((b, tv), bool) if value_mask is None else value_mask
    return np.asarray(query_mask, bool), np.asarray(value_mask, bool)


def softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()


def local_m_reference(layer, query, value, key, query_mask, value_mask):
    """Softmax of the scores over `[p_t - D, p_t + D]`, `p_t = t`, step by step."""
    scores = reference_scores(layer, query, key)
    query_mask, value_mask = masks_or_ones(scores, query_mask, value_mask)
    weights = np.zeros_like(scores)
    for b in range(scores.shape[0]):
        keys = np.flatnonzero(value_mask[b])
        t = 0  # the decoder step: masked queries are not steps
        for i in range(scores.shape[1]):
            if not query_mask[b, i]:
                continue
            if keys.size:
                # t moved to the nearest key that exists (the earlier on a tie).
                p = min(keys, key=lambda s, t=t: (abs(s - t), s))
                window = [s for s in keys if abs(s - p) <= layer.window]
                weights[b, i, window] = softmax(scores[b, i, window])
            t += 1
    return weights @ ref.f64(value), weights


def source_lengths(value_mask):
    """S: positions up to and including the last unmasked key of each row."""
    return np.array(
        [np.flatnonzero(row)[-1] + 1 if row.any() else 0 for row in value_mask],
        np.float64,
    )


def local_p_positions(layer, query, value_mask):
    """Eq. (9): p_t = S sigmoid(v_p^T tanh(W_p h_t)), `(B, Tq)`."""
    hidden = np.tanh(ref.f64(query) @ w64(layer._predictive_dense.kernel))
    return source_lengths(value_mask)[:, None] * ref.sigmoid(
        hidden @ w64(layer.predictive_v)
    )


def local_p_reference(layer, query, value, key, query_mask, value_mask):
    """Eq. (10): softmax over the window times a Gaussian, sigma = D / 2."""
    scores = reference_scores(layer, query, key)
    query_mask, value_mask = masks_or_ones(scores, query_mask, value_mask)
    positions = local_p_positions(layer, query, value_mask)
    sigma = layer.window / 2
    weights = np.zeros_like(scores)
    for b in range(scores.shape[0]):
        for i in range(scores.shape[1]):
            p = positions[b, i]
            window = [
                s
                for s in range(scores.shape[2])
                if value_mask[b, s] and abs(s - p) <= layer.window
            ]
            if not query_mask[b, i] or not window:
                continue
            gaussian = np.exp(-((np.array(window) - p) ** 2) / (2 * sigma**2))
            weights[b, i, window] = softmax(scores[b, i, window]) * gaussian
    return weights @ ref.f64(value), weights


# ---------------------------------------------------------------- batteries


LOCAL_M = AttentionLayerBattery(
    {
        "local_m_dot_scaled": lambda **kw: LocalAttention(
            "local-m", window=1, score_mode="dot", use_scale=True, **kw
        ),
    },
    reference=local_m_reference,
)
LOCAL_P = AttentionLayerBattery(
    {
        "local_p_concat": lambda **kw: LocalAttention(
            "local-p", window=2, score_mode="concat", units=7, predictive_units=5, **kw
        ),
    },
    reference=local_p_reference,
    weights_sum_to_one=False,  # the Gaussian is not renormalised (eq. 10)
)
# Each mechanism's battery, by name.
BATTERIES = {
    name: battery for battery in (LOCAL_M, LOCAL_P) for name in battery.mechanisms
}


@pytest.mark.parametrize("name", list(BATTERIES))
class TestLocalAttention:
    """The layer battery's checks (tests/layers/battery.py), per mechanism."""

    def test_matches_numpy_float64_reference(self, name):
        BATTERIES[name].check_matches_numpy_float64_reference(name)

    def test_float64_layer_matches_the_reference_in_float64(self, name):
        BATTERIES[name].check_float64_layer_matches_the_reference_in_float64(name)

    @pytest.mark.parametrize("policy", ["mixed_float16", "mixed_bfloat16"])
    def test_mixed_precision(self, name, policy):
        BATTERIES[name].check_mixed_precision(name, policy)

    def test_weights_are_a_distribution_over_unmasked_keys(self, name):
        BATTERIES[name].check_weights_are_a_distribution_over_unmasked_keys(name)

    def test_masked_query_rows_have_zero_context(self, name):
        BATTERIES[name].check_masked_query_rows_have_zero_context(name)

    def test_fully_masked_rows_give_zeros_and_finite_gradients(self, name):
        BATTERIES[name].check_fully_masked_rows_give_zeros_and_finite_gradients(name)

    def test_padding_with_masked_keys_never_changes_outputs(self, name):
        BATTERIES[name].check_padding_with_masked_keys_never_changes_outputs(name)

    def test_query_without_steps_gives_empty_outputs(self, name):
        BATTERIES[name].check_query_without_steps_gives_empty_outputs(name)

    def test_empty_memory_gives_zero_weights_and_context(self, name):
        BATTERIES[name].check_empty_memory_gives_zero_weights_and_context(name)

    def test_single_step_query_equals_one_step_sequence(self, name):
        BATTERIES[name].check_single_step_query_equals_one_step_sequence(name)

    def test_step_with_memory_projected_once_matches_call(self, name):
        BATTERIES[name].check_step_with_memory_projected_once_matches_call(name)

    def test_step_rows_sharing_a_memory_keep_their_own_state(self, name):
        BATTERIES[name].check_step_rows_sharing_a_memory_keep_their_own_state(name)

    def test_step_needs_the_state_of_get_initial_state(self, name):
        BATTERIES[name].check_step_needs_the_state_of_get_initial_state(name)

    def test_value_none_is_refused_by_name(self, name):
        BATTERIES[name].check_value_none_is_refused_by_name(name)

    def test_attend_and_step_check_their_inputs_like_a_call(self, name):
        BATTERIES[name].check_attend_and_step_check_their_inputs_like_a_call(name)

    def test_feature_sizes_other_than_the_built_ones_are_refused(self, name):
        BATTERIES[name].check_feature_sizes_other_than_the_built_ones_are_refused(name)

    def test_get_config_round_trip(self, name):
        BATTERIES[name].check_get_config_round_trip(name)

    def test_keras_implicit_mask_is_honoured(self, name):
        BATTERIES[name].check_keras_implicit_mask_is_honoured(name)

    def test_keras_save_and_load_give_identical_outputs(self, name, tmp_path):
        BATTERIES[name].check_keras_save_and_load_give_identical_outputs(name, tmp_path)

    def test_symbolic_shapes_in_functional_model(self, name):
        BATTERIES[name].check_symbolic_shapes_in_functional_model(name)

    def test_dropout_is_seeded_and_training_only(self, name):
        BATTERIES[name].check_dropout_is_seeded_and_training_only(name)

    def test_fit_one_epoch_in_functional_model(self, name):
        BATTERIES[name].check_fit_one_epoch_in_functional_model(name)


# ------------------------------------------------------------ by hand


def test_local_m_three_keys_by_hand():
    """Scores 0, ln 2, ln 3 (exponentials 1, 2, 3), window D = 1."""
    layer = LocalAttention("local-m", window=1, score_mode="dot")
    query = np.ones((1, 4, 1), "float32")  # four steps, (1, 4, 1)
    key = np.log(np.array([[[1.0], [2.0], [3.0]]], "float32"))  # (1, 3, 1)
    value = np.eye(3, dtype="float32")[None]  # context = weights
    context, weights = layer(query, value, key, return_attention_scores=True)
    expected = [
        [1 / 3, 2 / 3, 0],  # t = 0: keys 0, 1
        [1 / 6, 2 / 6, 3 / 6],  # t = 1: keys 0, 1, 2
        [0, 2 / 5, 3 / 5],  # t = 2: keys 1, 2
        [0, 2 / 5, 3 / 5],  # t = 3: past the end, p_t clipped to key 2
    ]
    np.testing.assert_allclose(to_numpy(weights)[0], expected, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(to_numpy(context)[0], expected, rtol=1e-6, atol=1e-7)
    # Key 2 is padding: from t = 1 on, p_t is the last key, 1.
    _, weights = layer(
        query,
        value,
        key,
        value_mask=np.array([[True, True, False]]),
        return_attention_scores=True,
    )
    expected = [[1 / 3, 2 / 3, 0]] * 4
    np.testing.assert_allclose(to_numpy(weights)[0], expected, rtol=1e-6, atol=1e-7)


def test_local_p_two_keys_by_hand():
    """v_p = 0 puts p_t at S / 2; scores 0 and ln 3; D = 1, so sigma = 1/2."""
    layer = LocalAttention("local-p", window=1, score_mode="dot")
    query = np.array([[np.log(3.0), 0.0]], "float32")  # one step, (1, 2)
    value = np.array([[[0.0, 0.0], [1.0, 0.0]]], "float32")  # (1, 2, 2)
    layer(query, value)
    layer.predictive_v.assign(np.zeros(layer.predictive_v.shape, "float32"))
    identity = np.eye(2, dtype="float32")[None]  # context = weights
    context, weights = layer(query, identity, value, return_attention_scores=True)
    # p = 2 / 2 = 1: both keys in the window; align (1/4, 3/4) times the
    # Gaussian exp(-(s - 1)^2 / (2 * 1/4)) = (e^-2, 1).
    expected = [math.exp(-2) / 4, 3 / 4]
    np.testing.assert_allclose(to_numpy(weights)[0], expected, rtol=1e-6)
    np.testing.assert_allclose(to_numpy(context)[0], expected, rtol=1e-6)
    assert float(to_numpy(layer.aligned_position(query, value))[0]) == 1.0
    # Key 1 masked: S = 1, p = 1/2, align (1, 0), Gaussian exp(-1/2) at key 0.
    mask = np.array([[True, False]])
    _, weights = layer(
        query, identity, value, value_mask=mask, return_attention_scores=True
    )
    np.testing.assert_allclose(to_numpy(weights)[0], [math.exp(-0.5), 0], rtol=1e-6)
    assert float(to_numpy(layer.aligned_position(query, value, mask))[0]) == 0.5


# ------------------------------------------------------------ properties


def test_local_p_window_over_whole_source_is_global_attention_times_gaussian():
    """With D >= Tv, align is global attention (Luong eq. 10 with eq. 7)."""
    rng = np.random.default_rng(0)
    query = rng.normal(size=(3, 4, DQ)).astype("float32")
    value = rng.normal(size=(3, 6, DV)).astype("float32")
    key = rng.normal(size=(3, 6, DK)).astype("float32")
    value_mask = rng.random((3, 6)) < 0.7
    value_mask[:, 0] = True
    value_mask[1, 3:] = False  # padding: S = 3 for row 1
    query_mask = rng.random((3, 4)) < 0.8
    local = LocalAttention("local-p", window=6, score_mode="general", use_scale=True)
    local(query, value, key)
    local.scale.assign(1.7)
    local.predictive_v.assign(rng.normal(size=local.predictive_v.shape) * 3)
    global_ = LuongAttention("general", use_scale=True)
    global_(query, value, key)
    global_._key_dense.kernel.assign(local._key_dense.kernel)
    global_.scale.assign(local.scale)
    kwargs = dict(
        query_mask=query_mask, value_mask=value_mask, return_attention_scores=True
    )
    context, weights = local(query, value, key, **kwargs)
    _, global_weights = global_(query, value, key, **kwargs)
    p = to_numpy(local.aligned_position(query, value, value_mask))[..., None]
    sigma = local.window / 2
    gaussian = np.exp(-((np.arange(6) - p) ** 2) / (2 * sigma**2))  # (B, Tq, Tv)
    expected = to_numpy(global_weights) * gaussian
    np.testing.assert_allclose(to_numpy(weights), expected, atol=1e-6, rtol=1e-5)
    np.testing.assert_allclose(to_numpy(context), expected @ value, atol=1e-5)


def test_local_m_step_t_attends_only_inside_its_window():
    """Step t attends to exactly the keys in [p - D, p + D], p = min(t, S - 1)."""
    layers = {
        d: LocalAttention("local-m", window=d, score_mode="general") for d in (1, 2)
    }

    @settings(
        max_examples=40,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(
        window=st.sampled_from([1, 2]),
        tq=st.sampled_from([3, 8]),
        tv=st.sampled_from([1, 4, 6]),
        seed=st.integers(0, 2**16),
    )
    def check(window, tq, tv, seed):
        rng = np.random.default_rng(seed)
        query = rng.normal(size=(2, tq, DQ)).astype("float32")
        value = rng.normal(size=(2, tv, DV)).astype("float32")
        lengths = rng.integers(0, tv + 1, size=2)  # padding at the end
        value_mask = np.arange(tv)[None, :] < lengths[:, None]
        _, weights = layers[window](
            query, value, value_mask=value_mask, return_attention_scores=True
        )
        weights = to_numpy(weights)
        for b, length in enumerate(lengths):
            for t in range(tq):
                p = min(t, length - 1)
                inside = (np.abs(np.arange(tv) - p) <= window) & value_mask[b]
                assert (weights[b, t, ~inside] == 0).all()
                assert (weights[b, t, inside] > 0).all()
                np.testing.assert_allclose(
                    weights[b, t].sum(), 1.0 if length else 0.0, atol=1e-6
                )

    check()


def test_local_m_parallel_call_equals_the_base_class_scan():
    """All steps at once, from any state and with masked steps, equal `step`."""
    layer = LocalAttention("local-m", window=1, score_mode="general")
    rng = np.random.default_rng(2)
    query = rng.normal(size=(3, 5, DQ)).astype("float32")
    value = rng.normal(size=(3, 6, DV)).astype("float32")
    value_mask = rng.random((3, 6)) < 0.7
    query_mask = rng.random((3, 5)) < 0.7
    layer(query, value)
    projected = layer.project_key(value)
    state = [np.array([[0], [2], [7]], "int32")]
    got = layer.attend_sequence(query, value, projected, state, query_mask, value_mask)
    expected = BaseAttention.attend_sequence(
        layer, query, value, projected, state, query_mask, value_mask
    )
    for a, b in zip(got[:2], expected[:2]):
        np.testing.assert_allclose(to_numpy(a), to_numpy(b), atol=1e-6)
    np.testing.assert_array_equal(to_numpy(got[2][0]), to_numpy(expected[2][0]))
    np.testing.assert_array_equal(
        to_numpy(got[2][0])[:, 0], [0, 2, 7] + query_mask.sum(1)
    )


def test_local_p_aligned_position_lies_in_0_to_source_length():
    layer = LocalAttention("local-p", window=2, score_mode="dot")
    layer(np.zeros((1, 1, DK), "float32"), np.zeros((1, 1, DK), "float32"))

    @settings(max_examples=30, deadline=None, derandomize=True)
    @given(scale=st.sampled_from([0.1, 1.0, 100.0]), seed=st.integers(0, 2**16))
    def check(scale, seed):
        rng = np.random.default_rng(seed)
        query = (scale * rng.normal(size=(3, 4, DK))).astype("float32")
        value = np.zeros((3, 6, DK), "float32")
        value_mask = rng.random((3, 6)) < 0.6
        value_mask[0] = False  # no key: S = 0
        p = to_numpy(layer.aligned_position(query, value, value_mask))
        s = source_lengths(value_mask)[:, None]
        assert p.shape == (3, 4)
        assert ((p >= 0) & (p <= s)).all(), (p, s)
        assert (p[0] == 0).all()
        # Without a mask S is the memory length.
        p = to_numpy(layer.aligned_position(query[:, 0], value))
        assert p.shape == (3,) and ((p >= 0) & (p <= 6)).all()

    check()


def test_local_m_initial_state_is_a_step_counter_also_symbolically():
    layer = LocalAttention("local-m", window=3)
    (state,) = layer.get_initial_state(np.zeros((2, 5, 3), "float32"))
    assert keras.backend.standardize_dtype(state.dtype) == "int32"
    np.testing.assert_array_equal(to_numpy(state), [[0], [0]])
    (symbolic,) = layer.get_initial_state(keras.Input((5, 3)))
    assert tuple(symbolic.shape) == (None, 1)
    assert layer.num_states == 1
    assert LocalAttention("local-p").num_states == 0
    assert LocalAttention("local-p").get_initial_state(np.zeros((2, 5, 3))) == []


def test_config_and_predictive_units_default_to_the_query_size():
    layer = LocalAttention("local-p", window=4, score_mode="dot")
    config = layer.get_config()
    assert (config["mode"], config["window"], config["predictive_units"]) == (
        "local-p",
        4,
        None,
    )
    assert "max_length" not in config
    layer(np.zeros((1, 2, 3), "float32"), np.zeros((1, 5, 3), "float32"))
    assert tuple(layer._predictive_dense.kernel.shape) == (3, 3)
    assert tuple(layer.predictive_v.shape) == (3,)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        pytest.param(
            dict(mode="local"),
            r"`mode` must be one of \('local-m', 'local-p'\). Received: mode='local'",
            id="unknown_mode",
        ),
        pytest.param(
            dict(window=0),
            r"`window` must be a positive integer. Received: window=0",
            id="window_zero",
        ),
        pytest.param(
            dict(window=2.5),
            r"`window` must be a positive integer. Received: window=2.5",
            id="window_float",
        ),
        pytest.param(
            dict(window=True),
            r"`window` must be a positive integer. Received: window=True",
            id="window_bool",
        ),
        pytest.param(
            dict(window=None),
            r"`window` must be a positive integer. Received: window=None",
            id="window_none",
        ),
        pytest.param(
            dict(score_mode="location"),
            r"`score_mode` must be one of \('dot', 'general', 'concat'\).*"
            r"Received: score_mode='location'",
            id="location_score",
        ),
        pytest.param(
            dict(score_mode="cosine"),
            r"Received: score_mode='cosine'",
            id="unknown_score_mode",
        ),
        pytest.param(
            dict(score_mode="concat"),
            r"needs `units`. Received: units=None",
            id="concat_without_units",
        ),
        pytest.param(
            dict(score_mode="concat", units=-1),
            r"`units` must be a positive integer. Received: units=-1",
            id="concat_units_negative",
        ),
        pytest.param(
            dict(score_mode="general", units=4),
            r"`units` is only used by score_mode='concat'. Received: units=4",
            id="units_with_general",
        ),
        pytest.param(
            dict(predictive_units=0),
            r"`predictive_units` must be a positive integer. "
            r"Received: predictive_units=0",
            id="predictive_units_zero",
        ),
        pytest.param(
            dict(mode="local-m", predictive_units=3),
            r"`predictive_units` is only used by mode='local-p'. "
            r"Received: predictive_units=3",
            id="predictive_units_with_local_m",
        ),
        pytest.param(
            dict(dropout=1.0),
            r"`dropout` must be a float in \[0, 1\). Received: dropout=1.0",
            id="dropout_one",
        ),
    ],
)
def test_bad_arguments_raise_clear_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        LocalAttention(**kwargs)


def test_aligned_position_is_local_p_only():
    layer = LocalAttention("local-m", window=2)
    with pytest.raises(ValueError, match="Received: mode='local-m'"):
        layer.aligned_position(np.zeros((1, 3), "float32"), np.zeros((1, 4, 3)))
