"""Independent NumPy float64 implementations of every score function.

Written from the papers' equations, not from the layer code: the only thing
taken from a layer is its weights.
"""

from __future__ import annotations

import numpy as np


def f64(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


def masked_softmax(scores, mask=None):
    """Softmax over the last axis; rows with no unmasked entry give zeros."""
    scores = f64(scores)
    if mask is None:
        mask = np.ones(scores.shape, bool)
    mask = np.broadcast_to(mask, scores.shape)
    out = np.zeros_like(scores)
    for index in np.ndindex(scores.shape[:-1]):
        row, keep = scores[index], mask[index]
        if not keep.any():
            continue
        e = np.exp(row[keep] - row[keep].max())
        out[index][keep] = e / e.sum()
    return out


def attention(scores, value, query_mask=None, value_mask=None):
    """Weights and context from raw scores `(B, Tq, Tv)`."""
    key_mask = None if value_mask is None else np.asarray(value_mask, bool)[:, None, :]
    weights = masked_softmax(scores, key_mask)
    if query_mask is not None:
        weights = weights * np.asarray(query_mask, bool)[:, :, None]
    return weights @ f64(value), weights


def bahdanau_scores(query, key, w1, w2, b, v, g=None):
    """v^T tanh(W1 q_i + W2 k_j + b), optionally with v = g v / ||v||."""
    q, k, w1, w2, b, v = map(f64, (query, key, w1, w2, b, v))
    if g is not None:
        v = float(g) * v / np.linalg.norm(v)
    pq = q @ w1  # (B, Tq, U)
    pk = k @ w2 + b  # (B, Tv, U)
    out = np.zeros(q.shape[:2] + (k.shape[1],))
    for i in range(q.shape[1]):
        for j in range(k.shape[1]):
            out[:, i, j] = np.tanh(pq[:, i] + pk[:, j]) @ v
    return out


def luong_scores(mode, query, key, kernel=None, query_kernel=None, v=None, scale=None):
    """The four score functions of Luong et al. (2015), eqs. (8) and (9)."""
    q, k = f64(query), f64(key)
    if mode == "dot":
        out = np.einsum("bid,bjd->bij", q, k)
    elif mode == "general":
        # q^T W k with W stored as a (Dk, Dq) kernel: W k = k @ kernel.
        out = np.einsum("bid,bjd->bij", q, k @ f64(kernel))
    elif mode == "concat":
        # W [q; k] with W split into its query rows and key rows.
        w = np.concatenate([f64(query_kernel), f64(kernel)], axis=0)
        out = np.zeros(q.shape[:2] + (k.shape[1],))
        for i in range(q.shape[1]):
            for j in range(k.shape[1]):
                pair = np.concatenate([q[:, i], k[:, j]], axis=-1)  # (B, Dq + Dk)
                out[:, i, j] = np.tanh(pair @ w) @ f64(v)
    elif mode == "location":
        out = (q @ f64(query_kernel))[:, :, : k.shape[1]]
    else:
        raise ValueError(mode)
    if scale is not None:
        out = out * float(scale)
    return out


def layer_scores(layer, query, key):
    """Scores of an attention_zoo layer recomputed from its weights in float64."""
    import keras

    def w(variable):
        return keras.ops.convert_to_numpy(variable)

    name = type(layer).__name__
    if name == "BahdanauAttention":
        return bahdanau_scores(
            query,
            key,
            w(layer._query_dense.kernel),
            w(layer._key_dense.kernel),
            w(layer._key_dense.bias),
            w(layer.attention_v),
            w(layer.attention_g) if layer.normalize else None,
        )
    if name == "LuongAttention":
        mode = layer.score_mode
        return luong_scores(
            mode,
            query,
            key,
            kernel=w(layer._key_dense.kernel)
            if mode in ("general", "concat")
            else None,
            query_kernel=(
                w(layer._query_dense.kernel) if mode in ("concat", "location") else None
            ),
            v=w(layer.attention_v) if mode == "concat" else None,
            scale=w(layer.scale) if layer.use_scale else None,
        )
    raise NotImplementedError(name)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def gru_step(x, h, kernel, recurrent_kernel, bias):
    """Keras GRUCell (reset_after=True), float64: returns the new state."""
    x, h, kernel, recurrent_kernel, bias = map(
        f64, (x, h, kernel, recurrent_kernel, bias)
    )
    u = h.shape[-1]
    mx = x @ kernel + bias[0]
    mh = h @ recurrent_kernel + bias[1]
    z = sigmoid(mx[:, :u] + mh[:, :u])
    r = sigmoid(mx[:, u : 2 * u] + mh[:, u : 2 * u])
    candidate = np.tanh(mx[:, 2 * u :] + r * mh[:, 2 * u :])
    return z * h + (1 - z) * candidate


def gru_sequence(xs, mask, weights, reverse=False):
    """Run `gru_step` over (B, T, E) from zeros; masked steps keep the state.

    Returns outputs (B, T, U) at unmasked steps (zeros elsewhere) and the
    final state.
    """
    kernel, recurrent_kernel, bias = weights
    b, t = xs.shape[:2]
    h = np.zeros((b, recurrent_kernel.shape[0]))
    outputs = np.zeros((b, t, h.shape[1]))
    steps = range(t - 1, -1, -1) if reverse else range(t)
    for i in steps:
        new = gru_step(xs[:, i], h, kernel, recurrent_kernel, bias)
        keep = mask[:, i][:, None]
        h = np.where(keep, new, h)
        outputs[:, i] = np.where(keep, h, 0.0)
    return outputs, h


def lstm_step(x, h, c, kernel, recurrent_kernel, bias):
    """Keras LSTMCell (gates i, f, c, o; sigmoid and tanh), float64: `(h, c)`."""
    x, h, c, kernel, recurrent_kernel, bias = map(
        f64, (x, h, c, kernel, recurrent_kernel, bias)
    )
    u = h.shape[-1]
    z = x @ kernel + h @ recurrent_kernel + bias
    i, f = sigmoid(z[:, :u]), sigmoid(z[:, u : 2 * u])
    c = f * c + i * np.tanh(z[:, 2 * u : 3 * u])
    o = sigmoid(z[:, 3 * u :])
    return o * np.tanh(c), c
