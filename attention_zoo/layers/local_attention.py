"""Luong local attention: local-m and local-p."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo import ops as zoo_ops
from attention_zoo._checks import is_int, optional_int
from attention_zoo.layers.base_attention import clone_initializer
from attention_zoo.layers.luong_attention import LuongAttention

MODES = ("local-m", "local-p")
SCORE_MODES = ("dot", "general", "concat")


@keras.saving.register_keras_serializable(package="attention_zoo")
class LocalAttention(LuongAttention):
    """Local attention of Luong et al. (2015, section 3.2): a window of keys.

    Each decoder step `t` attends to the keys within `D` positions of an
    aligned position `p_t`, scored with one of `LuongAttention`'s content
    scores (`"dot"`, `"general"`, `"concat"`; its query-only `"location"`
    score is refused):

    - `"local-m"` (monotonic): `p_t = t`, the decoder step, and
      `a_t = softmax(score(h_t, h_s))` over the keys `|s - p_t| <= D`.
      The step counter is the mechanism's state (`num_states` is 1: an int32
      tensor `(B, 1)`, 0 before the first step, +1 per unmasked step).
      The paper is silent about masks and steps past the end of the source;
      here `p_t` is the unmasked key nearest to `t` (the earlier one on a
      tie). With padding at the end of the memory that is `t` clipped to the
      last unmasked key, so a step never attends to nothing while the memory
      has keys and the weights sum to 1. Positions count from index 0 of the
      memory: pad memories on the right. Calling the layer on a query
      sequence computes every step at once (step `i` of a row is its number
      of unmasked queries before `i`), equal to stepping with `step`.
    - `"local-p"` (predictive, stateless): eqs. (9) and (10),

      ```
      p_t = S * sigmoid(v_p^T tanh(W_p h_t))             in [0, S]
      a_t(s) = align(h_t, h_s) * exp(-(s - p_t)^2 / (2 sigma^2)),  sigma = D / 2
      ```

      where `align` is the masked softmax of the scores over the keys
      `|s - p_t| <= D` and `S` the source length of the row: the number of
      positions up to and including its last unmasked key (`Tv` without a
      mask). As in the paper, the weights are not renormalised after the
      Gaussian, so they sum to at most 1 (and to 0 when every key of the
      window is masked). `W_p (Dq -> predictive_units)` and `v_p` are
      learned; gradients reach them through the Gaussian.

    Scores are computed for every key and the keys outside the window
    masked: the same weights as scoring the window alone, with static shapes
    on every backend. A memory whose keys are all masked gives zero weights
    and a zero context.

    Args:
        mode: `"local-p"` (default) or `"local-m"`.
        window: positive int, the half-width `D` of the window
            `[p_t - D, p_t + D]` (the paper uses 10).
        score_mode: `"general"` (default), `"dot"` or `"concat"` (see
            `LuongAttention`).
        units: positive int, hidden size of `"concat"` scoring (required for
            it, not allowed for the other modes).
        use_scale: bool; if `True`, scores are multiplied by a learned scalar.
        predictive_units: positive int, output size of `W_p` (local-p only;
            default: the query size `Dq`).
        kernel_initializer: initializer of the projection weights.
        kernel_regularizer: optional regularizer of the projection weights.
        dropout: fraction of attention weights dropped during training.
        seed: seed of the dropout.
        **kwargs: base layer arguments (`name`, `dtype`, ...).

    Call arguments and returns: see `attention_zoo.layers.BaseAttention`
    (the local-m state is carried by `get_initial_state` and `step`). Finite
    inputs give finite weights: a score past the float32 range counts as the
    largest finite score (see `attention_zoo.ops.masked_softmax`). An empty
    memory (`Tv = 0`) gives empty weights and a zero context.

    Examples:
        >>> import numpy as np
        >>> layer = LocalAttention(mode="local-p", window=2)
        >>> query = np.random.rand(2, 3, 4).astype("float32")  # (B, Tq, Dq)
        >>> value = np.random.rand(2, 7, 6).astype("float32")  # (B, Tv, Dv)
        >>> context, weights = layer(query, value, return_attention_scores=True)
        >>> tuple(context.shape), tuple(weights.shape)
        ((2, 3, 6), (2, 3, 7))
        >>> bool((keras.ops.convert_to_numpy(weights).sum(-1) <= 1.0 + 1e-6).all())
        True

        With local-m, step `t` attends to keys `t - D .. t + D`, and past the end
        of the source to the last keys:

        >>> layer = LocalAttention(mode="local-m", window=1, score_mode="dot")
        >>> ones = np.ones((1, 5, 2), "float32")
        >>> _, weights = layer(ones, ones[:, :3], return_attention_scores=True)
        >>> print(np.round(keras.ops.convert_to_numpy(weights)[0], 2))
        [[0.5  0.5  0.  ]
         [0.33 0.33 0.33]
         [0.   0.5  0.5 ]
         [0.   0.5  0.5 ]
         [0.   0.5  0.5 ]]

    References:
        Luong, Pham, Manning. "Effective Approaches to Attention-based Neural
        Machine Translation". EMNLP 2015. https://arxiv.org/abs/1508.04025
    """

    def __init__(
        self,
        mode: str = "local-p",
        window: int = 10,
        score_mode: str = "general",
        units: int | None = None,
        use_scale: bool = False,
        predictive_units: int | None = None,
        kernel_initializer="glorot_uniform",
        kernel_regularizer=None,
        dropout: float = 0.0,
        seed: int | None = None,
        **kwargs,
    ):
        if mode not in MODES:
            raise ValueError(
                f"LocalAttention: `mode` must be one of {MODES}. "
                f"Received: mode={mode!r}"
            )
        for arg, value in (("window", window), ("predictive_units", predictive_units)):
            if arg == "predictive_units" and value is None:
                continue
            if not is_int(value) or value <= 0:
                raise ValueError(
                    f"LocalAttention: `{arg}` must be a positive integer. "
                    f"Received: {arg}={value!r}"
                )
        if score_mode not in SCORE_MODES:
            raise ValueError(
                f"LocalAttention: `score_mode` must be one of {SCORE_MODES} (a "
                "window needs scores that read the keys). "
                f"Received: score_mode={score_mode!r}"
            )
        if mode == "local-m" and predictive_units is not None:
            raise ValueError(
                "LocalAttention: `predictive_units` is only used by "
                f"mode='local-p'. Received: predictive_units={predictive_units!r} "
                f"with mode={mode!r}"
            )
        super().__init__(
            score_mode=score_mode,
            use_scale=use_scale,
            units=units,
            kernel_initializer=kernel_initializer,
            kernel_regularizer=kernel_regularizer,
            dropout=dropout,
            seed=seed,
            **kwargs,
        )
        self.mode = mode
        self.window = int(window)
        self.predictive_units = optional_int(predictive_units)
        self.num_states = 1 if mode == "local-m" else 0
        # `attend_sequence` places every step's window at once: no scan.
        self.scans_steps = False

    def build_scorer(self, query_dim, key_dim):
        super().build_scorer(query_dim, key_dim)
        if self.mode == "local-p":
            self.feature_sizes = (query_dim, self.feature_sizes[1])
            units = self.predictive_units or query_dim
            self._predictive_dense = self._dense(units, "predictive_dense", query_dim)
            self.predictive_v = self.add_weight(
                name="predictive_v",
                shape=(units,),
                initializer=clone_initializer(self.kernel_initializer),
                regularizer=self.kernel_regularizer,
            )

    # ------------------------------------------------------ attention state

    def get_initial_state(self, value, value_mask=None):
        if self.mode == "local-p":
            return []
        return [ops.zeros_like(value[:, :1, 0], dtype="int32")]  # (B, 1)

    def step_weights(self, query, projected_key, state, value_mask=None, training=None):
        if self.mode == "local-p":
            return self._local_p_weights(query, projected_key, value_mask), state
        (steps,) = state  # (B, R, 1)
        weights = self._local_m_weights(query, projected_key, steps, value_mask)
        return weights, [steps + 1]

    def _attends_from_initial_state(self):
        # Both modes go through `attend_sequence`: the base class sends only
        # stateful mechanisms there, and local-p is stateless but its weights
        # are not a softmax of scores alone.
        return True

    def attend_sequence(
        self,
        query,
        value,
        projected_key,
        state,
        query_mask=None,
        value_mask=None,
        training=None,
    ):
        """All `Tq` steps of `query` `(B, Tq, Dq)` at once, from `state`.

        Equal to `step` over the steps (a masked step gets zero weights and
        does not advance the local-m step counter). Returns
        `(context (B, Tq, Dv), weights (B, Tq, Tv), final_state)`.
        """
        query, value, projected_key = self._checked_inputs(
            "attend_sequence", query, value, projected_key, query_mask, value_mask
        )
        if query_mask is not None:
            query_mask = ops.cast(query_mask, "bool")
        if value_mask is not None:
            value_mask = ops.cast(value_mask, "bool")
        state = list(state)
        if self.mode == "local-p":
            weights = self._local_p_weights(query, projected_key, value_mask)
        else:
            start = ops.cast(state[0], "int32")  # (B, 1)
            if query_mask is None:
                steps = ops.arange(ops.shape(query)[1], dtype="int32")[:, None]
                state = [start + ops.shape(query)[1]]
            else:
                taken = ops.cast(query_mask, "int32")  # (B, Tq)
                steps = (ops.cumsum(taken, axis=1) - taken)[:, :, None]
                state = [start + ops.sum(taken, axis=1, keepdims=True)]
            steps = start[:, None, :] + steps  # (B, Tq, 1): unmasked steps before
            weights = self._local_m_weights(query, projected_key, steps, value_mask)
        if query_mask is not None:
            weights = weights * ops.cast(query_mask[:, :, None], weights.dtype)
        context = self._apply_weights(weights, value, training)  # (B, Tq, Dv)
        return context, weights, state

    def aligned_position(self, query, value, value_mask=None):
        """The aligned positions `p_t` that local-p predicts (eq. 9), float32
        (float64 under a float64 policy).

        Args:
            query: `(B, Tq, Dq)`, or `(B, Dq)` for a single step.
            value: `(B, Tv, Dv)`, the memory (only its length is read).
            value_mask: optional boolean `(B, Tv)`, which sets the source
                length `S` of each row.

        Returns:
            `(B, Tq)` (or `(B,)`): `p_t` in `[0, S]`.
        """
        if self.mode != "local-p":
            raise ValueError(
                "LocalAttention.aligned_position() is the prediction of "
                "mode='local-p'; local-m aligns at the step index (its state). "
                f"Received: mode={self.mode!r}"
            )
        self._check_built("aligned_position")
        query = ops.cast(query, self.compute_dtype)
        single = len(query.shape) == 2
        if single:
            query = query[:, None, :]
        if value_mask is not None:
            value_mask = ops.cast(value_mask, "bool")
        positions = self._predict_position(query, value_mask, ops.shape(value)[1])
        return positions[:, 0] if single else positions

    # ------------------------------------------------------------ weights

    def _local_m_weights(self, query, projected_key, steps, value_mask):
        """Softmax over the keys within `D` of the unmasked key nearest `steps`."""
        scores = self.score(query, projected_key)  # (B, R, Tv)
        length = ops.shape(scores)[-1]
        key_mask = None if value_mask is None else value_mask[:, None, :]
        # The key nearest to t, the earlier on a tie: |4 (s - t) + 1| ranks
        # keys by distance with no tie left for argmin, whose tie-breaking
        # varies across backends; integers also skip Keras's float argmin fix.
        distance = ops.abs(
            4 * (ops.arange(length, dtype="int32") - ops.cast(steps, "int32")) + 1
        )  # (B, R, Tv)
        if key_mask is not None:
            distance = ops.where(key_mask, distance, 2**30)
        # A trailing sentinel, never nearer than a key (ties go to the
        # earlier), keeps argmin defined on an empty memory (Tv = 0).
        rows = ops.sum(distance, axis=-1, keepdims=True)  # (B, R, 1), even if Tv = 0
        sentinel = ops.full_like(rows, 2**30)
        distance = ops.concatenate([distance, sentinel], axis=-1)  # (B, R, Tv + 1)
        center = ops.argmin(distance, axis=-1)[..., None]  # (B, R, 1)
        mask = zoo_ops.window_mask(center, length, self.window)  # (B, R, Tv)
        if key_mask is not None:
            mask = ops.logical_and(mask, key_mask)
        weights = zoo_ops.masked_softmax(scores, mask)
        return ops.cast(weights, self.compute_dtype)  # (B, R, Tv)

    def _local_p_weights(self, query, projected_key, value_mask):
        """Eq. (10): the window's softmax times a Gaussian around `p_t`."""
        scores = self.score(query, projected_key)  # (B, R, Tv)
        length = ops.shape(scores)[-1]
        center = self._predict_position(query, value_mask, length)  # (B, R)
        offset = (
            ops.arange(length, dtype=self.work_dtype) - center[..., None]
        )  # s - p_t
        mask = ops.less_equal(ops.abs(offset), float(self.window))  # (B, R, Tv)
        if value_mask is not None:
            mask = ops.logical_and(mask, value_mask[:, None, :])
        # In float32 (float64) under every policy, like the softmax itself.
        align = zoo_ops.masked_softmax(ops.cast(scores, self.work_dtype), mask)
        # exp(-(s - p_t)^2 / (2 sigma^2)) with sigma = D / 2.
        gaussian = ops.exp(ops.square(offset) * (-2.0 / self.window**2))
        return ops.cast(align * gaussian, self.compute_dtype)  # (B, R, Tv)

    def _predict_position(self, query, value_mask, length):
        """Eq. (9): `p_t = S sigmoid(v_p^T tanh(W_p h_t))`, `(B, R)` float32."""
        work = self.work_dtype
        hidden = ops.tanh(self._predictive_dense(query))  # (B, R, P)
        logits = ops.matmul(
            ops.cast(hidden, work), ops.cast(self.predictive_v, work)
        )  # (B, R)
        return self._source_length(value_mask, length, work) * ops.sigmoid(logits)

    @staticmethod
    def _source_length(value_mask, length, dtype):
        """`S`: positions up to the last unmasked key, `(B, 1)` (or `Tv`)."""
        if value_mask is None:
            return ops.cast(length, dtype)
        ends = ops.arange(length, dtype=dtype) + 1.0  # (Tv,)
        return ops.max(ops.where(value_mask, ends, 0.0), axis=-1, keepdims=True)

    # --------------------------------------------------------------- config

    def get_config(self):
        config = super().get_config()
        del config["max_length"]  # LuongAttention's "location" mode only
        config.update(
            {
                "mode": self.mode,
                "window": self.window,
                "predictive_units": self.predictive_units,
            }
        )
        return config
