"""The step-decoder protocol is declared, and decoding reads it."""

import keras
import numpy as np
import pytest

from attention_zoo.decoders import (
    AttentionRNNDecoder,
    FixedContextDecoder,
    ParallelAttentionDecoder,
    ShowAttendTellDecoder,
    check_step_decoder,
)
from attention_zoo.decoding import StepFunction, beam_search, make_step_fn
from attention_zoo.layers import BahdanauAttention

DECODERS = {
    "attention_rnn": lambda: AttentionRNNDecoder(
        keras.layers.GRUCell(4), BahdanauAttention(4)
    ),
    "parallel": lambda: ParallelAttentionDecoder(
        keras.layers.GRUCell(4), BahdanauAttention(4)
    ),
    "show_attend_tell": lambda: ShowAttendTellDecoder(
        keras.layers.LSTMCell(4), BahdanauAttention(4)
    ),
    "fixed_context": lambda: FixedContextDecoder(4),
}


@pytest.mark.parametrize("name", sorted(DECODERS))
def test_every_decoder_declares_the_protocol(name):
    decoder = DECODERS[name]()  # unbuilt: output_size is declared, not known
    assert check_step_decoder(decoder) is decoder
    assert type(decoder).shares_constants_across_beams is True
    step = make_step_fn(decoder, keras.layers.Embedding(5, 3), keras.layers.Dense(5))
    assert isinstance(step, StepFunction)
    assert step.shares_constants_across_beams is True


def test_a_layer_without_the_protocol_is_refused_by_name():
    with pytest.raises(TypeError, match="lacks get_constants, get_initial_state"):
        make_step_fn(keras.layers.Dense(3), keras.layers.Embedding(5, 3), None)


def test_shares_constants_must_be_a_declared_bool():
    class Almost(FixedContextDecoder):
        shares_constants_across_beams = "yes"

    with pytest.raises(TypeError, match="Received: shares_constants_across_beams"):
        check_step_decoder(Almost(4))
    with pytest.raises(TypeError, match="Received: shares_constants_across_beams=1"):
        StepFunction(lambda *args: None, 1)
    with pytest.raises(TypeError, match="`fn` must be callable"):
        StepFunction(None)


def test_with_fn_keeps_the_declaration():
    step = StepFunction(lambda t, s, c: (t, s, c), True)
    wrapped = step.with_fn(lambda t, s, c: step(t, s, c))
    assert wrapped.shares_constants_across_beams is True
    assert wrapped(1, 2, 3) == (1, 2, 3)


def test_an_attribute_on_a_plain_function_is_refused_not_ignored():
    def step_fn(tokens, state, constants):
        logits = keras.ops.one_hot(keras.ops.zeros_like(tokens) + 2, 4)
        return logits, state, keras.ops.ones((keras.ops.shape(tokens)[0], 3))

    step_fn.shares_constants_across_beams = True
    state = (np.zeros((2, 1), "float32"),)
    with pytest.raises(TypeError, match="StepFunction"):
        beam_search(step_fn, state, np.ones((2,), "int32"), 2, 3, beam_width=2)
