"""The step function the decoding loops drive, and its builder from layers."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

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

    Example:

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
