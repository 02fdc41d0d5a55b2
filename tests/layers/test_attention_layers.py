"""The core mechanisms (Bahdanau, Luong's four scores) through the battery."""

from __future__ import annotations

import pytest

from attention_zoo.layers import BahdanauAttention, LuongAttention
from tests.layers.battery import MAX_LENGTH, AttentionLayerBattery

MECHANISMS = {
    "bahdanau": lambda **kw: BahdanauAttention(units=6, **kw),
    "bahdanau_normalize": lambda **kw: BahdanauAttention(units=6, normalize=True, **kw),
    "luong_dot": lambda **kw: LuongAttention(score_mode="dot", **kw),
    "luong_dot_scaled": lambda **kw: LuongAttention("dot", use_scale=True, **kw),
    "luong_general": lambda **kw: LuongAttention(score_mode="general", **kw),
    "luong_concat": lambda **kw: LuongAttention(score_mode="concat", units=7, **kw),
    "luong_location": lambda **kw: LuongAttention(
        score_mode="location", max_length=MAX_LENGTH, use_scale=True, **kw
    ),
}
BATTERY = AttentionLayerBattery(MECHANISMS)


@pytest.mark.parametrize("name", list(MECHANISMS))
class TestCoreMechanisms:
    """Every check of the layer battery (tests/layers/battery.py), per mechanism."""

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


def test_numpy_integer_arguments_give_python_ints_in_the_config():
    import json

    import keras
    import numpy as np

    from attention_zoo.decoders import AttentionRNNDecoder
    from attention_zoo.encoders import BidirectionalRNNEncoder
    from attention_zoo.layers import (
        LocalAttention,
        LocationSensitiveAttention,
        MonotonicAttention,
        MonotonicChunkwiseAttention,
    )

    n = np.int64(3)
    objects = [
        BahdanauAttention(units=n),
        LuongAttention("concat", units=n),
        LuongAttention("location", max_length=n),
        LocalAttention("local-p", window=n, predictive_units=n),
        MonotonicAttention(units=n),
        MonotonicChunkwiseAttention(chunk_size=n, units=n),
        LocationSensitiveAttention(units=n, filters=n, kernel_size=n),
        AttentionRNNDecoder(
            keras.layers.GRUCell(4), BahdanauAttention(4), attention_output_units=n
        ),
        BidirectionalRNNEncoder(units=n, num_layers=n),
    ]
    query = np.ones((2, 2, 4), "float32")
    value = np.ones((2, 3, 4), "float32")
    for layer in objects[:6]:  # the mechanisms also run
        assert tuple(layer(query, value).shape) == (2, 2, 4)
    for layer in objects:
        config = layer.get_config()
        json.dumps(config)  # NumPy integers are not JSON-serialisable
        for key in (
            "units",
            "max_length",
            "window",
            "predictive_units",
            "chunk_size",
            "attention_output_units",
            "num_layers",
            "filters",
            "kernel_size",
        ):
            if config.get(key) is not None:
                assert type(config[key]) is int, (layer, key)


def bool_arguments():
    """`(constructor, argument)` for every bool argument of a layer or encoder."""
    import keras

    from attention_zoo.decoders import AttentionRNNDecoder, ShowAttendTellDecoder
    from attention_zoo.encoders import BidirectionalRNNEncoder
    from attention_zoo.layers import (
        CoverageAttention,
        LocalAttention,
        LocationSensitiveAttention,
        MonotonicAttention,
        MonotonicChunkwiseAttention,
    )

    def decoder(**kw):
        return AttentionRNNDecoder(
            keras.layers.GRUCell(4), LuongAttention("dot"), style="luong", **kw
        )

    def show_attend_tell(**kw):
        return ShowAttendTellDecoder(
            keras.layers.LSTMCell(4), BahdanauAttention(4), **kw
        )

    return [
        (lambda **kw: BahdanauAttention(4, **kw), "normalize"),
        (lambda **kw: CoverageAttention(4, **kw), "normalize"),
        (lambda **kw: LuongAttention("dot", **kw), "use_scale"),
        (lambda **kw: LocalAttention("local-m", window=1, **kw), "use_scale"),
        (lambda **kw: LocationSensitiveAttention(4, **kw), "cumulative"),
        (lambda **kw: LocationSensitiveAttention(4, **kw), "normalize"),
        (lambda **kw: MonotonicAttention(units=4, **kw), "normalize"),
        (
            lambda **kw: MonotonicChunkwiseAttention(chunk_size=2, units=4, **kw),
            "normalize",
        ),
        (decoder, "input_feeding"),
        (show_attend_tell, "gate"),
        (show_attend_tell, "deep_output"),
        (lambda **kw: BidirectionalRNNEncoder(units=4, **kw), "unroll"),
    ]


def test_bool_arguments_refuse_other_values_and_accept_numpy_bools():
    # bool("no") is True: a string, a number or None must not be read as a bool.
    import json

    import numpy as np
    import pytest

    for make, argument in bool_arguments():
        for value in ("no", 1, 0.0, None):
            with pytest.raises(
                ValueError, match=f"`{argument}` must be a bool"
            ) as error:
                make(**{argument: value})
            assert f"{argument}={value!r}" in str(error.value)
        for value in (np.bool_(True), np.bool_(False)):
            config = make(**{argument: value}).get_config()
            json.dumps(config)  # np.bool_ is not JSON-serialisable
            assert config[argument] is bool(value), (make, argument)


def test_step_in_a_tf_function_converts_without_autograph_warnings(caplog):
    import keras
    import numpy as np
    import pytest

    if keras.backend.backend() != "tensorflow":
        pytest.skip("AutoGraph is TensorFlow's")
    import tensorflow as tf

    layer = BahdanauAttention(4)
    query, value = np.ones((2, 3, 4), "float32"), np.ones((2, 5, 4), "float32")
    layer(query, value)

    @tf.function
    def step(query, value):
        projected = layer.project_key(value)
        return layer.step(query[:, 0], value, projected, [])[0]

    with caplog.at_level("WARNING", logger="tensorflow"):
        assert tuple(step(query, value).shape) == (2, 4)
    assert "could not transform" not in caplog.text


def test_numpy_seeds_and_rates_are_accepted_and_seed_the_same_draws():
    # Keras's SeedGenerator and Dropout refuse NumPy integers: the layers
    # passed the seed on unconverted and failed with Keras's error.
    import json

    import keras
    import numpy as np

    from attention_zoo.decoders import AttentionRNNDecoder, ShowAttendTellDecoder
    from attention_zoo.encoders import BidirectionalRNNEncoder
    from attention_zoo.layers import MonotonicAttention

    seed = np.int64(1)
    objects = [
        BahdanauAttention(4, dropout=0.1, seed=seed),
        MonotonicAttention(units=4, dropout=0.1, seed=seed),
        AttentionRNNDecoder(
            keras.layers.GRUCell(4), BahdanauAttention(4), dropout=0.1, seed=seed
        ),
        ShowAttendTellDecoder(
            keras.layers.LSTMCell(4),
            BahdanauAttention(4),
            dropout=0.1,
            context_dropout=np.float32(0.5),
            seed=seed,
        ),
        BidirectionalRNNEncoder(units=4, dropout=0.1, seed=seed),
    ]
    for item in objects:
        config = item.get_config()
        json.dumps(config)
        assert type(config["seed"]) is int, item
    query = np.ones((2, 3, 4), "float32")
    value = np.ones((2, 5, 4), "float32")
    draws = [
        keras.ops.convert_to_numpy(
            BahdanauAttention(4, dropout=0.5, seed=s, kernel_initializer="ones")(
                query, value, training=True
            )
        )
        for s in (seed, 1)
    ]
    np.testing.assert_array_equal(*draws)
