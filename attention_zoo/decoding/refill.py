"""Greedy search of many sequences through a few rows: a row that ends
takes the next sequence at once.

`greedy_search` computes every row of its batch until the last one ends,
so a batch of short outputs waits for its one long output, and a step
costs the same for a finished row as for a live one. `greedy_refill`
holds the whole set of `N` sequences (their initial states and
constants) and computes `slots` rows per step: when a row writes
`end_token` (or reaches `max_length`), its outputs are written to its
sequence's place and the row restarts from the next sequence's initial
state and `start_token`. Once no sequence is left to start, the live rows
move to fewer rows (`slots`'s next size, when at most that many are
live), so the last long outputs are not computed beside dozens of empty
rows.

Each sequence gets the steps greedy search gives it alone: the same
initial state, the same start token, its own tokens fed back, the step
function of its own row; greedy search decides each row alone, so the
outputs are those of `greedy_search` over the same sequences (up to the
floating-point rounding of a product at another batch size, as between
two batch sizes of `greedy_search` itself).
"""

from __future__ import annotations

from keras import ops, tree

from attention_zoo.decoding._common import (
    check_batch,
    check_lengths,
    never_pad,
    step_trace,
)
from attention_zoo.decoding.greedy import first_argmax


def check_slots(slots) -> tuple[int, ...]:
    """`slots` as a decreasing tuple of positive ints, or a ValueError."""
    sizes = (slots,) if isinstance(slots, int) else tuple(slots)
    if (
        not sizes
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in sizes)
        or min(sizes) < 1
        or any(a <= b for a, b in zip(sizes, sizes[1:]))
    ):
        raise ValueError(
            "`slots` must be a positive int or a decreasing sequence of them "
            f"(rows per step, then fewer for the last live rows). Received: "
            f"slots={str(slots)[:80]}"
        )
    return sizes


def greedy_refill(
    step_fn,
    initial_state,
    start_token: int,
    end_token: int,
    max_length: int,
    slots=(64, 8, 1),
    constants=(),
    pad_token: int = 0,
    active=None,
):
    """Greedy search of `N` sequences, `slots[0]` rows per step.

    Args:
        step_fn: see `attention_zoo.decoding`.
        initial_state: structure of tensors `(N, ...)`, each sequence's.
        start_token: the first input token of every sequence.
        end_token: as in `greedy_search`.
        max_length: as in `greedy_search`.
        slots: rows computed per step, an int, or decreasing sizes: once no
            sequence is left to start and at most the next size of rows are
            live, they go on in that many rows.
        constants: structure of tensors `(N, ...)`, each sequence's, which
            the step reads unchanged (gathered per row at every step).
        pad_token: as in `greedy_search`.
        active: bool `(N,)`, the sequences to search (default: all); the
            others get `pad_token` only, zero trace, score and length.

    Returns:
        The dict of `greedy_search` for the `N` sequences: `tokens`
        `(N, max_length)`, `scores`, `lengths`, `attention` and any other
        trace, in the order of the sequences.
    """
    max_length, end_token, pad_token = check_lengths(max_length, end_token, pad_token)
    sizes = check_slots(slots)
    leaves = tree.flatten(initial_state)
    if not leaves:
        raise ValueError("`initial_state` must hold at least one tensor.")
    n = ops.shape(leaves[0])[0]
    check_batch(
        ops.zeros((n,), "int32"),
        [("initial_state", initial_state), ("constants", constants)],
    )
    if active is None:
        active = ops.ones((n,), "bool")
    active = ops.cast(active, "bool")
    # The queue: the active sequences in order; a row holding index `n`
    # (a dummy place after the last sequence) is empty.
    rank = ops.cumsum(ops.cast(active, "int32")) - 1
    queue = ops.scatter_update(
        ops.full((n + 1,), n, "int32"),
        ops.expand_dims(ops.where(active, rank, n), -1),
        ops.where(active, ops.arange(n, dtype="int32"), n),
    )
    count = ops.sum(ops.cast(active, "int32"))

    def at(tensors, rows):
        # Rows of `(N, ...)` tensors; an empty row reads sequence 0 (unused).
        rows = ops.where(rows < n, rows, 0)
        return tree.map_structure(lambda x: ops.take(x, rows, axis=0), tensors)

    def next_sequences(position):
        """The sequences at queue positions `position`, `n` past the end."""
        inside = position < count
        return ops.where(inside, ops.take(queue, ops.where(inside, position, 0)), n)

    def advance(loop, out_trace=None):
        following, src, t, tokens, state, score, length, out = loop
        out_tokens, out_scores, out_lengths = out
        live = src < n
        logits, state, trace = step_fn(tokens, state, at(constants, src))
        logits = ops.cast(logits, "float32")  # (S, V)
        candidates = never_pad(logits, pad_token, end_token)
        log_norm = ops.logsumexp(logits, axis=-1)
        chosen = ops.cast(first_argmax(candidates), "int32")
        chosen = ops.where(live, chosen, pad_token)
        rows = ops.shape(chosen)[0]
        vocab = ops.shape(logits)[-1]
        flat = ops.arange(rows, dtype="int32") * vocab + chosen
        token_log_prob = ops.take(ops.reshape(candidates, (-1,)), flat) - log_norm
        score = score + ops.where(live, token_log_prob, 0.0)
        length = length + ops.cast(live, "int32")
        trace = step_trace(trace)
        if out_trace is None:  # first step, outside the loop
            out_trace = {
                k: ops.zeros((n + 1, max_length, ops.shape(v)[-1]), "float32")
                for k, v in trace.items()
            }
        # An empty row writes into the dummy place `n`, dropped at the end.
        place = ops.stack([src, ops.minimum(t, max_length - 1)], axis=1)
        out_tokens = ops.scatter_update(out_tokens, place, chosen)
        out_trace = {
            k: ops.scatter_update(out_trace[k], place, v) for k, v in trace.items()
        }
        out_scores = ops.scatter_update(out_scores, src[:, None], score)
        out_lengths = ops.scatter_update(out_lengths, src[:, None], length)
        done = ops.logical_and(
            live,
            ops.logical_or(ops.equal(chosen, end_token), t + 1 >= max_length),
        )
        # Each ended row takes the next sequence of the queue, in row order.
        done_int = ops.cast(done, "int32")
        src = ops.where(done, next_sequences(following + ops.cumsum(done_int) - 1), src)
        following = following + ops.sum(done_int)
        fresh = at(initial_state, src)
        state = tree.map_structure(
            lambda new, old: ops.where(
                ops.reshape(done, (-1,) + (1,) * (len(old.shape) - 1)), new, old
            ),
            fresh,
            state,
        )
        tokens = ops.where(done, start_token, chosen)
        t = ops.where(done, 0, t + 1)
        score = ops.where(done, 0.0, score)
        length = ops.where(done, 0, length)
        out = (out_tokens, out_scores, out_lengths)
        return (following, src, t, tokens, state, score, length, out), out_trace

    def body(following, src, t, tokens, state, score, length, out, out_trace):
        loop, out_trace = advance(
            (following, src, t, tokens, state, score, length, out), out_trace
        )
        return (*loop, out_trace)

    def until(smaller):
        def cond(following, src, *rest):
            live = ops.sum(ops.cast(src < n, "int32"))
            if smaller is None:
                return live > 0
            # Go on while sequences wait, or more rows live than `smaller`.
            fits = ops.logical_and(following >= count, live <= smaller)
            return ops.logical_and(live > 0, ops.logical_not(fits))

        return cond

    src = next_sequences(ops.arange(sizes[0], dtype="int32"))
    out = (
        ops.full((n + 1, max_length), pad_token, "int32"),
        ops.zeros((n + 1,), "float32"),
        ops.zeros((n + 1,), "int32"),
    )
    loop, out_trace = advance(
        (
            ops.convert_to_tensor(sizes[0], "int32"),
            src,
            ops.zeros((sizes[0],), "int32"),
            ops.full((sizes[0],), start_token, "int32"),
            at(initial_state, src),
            ops.zeros((sizes[0],), "float32"),
            ops.zeros((sizes[0],), "int32"),
            out,
        )
    )
    loop = (*loop, out_trace)
    for i, size in enumerate(sizes):
        if i:
            # The live rows first (in row order), kept in `size` rows.
            live = loop[1] < n
            rows = ops.shape(live)[0]
            key = ops.where(live, 0, rows) + ops.arange(rows, dtype="int32")
            keep = ops.argsort(key)[:size]
            per_row = loop[1:5] + loop[5:7]
            following, out, out_trace = loop[0], loop[7], loop[8]
            src, t, tokens, state, score, length = tree.map_structure(
                lambda x, keep=keep: ops.take(x, keep, axis=0), per_row
            )
            loop = (following, src, t, tokens, state, score, length, out, out_trace)
        smaller = sizes[i + 1] if i + 1 < len(sizes) else None
        loop = ops.while_loop(until(smaller), body, loop)
    (out_tokens, out_scores, out_lengths), out_trace = loop[7], loop[8]
    return {
        "tokens": out_tokens[:n],
        "scores": out_scores[:n],
        "lengths": out_lengths[:n],
        **{k: v[:n] for k, v in out_trace.items()},
    }
