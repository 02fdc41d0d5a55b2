"""The step function the decoding loops drive, and its builder from layers."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from keras import ops

from attention_zoo.decoders.protocol import check_step_decoder


@dataclasses.dataclass(frozen=True)
class StepFunction:
    """`step(tokens, state, constants) -> (logits, state, attention)`, with
    what beam search needs to know about it declared.

    Args:
        fn: the step itself (see `attention_zoo.decoding`).
        shares_constants_across_beams: True when `fn` reads constants of
            batch `B / K` for `B` hypotheses (rows `b * K .. b * K + K - 1`
            read memory `b`); beam search then passes them once per
            sequence instead of copying them per hypothesis. A plain
            function passed to the decoding functions counts as False.

    Examples:
        >>> step = StepFunction(lambda tokens, state, constants: None, True)
        >>> step.with_fn(lambda tokens, state, constants: None).shares_constants_across_beams
        True
    """

    fn: Callable
    shares_constants_across_beams: bool = False

    def __post_init__(self):
        if not callable(self.fn):
            raise TypeError(f"`fn` must be callable. Received: fn={self.fn!r}")
        if not isinstance(self.shares_constants_across_beams, bool):
            raise TypeError(
                "`shares_constants_across_beams` must be a bool. Received: "
                f"shares_constants_across_beams={self.shares_constants_across_beams!r}"
            )

    def __call__(self, tokens, state, constants):
        return self.fn(tokens, state, constants)

    def with_fn(self, fn: Callable) -> StepFunction:
        """The same declaration around another step, e.g. one that wraps
        this one to change its logits."""
        return dataclasses.replace(self, fn=fn)


def shares_constants(step_fn) -> bool:
    """What `step_fn` declares; a TypeError for an undeclared attribute.

    A plain function carrying `shares_constants_across_beams` as an
    attribute is refused rather than silently read as False (which would
    copy the constants per hypothesis).
    """
    if isinstance(step_fn, StepFunction):
        return step_fn.shares_constants_across_beams
    if hasattr(step_fn, "shares_constants_across_beams"):
        raise TypeError(
            "Declare `shares_constants_across_beams` with "
            "attention_zoo.decoding.StepFunction(fn, shares_constants_across_beams"
            "=...) (or `step.with_fn(fn)` to wrap a step), not as an attribute "
            f"of the function. Received: step_fn={step_fn!r}"
        )
    return False


def make_step_fn(decoder, embedding, output_layer) -> StepFunction:
    """`step_fn(tokens, state, constants) -> (logits, state, attention)`.

    Args:
        decoder: a step decoder (`attention_zoo.decoders.protocol`); `state`
            is its `get_initial_state(...)` list and `constants` its
            `get_constants(...)`.
        embedding: layer mapping tokens `(B,)` to `(B, E)`, e.g. the
            `keras.layers.Embedding` of the target side.
        output_layer: layer mapping decoder outputs `(B, output_size)` to
            logits `(B, V)`, or a callable doing so.

    Returns:
        A `StepFunction` declaring the decoder's
        `shares_constants_across_beams`.

    The layers are the ones the teacher-forced model trained, so decoding
    uses exactly the trained weights.
    """
    check_step_decoder(decoder)

    def step_fn(tokens, state, constants):
        output, state, attention = decoder.step(embedding(tokens), state, constants)
        return output_layer(output), state, attention

    return StepFunction(step_fn, decoder.shares_constants_across_beams)


def make_copy_step_fn(
    decoder, embedding, output_layer, pointer_generator, unk_id: int
) -> StepFunction:
    """A step function over the extended vocabulary of a copy mechanism.

    `step_fn(tokens, state, constants) -> (log P, state, {"attention",
    "p_gen"})`: the decoder's step, its vocabulary logits
    (`output_layer`), mixed with the copy distribution by
    `pointer_generator` (an `attention_zoo.decoders.PointerGenerator`); the
    searches decode over its `vocab_size + Tx` ids and return `p_gen`
    `(B, T, 1)` beside the attention. A token at or beyond `vocab_size` (a
    copied source word) is fed back to the decoder as `unk_id`, the word
    its embedding knows it by.

    Args:
        decoder: a step decoder (`attention_zoo.decoders.protocol`).
        embedding: the target embedding, tokens `(B,)` to `(B, E)`.
        output_layer: decoder outputs `(B, output_size)` to logits `(B, V)`.
        pointer_generator: the trained `PointerGenerator`.
        unk_id: the unknown word's id in the vocabulary.

    Returns:
        A `StepFunction`. Its constants are `(decoder_constants, memory,
        source_ids)`: the decoder's `get_constants(...)`, the attended
        memory `(B, Tx, D)` and the source's extended ids `(B, Tx)`. When
        the decoder shares its constants across beams, so does the step
        (memory and ids of batch `B / K` for `B` hypotheses).
    """
    check_step_decoder(decoder)
    vocab_size = pointer_generator.vocab_size

    def step_fn(tokens, state, constants):
        decoder_constants, memory, source_ids = constants
        tokens = ops.cast(tokens, "int32")
        known = ops.where(tokens >= vocab_size, unk_id, tokens)
        embedded = embedding(known)
        output, state, attention = decoder.step(embedded, state, decoder_constants)
        # Rows b * K .. b * K + K - 1 read memory b (K = 1 without sharing).
        beams = ops.shape(tokens)[0] // ops.shape(memory)[0]
        log_probs, p_gen = pointer_generator(
            output_layer(output),
            attention,
            ops.repeat(memory, beams, axis=0),
            output,
            embedded,
            ops.repeat(source_ids, beams, axis=0),
            return_p_gen=True,
            return_log_probs=True,
        )
        return log_probs, state, {"attention": attention, "p_gen": p_gen}

    return StepFunction(step_fn, decoder.shares_constants_across_beams)
