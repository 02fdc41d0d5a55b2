"""The applications' word search: a batch of memories to word ids, and the
names their evaluations give each search ("greedy", "beam4").

The library's searches are `attention_zoo.decoding` (greedy, sampling, beam
search over any step decoder); this module runs them over the applications'
word vocabularies (`common.text`).
"""

from __future__ import annotations

import numpy as np
from keras import ops

from attention_zoo.applications.common.text import END_ID, PAD_ID, START_ID
from attention_zoo.decoding import decode_memory


def search_name(beam_width: int) -> str:
    """ "greedy" for a beam of 1, "beam{beam_width}" otherwise."""
    return "greedy" if beam_width == 1 else f"beam{beam_width}"


def search_names(metrics: dict) -> list[str]:
    """The searches an evaluation holds: "greedy", "beam4", ..."""
    return [k for k in metrics if k == "greedy" or k.startswith("beam")]


def search_words(
    step_fn,
    decoder,
    memory,
    max_length: int,
    beam_width: int = 1,
    alpha: float = 0.0,
    memory_mask=None,
    initial_state=None,
    keep_beams: bool = False,
    extra_constants=None,
    extra_state=None,
    slots=None,
    active=None,
):
    """The best word ids for each memory of the batch, and their attention.

    `decode_memory` from `START_ID`, every sequence ending with `END_ID`
    then `PAD_ID`: greedy search for `beam_width=1`, else beam search with
    GNMT length penalty `alpha`, keeping the best hypothesis.

    Args:
        step_fn: `make_step_fn(decoder, embedding, output_layer)`, or a
            `StepFunction` wrapping it, over the word vocabulary.
        decoder: the step decoder `step_fn` runs.
        memory: `(B, Tx, D)`, the encoder's output.
        max_length: most words generated per sequence, `<end>` included.
        beam_width: 1 for greedy search, more for beam search.
        alpha: beam search's length penalty.
        memory_mask: `(B, Tx)` bool, or None.
        initial_state: the decoder's `initial_state` argument, or None.
        keep_beams: every hypothesis, best first (`best_hypothesis`): the
            outputs gain a beam axis after the batch.
        extra_constants: what a copy step function reads beside the
            decoder's constants (`decode_memory`), or None.
        extra_state: what a wrapped step function carries beside the
            decoder's state (`decode_memory`), or None.
        slots: greedy search with `slots` rows per step, refilled
            (`decode_memory`, `attention_zoo.decoding.refill`), or None.
        active: with `slots`, the memories to search (`decode_memory`).

    Returns:
        `(tokens (B, max_length), attention (B, max_length, Tx), scores (B,))`:
        `scores` is each sequence's mean log-probability per token,
        `<end>` included (`mean_log_prob`).
    """
    out = decode_memory(
        step_fn,
        decoder,
        memory,
        START_ID,
        END_ID,
        max_length,
        memory_mask=memory_mask,
        initial_state=initial_state,
        beam_width=beam_width,
        pad_token=PAD_ID,
        alpha=alpha,
        keep_beams=keep_beams,
        extra_constants=extra_constants,
        extra_state=extra_state,
        slots=slots,
        active=active,
    )
    scores = mean_log_prob(
        out["scores"], out["lengths"], alpha if beam_width > 1 else 0.0
    )
    return out["tokens"], out["attention"], scores


def mean_log_prob(scores, lengths, alpha: float = 0.0):
    """The log-probability per token of searched sequences: beam search
    with a length penalty ranks by the sum divided by the GNMT penalty
    `((5 + length) / 6) ** alpha`, which is undone here; the mean over the
    tokens (`<end>` included) compares sequences of any length."""
    lengths = ops.maximum(ops.cast(lengths, "float32"), 1.0)
    penalty = ops.power((5.0 + lengths) / 6.0, alpha)
    return ops.cast(scores, "float32") * penalty / lengths


def ranking_scores(mean_scores, ids, alpha: float = 0.0):
    """The search's own ranking score of each hypothesis, from its
    `mean_log_prob` and its ids (`(..., T)`, `PAD_ID` after `<end>`): the
    sum of the log-probabilities over the GNMT penalty
    `((5 + length) / 6) ** alpha`, the order beam search keeps its
    hypotheses in. The log-probability per token need not fall in that
    order (a longer hypothesis pays less penalty per token), so an n-best
    list shows both."""
    lengths = np.maximum(np.sum(np.asarray(ids) != PAD_ID, axis=-1), 1)
    penalty = ((5.0 + lengths) / 6.0) ** alpha
    return np.asarray(mean_scores, "float64") * lengths / penalty
