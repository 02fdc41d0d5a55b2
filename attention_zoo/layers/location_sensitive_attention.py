"""Location-sensitive attention (Chorowski et al., 2015; Tacotron 2)."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo._checks import checked_bool, is_int
from attention_zoo.layers.bahdanau_attention import BahdanauAttention
from attention_zoo.layers.base_attention import clone_initializer


@keras.saving.register_keras_serializable(package="attention_zoo")
class LocationSensitiveAttention(BahdanauAttention):
    """Additive attention that also reads the previous alignment.

    At decoder step `i` the previous alignment `alpha_{i-1}` `(Tv,)` is
    convolved with `filters` learned filters of width `kernel_size`
    (Chorowski et al. 2015, eq. 8-9):

    ```
    f_i = F * alpha_{i-1}                                   # (Tv, filters)
    e_{i,j} = w^T tanh(W s_{i-1} + V h_j + U f_{i,j} + b)
    alpha_i = softmax(e_i)   over the unmasked keys j
    ```

    so the score of a key depends on where the attention was, which helps
    the alignment move forward monotonically (speech recognition and
    synthesis). With `cumulative=True` the convolution reads two channels,
    the previous alignment and the sum of all previous alignments
    `alpha_1 + ... + alpha_{i-1}` (Tacotron 2, Shen et al. 2018).

    The state (`num_states` is 1, or 2 with `cumulative=True`) holds the
    previous alignment `(B, Tv)` and, if cumulative, the cumulative alignment
    `(B, Tv)`, both zero before the first step and kept in float32 under
    every dtype policy (float64 under a float64 one). Calling the layer on a
    query sequence `(B, Tq, Dq)` runs the steps over `Tq` from that zero
    state; a decoder carries it with `get_initial_state` and `step` (see
    `BaseAttention`).

    The convolution pads with zeros ("same" padding, so `kernel_size` must be
    odd) and masked keys get zero weight, so the alignment is zero past the
    end of the memory: padding appended after the memory changes nothing.

    Args:
        units: positive int, size of the hidden scoring layer.
        filters: positive int, number of location filters `F`.
        kernel_size: positive odd int, width of the location filters.
        cumulative: bool; if `True`, also convolve the cumulative alignment
            (Tacotron 2).
        normalize: bool; weight-normalised `w` (see `BahdanauAttention`).
        kernel_initializer: initializer of `W`, `V`, `F`, `U` and `w`.
        bias_initializer: initializer of `b`.
        kernel_regularizer: optional regularizer of `W`, `V`, `F`, `U` and `w`.
        dropout: fraction of attention weights dropped during training (the
            state holds the weights before dropout).
        seed: seed of the dropout.
        **kwargs: base layer arguments (`name`, `dtype`, ...).

    Call arguments and returns: see `attention_zoo.layers.BaseAttention`.
    An empty memory (`Tv = 0`) gives empty weights and a zero context, as
    for every mechanism.

    Examples:
        >>> import numpy as np
        >>> layer = LocationSensitiveAttention(units=8, filters=4, kernel_size=5)
        >>> query = np.random.rand(2, 3, 4).astype("float32")  # (B, Tq, Dq)
        >>> value = np.random.rand(2, 7, 6).astype("float32")  # (B, Tv, Dv)
        >>> context, weights = layer(query, value, return_attention_scores=True)
        >>> tuple(context.shape), tuple(weights.shape)
        ((2, 3, 6), (2, 3, 7))

        Step by step, carrying the previous alignment:

        >>> key = layer.project_key(value)
        >>> state = layer.get_initial_state(value)  # [alpha_0 = zeros (B, Tv)]
        >>> context, alpha, state = layer.step(query[:, 0], value, key, state)
        >>> to_numpy = keras.ops.convert_to_numpy
        >>> np.allclose(to_numpy(state[0]), to_numpy(alpha))
        True

    References:
        Chorowski, Bahdanau, Serdyuk, Cho, Bengio. "Attention-Based Models for
        Speech Recognition". NeurIPS 2015. https://arxiv.org/abs/1506.07503

        Shen et al. "Natural TTS Synthesis by Conditioning WaveNet on Mel
        Spectrogram Predictions" (Tacotron 2). ICASSP 2018.
        https://arxiv.org/abs/1712.05884
    """

    def __init__(
        self,
        units: int,
        filters: int = 32,
        kernel_size: int = 31,
        cumulative: bool = False,
        normalize: bool = False,
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
        if not is_int(filters) or filters <= 0:
            raise ValueError(
                "LocationSensitiveAttention: `filters` must be a positive integer. "
                f"Received: filters={filters!r}"
            )
        if not is_int(kernel_size) or kernel_size <= 0 or kernel_size % 2 == 0:
            raise ValueError(
                "LocationSensitiveAttention: `kernel_size` must be a positive odd "
                "integer (the convolution is centred on each key). Received: "
                f"kernel_size={kernel_size!r}"
            )
        self.filters = int(filters)
        self.kernel_size = int(kernel_size)
        self.cumulative = checked_bool(
            "LocationSensitiveAttention", "cumulative", cumulative
        )

    @property
    def num_states(self) -> int:
        return 2 if self.cumulative else 1

    def build_scorer(self, query_dim, key_dim):
        super().build_scorer(query_dim, key_dim)
        channels = self.num_states
        self._location_conv = keras.layers.Conv1D(
            self.filters,
            self.kernel_size,
            padding="same",
            use_bias=False,
            kernel_initializer=clone_initializer(self.kernel_initializer),
            kernel_regularizer=self.kernel_regularizer,
            name="location_conv",
            dtype=self.dtype_policy,
        )  # F
        self._location_conv.build((None, None, channels))
        self._location_dense = keras.layers.Dense(
            self.units,
            use_bias=False,
            kernel_initializer=clone_initializer(self.kernel_initializer),
            kernel_regularizer=self.kernel_regularizer,
            name="location_dense",
            dtype=self.dtype_policy,
        )  # U
        self._location_dense.build((None, None, self.filters))

    def get_initial_state(self, value, value_mask=None):
        zeros = ops.zeros_like(value[:, :, 0], dtype=self.work_dtype)  # (B, Tv)
        return [zeros] * self.num_states

    def location_features(self, state):
        """`U (F * alpha)`: `(B, R, Tv, units)` from state rows `(B, R, Tv)`."""
        alignments = ops.stack(list(state), axis=-1)  # (B, R, Tv, C)
        shape = ops.shape(alignments)
        # One zero step appended and cut off again: neither the convolution
        # nor the reshape below is defined on an empty memory (Tv = 0), and
        # with "same" padding a zero past the end changes no output.
        zero_step = ops.zeros_like(ops.sum(alignments, axis=2, keepdims=True))
        alignments = ops.concatenate([alignments, zero_step], axis=2)  # Tv + 1
        # Conv1D convolves (batch, steps, channels): fold the rows into the
        # batch; each row's alignment is convolved on its own.
        steps = None if shape[2] is None else shape[2] + 1  # None: symbolic
        flat = ops.reshape(alignments, (-1, steps, self.num_states))  # (B*R, Tv + 1, C)
        features = self._location_conv(ops.cast(flat, self.compute_dtype))
        features = features[:, : shape[2]]  # (B*R, Tv, filters)
        features = self._location_dense(features)  # (B*R, Tv, units)
        return ops.reshape(features, (shape[0], shape[1], shape[2], self.units))

    def step_weights(self, query, projected_key, state, value_mask=None, training=None):
        location = self.location_features(state)  # (B, R, Tv, units)
        scores = self.score(query, projected_key, extra=location)  # (B, R, Tv)
        weights = self.compute_weights(scores, None, value_mask)  # (B, R, Tv)
        alignment = ops.cast(weights, self.work_dtype)
        if self.cumulative:
            return weights, [alignment, state[1] + alignment]
        return weights, [alignment]

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "filters": self.filters,
                "kernel_size": self.kernel_size,
                "cumulative": self.cumulative,
            }
        )
        return config
