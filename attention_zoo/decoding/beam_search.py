"""Beam search with GNMT length and coverage penalties and n-best output."""

from __future__ import annotations

import keras
from keras import ops, tree

from attention_zoo._checks import checked_real
from attention_zoo.decoding import ranking
from attention_zoo.decoding._common import (
    NEG_INF,
    check_batch,
    check_beam_width,
    check_lengths,
    never_pad,
    step_trace,
    until_done,
    write,
)
from attention_zoo.decoding.penalties import coverage_penalty, length_penalty
from attention_zoo.decoding.step import shares_constants


def _tile(x, beam_width):
    return ops.repeat(x, beam_width, axis=0)  # row b * K + k


def _reorder(x, flat_rows):
    """`x[b, parent[b, k]]` for `x` (B, K, ...), given the flat rows
    `b * K + parent[b, k]` (B * K,).

    One gather of whole rows per tensor and step: `take_along_axis` would
    first broadcast the indices to the shape of `x` (on TensorFlow a dozen
    more operations, and a gather of every element).
    """
    shape = ops.shape(x)
    flat = ops.reshape(x, (-1, *shape[2:]))
    return ops.reshape(ops.take(flat, flat_rows, axis=0), shape)


def _on_accelerator() -> bool:
    """Whether Keras computes on a GPU or TPU (its first device is no CPU).

    PyTorch has no `keras.distribution` backend; its tensors name their
    device.
    """
    if keras.backend.backend() == "torch":
        devices = [str(getattr(ops.zeros(()), "device", "cpu"))]
    else:
        devices = keras.distribution.list_devices()
    return bool(devices) and not devices[0].lower().startswith("cpu")


def _block(vocab):
    """The blocked top-k's block size for `vocab` logits, or None for one
    `top_k` (an unknown or small vocabulary)."""
    if vocab is None or vocab < ranking.MIN_BLOCKED_VOCABULARY:
        return None
    return ranking.block_size(vocab)


def _extension_scores(alpha, beta):
    """`score(values, log_probs_sum, log_norm, [lp], [cp])` of an extension:
    `(sum + logit - log_norm) / lp + cp` (one expression for every caller,
    so that equal logits of a hypothesis score equal wherever ranked)."""

    def score(values, log_probs_sum, log_norm, *penalties):
        scores = log_probs_sum + values - log_norm
        if alpha:
            scores = scores / penalties[0]
        if beta:
            scores = scores + penalties[-1]
        return scores

    return score


def beam_search(
    step_fn,
    initial_state,
    start_tokens,
    end_token: int,
    max_length: int,
    beam_width: int = 4,
    constants=(),
    pad_token: int = 0,
    alpha: float = 0.0,
    beta: float = 0.0,
    memory_mask=None,
):
    """Beam search with GNMT length and coverage penalties and n-best output.

    Every hypothesis is ranked by
    `s(Y, X) = log P(Y | X) / lp(Y) + cp(X; Y)` (Wu et al. 2016, eq. 14) with
    `lp` = `length_penalty(|Y|, alpha)` and `cp` =
    `coverage_penalty(coverage, memory_mask, beta)`, both applied at every
    step when the `beam_width` best of the `beam_width * V` extensions are
    kept. A hypothesis that has emitted `end_token` is frozen: its only
    extension is `pad_token` at no cost, so its score, length and coverage no
    longer change while it keeps competing for a place in the beam. Each
    step writes its attention once, in the slot that computed it, and
    reorders two small int tables with the beam: each hypothesis's tokens
    and, per step, the slot whose attention produced its token. The
    attention histories are gathered through the second table once, after
    the loop, so a hypothesis gets the attention that produced its tokens
    without a reorder of the float history every step, and without a loop
    back along back-pointers after it (on a GPU each of its `max_length`
    steps costs kernel launches: docs/benchmarks.md, "On a GPU").

    Args:
        step_fn: as in `greedy_search`.
        initial_state: as in `greedy_search`; tiled to `B * beam_width` rows
            (row `b * beam_width + k`).
        start_tokens: as in `greedy_search`.
        end_token: as in `greedy_search`.
        max_length: as in `greedy_search` (at most `MAX_LENGTH_LIMIT`,
            10,000).
        constants: as in `greedy_search`; tiled like the state unless
            `step_fn` is a `StepFunction` declaring
            `shares_constants_across_beams` (as `make_step_fn`'s does for
            the decoders of this package, which read one memory for the
            `beam_width` hypotheses of a sequence).
        pad_token: as in `greedy_search`.
        beam_width: hypotheses kept per sequence, at most
            `BEAM_WIDTH_LIMIT` (1024).
        alpha: length penalty exponent, a finite float >= 0 (0 disables
            it).
        beta: coverage penalty weight, a finite float >= 0 (0 disables it).
        memory_mask: optional boolean `(B, Tx)`, source positions that count
            (with a decoder of several mechanisms, whose attention is their
            alignments concatenated, the masks concatenated the same way)
            in the coverage penalty.

    Returns:
        The dict of `attention_zoo.decoding` with a beam axis, hypotheses sorted
        by descending `scores` (the ranking score `s`). When fewer than
        `beam_width` distinct hypotheses exist, the remaining entries are
        placeholders scored about `-1e9 / lp`, far below any real one.
    """
    max_length, end_token, pad_token = check_lengths(max_length, end_token, pad_token)
    beam_width = check_beam_width(beam_width)
    alpha = checked_real("beam_search", "alpha", alpha, minimum=0.0)
    beta = checked_real("beam_search", "beta", beta, minimum=0.0)
    shares = shares_constants(step_fn)
    check_batch(
        start_tokens,
        [("initial_state", initial_state)]
        + ([] if shares else [("constants", constants)]),
    )
    k = beam_width
    one_top_k = _on_accelerator()
    start_tokens = ops.cast(start_tokens, "int32")
    batch = ops.shape(start_tokens)[0]
    state = tree.map_structure(lambda x: _tile(x, k), initial_state)
    if not shares:
        constants = tree.map_structure(lambda x: _tile(x, k), constants)
    tokens = _tile(start_tokens, k)

    def rows(index, width):
        """Flat indices (B * K,) of `index` (B, K) into rows of `width` entries."""
        offsets = ops.arange(batch, dtype="int32")[:, None] * width
        return ops.reshape(offsets + index, (-1,))

    def advance(
        t,
        tokens,
        state,
        finished,
        log_probs_sum,
        scores,
        lengths,
        coverage,
        out_tokens,
        trace_at,
        out_trace,
    ):
        logits, state, trace = step_fn(tokens, state, constants)
        logits = ops.cast(logits, "float32")
        vocab = ops.shape(logits)[-1]
        # The vocabulary's size where known: a reshape to `(B, k, -1)` of a
        # batch known only when run loses it, and the blocked top-k needs it.
        masked = ops.reshape(
            never_pad(logits, pad_token, end_token), (batch, k, logits.shape[-1] or -1)
        )
        log_norm = ops.reshape(ops.logsumexp(logits, axis=-1), (batch, k))
        trace = {
            name: ops.where(
                finished[:, :, None], 0.0, ops.reshape(value, (batch, k, -1))
            )
            for name, value in step_trace(trace).items()
        }  # (B, K, Tx) for the attention, (B, K, size) for the others
        attention = trace["attention"]
        if coverage is None:  # first step, outside the loop
            coverage = ops.zeros((batch, k, ops.shape(attention)[-1]), "float32")
            out_trace = {
                name: ops.zeros((batch, k, max_length, ops.shape(v)[-1]), "float32")
                for name, v in trace.items()
            }
        # A finished hypothesis has one extension, pad_token, at no cost.
        frozen = ops.where(
            ops.arange(vocab, dtype="int32")[None, None, :] == pad_token, 0.0, NEG_INF
        )
        masked = ops.where(finished[:, :, None], frozen, masked)
        log_norm = ops.where(finished, 0.0, log_norm)
        new_lengths = lengths + ops.cast(ops.logical_not(finished), "int32")  # (B, K)
        # Only the coverage penalty reads the coverage.
        new_coverage = coverage + attention if beta else coverage  # (B, K, Tx)
        per_hypothesis = [log_probs_sum, log_norm]
        if alpha:
            per_hypothesis.append(length_penalty(new_lengths, alpha))
        if beta:
            mask = None if memory_mask is None else memory_mask[:, None, :]
            per_hypothesis.append(coverage_penalty(new_coverage, mask, beta))
        # Extensions rank as their logits do within a hypothesis (its
        # log-probs are its logits shifted, its penalties one constant a
        # hypothesis), so on a CPU a blocked top-k finds the best `k` of the
        # `k * V` reading each logit once (ranking.py); on a GPU one `top_k`
        # over all is faster (docs/benchmarks.md, "On a GPU"). Both keep
        # the same extensions, ties included.
        scores, parent, chosen, value = ranking.best_extensions(
            masked, k, _extension_scores(alpha, beta), per_hypothesis,
            block=None if one_top_k else _block(logits.shape[-1]),
        )  # fmt: skip
        log_probs_sum = (
            ops.take_along_axis(log_probs_sum, parent, axis=1)
            + value
            - ops.take_along_axis(log_norm, parent, axis=1)
        )
        flat_parent = rows(parent, k)
        reordered = [new_lengths, finished, out_tokens, trace_at]
        if beta:
            reordered.append(new_coverage)
        lengths, parent_finished, out_tokens, trace_at, *rest = (
            _reorder(x, flat_parent) for x in reordered
        )
        coverage = rest[0] if beta else coverage
        chosen = ops.where(parent_finished, pad_token, chosen)
        # Step t of hypothesis k: its token, and the slot whose attention
        # produced it: its parent's (as computed, before the selection).
        out_tokens = write(out_tokens, t, chosen, axis=2)
        trace_at = write(trace_at, t, parent, axis=2)
        out_trace = {
            name: write(out_trace[name], t, value, axis=2)
            for name, value in trace.items()
        }
        finished = ops.logical_or(parent_finished, ops.equal(chosen, end_token))
        state = tree.map_structure(lambda x: ops.take(x, flat_parent, axis=0), state)
        return (
            t + 1,
            ops.reshape(chosen, (-1,)),
            state,
            finished,
            log_probs_sum,
            scores,
            lengths,
            coverage,
            out_tokens,
            trace_at,
            out_trace,
        )

    if memory_mask is not None:
        memory_mask = ops.cast(memory_mask, "bool")
    # Only the first hypothesis is live at the start; the others would
    # duplicate it.
    initial_sum = ops.where(
        ops.arange(k)[None, :] == 0,
        ops.zeros((batch, k), "float32"),
        ops.full((batch, k), NEG_INF, "float32"),
    )
    loop_vars = advance(
        0,
        tokens,
        state,
        ops.zeros((batch, k), "bool"),
        initial_sum,
        initial_sum,
        ops.zeros((batch, k), "int32"),
        None,
        ops.full((batch, k, max_length), pad_token, "int32"),
        # Steps the loop does not reach keep every hypothesis in its slot.
        ops.broadcast_to(
            ops.arange(k, dtype="int32")[None, :, None], (batch, k, max_length)
        ),
        None,
    )

    (_, _, _, _, _, scores, lengths, _, out_tokens, trace_at, out_trace) = (
        ops.while_loop(until_done(max_length), advance, loop_vars)
    )
    out_trace = {
        name: ops.take_along_axis(value, trace_at[..., None], axis=1)
        for name, value in out_trace.items()
    }
    return {"tokens": out_tokens, "scores": scores, "lengths": lengths, **out_trace}
