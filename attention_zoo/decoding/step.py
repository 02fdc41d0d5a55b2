"""Build the step function the decoding loops drive from Keras layers."""

from __future__ import annotations


def make_step_fn(decoder, embedding, output_layer):
    """`step_fn(tokens, state, constants) -> (logits, state, attention)`.

    Args:
        decoder: an `attention_zoo.decoders.AttentionRNNDecoder`; `state` is
            its `get_initial_state(...)` list and `constants` its
            `get_constants(...)` tuple.
        embedding: layer mapping tokens `(B,)` to `(B, E)`, e.g. the
            `keras.layers.Embedding` of the target side.
        output_layer: layer mapping decoder outputs `(B, output_size)` to
            logits `(B, V)`, or a callable doing so.

    The layers are the ones the teacher-forced model trained, so decoding
    uses exactly the trained weights.
    """

    def step_fn(tokens, state, constants):
        output, state, attention = decoder.step(embedding(tokens), state, constants)
        return output_layer(output), state, attention

    # The decoder reads a memory of batch B for B * K hypotheses itself, so
    # beam_search need not copy the constants per hypothesis.
    step_fn.shares_constants_across_beams = True
    return step_fn
