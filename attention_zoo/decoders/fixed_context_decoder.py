"""The fixed-context encoder-decoder: one context vector, no attention."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo import ops as zoo_ops
from attention_zoo._checks import checked_seed, is_int, is_rate


@keras.saving.register_keras_serializable(package="attention_zoo")
class FixedContextDecoder(keras.layers.Layer):
    """GRU decoder reading one fixed context vector at every step (no attention).

    The encoder-decoder of Cho et al. 2014 that Bahdanau et al. 2015 compare
    against: the context `c` summarises the whole source (here the masked
    mean of the memory), is concatenated with every input, and with the
    state to form the output `[s_t; c]`. It offers the step API of
    `AttentionRNNDecoder` (`get_constants`, `get_initial_state`, `step`), so
    `attention_zoo.decoding.make_step_fn` drives it; its "attention" is all
    zeros.

    Args:
        units: GRU units.
        dropout: fraction of the inputs and outputs dropped during training.
        seed: seed of the dropout.
        **kwargs: base layer arguments.

    Call arguments:
        inputs: `(B, Ty, E)`, e.g. embedded target tokens shifted right.
        memory: `(B, Tx, Dm)`, e.g. encoder outputs.
        initial_state: optional list of one GRU state `(B, units)`.
        inputs_mask: optional boolean `(B, Ty)`.
        memory_mask: optional boolean `(B, Tx)`: the context is the mean of
            the unmasked positions.
        training: bool.

    Returns:
        `(outputs, alignments, states)`: outputs `(B, Ty, units + Dm)`,
        alignments `(B, Ty, Tx)` (zeros) and the list of final states.

    Examples:
        >>> import numpy as np
        >>> decoder = FixedContextDecoder(8)
        >>> inputs = np.random.rand(2, 4, 3).astype("float32")  # (B, Ty, E)
        >>> memory = np.random.rand(2, 6, 5).astype("float32")  # (B, Tx, Dm)
        >>> outputs, alignments, states = decoder(inputs, memory)
        >>> tuple(outputs.shape), tuple(alignments.shape), len(states)
        ((2, 4, 13), (2, 4, 6), 1)

    References:
        Cho et al. 2014, https://arxiv.org/abs/1406.1078; Bahdanau et al.
        2015 (the RNNencdec baseline), https://arxiv.org/abs/1409.0473
    """

    # `step` reads one context row for the K hypotheses of a sequence.
    shares_constants_across_beams = True

    def __init__(self, units: int, dropout: float = 0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        name = self.__class__.__name__
        if not is_int(units) or units < 1:
            raise ValueError(
                f"{name}: `units` must be a positive integer. Received: units={units!r}"
            )
        if not is_rate(dropout):
            raise ValueError(
                f"{name}: `dropout` must be a float in [0, 1). Received: "
                f"dropout={dropout!r}"
            )
        self.units = int(units)
        self.dropout = float(dropout)
        self.seed = checked_seed(name, seed)
        seed = self.seed
        self.rnn = keras.layers.GRU(
            self.units, return_sequences=True, return_state=True, name="gru"
        )
        self._input_dropout = keras.layers.Dropout(self.dropout, seed=seed)
        self._output_dropout = keras.layers.Dropout(
            self.dropout, seed=None if seed is None else seed + 1
        )
        self.supports_masking = True

    def build(self, inputs_shape, memory_shape, initial_state_shape=None):
        self._memory_dim = int(memory_shape[-1])
        if not self.rnn.built:
            self.rnn.build((None, None, int(inputs_shape[-1]) + self._memory_dim))
        self.built = True

    @property
    def output_size(self):
        return self.units + self._memory_dim

    def get_constants(self, memory, memory_mask=None):
        """`(context (B, Dm), memory_mask (B, Tx))`."""
        memory = ops.cast(memory, self.compute_dtype)
        if memory_mask is None:
            memory_mask = ops.ones(ops.shape(memory)[:2], dtype="bool")
        memory_mask = ops.cast(memory_mask, "bool")
        return zoo_ops.masked_mean(memory, memory_mask, axis=1), memory_mask

    def get_initial_state(self, memory, memory_mask=None, initial_state=None):
        if initial_state is None:
            return [ops.zeros((ops.shape(memory)[0], self.units), self.compute_dtype)]
        return [ops.cast(s, self.compute_dtype) for s in initial_state]

    def step(self, inputs, states, constants, training=None):
        """One step; the context batch may be `B / K` (beam search layout)."""
        context, memory_mask = constants
        batch, memory_batch = ops.shape(inputs)[0], ops.shape(context)[0]
        context = ops.reshape(
            ops.broadcast_to(
                context[:, None, :],
                (memory_batch, batch // memory_batch, ops.shape(context)[-1]),
            ),
            (batch, ops.shape(context)[-1]),
        )  # (B, Dm): row b * K + k reads context b
        x = ops.concatenate([ops.cast(inputs, self.compute_dtype), context], -1)
        h, new_states = self.rnn.cell(x, list(states), training=training)
        alignment = ops.zeros((batch, ops.shape(memory_mask)[1]), self.compute_dtype)
        return ops.concatenate([h, context], -1), list(new_states), alignment

    def call(
        self,
        inputs,
        memory,
        initial_state=None,
        inputs_mask=None,
        memory_mask=None,
        training=None,
    ):
        context, memory_mask = self.get_constants(memory, memory_mask)
        states = self.get_initial_state(memory, memory_mask, initial_state)
        inputs = self._input_dropout(inputs, training=training)
        steps = ops.shape(inputs)[1]
        tiled = ops.broadcast_to(
            context[:, None, :], (ops.shape(context)[0], steps, ops.shape(context)[1])
        )
        x = ops.concatenate([ops.cast(inputs, self.compute_dtype), tiled], -1)
        hidden, *final = self.rnn(
            x, initial_state=states, mask=inputs_mask, training=training
        )
        outputs = self._output_dropout(
            ops.concatenate([hidden, tiled], -1), training=training
        )
        alignments = ops.zeros(
            (ops.shape(memory)[0], steps, ops.shape(memory)[1]), self.compute_dtype
        )
        return outputs, alignments, final

    def compute_mask(self, inputs, previous_mask=None):
        return previous_mask

    def compute_output_spec(self, inputs, memory, initial_state=None, **kwargs):
        batch, steps = inputs.shape[0], inputs.shape[1]
        dtype = self.compute_dtype
        size = self.units + int(memory.shape[-1])
        return (
            keras.KerasTensor((batch, steps, size), dtype=dtype),
            keras.KerasTensor((batch, steps, memory.shape[1]), dtype=dtype),
            [keras.KerasTensor((batch, self.units), dtype=dtype)],
        )

    def get_config(self):
        return {
            **super().get_config(),
            "units": self.units,
            "dropout": self.dropout,
            "seed": self.seed,
        }
