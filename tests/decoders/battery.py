"""The contract battery every step decoder of the package passes.

`DecoderBattery` is a plain object, not a base class of tests: a test module
builds one from its decoders and calls each check by name from a test of
its own, once per decoder:

    DECODERS = {"gru": lambda: FixedContextDecoder(8)}
    BATTERY = DecoderBattery(DECODERS)


    @pytest.mark.parametrize("name", list(DECODERS))
    class TestFixedContextDecoderContract:
        def test_teacher_forced_equals_step_by_step(self, name):
            BATTERY.check_teacher_forced_equals_step_by_step(name)

        ...

Every `check_*` method is meant to run for every decoder: the step-decoder
protocol, teacher forcing equals stepping (outputs, alignments, final
states), greedy search and beam search run through the step-decoder protocol
(`make_step_fn`; beam width 1 is greedy; the constants shared across beams
give the beams of copied ones), the `get_config` round trip, and `.keras`
saving with identical outputs. It runs on TensorFlow, JAX and PyTorch.
"""

from __future__ import annotations

from collections.abc import Callable

import keras
import numpy as np

from attention_zoo.decoders import check_step_decoder
from attention_zoo.decoding import (
    StepFunction,
    beam_search,
    greedy_search,
    make_step_fn,
)
from tests.helpers import to_numpy

B, TY, TX, E, DM, V = 3, 5, 6, 4, 7, 9
START, END = 1, 2


class DecoderBattery:
    """The contract checks of the decoders of one test module.

    Args:
        decoders: `{name: factory()}`; each factory returns a fresh, unbuilt
            decoder taking inputs `(B, Ty, E)` and a memory `(B, Tx, DM)` of
            the sizes above.
        atol: the tolerance of teacher forcing against stepping.
    """

    def __init__(
        self, decoders: dict[str, Callable[[], keras.layers.Layer]], *, atol=1e-5
    ):
        self.decoders = dict(decoders)
        self.atol = atol

    def random_inputs(self, seed=0):
        rng = np.random.default_rng(seed)
        x = rng.normal(size=(B, TY, E)).astype("float32")
        memory = rng.normal(size=(B, TX, DM)).astype("float32")
        memory_mask = np.ones((B, TX), bool)
        memory_mask[1, 3:] = False
        memory_mask[2, 5:] = False
        return x, memory, memory_mask

    def built(self, name, seed=5):
        """The decoder, built, with random non-default weights."""
        decoder = self.decoders[name]()
        x, memory, _ = self.random_inputs()
        decoder(x, memory)
        rng = np.random.default_rng(seed)
        decoder.set_weights(
            [
                rng.normal(scale=0.5, size=w.shape).astype(w.dtype)
                for w in decoder.get_weights()
            ]
        )
        return decoder

    def step_by_step(self, decoder, x, memory, memory_mask):
        constants = decoder.get_constants(memory, memory_mask)
        states = decoder.get_initial_state(memory, memory_mask)
        outputs, alignments = [], []
        for t in range(x.shape[1]):
            output, states, alignment = decoder.step(x[:, t], states, constants)
            outputs.append(to_numpy(output))
            alignments.append(to_numpy(alignment))
        return (
            np.stack(outputs, 1),
            np.stack(alignments, 1),
            [to_numpy(s) for s in states],
        )

    def check_implements_the_step_decoder_protocol(self, name):
        decoder = self.built(name)
        assert check_step_decoder(decoder) is decoder
        x, memory, memory_mask = self.random_inputs(seed=1)
        output, _, _ = decoder.step(
            x[:, 0],
            decoder.get_initial_state(memory, memory_mask),
            decoder.get_constants(memory, memory_mask),
        )
        assert tuple(output.shape) == (B, decoder.output_size)

    def check_teacher_forced_equals_step_by_step(self, name):
        decoder = self.built(name)
        x, memory, memory_mask = self.random_inputs(seed=1)
        outputs, alignments, states = decoder(x, memory, memory_mask=memory_mask)
        step_outputs, step_alignments, step_states = self.step_by_step(
            decoder, x, memory, memory_mask
        )
        np.testing.assert_allclose(to_numpy(outputs), step_outputs, atol=self.atol)
        np.testing.assert_allclose(
            to_numpy(alignments), step_alignments, atol=self.atol
        )
        assert len(states) == len(step_states)
        for a, b in zip(states, step_states):
            np.testing.assert_allclose(to_numpy(a), b, atol=self.atol)

    def search_inputs(self, name, seed=4):
        decoder = self.built(name)
        keras.utils.set_random_seed(seed)
        embedding = keras.layers.Embedding(V, E)
        output_layer = keras.layers.Dense(V)
        _, memory, memory_mask = self.random_inputs(seed=seed)
        step_fn = make_step_fn(decoder, embedding, output_layer)
        constants = decoder.get_constants(memory, memory_mask)
        state = decoder.get_initial_state(memory, memory_mask)
        return step_fn, state, constants, np.full((B,), START, "int32"), memory_mask

    def check_greedy_and_beam_search_run_through_the_protocol(self, name):
        step_fn, state, constants, start, memory_mask = self.search_inputs(name)
        assert isinstance(step_fn, StepFunction)
        greedy = greedy_search(step_fn, state, start, END, 6, constants)
        assert to_numpy(greedy["tokens"]).shape == (B, 6)
        assert to_numpy(greedy["attention"]).shape == (B, 6, TX)
        assert np.isfinite(to_numpy(greedy["scores"])).all()
        one = beam_search(step_fn, state, start, END, 6, 1, constants)
        np.testing.assert_array_equal(
            to_numpy(greedy["tokens"]), to_numpy(one["tokens"])[:, 0]
        )
        np.testing.assert_allclose(
            to_numpy(greedy["attention"]), to_numpy(one["attention"])[:, 0], atol=1e-5
        )
        kwargs = dict(
            beam_width=3,
            constants=constants,
            alpha=0.6,
            beta=0.2,
            memory_mask=memory_mask,
        )
        shared = beam_search(step_fn, state, start, END, 6, **kwargs)
        copied = beam_search(
            StepFunction(step_fn.fn, shares_constants_across_beams=False),
            state,
            start,
            END,
            6,
            **kwargs,
        )
        assert to_numpy(shared["tokens"]).shape == (B, 3, 6)
        scores = to_numpy(shared["scores"])
        assert np.isfinite(scores[:, 0]).all()
        assert (np.diff(scores, axis=1) <= 1e-6).all()
        for key in ("tokens", "lengths"):
            np.testing.assert_array_equal(to_numpy(shared[key]), to_numpy(copied[key]))
        for key in ("scores", "attention"):
            np.testing.assert_allclose(
                to_numpy(shared[key]), to_numpy(copied[key]), atol=1e-5
            )

    def check_get_config_round_trip(self, name):
        decoder = self.built(name)
        config = decoder.get_config()
        clone = type(decoder).from_config(config)
        assert clone.get_config() == config
        x, memory, _ = self.random_inputs()
        clone(x, memory)
        clone.set_weights(decoder.get_weights())
        np.testing.assert_array_equal(
            to_numpy(decoder(x, memory)[0]), to_numpy(clone(x, memory)[0])
        )

    def check_keras_save_and_load_give_identical_outputs(self, name, tmp_path):
        decoder = self.built(name)
        tokens = keras.Input((None, E))
        memory = keras.Input((TX, DM))
        memory_mask = keras.Input((TX,), dtype="bool")
        outputs, alignments, _ = decoder(tokens, memory, memory_mask=memory_mask)
        model = keras.Model([tokens, memory, memory_mask], [outputs, alignments])
        x, memory_value, mask_value = self.random_inputs(seed=2)
        expected = [to_numpy(y) for y in model([x, memory_value, mask_value])]
        path = tmp_path / "decoder.keras"
        model.save(path)
        loaded = keras.saving.load_model(path)
        got = [to_numpy(y) for y in loaded([x, memory_value, mask_value])]
        for a, b in zip(expected, got):
            np.testing.assert_array_equal(a, b)
