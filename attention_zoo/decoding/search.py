"""Greedy search, sampling and beam search, written once with `ops.while_loop`.

All three drive a *step function*

    step_fn(tokens, state, constants) -> (logits, new_state, attention)

with `tokens` `(B,)` int32 (the previous token), `state` any structure of
tensors whose leading axis is the batch, `constants` any structure of tensors
with a leading batch axis that do not change across steps (the encoder memory,
its projection, its mask), `logits` `(B, V)` and `attention` `(B, Tx)`.
`attention_zoo.decoding.make_step_fn` builds one from an
`AttentionRNNDecoder`.

They are backend-agnostic (keras.ops only), batched, run inside
`tf.function(jit_compile=True)` / `jax.jit`, and can be traced into a
TensorFlow SavedModel. Each returns a dict:

- `tokens`: int32 `(B, T)` (beam search: `(B, K, T)`), the generated tokens
  after the start token, up to and including `end_token`, then `pad_token`
  (which a live sequence never emits);
- `scores`: float32 `(B,)` (`(B, K)`), the sum of the token log-probabilities
  (beam search: the ranking score, see `beam_search`);
- `lengths`: int32 `(B,)` (`(B, K)`), tokens up to and including `end_token`;
- `attention`: float32 `(B, T, Tx)` (`(B, K, T, Tx)`), the attention of each
  emitted token, zero after the end.

`T` is `max_length` (buffers keep a static shape inside compiled code); the
loop itself stops as soon as every sequence has ended. The first step runs
before the loop, so that the buffers take the memory length `Tx` from its
attention.
"""

from __future__ import annotations

import keras
from keras import ops, tree

from attention_zoo._checks import is_int, static_shape

NEG_INF = -1e9


def _check(max_length, end_token, pad_token):
    """The three as Python ints, or a ValueError naming the bad one."""
    if not is_int(max_length) or max_length < 1:
        raise ValueError(
            f"`max_length` must be a positive integer. Received: max_length={max_length!r}"
        )
    for name, token in (("end_token", end_token), ("pad_token", pad_token)):
        if not is_int(token) or token < 0:
            raise ValueError(
                f"`{name}` must be a non-negative integer. Received: {name}={token!r}"
            )
    return int(max_length), int(end_token), int(pad_token)


def _check_batch(start_tokens, named_structures):
    """`start_tokens` `(B,)`; every tensor of the structures batch-major `B`.

    Args:
        start_tokens: the start tokens as given.
        named_structures: `(name, structure)` pairs whose tensors must have
            the batch axis first (a mismatch would otherwise surface as a
            backend error deep inside the decoder step).
    """
    shape = static_shape(start_tokens)
    if len(shape) != 1:
        raise ValueError(
            "`start_tokens` must have shape (batch_size,). Received: "
            f"start_tokens.shape={shape}"
        )
    batch = shape[0]
    for name, structure in named_structures:
        for leaf in tree.flatten(structure):
            leaf_shape = static_shape(leaf)
            known = leaf_shape and None not in (batch, leaf_shape[0])
            if not leaf_shape or (known and leaf_shape[0] != batch):
                raise ValueError(
                    f"Every tensor of `{name}` must have the batch size of "
                    f"`start_tokens` as its first axis. Received: "
                    f"start_tokens.shape={shape}, a tensor of `{name}` with "
                    f"shape {leaf_shape}"
                )


def _never_pad(log_probs, pad_token, end_token):
    """`pad_token` only fills finished sequences: a live one never emits it.

    Unless it is also `end_token` (a vocabulary that pads with its end
    token): emitting it then ends the sequence, as it should.
    """
    vocab_size = log_probs.shape[-1]
    for name, token in (("end_token", end_token), ("pad_token", pad_token)):
        if vocab_size is not None and token >= vocab_size:
            raise ValueError(
                f"`{name}` must be an id below the vocabulary size of the "
                f"step's logits, {vocab_size}. Received: {name}={token}"
            )
    if pad_token == end_token:
        return log_probs
    vocab = ops.shape(log_probs)[-1]
    is_pad = ops.arange(vocab, dtype="int32")[None, :] == pad_token
    return ops.where(is_pad, NEG_INF, log_probs)


def _until_done(max_length):
    """Loop condition: steps left and a sequence still unfinished.

    Both loops carry `(t, tokens, state, finished, ...)`.
    """

    def cond(t, tokens, state, finished, *rest):
        return ops.logical_and(t < max_length, ops.logical_not(ops.all(finished)))

    return cond


def _write(buffer, t, value):
    """buffer[:, t] = value, for a buffer (B, T, ...) and value (B, ...)."""
    start = [0, t] + [0] * (len(buffer.shape) - 2)
    return ops.slice_update(buffer, start, ops.expand_dims(value, 1))


def _run(
    step_fn,
    initial_state,
    start_tokens,
    constants,
    max_length,
    end_token,
    pad_token,
    select,
):
    """Shared loop of greedy search and sampling; `select(log_probs, t)`."""
    max_length, end_token, pad_token = _check(max_length, end_token, pad_token)
    _check_batch(start_tokens, [("initial_state", initial_state)])
    start_tokens = ops.cast(start_tokens, "int32")
    batch = ops.shape(start_tokens)[0]

    def advance(t, tokens, state, finished, scores, lengths, out_tokens, out_attention):
        logits, state, attention = step_fn(tokens, state, constants)
        log_probs = ops.log_softmax(ops.cast(logits, "float32"), axis=-1)  # (B, V)
        log_probs = _never_pad(log_probs, pad_token, end_token)
        chosen = ops.cast(select(log_probs, t), "int32")
        chosen = ops.where(finished, pad_token, chosen)
        token_log_prob = ops.take_along_axis(log_probs, chosen[:, None], axis=1)[:, 0]
        scores = scores + ops.where(finished, 0.0, token_log_prob)
        lengths = lengths + ops.cast(ops.logical_not(finished), "int32")
        attention = ops.where(finished[:, None], 0.0, ops.cast(attention, "float32"))
        if out_attention is None:  # first step, outside the loop
            out_attention = ops.zeros(
                (batch, max_length, ops.shape(attention)[-1]), "float32"
            )
        out_tokens = _write(out_tokens, t, chosen)
        out_attention = _write(out_attention, t, attention)
        finished = ops.logical_or(finished, ops.equal(chosen, end_token))
        return (
            t + 1,
            chosen,
            state,
            finished,
            scores,
            lengths,
            out_tokens,
            out_attention,
        )

    loop_vars = advance(
        0,
        start_tokens,
        initial_state,
        ops.zeros((batch,), "bool"),
        ops.zeros((batch,), "float32"),
        ops.zeros((batch,), "int32"),
        ops.full((batch, max_length), pad_token, "int32"),
        None,
    )

    t, _, _, _, scores, lengths, out_tokens, out_attention = ops.while_loop(
        _until_done(max_length), advance, loop_vars
    )
    return {
        "tokens": out_tokens,
        "scores": scores,
        "lengths": lengths,
        "attention": out_attention,
    }


def greedy_search(
    step_fn,
    initial_state,
    start_tokens,
    end_token: int,
    max_length: int,
    constants=(),
    pad_token: int = 0,
):
    """Pick the most probable token at every step.

    Args:
        step_fn: see the module docstring.
        initial_state: structure of tensors with leading axis `B`.
        start_tokens: int `(B,)`, the first input token of every sequence.
        end_token: id that ends a sequence.
        max_length: most tokens generated per sequence.
        constants: structure of tensors passed to every step unchanged.
        pad_token: id written after the end of a sequence; a live sequence
            never emits it, unless it is also `end_token`.

    Returns:
        The dict described in the module docstring.
    """
    return _run(
        step_fn,
        initial_state,
        start_tokens,
        constants,
        max_length,
        end_token,
        pad_token,
        lambda log_probs, t: ops.argmax(log_probs, axis=-1),
    )


def sample(
    step_fn,
    initial_state,
    start_tokens,
    end_token: int,
    max_length: int,
    constants=(),
    pad_token: int = 0,
    temperature: float = 1.0,
    top_k: int | None = None,
    seed=None,
):
    """Draw every token from the model's distribution.

    Sampling uses the Gumbel-max trick with noise drawn once before the loop
    (`(max_length, B, V)` float32: mind its size for large vocabularies). A
    fixed integer `seed` gives the same sequences on every call in one
    execution mode; TensorFlow's XLA draws other numbers than its eager
    mode for the same seed. Inside `jax.jit`, an integer `seed` gives the
    same draw at every call of the compiled function; for fresh draws pass a
    JAX key (`jax.random.PRNGKey(n)`) as an argument of the jitted function.
    Not a `keras.random.SeedGenerator`: a raw `jax.jit` traces its state
    once (every call draws the same tokens) and leaks the tracer into the
    generator, as with any Keras random function there.

    Args:
        step_fn: as in `greedy_search`.
        initial_state: as in `greedy_search`.
        start_tokens: as in `greedy_search`.
        end_token: as in `greedy_search`.
        max_length: as in `greedy_search`.
        constants: as in `greedy_search`.
        pad_token: as in `greedy_search`.
        temperature: positive float; logits are divided by it.
        top_k: optional positive int; sample among the `top_k` most probable
            tokens only.
        seed: int, `keras.random.SeedGenerator` (outside a raw `jax.jit`),
            or on JAX a key array.

    Returns:
        The dict described in the module docstring; `scores` are the
        log-probabilities of the drawn tokens under the model (before
        temperature and top-k).
    """
    if not float(temperature) > 0:
        raise ValueError(
            f"`temperature` must be positive. Received: temperature={temperature!r}"
        )
    if top_k is not None and (not is_int(top_k) or top_k < 1):
        raise ValueError(
            f"`top_k` must be a positive integer. Received: top_k={top_k!r}"
        )
    top_k = None if top_k is None else int(top_k)
    if is_int(seed):
        seed = int(seed)  # Keras's random functions refuse NumPy integers
    max_length, end_token, pad_token = _check(max_length, end_token, pad_token)
    noise = {}

    def select(log_probs, t):
        vocab_size = log_probs.shape[-1]
        if top_k is not None and vocab_size is not None and top_k > vocab_size:
            raise ValueError(
                f"`top_k` must be at most the vocabulary size of the step's "
                f"logits, {vocab_size}. Received: top_k={top_k}"
            )
        # A token `_never_pad` forbade stays forbidden at any temperature
        # (-1e9 / 1e9 would be an ordinary logit).
        logits = ops.where(log_probs <= NEG_INF, NEG_INF, log_probs / temperature)
        if top_k is not None:
            kth = ops.top_k(logits, top_k, sorted=True)[0][:, -1:]
            logits = ops.where(logits < kth, NEG_INF, logits)
        if "gumbel" not in noise:
            shape = (max_length, *ops.shape(log_probs))
            uniform = keras.random.uniform(shape, minval=1e-9, maxval=1.0, seed=seed)
            noise["gumbel"] = -ops.log(-ops.log(uniform))
        gumbel = ops.take(noise["gumbel"], t, axis=0)
        return ops.argmax(logits + gumbel, axis=-1)

    return _run(
        step_fn,
        initial_state,
        start_tokens,
        constants,
        max_length,
        end_token,
        pad_token,
        select,
    )


def length_penalty(lengths, alpha: float):
    """GNMT length penalty `((5 + |Y|) / 6) ** alpha` (Wu et al. 2016, eq. 14)."""
    lengths = ops.cast(lengths, "float32")
    return ops.power((5.0 + lengths) / 6.0, alpha)


def coverage_penalty(coverage, memory_mask, beta: float, epsilon: float = 1e-10):
    """GNMT coverage penalty `beta * sum_j log(min(sum_t a_tj, 1))`.

    Sums over the source positions `j` where `memory_mask` (optional,
    broadcastable to `coverage`) is True (Wu et al. 2016, eq. 14).
    Coverages are floored at `epsilon` so that a position never attended
    costs `beta * log(epsilon)` rather than minus infinity.
    """
    logs = ops.log(ops.clip(coverage, epsilon, 1.0))
    if memory_mask is not None:
        logs = ops.where(memory_mask, logs, 0.0)
    return beta * ops.sum(logs, axis=-1)


def _tile(x, beam_width):
    return ops.repeat(x, beam_width, axis=0)  # row b * K + k


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
    longer change while it keeps competing for a place in the beam. The
    token and attention histories are reordered along the back-pointers at
    every step, so the attention returned for a hypothesis is the attention
    that produced its tokens.

    Args:
        step_fn: as in `greedy_search`.
        initial_state: as in `greedy_search`; tiled to `B * beam_width` rows
            (row `b * beam_width + k`).
        start_tokens: as in `greedy_search`.
        end_token: as in `greedy_search`.
        max_length: as in `greedy_search`.
        constants: as in `greedy_search`; tiled like the state unless
            `step_fn.shares_constants_across_beams` is true (as for
            `make_step_fn`, whose decoder reads one memory for the
            `beam_width` hypotheses of a sequence).
        pad_token: as in `greedy_search`.
        beam_width: hypotheses kept per sequence.
        alpha: length penalty exponent (0 disables it).
        beta: coverage penalty weight (0 disables it).
        memory_mask: optional boolean `(B, Tx)`, source positions that count
            (with a decoder of several mechanisms, whose attention is their
            alignments concatenated, the masks concatenated the same way)
            in the coverage penalty.

    Returns:
        The dict of the module docstring with a beam axis, hypotheses sorted
        by descending `scores` (the ranking score `s`). When fewer than
        `beam_width` distinct hypotheses exist, the remaining entries are
        placeholders scored about `-1e9 / lp`, far below any real one.
    """
    max_length, end_token, pad_token = _check(max_length, end_token, pad_token)
    if not is_int(beam_width) or beam_width < 1:
        raise ValueError(
            f"`beam_width` must be a positive integer. Received: beam_width={beam_width!r}"
        )
    beam_width = int(beam_width)
    shares = getattr(step_fn, "shares_constants_across_beams", False)
    _check_batch(
        start_tokens,
        [("initial_state", initial_state)]
        + ([] if shares else [("constants", constants)]),
    )
    k = beam_width
    start_tokens = ops.cast(start_tokens, "int32")
    batch = ops.shape(start_tokens)[0]
    state = tree.map_structure(lambda x: _tile(x, k), initial_state)
    if not shares:
        constants = tree.map_structure(lambda x: _tile(x, k), constants)
    tokens = _tile(start_tokens, k)

    def rows(parent):
        """Flat row indices (B * K,) of the parents (B, K)."""
        offsets = ops.arange(batch, dtype="int32")[:, None] * k
        return ops.reshape(offsets + parent, (-1,))

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
        out_attention,
    ):
        logits, state, attention = step_fn(tokens, state, constants)
        vocab = ops.shape(logits)[-1]
        log_probs = ops.log_softmax(ops.cast(logits, "float32"), axis=-1)
        log_probs = _never_pad(log_probs, pad_token, end_token)
        log_probs = ops.reshape(log_probs, (batch, k, vocab))  # (B, K, V)
        attention = ops.reshape(ops.cast(attention, "float32"), (batch, k, -1))
        attention = ops.where(finished[:, :, None], 0.0, attention)  # (B, K, Tx)
        if coverage is None:  # first step, outside the loop
            tx = ops.shape(attention)[-1]
            coverage = ops.zeros((batch, k, tx), "float32")
            out_attention = ops.zeros((batch, k, max_length, tx), "float32")
        # A finished hypothesis has one extension, pad_token, at no cost.
        frozen = ops.where(
            ops.arange(vocab, dtype="int32")[None, None, :] == pad_token, 0.0, NEG_INF
        )
        log_probs = ops.where(finished[:, :, None], frozen, log_probs)
        candidate_sum = log_probs_sum[:, :, None] + log_probs  # (B, K, V)
        new_lengths = lengths + ops.cast(ops.logical_not(finished), "int32")  # (B, K)
        new_coverage = coverage + attention  # (B, K, Tx)
        candidate_scores = candidate_sum
        if alpha:
            candidate_scores = (
                candidate_scores / length_penalty(new_lengths, alpha)[:, :, None]
            )
        if beta:
            mask = None if memory_mask is None else memory_mask[:, None, :]
            candidate_scores = (
                candidate_scores
                + coverage_penalty(new_coverage, mask, beta)[:, :, None]
            )
        flat_scores = ops.reshape(candidate_scores, (batch, k * vocab))
        scores, index = ops.top_k(flat_scores, k, sorted=True)  # (B, K)
        index = ops.cast(index, "int32")
        parent, chosen = index // vocab, index % vocab
        log_probs_sum = ops.take_along_axis(
            ops.reshape(candidate_sum, (batch, k * vocab)), index, axis=1
        )
        lengths = ops.take_along_axis(new_lengths, parent, axis=1)
        parent_finished = ops.take_along_axis(finished, parent, axis=1)
        coverage = ops.take_along_axis(new_coverage, parent[:, :, None], axis=1)
        step_attention = ops.take_along_axis(attention, parent[:, :, None], axis=1)
        out_tokens = ops.take_along_axis(out_tokens, parent[:, :, None], axis=1)
        out_attention = ops.take_along_axis(
            out_attention, parent[:, :, None, None], axis=1
        )
        chosen = ops.where(parent_finished, pad_token, chosen)
        out_tokens = _write_beam(out_tokens, t, chosen)
        out_attention = _write_beam(out_attention, t, step_attention)
        finished = ops.logical_or(parent_finished, ops.equal(chosen, end_token))
        flat_parent = rows(parent)
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
            out_attention,
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
        None,
    )

    (_, _, _, _, _, scores, lengths, _, out_tokens, out_attention) = ops.while_loop(
        _until_done(max_length), advance, loop_vars
    )
    return {
        "tokens": out_tokens,
        "scores": scores,
        "lengths": lengths,
        "attention": out_attention,
    }


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

    Returns:
        The dict of the module docstring without a beam axis: `tokens`
        `(B, T)`, `scores` `(B,)`, `lengths` `(B,)`, `attention`
        `(B, T, Tx)`.
    """
    if beam_width == 1:
        return greedy_search(
            step_fn, initial_state, start_tokens, end_token, max_length, constants,
            pad_token,
        )  # fmt: skip
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
    return {key: value[:, 0] for key, value in out.items()}


def _write_beam(buffer, t, value):
    """buffer[:, :, t] = value, for a buffer (B, K, T, ...) and value (B, K, ...)."""
    start = [0, 0, t] + [0] * (len(buffer.shape) - 3)
    return ops.slice_update(buffer, start, ops.expand_dims(value, 2))
