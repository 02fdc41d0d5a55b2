"""The `k` best extensions of a beam: one `top_k` over all of them, or a
blocked top-k that reads each value once and ranks only a few hundred."""

from __future__ import annotations

import math

from keras import ops

# Below this vocabulary a `top_k` over every extension is as cheap as the
# blocks' bookkeeping.
MIN_BLOCKED_VOCABULARY = 256
_PAD_VALUE = -3.0e38  # below every real logit and NEG_INF, still finite


def block_size(vocab: int) -> int:
    """A block size for `best_extensions` over `vocab` values a hypothesis.

    About `sqrt(vocab)`: the second `top_k` reads `k` blocks and the first
    one maximum a block, so a block near the square root keeps both small
    (at 4 x 5,000 on 2 CPU cores blocks of 25 to 125 cost about the same,
    the smaller ones a little less: docs/benchmarks.md). A divisor of
    `vocab` when one lies within 2x of the root, since padding the logits
    is a pass of its own.
    """
    root = math.sqrt(vocab)
    divisors = [
        d for d in range(1, int(2 * root) + 1) if vocab % d == 0 and d >= root / 2
    ]
    if divisors:
        # The largest divisor up to the root, else the smallest above it.
        below = [d for d in divisors if d <= root]
        return below[-1] if below else divisors[0]
    return max(1, round(root))


def _gather_rows(per_hypothesis, hypothesis):
    """`per_hypothesis` `(B, H)` at `hypothesis` `(B, R)`, as `(B, R, 1)`."""
    return ops.take_along_axis(per_hypothesis, hypothesis, axis=1)[:, :, None]


def best_extensions(values, k: int, score, per_hypothesis=(), block=None):
    """The `k` best of each sequence's `H * V` extensions.

    Args:
        values: `(B, H, V)` floats: hypothesis `h`'s value for token `v`.
        k: how many to keep, at most `H * V`.
        score: `score(values, *params)` -> the ranking scores of `values`
            `(B, R, n)`, each row read with its hypothesis's `params`
            (`(B, R, 1)` each); for a fixed hypothesis it must not decrease
            as the value grows (beam search: a log-probability sum, a
            length penalty, a coverage penalty).
        per_hypothesis: `(B, H)` tensors handed to `score` as `params`.
        block: `None` for one `top_k` over all `H * V` scores (also taken
            when `H` or `V` is unknown when traced); an int for the
            blocked top-k: the values of a hypothesis in blocks of
            `block` (padded with a value below all), each block scored by
            its maximum, the `k` best blocks kept and the `k` best of their
            `k * block` values taken. The best `k` values lie in the `k`
            best blocks (a block's maximum scores at least as high as any
            of its values and is itself a value), so both return the same.

    Returns:
        `(scores, hypothesis, token, value)`, each `(B, k)`, best first;
        equal scores go to the lower hypothesis, then the lower token, as a
        `top_k` over the `(B, H * V)` scores does.
    """
    batch = ops.shape(values)[0]
    hypotheses, vocab = values.shape[1], values.shape[2]
    if block is None or hypotheses is None or vocab is None:
        # The blocks' sizes must be known when traced; this needs none.
        vocab = ops.shape(values)[2]
        params = [p[:, :, None] for p in per_hypothesis]  # row h is hypothesis h
        scores, index = ops.top_k(ops.reshape(score(values, *params), (batch, -1)), k)
        index = ops.cast(index, "int32")
        value = ops.take_along_axis(ops.reshape(values, (batch, -1)), index, axis=1)
        return scores, index // vocab, index % vocab, value
    blocks_each = -(-vocab // block)
    if blocks_each * block != vocab:
        values = ops.pad(
            values, ((0, 0), (0, 0), (0, blocks_each * block - vocab)),
            constant_values=_PAD_VALUE,
        )  # fmt: skip
    blocks = ops.reshape(values, (batch, hypotheses * blocks_each, block))
    maxima = ops.max(blocks, axis=-1, keepdims=True)
    # Block j of a sequence belongs to hypothesis j // blocks_each.
    block_scores = score(
        maxima,
        *[ops.repeat(p, blocks_each, axis=1)[:, :, None] for p in per_hypothesis],
    )
    # All the blocks when there are fewer than `k`.
    kept = min(k, hypotheses * blocks_each)
    _, best_blocks = ops.top_k(ops.reshape(block_scores, (batch, -1)), kept)
    # In index order, so that the second `top_k` breaks ties by hypothesis
    # and token as one over all the values would.
    best_blocks = ops.sort(ops.cast(best_blocks, "int32"), axis=-1)
    # One gather of whole blocks: `take_along_axis` would first broadcast
    # the indices to every value of the blocks (on TensorFlow, a gather of
    # each value).
    row_offsets = ops.arange(batch, dtype="int32")[:, None] * (hypotheses * blocks_each)
    candidates = ops.reshape(
        ops.take(
            ops.reshape(blocks, (-1, block)),
            ops.reshape(best_blocks + row_offsets, (-1,)),
            axis=0,
        ),
        (batch, kept, block),
    )
    owners = best_blocks // blocks_each  # (B, kept)
    candidate_scores = score(
        candidates, *[_gather_rows(p, owners) for p in per_hypothesis]
    )
    scores, position = ops.top_k(ops.reshape(candidate_scores, (batch, -1)), k)
    position = ops.cast(position, "int32")
    chosen_block = ops.take_along_axis(best_blocks, position // block, axis=1)
    value = ops.take_along_axis(ops.reshape(candidates, (batch, -1)), position, axis=1)
    token = (chosen_block % blocks_each) * block + position % block
    return scores, chosen_block // blocks_each, token, value
