"""The step-decoder protocol: what the decoding functions need from a decoder.

A step decoder runs teacher-forced inside `model.fit` (its `call`) and one
step at a time inside `attention_zoo.decoding` (through `make_step_fn`), with
the same weights. The decoding contract is five members:

- `get_constants(memory, memory_mask=None)`: what every step needs from the
  memory, computed once per source sequence (the memory, the attention's
  projected keys, the mask; the fixed context vector of a decoder without
  attention). Any structure of tensors whose leading axis is the batch of
  the memory.
- `get_initial_state(memory, memory_mask=None, initial_state=None)`: the
  state before the first step, a list of tensors `(B, ...)`.
- `step(inputs, states, constants, training=None)`: one step; `inputs`
  `(B, E)` give `(output (B, output_size), new_states, alignment (B, Tx))`.
  A decoder without attention returns zeros as its alignment.
- `output_size`: the size of `step`'s output (known once built).
- `shares_constants_across_beams`: a bool, declared on the class. True when
  `step` accepts constants of batch `B / K` for states of batch `B` (rows
  `b * K .. b * K + K - 1` read memory `b`, the layout of
  `attention_zoo.decoding.beam_search`): beam search then hands the
  constants over once per sequence instead of copying them per hypothesis.

Every decoder of this package implements it (`AttentionRNNDecoder`,
`ParallelAttentionDecoder`, `ShowAttendTellDecoder`,
`FixedContextDecoder`); `check_step_decoder` says what a layer lacks.
"""

from __future__ import annotations

import inspect
from typing import Protocol, runtime_checkable

MEMBERS = (
    "get_constants",
    "get_initial_state",
    "step",
    "output_size",
    "shares_constants_across_beams",
)


@runtime_checkable
class StepDecoder(Protocol):
    """A decoder that `attention_zoo.decoding` can drive step by step.

    See the module docstring for the contract of each member.
    """

    shares_constants_across_beams: bool

    @property
    def output_size(self) -> int: ...

    def get_constants(self, memory, memory_mask=None): ...

    def get_initial_state(
        self, memory, memory_mask=None, initial_state=None
    ) -> list: ...

    def step(self, inputs, states, constants, training=None): ...


def check_step_decoder(decoder) -> StepDecoder:
    """`decoder` if it has every member of the protocol, else a TypeError.

    Members are looked up statically: `output_size` of an unbuilt decoder
    raises, yet the decoder still declares it.

    Args:
        decoder: the layer to check.

    Returns:
        `decoder`.
    """
    missing = [m for m in MEMBERS if not _declares(decoder, m)]
    if missing:
        raise TypeError(
            "`decoder` must implement the step-decoder protocol of "
            "attention_zoo.decoders.protocol; it lacks "
            f"{', '.join(missing)}. Received: decoder={decoder!r}"
        )
    flag = inspect.getattr_static(decoder, "shares_constants_across_beams")
    if not isinstance(flag, bool):
        raise TypeError(
            "`shares_constants_across_beams` must be a bool declared on the "
            f"decoder. Received: shares_constants_across_beams={flag!r}"
        )
    return decoder


def _declares(obj, name: str) -> bool:
    try:
        inspect.getattr_static(obj, name)
    except AttributeError:
        return False
    return True
