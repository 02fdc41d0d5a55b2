"""The best sequence of each input: greedy search or beam search's first."""

from __future__ import annotations

from keras import ops

from attention_zoo._checks import checked_real
from attention_zoo.decoding._common import check_beam_width
from attention_zoo.decoding.beam_search import beam_search
from attention_zoo.decoding.greedy import greedy_search


def best_hypothesis(
    step_fn,
    initial_state,
    start_tokens,
    end_token: int,
    max_length: int,
    beam_width: int = 1,
    constants=(),
    pad_token: int = 0,
    alpha: float = 0.0,
    keep_beams: bool = False,
):
    """The best sequence of each input: greedy search or beam search's first.

    Args:
        step_fn: as in `greedy_search`.
        initial_state: as in `greedy_search`.
        start_tokens: as in `greedy_search`.
        end_token: as in `greedy_search`.
        max_length: as in `greedy_search`.
        beam_width: 1 for `greedy_search`, more for `beam_search`.
        constants: as in `greedy_search`.
        pad_token: as in `greedy_search`.
        alpha: `beam_search`'s length penalty (unused by greedy search).
        keep_beams: keep every hypothesis, best first (the n-best list):
            each output then has a beam axis `(B, beam_width, ...)`.

    Returns:
        The dict of `attention_zoo.decoding` without a beam axis: `tokens`
        `(B, T)`, `scores` `(B,)`, `lengths` `(B,)`, `attention`
        `(B, T, Tx)`; with `keep_beams`, with one after the batch.
    """
    beam_width = check_beam_width(beam_width)
    alpha = checked_real("best_hypothesis", "alpha", alpha, minimum=0.0)
    if not isinstance(keep_beams, bool):
        raise TypeError(
            f"`keep_beams` must be a bool. Received: keep_beams={keep_beams!r}"
        )
    if beam_width == 1:
        out = greedy_search(
            step_fn, initial_state, start_tokens, end_token, max_length, constants,
            pad_token,
        )  # fmt: skip
        if keep_beams:
            return {key: ops.expand_dims(value, 1) for key, value in out.items()}
        return out
    out = beam_search(
        step_fn,
        initial_state,
        start_tokens,
        end_token,
        max_length,
        beam_width=beam_width,
        constants=constants,
        pad_token=pad_token,
        alpha=alpha,
    )
    if keep_beams:  # beam_search sorts them, best first
        return out
    return {key: value[:, 0] for key, value in out.items()}
