"""Bidirectional RNN text encoder."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo._checks import checked_bool, checked_seed, is_int, is_rate

CELL_TYPES = ("gru", "lstm")
MERGE_MODES = ("concat", "sum", "mul", "ave")


@keras.saving.register_keras_serializable(package="attention_zoo")
class BidirectionalRNNEncoder(keras.layers.Layer):
    """Stack of bidirectional GRU/LSTM layers returning the memory and a state.

    Masks flow through: give it the output of `Embedding(mask_zero=True)` (or
    pass `mask=`) and padded steps are skipped in both directions, the final
    states are those of the last real step, and the returned memory keeps the
    mask for the attention layer downstream.

    Args:
        units: positive int, units of each direction.
        cell_type: `"gru"` or `"lstm"`.
        merge_mode: how the two directions combine in the memory: `"concat"`
            (size `2 * units`), `"sum"`, `"mul"` or `"ave"` (size `units`).
        num_layers: number of stacked bidirectional layers.
        dropout: dropout between stacked layers and on the memory.
        seed: seed of the dropout.
        unroll: bool, unroll the recurrences (faster for short fixed-length
            inputs on CPU, and lets XLA compile the gradient; needs a known
            input length).
        **kwargs: base layer arguments.

    Call arguments:
        inputs: `(B, Tx, E)`.
        mask: optional boolean `(B, Tx)`.
        training: bool.

    Returns:
        `(memory, states)`: memory `(B, Tx, D)` and the list of final states
        of the last layer, forward and backward merged with `merge_mode`
        ("concat" concatenates, so a decoder cell must then have `2 * units`
        units): one tensor for a GRU, `[h, c]` for an LSTM.

    Examples:
        >>> import numpy as np
        >>> encoder = BidirectionalRNNEncoder(units=8, merge_mode="sum")
        >>> memory, states = encoder(np.random.rand(2, 5, 3).astype("float32"))
        >>> tuple(memory.shape), [tuple(s.shape) for s in states]
        ((2, 5, 8), [(2, 8)])
    """

    def __init__(
        self,
        units: int,
        cell_type: str = "gru",
        merge_mode: str = "concat",
        num_layers: int = 1,
        dropout: float = 0.0,
        seed: int | None = None,
        unroll: bool = False,
        **kwargs,
    ):
        super().__init__(**kwargs)
        name = self.__class__.__name__
        for arg, value in (("units", units), ("num_layers", num_layers)):
            if not is_int(value) or value < 1:
                raise ValueError(
                    f"{name}: `{arg}` must be a positive integer. Received: "
                    f"{arg}={value!r}"
                )
        if cell_type not in CELL_TYPES:
            raise ValueError(
                f"{name}: `cell_type` must be one of {CELL_TYPES}. Received: "
                f"cell_type={cell_type!r}"
            )
        if merge_mode not in MERGE_MODES:
            raise ValueError(
                f"{name}: `merge_mode` must be one of {MERGE_MODES}. Received: "
                f"merge_mode={merge_mode!r}"
            )
        if not is_rate(dropout):
            raise ValueError(
                f"{name}: `dropout` must be a float in [0, 1). Received: dropout={dropout}"
            )
        self.units = int(units)
        self.cell_type = cell_type
        self.merge_mode = merge_mode
        self.num_layers = int(num_layers)
        self.dropout = float(dropout)
        self.seed = checked_seed(name, seed)
        self.unroll = checked_bool(name, "unroll", unroll)
        self.supports_masking = True
        rnn = keras.layers.GRU if cell_type == "gru" else keras.layers.LSTM
        self._rnn_layers = [
            keras.layers.Bidirectional(
                rnn(
                    self.units,
                    return_sequences=True,
                    return_state=True,
                    unroll=self.unroll,
                    dtype=self.dtype_policy,
                ),
                merge_mode=merge_mode,
                name=f"bidirectional_{i}",
                dtype=self.dtype_policy,
            )
            for i in range(self.num_layers)
        ]
        self._dropout = keras.layers.Dropout(self.dropout, seed=self.seed)

    def build(self, inputs_shape):
        shape = tuple(inputs_shape)
        for layer in self._rnn_layers:
            layer.build(shape)
            size = 2 * self.units if self.merge_mode == "concat" else self.units
            shape = (*shape[:-1], size)
        self.built = True

    def _merge(self, forward, backward):
        if self.merge_mode == "concat":
            return ops.concatenate([forward, backward], axis=-1)
        if self.merge_mode == "sum":
            return forward + backward
        if self.merge_mode == "mul":
            return forward * backward
        return (forward + backward) / 2

    def call(self, inputs, mask=None, training=None):
        x = inputs
        for layer in self._rnn_layers:
            outputs = layer(x, mask=mask, training=training)
            x, states = outputs[0], outputs[1:]
            x = self._dropout(x, training=training)
        half = len(states) // 2
        merged = [self._merge(f, b) for f, b in zip(states[:half], states[half:])]
        return x, merged

    def compute_mask(self, inputs, mask=None):
        return mask

    def compute_output_spec(self, inputs, mask=None, training=None):
        batch, steps = inputs.shape[0], inputs.shape[1]
        size = 2 * self.units if self.merge_mode == "concat" else self.units
        dtype = self.compute_dtype
        memory = keras.KerasTensor((batch, steps, size), dtype=dtype)
        count = 1 if self.cell_type == "gru" else 2
        return memory, [
            keras.KerasTensor((batch, size), dtype=dtype) for _ in range(count)
        ]

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "units": self.units,
                "cell_type": self.cell_type,
                "merge_mode": self.merge_mode,
                "num_layers": self.num_layers,
                "dropout": self.dropout,
                "seed": self.seed,
                "unroll": self.unroll,
            }
        )
        return config
