"""Coverage attention (See, Liu, Manning, 2017)."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo.layers.bahdanau_attention import BahdanauAttention
from attention_zoo.layers.base_attention import clone_initializer


@keras.saving.register_keras_serializable(package="attention_zoo")
class CoverageAttention(BahdanauAttention):
    """Additive attention that also reads how much each key was attended.

    The coverage vector `c^t = sum_{t' < t} a^{t'}` `(Tv,)` sums the
    attention of all previous decoder steps, and enters the score of each
    key through a learned vector `w_c` (See et al. 2017, eq. 11):

    ```
    e_i^t = v^T tanh(W_h h_i + W_s s_t + w_c c_i^t + b_attn)
    a^t = softmax(e^t)   over the unmasked keys i
    c^{t+1} = c^t + a^t
    ```

    so the mechanism can learn not to attend again to source positions it
    already covered, which reduces repetition in summarisation and
    translation. Coverage was introduced for NMT by Tu et al. (2016); this is
    the simpler form of See et al., a sum of the past alignments. Pair it
    with `attention_zoo.losses.CoverageLoss` (their eq. 12-13), which
    penalises attending again to covered positions.

    The state (`num_states` is 1) is the coverage `(B, Tv)`, zero before the
    first step and kept in float32 under every dtype policy (float64 under
    a float64 one, see `BaseAttention.work_dtype`). Calling the
    layer on a query sequence `(B, Tq, Dq)` runs the steps over `Tq` from
    that zero state; a decoder carries it with `get_initial_state` and `step`
    (see `BaseAttention`). `W_h h + b_attn` is `project_key(key)`.

    Args:
        units: positive int, size of the hidden scoring layer.
        normalize: bool; weight-normalised `v` (see `BahdanauAttention`).
        coverage_initializer: initializer of `w_c`. Zeros by default: the
            layer starts as `BahdanauAttention` and learns how much the
            coverage should count. (On the dates task a Glorot-initialised
            `w_c` stalled below a zero-initialised one in the default
            budget: docs/layers.md.)
        kernel_initializer: initializer of `W_h`, `W_s` and `v`.
        bias_initializer: initializer of `b_attn`.
        kernel_regularizer: optional regularizer of `W_h`, `W_s`, `w_c`, `v`.
        dropout: fraction of attention weights dropped during training (the
            coverage sums the weights before dropout).
        seed: seed of the dropout.
        **kwargs: base layer arguments (`name`, `dtype`, ...).

    Call arguments and returns: see `attention_zoo.layers.BaseAttention`.

    Examples:
        >>> import numpy as np
        >>> layer = CoverageAttention(units=8)
        >>> query = np.random.rand(2, 3, 4).astype("float32")  # (B, Tq, Dq)
        >>> value = np.random.rand(2, 5, 6).astype("float32")  # (B, Tv, Dv)
        >>> context, weights = layer(query, value, return_attention_scores=True)
        >>> tuple(context.shape), tuple(weights.shape)
        ((2, 3, 6), (2, 3, 5))

        Step by step, the coverage is the sum of the weights so far:

        >>> key = layer.project_key(value)
        >>> state = layer.get_initial_state(value)  # [c^0 = zeros (B, Tv)]
        >>> _, a0, state = layer.step(query[:, 0], value, key, state)
        >>> _, a1, state = layer.step(query[:, 1], value, key, state)
        >>> to_numpy = keras.ops.convert_to_numpy
        >>> np.allclose(to_numpy(state[0]), to_numpy(a0) + to_numpy(a1))
        True

    References:
        See, Liu, Manning. "Get To The Point: Summarization with
        Pointer-Generator Networks". ACL 2017. https://arxiv.org/abs/1704.04368

        Tu, Lu, Liu, Liu, Li. "Modeling Coverage for Neural Machine
        Translation". ACL 2016. https://arxiv.org/abs/1601.04811
    """

    num_states = 1

    def __init__(
        self,
        units: int,
        normalize: bool = False,
        coverage_initializer="zeros",
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        dropout: float = 0.0,
        seed: int | None = None,
        **kwargs,
    ):
        super().__init__(
            units,
            normalize=normalize,
            kernel_initializer=kernel_initializer,
            bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer,
            dropout=dropout,
            seed=seed,
            **kwargs,
        )
        self.coverage_initializer = keras.initializers.get(coverage_initializer)

    def build_scorer(self, query_dim, key_dim):
        super().build_scorer(query_dim, key_dim)
        self._coverage_dense = keras.layers.Dense(
            self.units,
            use_bias=False,
            kernel_initializer=clone_initializer(self.coverage_initializer),
            kernel_regularizer=self.kernel_regularizer,
            name="coverage_dense",
            dtype=self.dtype_policy,
        )  # w_c, a (1, units) kernel
        self._coverage_dense.build((None, None, 1))

    def get_initial_state(self, value, value_mask=None):
        return [ops.zeros_like(value[:, :, 0], dtype=self.work_dtype)]  # (B, Tv)

    def step_weights(self, query, projected_key, state, value_mask=None, training=None):
        coverage = state[0]  # (B, R, Tv)
        extra = self._coverage_dense(
            ops.cast(coverage[..., None], self.compute_dtype)
        )  # (B, R, Tv, units)
        scores = self.score(query, projected_key, extra=extra)  # (B, R, Tv)
        weights = self.compute_weights(scores, None, value_mask)  # (B, R, Tv)
        return weights, [coverage + ops.cast(weights, self.work_dtype)]

    def get_config(self):
        config = super().get_config()
        config["coverage_initializer"] = keras.initializers.serialize(
            self.coverage_initializer
        )
        return config
