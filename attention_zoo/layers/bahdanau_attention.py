"""Bahdanau (additive) attention."""

from __future__ import annotations

import math

import keras
from keras import ops

from attention_zoo import ops as zoo_ops
from attention_zoo._checks import checked_bool, is_int
from attention_zoo.layers.base_attention import BaseAttention, clone_initializer


@keras.saving.register_keras_serializable(package="attention_zoo")
class BahdanauAttention(BaseAttention):
    """Additive attention with learned projections (Bahdanau et al., 2015).

    `score(q, k_j) = v^T tanh(W_1 q + W_2 k_j + b)`, then a masked softmax over
    `j`. Unlike `keras.layers.AdditiveAttention`, which adds query and key
    directly, this layer learns `W_1 (Dq -> units)`, `W_2 (Dk -> units)`, the
    bias `b` and `v (units,)`: the full mechanism of the paper.

    `project_key(key)` returns `W_2 k + b` `(B, Tv, units)`; a decoder computes
    it once per source sequence and only projects the query at each step.

    Args:
        units: positive int, size of the hidden scoring layer.
        normalize: bool; if `True`, use the weight-normalised score
            `v = g * v / ||v||` with a learned scalar `g` initialised to
            `sqrt(1 / units)` (Salimans & Kingma, 2016; the `normalize` option
            of `tfa.seq2seq.BahdanauAttention`).
        kernel_initializer: initializer of `W_1`, `W_2` and `v`.
        bias_initializer: initializer of `b`.
        kernel_regularizer: optional regularizer of `W_1`, `W_2` and `v`.
        dropout: fraction of attention weights dropped during training.
        seed: seed of the dropout.
        **kwargs: base layer arguments (`name`, `dtype`, ...).

    Call arguments and returns: see `attention_zoo.layers.BaseAttention`.

    Examples:
        >>> import numpy as np
        >>> layer = BahdanauAttention(units=8)
        >>> query = np.random.rand(2, 3, 4).astype("float32")  # (B, Tq, Dq)
        >>> value = np.random.rand(2, 5, 6).astype("float32")  # (B, Tv, Dv)
        >>> context, weights = layer(query, value, return_attention_scores=True)
        >>> tuple(context.shape), tuple(weights.shape)
        ((2, 3, 6), (2, 3, 5))

    References:
        Bahdanau, Cho, Bengio. "Neural Machine Translation by Jointly Learning
        to Align and Translate". ICLR 2015. https://arxiv.org/abs/1409.0473
    """

    def __init__(
        self,
        units: int,
        normalize: bool = False,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        dropout: float = 0.0,
        seed: int | None = None,
        **kwargs,
    ):
        super().__init__(dropout=dropout, seed=seed, **kwargs)
        if not is_int(units) or units <= 0:
            raise ValueError(
                f"{self.__class__.__name__}: `units` must be a positive integer. "
                f"Received: units={units!r}"
            )
        self.units = int(units)
        self.normalize = checked_bool(self.__class__.__name__, "normalize", normalize)
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.bias_initializer = keras.initializers.get(bias_initializer)
        self.kernel_regularizer = keras.regularizers.get(kernel_regularizer)

    def build_scorer(self, query_dim, key_dim):
        dense_args = dict(
            units=self.units,
            kernel_initializer=clone_initializer(self.kernel_initializer),
            kernel_regularizer=self.kernel_regularizer,
            dtype=self.dtype_policy,
        )
        self._query_dense = keras.layers.Dense(
            use_bias=False, name="query_dense", **dense_args
        )
        self._query_dense.build((None, None, query_dim))
        dense_args["kernel_initializer"] = clone_initializer(self.kernel_initializer)
        self._key_dense = keras.layers.Dense(
            use_bias=True,
            bias_initializer=clone_initializer(self.bias_initializer),
            name="key_dense",
            **dense_args,
        )
        self._key_dense.build((None, None, key_dim))
        self.attention_v = self.add_weight(
            name="attention_v",
            shape=(self.units,),
            initializer=clone_initializer(self.kernel_initializer),
            regularizer=self.kernel_regularizer,
        )
        if self.normalize:
            self.attention_g = self.add_weight(
                name="attention_g",
                shape=(),
                initializer=keras.initializers.Constant(math.sqrt(1.0 / self.units)),
            )

    def project_key(self, key):
        self._check_built("project_key")
        return self._key_dense(key)  # (B, Tv, units)

    def score(self, query, projected_key, extra=None):
        """Raw scores `(B, Tq, Tv)`: `v^T tanh(W_1 q + W_2 k_j + b + extra_j)`.

        Args:
            query: `(B, Tq, Dq)`.
            projected_key: `project_key(key)`, `(B, Tv, units)`.
            extra: optional `(B, Tq, Tv, units)` term added inside the tanh,
                for subclasses whose score also reads a state (the location
                features of `LocationSensitiveAttention`, the coverage term
                of `CoverageAttention`).
        """
        if self.normalize:
            # In float32 (or float64), with a tiny floor under the squared
            # norm: a zero `v` (e.g. the zeros initializer) gives zero
            # scores, not 0 / 0.
            work = zoo_ops.at_least_float32(self.compute_dtype)
            v = ops.cast(self.attention_v, work)
            g = ops.cast(self.attention_g, work)
            v = g * v / ops.sqrt(ops.sum(ops.square(v)) + 1e-12)
        else:
            v = self.attention_v
        v = ops.cast(v, self.compute_dtype)
        projected_query = self._query_dense(query)  # (B, Tq, units)
        # expand_dims, not `x[:, :, None, :]`: on TensorFlow the gradient of a
        # new-axis slice is a StridedSliceGrad copy, that of expand_dims a
        # free reshape (benchmarks/op_profile.py).
        features = ops.expand_dims(projected_query, 2) + ops.expand_dims(
            projected_key, 1
        )  # (B, Tq, Tv, units)
        if extra is not None:
            features = features + extra
        return ops.matmul(ops.tanh(features), v)  # (B, Tq, Tv)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "units": self.units,
                "normalize": self.normalize,
                "kernel_initializer": keras.initializers.serialize(
                    self.kernel_initializer
                ),
                "bias_initializer": keras.initializers.serialize(self.bias_initializer),
                "kernel_regularizer": keras.regularizers.serialize(
                    self.kernel_regularizer
                ),
            }
        )
        return config
