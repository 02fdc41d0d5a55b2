"""Luong (multiplicative, concat and location) attention."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo import ops as zoo_ops
from attention_zoo._checks import checked_bool, is_int, optional_int
from attention_zoo._keras_compat import in_symbolic_scope
from attention_zoo.layers.base_attention import BaseAttention, clone_initializer

SCORE_MODES = ("dot", "general", "concat", "location")


@keras.saving.register_keras_serializable(package="attention_zoo")
class LuongAttention(BaseAttention):
    """Global attention with the four score functions of Luong et al. (2015).

    - `"dot"`: `score(q, k_j) = q^T k_j` (needs `Dq == Dk`).
    - `"general"`: `score(q, k_j) = q^T W k_j`, `W (Dk -> Dq)`.
    - `"concat"`: `score(q, k_j) = v^T tanh(W [q; k_j])`, `W (Dq + Dk -> units)`
      (computed as `W_q q + W_k k_j`, the same product split in two).
    - `"location"`: `scores = W q`, `W (Dq -> max_length)`, from the query alone,
      truncated to the `Tv` keys present; memories longer than `max_length`
      are rejected.

    `project_key(key)` returns `W k` for `"general"`, `W_k k` for `"concat"`
    and the key itself otherwise, so a decoder projects the memory once.

    Args:
        score_mode: one of `"dot"`, `"general"`, `"concat"`, `"location"`.
        use_scale: bool; if `True`, scores are multiplied by a learned scalar
            (initialised to 1).
        units: positive int, hidden size of `"concat"` scoring (required for
            it, not allowed for the other modes).
        max_length: positive int, longest memory `"location"` scoring supports
            (required for it, not allowed for the other modes).
        kernel_initializer: initializer of the projection weights.
        kernel_regularizer: optional regularizer of the projection weights.
        dropout: fraction of attention weights dropped during training.
        seed: seed of the dropout.
        **kwargs: base layer arguments (`name`, `dtype`, ...).

    Call arguments and returns: see `attention_zoo.layers.BaseAttention`.
    Finite inputs give finite weights: a "dot" or "general" score past the
    float32 range (inputs around 1e20) counts as the largest finite score
    (see `attention_zoo.ops.masked_softmax`).

    Examples:
        >>> import numpy as np
        >>> layer = LuongAttention(score_mode="general")
        >>> query = np.random.rand(2, 4).astype("float32")  # one step: (B, Dq)
        >>> value = np.random.rand(2, 5, 6).astype("float32")  # (B, Tv, Dv)
        >>> context, weights = layer(query, value, return_attention_scores=True)
        >>> tuple(context.shape), tuple(weights.shape)
        ((2, 6), (2, 5))

    References:
        Luong, Pham, Manning. "Effective Approaches to Attention-based Neural
        Machine Translation". EMNLP 2015. https://arxiv.org/abs/1508.04025
    """

    def __init__(
        self,
        score_mode: str = "general",
        use_scale: bool = False,
        units: int | None = None,
        max_length: int | None = None,
        kernel_initializer="glorot_uniform",
        kernel_regularizer=None,
        dropout: float = 0.0,
        seed: int | None = None,
        **kwargs,
    ):
        super().__init__(dropout=dropout, seed=seed, **kwargs)
        if score_mode not in SCORE_MODES:
            raise ValueError(
                f"{type(self).__name__}: `score_mode` must be one of {SCORE_MODES}. "
                f"Received: score_mode={score_mode!r}"
            )
        for arg, value, mode in (
            ("units", units, "concat"),
            ("max_length", max_length, "location"),
        ):
            if score_mode == mode and value is None:
                raise ValueError(
                    f"{type(self).__name__}: score_mode={mode!r} needs `{arg}`. "
                    f"Received: {arg}=None"
                )
            if score_mode != mode and value is not None:
                raise ValueError(
                    f"{type(self).__name__}: `{arg}` is only used by "
                    f"score_mode={mode!r}. Received: {arg}={value!r} with "
                    f"score_mode={score_mode!r}"
                )
            if value is not None and (not is_int(value) or value <= 0):
                raise ValueError(
                    f"{type(self).__name__}: `{arg}` must be a positive integer. "
                    f"Received: {arg}={value!r}"
                )
        self.score_mode = score_mode
        self.use_scale = checked_bool(type(self).__name__, "use_scale", use_scale)
        self.units = optional_int(units)
        self.max_length = optional_int(max_length)
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.kernel_regularizer = keras.regularizers.get(kernel_regularizer)

    def _dense(self, units, name, input_dim):
        layer = keras.layers.Dense(
            units,
            use_bias=False,
            kernel_initializer=clone_initializer(self.kernel_initializer),
            kernel_regularizer=self.kernel_regularizer,
            name=name,
            dtype=self.dtype_policy,
        )
        layer.build((None, None, input_dim))
        return layer

    def build_scorer(self, query_dim, key_dim):
        mode = self.score_mode
        if mode == "dot":
            self.feature_sizes = (None, None)  # no weights: any size q = k
            self.check_feature_sizes(query_dim, key_dim)
        if mode == "general":
            self._key_dense = self._dense(query_dim, "key_dense", key_dim)
        elif mode == "concat":
            self._query_dense = self._dense(self.units, "query_dense", query_dim)
            self._key_dense = self._dense(self.units, "key_dense", key_dim)
            self.attention_v = self.add_weight(
                name="attention_v",
                shape=(self.units,),
                initializer=clone_initializer(self.kernel_initializer),
                regularizer=self.kernel_regularizer,
            )
        elif mode == "location":
            self.feature_sizes = (query_dim, None)  # scores from the query alone
            self._query_dense = self._dense(self.max_length, "query_dense", query_dim)
        if self.use_scale:
            self.scale = self.add_weight(name="scale", shape=(), initializer="ones")

    def check_feature_sizes(self, query_dim, key_dim, key_name="key"):
        super().check_feature_sizes(query_dim, key_dim, key_name)
        # The projected key of "dot" is the key itself.
        if self.score_mode == "dot" and None not in (query_dim, key_dim):
            if query_dim != key_dim:
                raise ValueError(
                    f"{type(self).__name__}: score_mode='dot' needs query and "
                    f"{key_name} of the same size. Received: "
                    f"query.shape[-1]={query_dim}, {key_name}.shape[-1]={key_dim}"
                )

    def check_memory_length(self, length):
        # Only a concrete length: JAX's shape inference passes a symbolic
        # dimension, and PyTorch's fills unknown ones with 83 and 89 (a
        # nested call of a memory of unknown length), which are not the
        # memory the layer will see.
        if self.score_mode == "location" and is_int(length) and not in_symbolic_scope():
            if length > self.max_length:
                raise ValueError(
                    f"{type(self).__name__}: score_mode='location' supports memories of "
                    f"at most max_length={self.max_length} steps. Received: "
                    f"value.shape[1]={length}"
                )

    def project_key(self, key):
        self._check_built("project_key")
        if self.score_mode in ("general", "concat"):
            return self._key_dense(key)  # (B, Tv, Dq) or (B, Tv, units)
        return key

    def score(self, query, projected_key):
        mode = self.score_mode
        if mode in ("dot", "general"):
            if keras.backend.standardize_dtype(query.dtype) == "float16":
                # A float16 dot product overflows past 65504 (e.g. 4 features
                # of 200 * 100) and the softmax of inf is NaN: score in
                # float32, which the softmax uses anyway.
                query = ops.cast(query, "float32")
                projected_key = ops.cast(projected_key, "float32")
            scores = zoo_ops.dot_scores(query, projected_key)
        elif mode == "concat":
            # expand_dims rather than new-axis slices: see BahdanauAttention.
            features = ops.tanh(
                ops.expand_dims(self._query_dense(query), 2)
                + ops.expand_dims(projected_key, 1)
            )  # (B, Tq, Tv, units)
            scores = ops.matmul(features, ops.cast(self.attention_v, query.dtype))
        else:
            self.check_memory_length(projected_key.shape[1])
            length = ops.shape(projected_key)[1]
            scores = self._query_dense(query)  # (B, Tq, max_length)
            if in_symbolic_scope():
                # Shape inference with a placeholder length (see
                # check_memory_length), which may pass max_length: only the
                # output shape (B, Tq, Tv) matters.
                positions = ops.minimum(ops.arange(length), self.max_length - 1)
                scores = ops.take(scores, positions, axis=-1)
            else:
                scores = scores[:, :, :length]  # (B, Tq, Tv)
        if self.use_scale:
            scores = scores * ops.cast(self.scale, scores.dtype)
        return scores  # (B, Tq, Tv)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "score_mode": self.score_mode,
                "use_scale": self.use_scale,
                "units": self.units,
                "max_length": self.max_length,
                "kernel_initializer": keras.initializers.serialize(
                    self.kernel_initializer
                ),
                "kernel_regularizer": keras.regularizers.serialize(
                    self.kernel_regularizer
                ),
            }
        )
        return config
