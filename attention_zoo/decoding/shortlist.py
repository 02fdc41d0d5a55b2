"""A vocabulary shortlist: each sequence searched over the few target ids
its source makes likely, not over the whole vocabulary.

A word decoder's output layer is a `(D, V)` product every step, and the
searches then read all `V` logits (the log-normalizer, the argmax, a
wrapped step's masks). For a sequence only a few hundred ids are ever
likely: the frequent ones, and the translations of its own source words.
Here each sequence gets its *shortlist* of `size` ids, made once before
the search:

- first `shared`, the same ids for every sequence, in their given order
  (frequent words, and every id a wrapped step must know by its position,
  as `constrain_copies`'s groups);
- then the `candidates` of its source ids (a table `(V_source, k)` of
  target ids, -1 for none, learned from a corpus), each id once, in
  increasing order: the shortlist holds a set;
- then padding (id 0), marked not `valid`. A source whose candidates do
  not fit keeps the lowest ids among them (the frequent ones, where ids
  are given by frequency).

The step (`shortlist_step`) computes its logits `(B, size)` for those ids
only and `NEG_INF` for padding; the searches run over the shortlist's
*positions*: a token they feed back or emit is a position, which the step
reads as the id it stands for, and `expand` turns the emitted positions
into ids after the search. Position `j < len(shared)` is `shared[j]` in
every sequence, so a search's start, end and pad tokens are positions of
`shared` (`check_shortlist` asks `shared[i] == i` for them).

Correctness: at every step the shortlist's logits are the full logits at
its ids, so greedy search over the shortlist emits what greedy search over
the vocabulary emits whenever the full argmax is in the shortlist, at
every step; where it is not, the best shortlisted id. A score is the
log-probability normalized over the shortlist, at least the full one.
The shortlist of a sequence is the same for every hypothesis of its beam
(rows `b * K .. b * K + K - 1` read the shortlist of `b`), so beam search
reorders hypotheses within one shortlist.
"""

from __future__ import annotations

import numpy as np
from keras import ops

from attention_zoo._checks import is_int
from attention_zoo.decoders.protocol import check_step_decoder
from attention_zoo.decoding._common import NEG_INF, portable_trace
from attention_zoo.decoding.step import StepFunction


def check_shortlist(candidates, shared, size: int, vocab_size: int, tokens=()):
    """`(candidates, shared)` as int32 arrays, or a ValueError naming the
    argument at fault.

    Args:
        candidates: `(V_source, k)`: the target ids each source id makes
            likely, -1 for none.
        shared: `(R,)`: distinct target ids, in every shortlist first.
        size: ids per shortlist, at least `R`, at most `vocab_size`.
        vocab_size: the target vocabulary's size `V`.
        tokens: ids a search uses as start, end or pad token: each must be
            at its own position of `shared`.
    """
    if not is_int(vocab_size) or vocab_size < 1:
        raise ValueError(
            f"`vocab_size` must be a positive int. Received: vocab_size={vocab_size!r}"
        )
    candidates = np.asarray(candidates)
    if candidates.ndim != 2 or not np.issubdtype(candidates.dtype, np.integer):
        raise ValueError(
            "`candidates` must be an int array (V_source, k). Received: "
            f"{candidates.dtype} of shape {candidates.shape}"
        )
    if candidates.size and (candidates.min() < -1 or candidates.max() >= vocab_size):
        raise ValueError(
            f"`candidates` must hold target ids in 0..{vocab_size - 1} or -1. "
            f"Received: values from {candidates.min()} to {candidates.max()}"
        )
    shared = np.asarray(shared)
    if shared.ndim != 1 or not np.issubdtype(shared.dtype, np.integer):
        raise ValueError(
            f"`shared` must be a 1-D int array. Received: {shared.dtype} of "
            f"shape {shared.shape}"
        )
    if shared.size and (shared.min() < 0 or shared.max() >= vocab_size):
        raise ValueError(
            f"`shared` must hold target ids in 0..{vocab_size - 1}. Received: "
            f"values from {shared.min()} to {shared.max()}"
        )
    if len(set(shared.tolist())) != len(shared):
        raise ValueError("`shared` must hold each id once. Received: repeated ids")
    if not is_int(size) or not len(shared) <= size <= vocab_size:
        raise ValueError(
            f"`size` must be an int from len(shared) = {len(shared)} to "
            f"vocab_size = {vocab_size}. Received: size={size!r}"
        )
    for token in tokens:
        if not (0 <= token < len(shared) and shared[token] == token):
            raise ValueError(
                f"`shared` must hold the search's token {token} at position "
                f"{token}: the search feeds it as a position. Received: "
                f"shared[:{token + 1}]={shared[: token + 1].tolist()}"
            )
    return candidates.astype("int32"), shared.astype("int32")


def shortlist(
    source_ids, candidates, shared, size: int, vocab_size: int, on_host: bool = False
):
    """Each sequence's shortlist (module docstring).

    Args:
        source_ids: int `(N, Tx)`, the source ids (padding included: give
            the padding id no candidates).
        candidates, shared, size, vocab_size: as in `check_shortlist`.
        on_host: computed with NumPy on NumPy arrays, by the same lines:
            for a caller that holds the source ids on the host and passes
            the shortlist to a compiled search (`packed`), since
            XLA's sort on a CPU is many times slower than NumPy's
            (docs/translation.md, "Speed").

    Returns:
        `(ids (N, size) int32, valid (N, size) bool)`, NumPy arrays with
        `on_host`.
    """
    candidates, shared = check_shortlist(candidates, shared, size, vocab_size)
    xp = np if on_host else ops
    v, extra = vocab_size, size - len(shared)
    # The tables are NumPy arrays: within a trace, constants of the graph.
    # `v` stands for "none" and sorts after every id.
    left_out = np.zeros((v + 1,), "bool")
    left_out[shared] = left_out[v] = True  # shared ids have their places
    if on_host:
        source_ids = np.asarray(source_ids).astype("int32")
    else:
        source_ids = ops.cast(source_ids, "int32")
    n = xp.shape(source_ids)[0]
    picked = xp.reshape(xp.take(candidates, source_ids, axis=0), (n, -1))  # (N, Tx*k)
    picked = xp.where(picked >= 0, picked, v)
    picked = xp.where(xp.take(left_out, picked, axis=0), v, picked)
    # Sorted, a repeated id made "none" but for its first, sorted again:
    # each id once, in increasing order, then "none"; the first `extra` kept.
    ordered = xp.sort(picked, axis=-1)
    repeated = xp.concatenate(
        [xp.zeros_like(ordered[:, :1], "bool"), ordered[:, 1:] == ordered[:, :-1]],
        axis=1,
    )
    ordered = xp.sort(xp.where(repeated, v, ordered), axis=-1)
    ordered = xp.pad(ordered, [[0, 0], [0, extra]], constant_values=v)[:, :extra]
    listed = xp.concatenate(
        [xp.broadcast_to(shared[None, :], (n, len(shared))), ordered], axis=1
    )
    valid = listed < v
    return xp.where(valid, listed, 0), valid


def packed(ids, valid) -> np.ndarray:
    """A shortlist computed `on_host`, `(ids, valid)`, as one int32 array
    with -1 at its padding: what a compiled search reads beside its source
    ids (`unpacked`)."""
    return np.where(valid, ids, -1).astype("int32")


def unpacked(listed):
    """`(ids, valid)` of a `packed` shortlist, within a search."""
    listed = ops.cast(listed, "int32")
    valid = listed >= 0
    return ops.where(valid, listed, 0), valid


def shortlist_step(decoder, embedding, features, kernel, bias, shared) -> StepFunction:
    """A step function over each sequence's shortlist.

    `step_fn(positions, state, constants) -> (logits (B, size), state,
    attention)`, `constants` being `(decoder_constants, ids, valid)`: the
    decoder's `get_constants(...)` and `shortlist`'s output (of batch
    `B / K` for `K` hypotheses a sequence when the decoder shares its
    constants across beams). `positions` are read as the ids they stand for;
    the logits are `features(output) @ kernel + bias` at the shortlist's
    ids, `NEG_INF` at its padding.

    Args:
        decoder: a step decoder (`attention_zoo.decoders.protocol`).
        embedding: the target embedding, ids `(B,)` to `(B, E)`.
        features: decoder outputs `(B, output_size)` to the output layer's
            input `(B, D)` (e.g. a normalization), or None.
        kernel: the output layer's `(D, V)` kernel.
        bias: its `(V,)` bias, or None.
        shared: `shortlist`'s shared ids.

    The weights are read when the step is made: a step made before the
    weights change computes with the old ones.
    """
    check_step_decoder(decoder)
    shared = np.asarray(shared, "int32")
    kernel = ops.convert_to_numpy(kernel)
    bias = (
        np.zeros(kernel.shape[-1], kernel.dtype)
        if bias is None
        else ops.convert_to_numpy(bias)
    )
    # The shared ids are the same columns for every row: one product. The
    # rows of the rest are gathered per row every step, the cost of the
    # step: kept in float16 where that holds the weights exactly (weights
    # stored in float16, as presets do), which halves what is read.
    shared_kernel, shared_bias = kernel[:, shared], bias[shared]
    kernel_t = np.ascontiguousarray(kernel.T)
    half = kernel_t.astype("float16")
    # LiteRT gathers no float16: a portable export reads float32.
    if not np.array_equal(half.astype(kernel_t.dtype), kernel_t):
        half = None
    r = len(shared)

    def step_fn(tokens, state, constants):
        decoder_constants, ids, valid = constants
        # Rows b * K .. b * K + K - 1 read shortlist b (K = 1 without sharing).
        beams = ops.shape(tokens)[0] // ops.shape(ids)[0]
        ids = ops.repeat(ids, beams, axis=0)
        valid = ops.repeat(valid, beams, axis=0)
        tokens = ops.cast(tokens, "int32")
        fed = ops.take_along_axis(ids, tokens[:, None], axis=1)[:, 0]
        output, state, attention = decoder.step(
            embedding(fed), state, decoder_constants
        )
        x = output if features is None else features(output)
        x = ops.cast(x, "float32")
        first = ops.matmul(x, ops.convert_to_tensor(shared_kernel, "float32"))
        first = first + ops.convert_to_tensor(shared_bias, "float32")
        rest = ids[:, r:]
        rows = kernel_t if half is None or portable_trace() else half
        weights = ops.take(ops.convert_to_tensor(rows), rest, axis=0)  # (B, C, D)
        logits = ops.einsum("bd,bsd->bs", x, ops.cast(weights, "float32"))
        logits = logits + ops.take(ops.convert_to_tensor(bias, "float32"), rest, axis=0)
        logits = ops.concatenate([first, logits], axis=1)
        return ops.where(valid, logits, NEG_INF), state, attention

    return StepFunction(step_fn, decoder.shares_constants_across_beams)


def expand(tokens, ids):
    """The ids of the positions a search emitted: `tokens` `(N, T)` or
    `(N, K, T)` (beams), `ids` `(N, size)` from `shortlist`."""
    tokens = ops.cast(tokens, "int32")
    if len(tokens.shape) == 3:
        n, k, t = ops.shape(tokens)
        flat = ops.reshape(tokens, (n, k * t))
        return ops.reshape(ops.take_along_axis(ids, flat, axis=1), (n, k, t))
    return ops.take_along_axis(ids, tokens, axis=1)
