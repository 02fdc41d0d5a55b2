"""Sampling: every token drawn from the model's distribution (Gumbel-max),
optionally among its `top_k` most probable tokens (Fan et al. 2018) or its
nucleus, the fewest most probable tokens whose probabilities add up to
`top_p` (Holtzman et al. 2020)."""

from __future__ import annotations

import keras
import numpy as np
from keras import ops

from attention_zoo._checks import checked_real, is_int
from attention_zoo.decoding._common import NEG_INF, check_lengths, run_token_loop

FLOAT32_TINY = float(np.finfo(np.float32).tiny)


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
    top_p: float | None = None,
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
        temperature: a finite float, at least float32's smallest normal
            number (about 1.2e-38); log-probabilities are divided by
            it (towards 0: greedy search; large: uniform over the allowed
            tokens).
        top_k: optional positive int; sample among the `top_k` most probable
            tokens only.
        top_p: optional float in `(0, 1]`; sample among the nucleus only:
            the most probable tokens, in order, until their probabilities
            (after `temperature` and `top_k`, as Holtzman et al. 2020 and
            keras-hub's `TopPSampler` apply it) reach `top_p`; the most
            probable token always belongs to it, and tokens tied with the
            last one in are kept with it (`nucleus`).
        seed: int, `keras.random.SeedGenerator` (outside a raw `jax.jit`),
            or on JAX a key array.

    Returns:
        The dict described in `attention_zoo.decoding`; `scores` are the
        log-probabilities of the drawn tokens under the model (before
        temperature, top-k and top-p).
    """
    temperature = checked_real(
        "sample", "temperature", temperature, minimum=0.0, open_minimum=True
    )
    if temperature < FLOAT32_TINY:
        # Below float32's smallest normal number the division runs on a
        # denormal or on 0 (flushed), and every token's scaled logit becomes
        # NaN or -inf: the loop would emit padding only. Refused, not
        # clamped: such a temperature asks for greedy search, which is
        # `greedy_search`.
        raise ValueError(
            f"`temperature` must be at least {FLOAT32_TINY:.4g}, float32's "
            "smallest normal number (use greedy_search for the limit of a "
            f"temperature towards 0). Received: temperature={temperature!r}"
        )
    if top_k is not None and (not is_int(top_k) or top_k < 1):
        raise ValueError(
            f"`top_k` must be a positive integer. Received: top_k={top_k!r}"
        )
    top_k = None if top_k is None else int(top_k)
    if top_p is not None:
        top_p = checked_real(
            "sample", "top_p", top_p, minimum=0.0, maximum=1.0, open_minimum=True
        )
    if is_int(seed):
        seed = int(seed)  # Keras's random functions refuse NumPy integers
    max_length, end_token, pad_token = check_lengths(max_length, end_token, pad_token)
    noise = {}

    def select(log_probs, t):
        vocab_size = log_probs.shape[-1]
        if top_k is not None and vocab_size is not None and top_k > vocab_size:
            raise ValueError(
                f"`top_k` must be at most the vocabulary size of the step's "
                f"logits, {vocab_size}. Received: top_k={top_k}"
            )
        # Scaled relative to the best allowed token, which scales to 0: a
        # tiny temperature sends the others towards -inf (greedy), never the
        # best one. Forbidden tokens (`never_pad`, beyond `top_k`) are masked
        # after scaling with -inf, which no scaled logit can lose to (a
        # finite mask did at temperatures <= 1e-9).
        allowed = log_probs > NEG_INF
        best = ops.max(ops.where(allowed, log_probs, -np.inf), axis=-1, keepdims=True)
        logits = ops.where(allowed, (log_probs - best) / temperature, -np.inf)
        if top_k is not None:
            kth = ops.top_k(logits, top_k, sorted=True)[0][:, -1:]
            logits = ops.where(logits < kth, -np.inf, logits)
        if top_p is not None and top_p < 1.0:
            logits = nucleus(logits, top_p)
        if "gumbel" not in noise:
            shape = (max_length, *ops.shape(log_probs))
            uniform = keras.random.uniform(shape, minval=1e-9, maxval=1.0, seed=seed)
            noise["gumbel"] = -ops.log(-ops.log(uniform))
        gumbel = ops.take(noise["gumbel"], t, axis=0)
        return ops.argmax(logits + gumbel, axis=-1)

    return run_token_loop(
        step_fn,
        initial_state,
        start_tokens,
        constants,
        max_length,
        end_token,
        pad_token,
        select,
    )


def nucleus(logits, top_p: float):
    """`logits` `(B, V)` with every token outside the nucleus set to -inf.

    The nucleus is the most probable tokens of `softmax(logits)`, in
    order, up to the first whose cumulative probability reaches `top_p`
    (so the most probable one always); every token whose logit equals the
    last one kept is kept too, so that the order of ties changes nothing.
    """
    vocab_size = logits.shape[-1] or ops.shape(logits)[-1]
    ordered = ops.top_k(logits, vocab_size, sorted=True)[0]  # descending
    probs = ops.softmax(ordered, axis=-1)
    before = ops.cumsum(probs, axis=-1) - probs  # mass of the better tokens
    inside = before < top_p
    cutoff = ops.min(ops.where(inside, ordered, np.inf), axis=-1, keepdims=True)
    return ops.where(logits < cutoff, -np.inf, logits)
