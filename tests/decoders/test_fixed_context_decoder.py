"""FixedContextDecoder: the battery, the beam layout and argument checks (loading runs
saved under the translation application's old registered name is tested in
tests/applications/translation/test_old_run_names.py)."""

import keras
import numpy as np
import pytest

from attention_zoo.decoders import FixedContextDecoder
from tests.decoders.battery import DecoderBattery

DECODERS = {
    "gru": lambda: FixedContextDecoder(8),
    "dropout": lambda: FixedContextDecoder(8, dropout=0.3, seed=1),
}
BATTERY = DecoderBattery(DECODERS)


@pytest.mark.parametrize("name", list(DECODERS))
class TestFixedContextDecoderContract:
    """The decoder battery's checks (tests/decoders/battery.py), per decoder."""

    def test_implements_the_step_decoder_protocol(self, name):
        BATTERY.check_implements_the_step_decoder_protocol(name)

    def test_teacher_forced_equals_step_by_step(self, name):
        BATTERY.check_teacher_forced_equals_step_by_step(name)

    def test_greedy_and_beam_search_run_through_the_protocol(self, name):
        BATTERY.check_greedy_and_beam_search_run_through_the_protocol(name)

    def test_get_config_round_trip(self, name):
        BATTERY.check_get_config_round_trip(name)

    def test_keras_save_and_load_give_identical_outputs(self, name, tmp_path):
        BATTERY.check_keras_save_and_load_give_identical_outputs(name, tmp_path)


def test_fixed_context_decoder_reads_one_context_per_beam():
    # Step rows b * K .. b * K + K - 1 read context b (the beam search layout).
    keras.utils.set_random_seed(2)
    decoder = FixedContextDecoder(4)
    memory = np.random.default_rng(2).normal(size=(2, 5, 3)).astype("float32")
    inputs = np.random.default_rng(3).normal(size=(2, 1, 6)).astype("float32")
    decoder(inputs, memory)
    constants = decoder.get_constants(memory)
    state = [np.zeros((2, 4), "float32")]
    out, _, _ = decoder.step(inputs[:, 0], state, constants)
    tiled_out, _, alignment = decoder.step(
        np.repeat(inputs[:, 0], 3, axis=0), [np.zeros((6, 4), "float32")], constants
    )
    np.testing.assert_allclose(
        keras.ops.convert_to_numpy(tiled_out),
        np.repeat(keras.ops.convert_to_numpy(out), 3, axis=0),
        atol=1e-6,
    )
    assert tuple(alignment.shape) == (6, 5)
    config = decoder.get_config()
    assert FixedContextDecoder.from_config(config).units == 4


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(units=0), "Received: units=0"),
        (dict(units=4.5), "Received: units=4.5"),
        (dict(units=4, dropout=1.0), "Received: dropout=1.0"),
        (dict(units=4, seed="a"), "Received: seed='a'"),
    ],
    ids=["units_zero", "units_float", "dropout", "seed"],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        FixedContextDecoder(**kwargs)
