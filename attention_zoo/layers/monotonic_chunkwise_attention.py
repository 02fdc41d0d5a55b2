"""Monotonic chunkwise attention, MoChA (Chiu and Raffel, 2018)."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo import ops as zoo_ops
from attention_zoo._checks import is_int
from attention_zoo.layers.bahdanau_attention import BahdanauAttention
from attention_zoo.layers.luong_attention import LuongAttention
from attention_zoo.layers.monotonic_attention import MonotonicAttention


def _shift(x, offset, fill=0):
    """`y[..., j] = x[..., j + offset]`, `fill` where `j + offset` is outside."""
    if offset == 0:
        return x
    pad = ops.full_like(x[..., : abs(offset)], fill)
    if offset > 0:
        return ops.concatenate([x[..., offset:], pad], axis=-1)
    return ops.concatenate([pad, x[..., :offset]], axis=-1)


def _chunkwise(alignment, chunk_energy, keep, chunk_size):
    """MoChA's expected chunkwise attention, in float32, `O(Tv * chunk_size)`.

    `beta_j = sum_{k=j}^{j+w-1} alpha_k exp(u_j) / sum_{l=k-w+1}^{k} exp(u_l)`:
    each `alpha_k` is spread by a softmax over the chunk of `w` keys ending
    at `k`. Each chunk's softmax is shifted by the chunk's own maximum, so
    every exponential is at most 1 and every denominator at least 1 (the
    chunk of an unmasked `k` contains `k`): no overflow and no division by
    zero, whatever the spread of the energies. A single shift for the whole
    memory would let a chunk whose energies all lie far below the maximum
    underflow to `0 / 0`.

    Args:
        alignment: `(..., Tv)` float32, the monotonic alignment `alpha`.
        chunk_energy: `(..., Tv)` float32, the chunk energies `u`.
        keep: `(..., Tv)` bool, the unmasked keys.
        chunk_size: int `w`.

    Returns:
        `beta` `(..., Tv)` float32.
    """
    low = zoo_ops.large_negative_number(chunk_energy.dtype)
    energy = ops.where(keep, chunk_energy, low)
    # Column d: the key k - d of the chunk ending at k.
    members = [_shift(energy, -d, low) for d in range(chunk_size)]  # (..., Tv) each
    valid = [_shift(keep, -d) for d in range(chunk_size)]
    chunk_max = members[0]
    for member in members[1:]:
        chunk_max = ops.maximum(chunk_max, member)
    exps = [
        ops.where(v, ops.exp(m - chunk_max), ops.zeros_like(m))
        for m, v in zip(members, valid)
    ]  # each <= 1
    total = exps[0]
    for e in exps[1:]:
        total = total + e  # (..., Tv) >= 1 where k is unmasked
    share = alignment / ops.where(total > 0, total, ops.ones_like(total))
    # alpha_k exp(u_{k-d} - max_k) / total_k lands on key j = k - d.
    beta = ops.zeros_like(alignment)
    for d, e in enumerate(exps):
        beta = beta + _shift(share * e, d)
    return beta


@keras.saving.register_keras_serializable(package="attention_zoo")
class MonotonicChunkwiseAttention(MonotonicAttention):
    """Monotonic chunkwise attention, MoChA (Chiu and Raffel, 2018).

    Monotonic attention (`MonotonicAttention`) picks where a chunk ends; a
    softmax over the `chunk_size` keys of that chunk, with a second energy
    `u` of the same form (Bahdanau or Luong "general", its own weights, no
    scalar bias), gives the weights. At inference with `inference="hard"`:
    the softmax of `u` over the unmasked keys among the `w` positions ending
    at the attended key `t_i`, `t_i - w + 1 .. t_i` (zero weights once the
    monotonic attention has run off the end).
    In training, the expectation of that process over the monotonic
    alignment `alpha`:

        beta_{i,j} = sum_{k=j}^{j+w-1} alpha_{i,k} exp(u_{i,j}) / sum_{l=k-w+1}^{k} exp(u_{i,l})

    computed in float32 with `w` shifted copies of the memory axis, each
    chunk's softmax shifted by the chunk's own maximum (no overflow, no
    `0 / 0`): `O(Tv * w)` on top of the monotonic attention's `O(Tv^2)`.
    The weights sum to `sum_k alpha_k <= 1`. The state is the monotonic
    alignment `alpha`, as in `MonotonicAttention`; `chunk_size=1` is
    monotonic attention.

    Args:
        chunk_size: positive int `w`, the number of keys in a chunk.
        units: positive int, hidden size of the Bahdanau energies (required
            for `score_mode="bahdanau"`, not allowed for `"luong"`).
        score_mode: `"bahdanau"` or `"luong"`, the form of both energies.
        normalize: bool, for both energies; see `MonotonicAttention`.
        sigmoid_noise: float `>= 0`, pre-sigmoid noise of the monotonic
            energy in training. Too little leaves the stop probabilities
            soft, and the hard inference then falls behind the training
            alignment: on the dates task noise 4 (Adam 1e-2) did better
            than unit noise (Adam 3e-3), whose hard inference fell behind
            `inference="expected"` (docs/layers.md).
        score_bias_init: float, initial scalar bias `r` of the monotonic
            energy; see `MonotonicAttention`.
        inference: `"hard"` or `"expected"`, the attention at inference.
        kernel_initializer: initializer of the energies' projection weights.
        bias_initializer: initializer of the Bahdanau energies' bias `b`.
        kernel_regularizer: optional regularizer of the projection weights.
        dropout: fraction of attention weights dropped during training.
        seed: seed of the dropout and of the sigmoid noise.
        **kwargs: base layer arguments (`name`, `dtype`, ...).

    Call arguments and returns: see `attention_zoo.layers.BaseAttention`;
    `training=True` selects the expected attention.

    Examples:
        >>> import numpy as np
        >>> layer = MonotonicChunkwiseAttention(chunk_size=2, units=8)
        >>> query = np.random.rand(2, 3, 4).astype("float32")  # (B, Tq, Dq)
        >>> value = np.random.rand(2, 5, 6).astype("float32")  # (B, Tv, Dv)
        >>> context, weights = layer(
        ...     query, value, training=True, return_attention_scores=True
        ... )
        >>> tuple(context.shape), tuple(weights.shape)
        ((2, 3, 6), (2, 3, 5))
        >>> bool((keras.ops.convert_to_numpy(weights).sum(-1) <= 1 + 1e-6).all())
        True

    References:
        Chiu, Raffel. "Monotonic Chunkwise Attention". ICLR 2018.
        https://arxiv.org/abs/1712.05382
    """

    def __init__(
        self,
        chunk_size: int,
        units: int | None = None,
        score_mode: str = "bahdanau",
        normalize: bool = True,
        sigmoid_noise: float = 0.0,
        score_bias_init: float = -1.0,
        inference: str = "hard",
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        dropout: float = 0.0,
        seed: int | None = None,
        **kwargs,
    ):
        if not is_int(chunk_size) or chunk_size <= 0:
            raise ValueError(
                f"{self.__class__.__name__}: `chunk_size` must be a positive "
                f"integer. Received: chunk_size={chunk_size!r}"
            )
        super().__init__(
            units=units,
            score_mode=score_mode,
            normalize=normalize,
            sigmoid_noise=sigmoid_noise,
            score_bias_init=score_bias_init,
            inference=inference,
            kernel_initializer=kernel_initializer,
            bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer,
            dropout=dropout,
            seed=seed,
            **kwargs,
        )
        self.chunk_size = int(chunk_size)

    def build_scorer(self, query_dim, key_dim):
        super().build_scorer(query_dim, key_dim)
        if self.score_mode == "bahdanau":
            # Chiu & Raffel's ChunkEnergy is the plain additive energy
            # (no weight normalisation, no offset r), whatever `normalize`
            # says about the monotonic energy.
            self._chunk_energy = BahdanauAttention(
                self.units,
                normalize=False,
                kernel_initializer=self.kernel_initializer,
                bias_initializer=self.bias_initializer,
                kernel_regularizer=self.kernel_regularizer,
                name="chunk_energy",
                dtype=self.dtype_policy,
            )
            self._key_split = self.units
        else:
            self._chunk_energy = LuongAttention(
                score_mode="general",
                use_scale=False,
                kernel_initializer=self.kernel_initializer,
                kernel_regularizer=self.kernel_regularizer,
                name="chunk_energy",
                dtype=self.dtype_policy,
            )
            self._key_split = query_dim
        self._chunk_energy.build((None, None, query_dim), (None, None, key_dim))

    def project_key(self, key):
        self._check_built("project_key")
        # One tensor (decoders and beam search carry it as a single constant):
        # the two energies' projections side by side.
        return ops.concatenate(
            [self._energy.project_key(key), self._chunk_energy.project_key(key)],
            axis=-1,
        )  # (B, Tv, 2 * units) or (B, Tv, 2 * Dq)

    def score(self, query, projected_key):
        """The monotonic energies `e + r` `(B, Tq, Tv)`, in float32."""
        return super().score(query, projected_key[..., : self._key_split])

    def chunk_score(self, query, projected_key):
        """The chunk energies `u` `(B, Tq, Tv)`, in float32."""
        projected = projected_key[..., self._key_split :]
        return ops.cast(self._chunk_energy.score(query, projected), self.work_dtype)

    def step_weights(
        self,
        query,
        projected_key,
        state,
        value_mask=None,
        training=None,
        noise=None,
    ):
        _, new_state = super().step_weights(
            query, projected_key, state, value_mask, training, noise=noise
        )
        alignment = new_state[0]  # (B, R, Tv) float32, the monotonic alpha
        chunk_energy = self.chunk_score(query, projected_key)  # (B, R, Tv)
        keep = (
            ops.ones_like(chunk_energy, dtype="bool")
            if value_mask is None
            else ops.broadcast_to(value_mask[:, None, :], ops.shape(chunk_energy))
        )
        weights = _chunkwise(alignment, chunk_energy, keep, self.chunk_size)
        return ops.cast(weights, self.compute_dtype), new_state

    def get_config(self):
        config = super().get_config()
        config["chunk_size"] = self.chunk_size
        return config
