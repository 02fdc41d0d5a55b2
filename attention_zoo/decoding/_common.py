"""What greedy search, sampling and beam search share: argument checks, the
pad mask, the loop condition, buffer writes, and the token-by-token loop of
greedy search and sampling."""

from __future__ import annotations

import contextlib
import contextvars

from keras import ops, tree

from attention_zoo._checks import is_int, static_shape

NEG_INF = -1e9
# Upper bounds on the loop sizes. The buffers hold `(B, K, max_length, Tx)`
# attention floats and sampling draws `(max_length, B, V)` noise up front, so
# a mistyped size would allocate gigabytes before failing; no application
# here needs more than a few hundred steps or a beam of a few dozen.
MAX_LENGTH_LIMIT = 10_000
BEAM_WIDTH_LIMIT = 1024


def check_lengths(max_length, end_token, pad_token):
    """The three as Python ints, or a ValueError naming the bad one."""
    if not is_int(max_length) or max_length < 1:
        raise ValueError(
            f"`max_length` must be a positive integer. Received: max_length={max_length!r}"
        )
    if max_length > MAX_LENGTH_LIMIT:
        raise ValueError(
            f"`max_length` must be at most {MAX_LENGTH_LIMIT} (the buffers hold "
            f"every step). Received: max_length={max_length}"
        )
    for name, token in (("end_token", end_token), ("pad_token", pad_token)):
        if not is_int(token) or token < 0:
            raise ValueError(
                f"`{name}` must be a non-negative integer. Received: {name}={token!r}"
            )
    return int(max_length), int(end_token), int(pad_token)


def check_beam_width(beam_width):
    """`beam_width` as a Python int in `[1, BEAM_WIDTH_LIMIT]`, or a ValueError."""
    if not is_int(beam_width) or beam_width < 1:
        raise ValueError(
            f"`beam_width` must be a positive integer. Received: beam_width={beam_width!r}"
        )
    if beam_width > BEAM_WIDTH_LIMIT:
        raise ValueError(
            f"`beam_width` must be at most {BEAM_WIDTH_LIMIT} (every step ranks "
            f"beam_width * V candidates per sequence). Received: "
            f"beam_width={beam_width}"
        )
    return int(beam_width)


def check_batch(start_tokens, named_structures):
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


def never_pad(log_probs, pad_token, end_token):
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


def until_done(max_length):
    """Loop condition: steps left and a sequence still unfinished.

    Both loops carry `(t, tokens, state, finished, ...)`.
    """

    def cond(t, tokens, state, finished, *rest):
        return ops.logical_and(t < max_length, ops.logical_not(ops.all(finished)))

    return cond


# Set while a LiteRT or ONNX export traces a search (`select_writes`).
_SELECT_WRITES = contextvars.ContextVar("attention_zoo_select_writes", default=False)


@contextlib.contextmanager
def select_writes():
    """Within this block, the searches write a step into their buffers by a
    select over the steps instead of `ops.slice_update`.

    On TensorFlow `slice_update` is `XlaDynamicUpdateSlice`, which neither
    tf2onnx nor the LiteRT converter lowers to builtin operators, so the
    portable exports trace their searches in this block. Elsewhere the
    select would cost a pass over the whole buffer at every step, which
    for the attention history `(B, K, T, Tx)` of a beam search is more than
    the step's own work.
    """
    token = _SELECT_WRITES.set(True)
    try:
        yield
    finally:
        _SELECT_WRITES.reset(token)


def portable_trace() -> bool:
    """Whether a LiteRT or ONNX export is tracing (`select_writes`): a step
    then keeps to the operators those formats have."""
    return _SELECT_WRITES.get()


def write(buffer, t, value, axis: int = 1):
    """`buffer[:, t] = value` (`axis` 1), or `buffer[:, :, t] = value` (2)."""
    steps = buffer.shape[axis]
    if _SELECT_WRITES.get():
        at = ops.reshape(
            ops.equal(ops.arange(steps, dtype="int32"), ops.cast(t, "int32")),
            (1,) * axis + (steps,) + (1,) * (len(buffer.shape) - axis - 1),
        )
        return ops.where(at, ops.expand_dims(value, axis), buffer)
    starts = [0] * len(buffer.shape)
    starts[axis] = ops.cast(t, "int32")
    return ops.slice_update(buffer, starts, ops.expand_dims(value, axis))


def step_trace(attention) -> dict:
    """What a step function returns besides logits and state, as a dict.

    A step returns its attention `(B, Tx)`, or a dict holding it under
    `"attention"` and other per-step values under their own names (a copy
    mechanism's `p_gen` `(B, 1)`, say); the searches buffer every entry per
    step and return each under its name.
    """
    if isinstance(attention, dict):
        if "attention" not in attention:
            raise ValueError(
                "A step function that returns a dict as its third output must "
                'hold the attention weights under "attention". Received keys: '
                f"{sorted(attention)}"
            )
        return {k: ops.cast(v, "float32") for k, v in attention.items()}
    return {"attention": ops.cast(attention, "float32")}


def run_token_loop(
    step_fn,
    initial_state,
    start_tokens,
    constants,
    max_length,
    end_token,
    pad_token,
    select,
    shift_invariant: bool = False,
):
    """Shared loop of greedy search and sampling; `select(log_probs, t)`.

    With `shift_invariant` (`select` picks the same token when a row is
    shifted by a constant, as an argmax does), `select` gets the logits
    with `pad_token` masked instead of the log-probabilities, and only the
    chosen token's log-probability is computed (its logit minus the row's
    log-sum-exp): the loop skips writing a `(B, V)` row of
    log-probabilities at every step (benchmarks/step_parts.py).
    """
    max_length, end_token, pad_token = check_lengths(max_length, end_token, pad_token)
    check_batch(start_tokens, [("initial_state", initial_state)])
    start_tokens = ops.cast(start_tokens, "int32")
    batch = ops.shape(start_tokens)[0]

    def advance(t, tokens, state, finished, scores, lengths, out_tokens, out_trace):
        logits, state, trace = step_fn(tokens, state, constants)
        logits = ops.cast(logits, "float32")  # (B, V)
        if shift_invariant:
            candidates = never_pad(logits, pad_token, end_token)
            log_norm = ops.logsumexp(logits, axis=-1)  # (B,)
        else:
            candidates = never_pad(
                ops.log_softmax(logits, axis=-1), pad_token, end_token
            )
            log_norm = 0.0
        chosen = ops.cast(select(candidates, t), "int32")
        chosen = ops.where(finished, pad_token, chosen)
        vocab = ops.shape(logits)[-1]
        flat = ops.arange(batch, dtype="int32") * vocab + chosen
        # A live row never chooses the masked pad_token, so its entry in
        # `candidates` is its logit (or log-probability) unmasked.
        token_log_prob = ops.take(ops.reshape(candidates, (-1,)), flat) - log_norm
        scores = scores + ops.where(finished, 0.0, token_log_prob)
        lengths = lengths + ops.cast(ops.logical_not(finished), "int32")
        trace = {
            k: ops.where(finished[:, None], 0.0, v)
            for k, v in step_trace(trace).items()
        }
        if out_trace is None:  # first step, outside the loop
            out_trace = {
                k: ops.zeros((batch, max_length, ops.shape(v)[-1]), "float32")
                for k, v in trace.items()
            }
        out_tokens = write(out_tokens, t, chosen)
        out_trace = {k: write(out_trace[k], t, v) for k, v in trace.items()}
        finished = ops.logical_or(finished, ops.equal(chosen, end_token))
        return (
            t + 1,
            chosen,
            state,
            finished,
            scores,
            lengths,
            out_tokens,
            out_trace,
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

    t, _, _, _, scores, lengths, out_tokens, out_trace = ops.while_loop(
        until_done(max_length), advance, loop_vars
    )
    return {"tokens": out_tokens, "scores": scores, "lengths": lengths, **out_trace}
