"""An RNN decoder with attention inside the recurrence."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo import ops as zoo_ops
from attention_zoo._keras_compat import set_keras_mask
from attention_zoo.decoders._decoder_args import (
    INITIAL_STATES,
    STYLES,
    as_list,
    cell_and_attention,
    checked_common,
    checked_placement,
)
from attention_zoo.decoders._multi_memory import attend
from attention_zoo.decoders._recurrent_base import RecurrentAttentionBase

__all__ = ["AttentionRNNDecoder", "INITIAL_STATES", "STYLES"]


@keras.saving.register_keras_serializable(package="attention_zoo")
class AttentionRNNDecoder(RecurrentAttentionBase):
    """RNN decoder that attends over a memory at every step.

    Two placements of the attention, after the two papers:

    - `style="bahdanau"`: step `t` scores the memory with the previous state
      `s_{t-1}`; the context `c_t` is concatenated with the input `x_t` before
      the cell; the output is `[s_t; c_t]` (size `units + Dv`).
    - `style="luong"`: the cell runs first, `h_t = cell(x_t, ...)`; the memory
      is scored with `h_t` and the output is the attentional state
      `a_t = tanh(W_c [c_t; h_t])` (size `attention_output_units`). With
      `input_feeding=True`, `a_{t-1}` is concatenated with `x_t` (Luong et al.
      2015, section 3.3).

    The same weights run teacher-forced over a whole target sequence (`call`,
    for `model.fit`) and one step at a time (`step`, for the functions of
    `attention_zoo.decoding`). The memory-only part of the attention score is
    computed once per source sequence by `get_constants`.

    Sizes: `B` batch size, `Ty` target steps, `Tx` memory steps, `E` input
    features, `Dm` memory features.

    Args:
        cell: a Keras RNN cell (`keras.layers.GRUCell`, `LSTMCell`,
            `SimpleRNNCell`) without dropout: dropout inside the recurrence is
            not supported, use `dropout` here instead.
        attention: an attention layer of this package (a `BaseAttention`), or
            a list of them: several mechanisms, over one shared memory or one
            memory each (as `tfa.seq2seq.AttentionWrapper` allowed). Their
            contexts are concatenated, and so are their alignments (on the
            memory axis; `split_alignments` splits them). Mechanisms with a
            state (location-sensitive, coverage, monotonic, local-m) have it
            carried in the decoder state.
        style: `"bahdanau"` or `"luong"`.
        input_feeding: bool, Luong style only.
        attention_output_units: size of `a_t` for the Luong style; defaults
            to the cell's `units`.
        initial_state: `"zeros"`, or `"mean_memory"` for a learned projection
            `tanh(W mean(memory))` per cell state (Show, Attend and Tell; with
            a list of memories, the mean of the first).
            An `initial_state` passed at call time takes precedence.
        dropout: fraction of the inputs and outputs dropped during training.
        seed: seed of the dropout.
        **kwargs: base layer arguments.

    Call arguments:
        inputs: `(B, Ty, E)`, e.g. embedded target tokens shifted right.
        memory: `(B, Tx, Dm)`, e.g. encoder outputs; with several mechanisms
            either one memory they share or a list with one per mechanism.
        initial_state: optional list of cell states `(B, units)`.
        inputs_mask: optional boolean `(B, Ty)`; at masked steps the state is
            carried unchanged and the output and alignment are zero.
        memory_mask: optional boolean `(B, Tx)` (a list, for a list of
            memories).
        training: bool.

    Returns:
        `(outputs, alignments, states)`: outputs `(B, Ty, output_size)`,
        alignments `(B, Ty, Tx)` and the list of final decoder states.

    Examples:
        >>> import numpy as np
        >>> from attention_zoo.layers import BahdanauAttention
        >>> decoder = AttentionRNNDecoder(
        ...     keras.layers.GRUCell(8), BahdanauAttention(units=8)
        ... )
        >>> inputs = np.random.rand(2, 4, 3).astype("float32")  # (B, Ty, E)
        >>> memory = np.random.rand(2, 6, 5).astype("float32")  # (B, Tx, Dm)
        >>> outputs, alignments, states = decoder(inputs, memory)
        >>> tuple(outputs.shape), tuple(alignments.shape), len(states)
        ((2, 4, 13), (2, 4, 6), 1)

    References:
        Bahdanau et al. 2015, https://arxiv.org/abs/1409.0473; Luong et al.
        2015, https://arxiv.org/abs/1508.04025; Xu et al. 2015 (initial
        state from the mean memory), https://arxiv.org/abs/1502.03044
    """

    # `step` reads one memory for the K hypotheses of a sequence (see `step`).
    shares_constants_across_beams = True

    def __init__(
        self,
        cell,
        attention,
        style: str = "bahdanau",
        input_feeding: bool = False,
        attention_output_units: int | None = None,
        initial_state: str = "zeros",
        dropout: float = 0.0,
        seed: int | None = None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        name = self.__class__.__name__
        cell, attention = cell_and_attention(name, cell, attention)
        style, input_feeding, attention_output_units = checked_placement(
            name, style, input_feeding, attention_output_units
        )
        initial_state, dropout, seed = checked_common(
            name, initial_state, dropout, seed
        )
        self.cell = cell
        self.attention = attention
        self._mechanisms = as_list(attention)
        self._memory_lengths = None  # set by each call
        self.style = style
        self.input_feeding = input_feeding
        self.attention_output_units = attention_output_units
        self.initial_state = initial_state
        self.dropout = dropout
        self.seed = seed
        self.units = int(cell.units)
        self.state_sizes = [int(s) for s in as_list(cell.state_size)]
        if self.dropout > 0:
            self._input_dropout = keras.layers.Dropout(self.dropout, seed=seed)
            self._output_dropout = keras.layers.Dropout(
                self.dropout, seed=None if seed is None else seed + 1
            )
        self.supports_masking = True

    # ----------------------------------------------------------------- build

    @property
    def output_size(self) -> int:
        if self.style == "luong":
            return self.attention_output_units or self.units
        return self.units + self._memory_dim

    def build(self, inputs_shape, memory_shape, initial_state_shape=None):
        memory_shapes = self._memories(memory_shape, "memory", shapes=True)
        self._check_inputs(inputs_shape, memory_shapes)
        input_dim = int(inputs_shape[-1])
        self._set_memory_dims(memory_shapes)
        if self.style == "bahdanau":
            cell_input_dim = input_dim + self._memory_dim
        else:
            cell_input_dim = input_dim + (self.output_size if self.input_feeding else 0)
        # Sublayers deserialized from a .keras file arrive built already.
        if not self.cell.built:
            self.cell.build((None, cell_input_dim))
        for mechanism, dim in zip(self._mechanisms, self._memory_dims):
            if not mechanism.built:
                mechanism.build((None, self.units), (None, None, dim))
        if self.style == "luong":
            self._attention_dense = keras.layers.Dense(
                self.output_size,
                activation="tanh",
                use_bias=False,
                name="attention_dense",
                dtype=self.dtype_policy,
            )
            self._attention_dense.build((None, self._memory_dim + self.units))
        if self.initial_state == "mean_memory":
            self._initial_state_denses = []
            for i, size in enumerate(self.state_sizes):
                dense = keras.layers.Dense(
                    size,
                    activation="tanh",
                    name=f"initial_state_dense_{i}",
                    dtype=self.dtype_policy,
                )
                dense.build((None, self._memory_dims[0]))
                self._initial_state_denses.append(dense)
        self.built = True

    # ------------------------------------------------------ step decoding API

    def get_initial_state(self, memory, memory_mask=None, initial_state=None):
        """The decoder state before the first step, as a list of tensors.

        Cell states (passed, zeros, or projected from the mean memory), then,
        with Luong input feeding, the previous attentional state (zeros),
        then the attention's own state (`attention.get_initial_state`: the
        previous alignment, coverage, ...; none for most mechanisms).
        """
        memories = [
            ops.cast(m, self.compute_dtype) for m in self._memories(memory, "memory")
        ]
        masks = self._memories(memory_mask, "memory_mask")
        batch_size = ops.shape(memories[0])[0]
        if initial_state is not None:
            states = [ops.cast(s, self.compute_dtype) for s in as_list(initial_state)]
            if len(states) != len(self.state_sizes):
                raise ValueError(
                    f"{self.__class__.__name__}: the cell has {len(self.state_sizes)} "
                    f"state(s). Received: {len(states)} initial state tensor(s)"
                )
        elif self.initial_state == "mean_memory":
            mask = None if masks[0] is None else ops.cast(masks[0], "bool")
            mean = zoo_ops.masked_mean(memories[0], mask, axis=1)  # (B, Dm)
            states = [dense(mean) for dense in self._initial_state_denses]
        else:
            states = [
                ops.zeros((batch_size, size), self.compute_dtype)
                for size in self.state_sizes
            ]
        if self.input_feeding:
            states.append(ops.zeros((batch_size, self.output_size), self.compute_dtype))
        for mechanism, memory_i, mask_i in zip(self._mechanisms, memories, masks):
            states += mechanism.get_initial_state(memory_i, mask_i)
        return states

    def step(
        self,
        inputs,
        states,
        constants,
        training=None,
        step_inputs=None,
        dropout_masks=None,
    ):
        """One decoder step.

        Args:
            inputs: `(B, E)`, the input at this step.
            states: the list from `get_initial_state` or the previous step.
            constants: the tuple from `get_constants`. Its batch may be a
                divisor `B / K` of the step's batch `B`: rows
                `b * K .. b * K + K - 1` then share memory `b` (the layout of
                `attention_zoo.decoding.beam_search`), so the memory is never
                copied per hypothesis.
            training: bool.
            step_inputs: optional list, one entry per mechanism: `None` or
                this step's slice `(B, F)` of the mechanism's
                `per_step_inputs` (random numbers drawn before the loop; see
                `BaseAttention.per_step_inputs`), then one more entry for the
                decoder itself (`None` or its slice of
                `decoder_step_inputs`). Teacher forcing passes them; decoding
                at inference needs none.
            dropout_masks: optional list, one entry per mechanism: `None` or
                its `dropout_mask(memory)`, drawn once per sequence by the
                teacher-forced `call` and passed to every step, so that the
                same memory positions are dropped at every step. Without
                one, a mechanism in training draws a fresh mask per step.

        Returns:
            `(output (B, output_size), new_states, alignment (B, Tx))`.
        """
        inputs = ops.cast(inputs, self.compute_dtype)
        # A step input from Embedding(mask_zero=True) carries a Keras mask that
        # has no time axis to mask here; the cell would warn that it drops it.
        set_keras_mask(inputs, None)
        cell_states, feeding, attention_state = self._split_states(states)
        if self.style == "bahdanau":
            context, alignment, attention_state = attend(
                self._mechanisms,
                cell_states[0],
                constants,
                attention_state,
                training,
                step_inputs,
                dropout_masks,
            )  # (B, Dm), (B, Tx)
            cell_input = ops.concatenate([inputs, context], axis=-1)
            h, new_cell_states = self.cell(cell_input, cell_states, training=training)
            return (
                ops.concatenate([h, context], -1),
                as_list(new_cell_states) + attention_state,
                alignment,
            )
        cell_input = inputs
        if self.input_feeding:
            cell_input = ops.concatenate([inputs, feeding[0]], axis=-1)
        h, new_cell_states = self.cell(cell_input, cell_states, training=training)
        context, alignment, attention_state = attend(
            self._mechanisms,
            h,
            constants,
            attention_state,
            training,
            step_inputs,
            dropout_masks,
        )
        output = self._attention_dense(ops.concatenate([context, h], axis=-1))
        new_states = as_list(new_cell_states)
        if self.input_feeding:
            new_states.append(output)
        return output, new_states + attention_state, alignment

    def _split_states(self, states):
        """`(cell states, [a_{t-1}] or [], attention state)` of a state list."""
        states = list(states)
        n = len(self.state_sizes)
        m = n + int(self.input_feeding)
        return states[:n], states[n:m], states[m:]

    # -------------------------------------------------------- teacher forcing

    def compute_output_spec(
        self,
        inputs,
        memory,
        initial_state=None,
        inputs_mask=None,
        memory_mask=None,
        training=None,
    ):
        memories = self._memories(memory, "memory")
        self._check_inputs(inputs.shape, [m.shape for m in memories])
        batch, steps = inputs.shape[0], inputs.shape[1]
        if not self.built:
            self._set_memory_dims([m.shape for m in memories])
        lengths = self._memory_lengths = [m.shape[1] for m in memories]
        dtype = self.compute_dtype
        outputs = keras.KerasTensor((batch, steps, self.output_size), dtype=dtype)
        total = None if None in lengths else sum(lengths)
        alignments = keras.KerasTensor((batch, steps, total), dtype=dtype)
        states = [
            keras.KerasTensor((batch, size), dtype=dtype) for size in self.state_sizes
        ]
        if self.input_feeding:
            states.append(keras.KerasTensor((batch, self.output_size), dtype=dtype))
        for mechanism, memory_i in zip(self._mechanisms, memories):
            states += mechanism.get_initial_state(memory_i)
        return outputs, alignments, states

    # ----------------------------------------------------------------- config

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "cell": keras.saving.serialize_keras_object(self.cell),
                "attention": (
                    [keras.saving.serialize_keras_object(a) for a in self.attention]
                    if isinstance(self.attention, list)
                    else keras.saving.serialize_keras_object(self.attention)
                ),
                "style": self.style,
                "input_feeding": self.input_feeding,
                "attention_output_units": self.attention_output_units,
                "initial_state": self.initial_state,
                "dropout": self.dropout,
                "seed": self.seed,
            }
        )
        return config
