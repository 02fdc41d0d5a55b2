"""An RNN decoder with attention inside the recurrence."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo import ops as zoo_ops
from attention_zoo._checks import (
    checked_bool,
    checked_seed,
    is_int,
    is_rate,
    optional_int,
)
from attention_zoo._keras_compat import set_keras_mask
from attention_zoo.layers.base_attention import BaseAttention

STYLES = ("bahdanau", "luong")
INITIAL_STATES = ("zeros", "mean_memory")


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _broadcastable(keep, x):
    """`keep` `(B, 1)` reshaped to broadcast over a state `x` of any rank."""
    return ops.reshape(keep, (-1,) + (1,) * (len(x.shape) - 1))


@keras.saving.register_keras_serializable(package="attention_zoo")
class AttentionRNNDecoder(keras.layers.Layer):
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

    Example:

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
        if isinstance(cell, dict):
            cell = keras.saving.deserialize_keras_object(cell)
        if isinstance(attention, dict):
            attention = keras.saving.deserialize_keras_object(attention)
        if isinstance(attention, (list, tuple)):
            attention = [
                keras.saving.deserialize_keras_object(a) if isinstance(a, dict) else a
                for a in attention
            ]
            if not attention:
                raise ValueError(
                    f"{name}: `attention` must be an attention layer or a non-empty "
                    "list of them. Received: attention=[]"
                )
        for mechanism in _as_list(attention):
            if not isinstance(mechanism, BaseAttention):
                raise ValueError(
                    f"{name}: `attention` must be an attention layer of "
                    f"attention_zoo (a BaseAttention) or a list of them. Received: "
                    f"attention={attention!r}"
                )
        if not hasattr(cell, "state_size") or not hasattr(cell, "units"):
            raise ValueError(
                f"{name}: `cell` must be a Keras RNN cell with `units` and "
                f"`state_size` (GRUCell, LSTMCell, SimpleRNNCell). Received: "
                f"cell={cell!r}"
            )
        if getattr(cell, "dropout", 0) or getattr(cell, "recurrent_dropout", 0):
            raise ValueError(
                f"{name}: dropout inside the cell is not supported; pass "
                f"`dropout` to the decoder. Received: cell.dropout="
                f"{getattr(cell, 'dropout', 0)}, cell.recurrent_dropout="
                f"{getattr(cell, 'recurrent_dropout', 0)}"
            )
        if style not in STYLES:
            raise ValueError(
                f"{name}: `style` must be one of {STYLES}. Received: style={style!r}"
            )
        input_feeding = checked_bool(name, "input_feeding", input_feeding)
        seed = checked_seed(name, seed)
        if input_feeding and style != "luong":
            raise ValueError(
                f"{name}: `input_feeding` needs style='luong'. Received: "
                f"style={style!r}, input_feeding={input_feeding}"
            )
        if initial_state not in INITIAL_STATES:
            raise ValueError(
                f"{name}: `initial_state` must be one of {INITIAL_STATES}. "
                f"Received: initial_state={initial_state!r}"
            )
        if attention_output_units is not None and (
            not is_int(attention_output_units) or attention_output_units <= 0
        ):
            raise ValueError(
                f"{name}: `attention_output_units` must be a positive integer. "
                f"Received: attention_output_units={attention_output_units!r}"
            )
        if not is_rate(dropout):
            raise ValueError(
                f"{name}: `dropout` must be a float in [0, 1). Received: "
                f"dropout={dropout}"
            )
        self.cell = cell
        self.attention = attention
        self._mechanisms = _as_list(attention)
        self._dropout_masks = None  # set during a teacher-forced training call
        self._memory_lengths = None  # set by each call
        self.style = style
        self.input_feeding = input_feeding
        self.attention_output_units = optional_int(attention_output_units)
        self.initial_state = initial_state
        self.dropout = float(dropout)
        self.seed = seed
        self.units = int(cell.units)
        self.state_sizes = [int(s) for s in _as_list(cell.state_size)]
        if self.dropout > 0:
            self._input_dropout = keras.layers.Dropout(self.dropout, seed=seed)
            self._output_dropout = keras.layers.Dropout(
                self.dropout, seed=None if seed is None else seed + 1
            )
        self.supports_masking = True

    @property
    def supports_jit(self) -> bool:
        """False on TensorFlow once called on targets of unknown length: the
        recurrence (the cell alone for `ParallelAttentionDecoder`) then runs
        in a `tf.while_loop` whose gradient XLA cannot compile (see
        `BaseAttention.supports_jit`); a known length is unrolled."""
        if (
            getattr(self, "_unknown_target_length", False)
            and keras.backend.backend() == "tensorflow"
        ):
            return False
        return self._supports_jit

    @supports_jit.setter
    def supports_jit(self, value):
        self._supports_jit = value

    # ----------------------------------------------------------------- build

    @property
    def output_size(self) -> int:
        if self.style == "luong":
            return self.attention_output_units or self.units
        return self.units + self._memory_dim

    def _set_memory_dims(self, memory_shapes):
        self._memory_dims = [int(shape[-1]) for shape in memory_shapes]
        # Several mechanisms: their contexts are concatenated.
        self._memory_dim = sum(self._memory_dims)

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

    def get_constants(self, memory, memory_mask=None):
        """What every step needs from the memory: `(memory, projected_key, mask)`.

        Computed once per source sequence; `projected_key` is the attention's
        `project_key(memory)`. With several mechanisms, a tuple of such
        triples, one per mechanism.
        """
        constants = []
        for mechanism, memory_i, mask_i in zip(
            self._mechanisms,
            self._memories(memory, "memory"),
            self._memories(memory_mask, "memory_mask"),
        ):
            memory_i = ops.cast(memory_i, self.compute_dtype)
            if mask_i is None:
                mask_i = ops.ones(ops.shape(memory_i)[:2], dtype="bool")
            constants.append(
                (memory_i, mechanism.project_key(memory_i), ops.cast(mask_i, "bool"))
            )
        return constants[0] if len(constants) == 1 else tuple(constants)

    def _memories(self, memory, arg, shapes=False):
        """One memory (or mask, or shape) per mechanism.

        A single tensor is shared by every mechanism; a list must have one
        entry per mechanism.
        """
        n = len(self._mechanisms)
        is_list = isinstance(memory, (list, tuple)) and not (
            shapes and (not memory or not isinstance(memory[0], (list, tuple)))
        )
        if not is_list:
            return [memory] * n
        if len(memory) != n:
            raise ValueError(
                f"{self.__class__.__name__}: `{arg}` must be one tensor shared by "
                f"the {n} attention mechanism(s) or a list of {n}. Received: a "
                f"list of {len(memory)}"
            )
        return list(memory)

    def _per_mechanism(self, constants):
        return [constants] if len(self._mechanisms) == 1 else list(constants)

    def split_alignments(self, alignments, lengths=None):
        """Split alignments `(..., Tx_1 + ... + Tx_n)` into one per mechanism.

        With several mechanisms the decoder returns their alignments
        concatenated on the last axis (so that the decoding functions see one
        tensor). `lengths`: the memory lengths `[Tx_1, ..., Tx_n]`; by default
        those of the memories of the last call.
        """
        if lengths is None:
            lengths = self._memory_lengths
        if lengths is None or None in list(lengths):
            raise ValueError(
                f"{self.__class__.__name__}.split_alignments needs the memory "
                "lengths: pass `lengths` (the decoder has not been called on "
                f"memories of static length). Received: lengths={lengths}"
            )
        lengths = [int(n) for n in lengths]
        if len(lengths) == 1:
            return [alignments]
        bounds = [sum(lengths[:i]) for i in range(1, len(lengths))]
        return ops.split(alignments, bounds, axis=-1)

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
            states = [ops.cast(s, self.compute_dtype) for s in _as_list(initial_state)]
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

    def step(self, inputs, states, constants, training=None, step_inputs=None):
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

        Returns:
            `(output (B, output_size), new_states, alignment (B, Tx))`.
        """
        inputs = ops.cast(inputs, self.compute_dtype)
        # A step input from Embedding(mask_zero=True) carries a Keras mask that
        # has no time axis to mask here; the cell would warn that it drops it.
        set_keras_mask(inputs, None)
        cell_states, feeding, attention_state = self._split_states(states)
        if self.style == "bahdanau":
            context, alignment, attention_state = self._attend(
                cell_states[0], constants, attention_state, training, step_inputs
            )  # (B, Dm), (B, Tx)
            cell_input = ops.concatenate([inputs, context], axis=-1)
            h, new_cell_states = self.cell(cell_input, cell_states, training=training)
            return (
                ops.concatenate([h, context], -1),
                _as_list(new_cell_states) + attention_state,
                alignment,
            )
        cell_input = inputs
        if self.input_feeding:
            cell_input = ops.concatenate([inputs, feeding[0]], axis=-1)
        h, new_cell_states = self.cell(cell_input, cell_states, training=training)
        context, alignment, attention_state = self._attend(
            h, constants, attention_state, training, step_inputs
        )
        output = self._attention_dense(ops.concatenate([context, h], axis=-1))
        new_states = _as_list(new_cell_states)
        if self.input_feeding:
            new_states.append(output)
        return output, new_states + attention_state, alignment

    def _split_states(self, states):
        """`(cell states, [a_{t-1}] or [], attention state)` of a state list."""
        states = list(states)
        n = len(self.state_sizes)
        m = n + int(self.input_feeding)
        return states[:n], states[n:m], states[m:]

    def _attend(self, query, constants, attention_state, training, step_inputs=None):
        """Single-step attention; queries `(B, D)` over a memory of batch `B / K`.

        The `K` queries that share a memory become `K` query rows of one
        `attention.step` call, so the attention reads each memory once
        instead of once per hypothesis; each row keeps its own attention
        state. Returns `(context (B, Dm), alignment (B, Tx), new state)`.
        """
        contexts, alignments, new_states = [], [], []
        attention_state = list(attention_state)
        none = [None] * len(self._mechanisms)
        dropout_masks = self._dropout_masks or none
        for mechanism, constants_i, dropout_mask, step_inputs_i in zip(
            self._mechanisms,
            self._per_mechanism(constants),
            dropout_masks,
            step_inputs or none,
        ):
            n = mechanism.num_states
            state_i, attention_state = attention_state[:n], attention_state[n:]
            context, alignment, state_i = self._attend_one(
                mechanism,
                query,
                constants_i,
                state_i,
                training,
                dropout_mask,
                step_inputs_i,
            )
            contexts.append(context)
            alignments.append(alignment)
            new_states += state_i
        if len(contexts) == 1:
            return contexts[0], alignments[0], new_states
        return (
            ops.concatenate(contexts, axis=-1),
            ops.concatenate(alignments, axis=-1),
            new_states,
        )

    def _attend_one(
        self,
        mechanism,
        query,
        constants,
        attention_state,
        training,
        dropout_mask,
        step_inputs=None,
    ):
        memory, projected_key, memory_mask = constants
        memory_batch = ops.shape(memory)[0]
        batch = ops.shape(query)[0]

        def rows(x):  # (B, ...) -> (B/K, K, ...)
            return ops.reshape(x, (memory_batch, -1, *ops.shape(x)[1:]))

        def unrows(x):  # (B/K, K, ...) -> (B, ...)
            return ops.reshape(x, (batch, *ops.shape(x)[2:]))

        context, alignment, new_state = mechanism.step(
            rows(query),
            memory,
            projected_key,
            [rows(s) for s in attention_state],
            value_mask=memory_mask,
            training=training,
            dropout_mask=dropout_mask,
            step_inputs=None if step_inputs is None else rows(step_inputs),
        )  # (B/K, K, Dm), (B/K, K, Tx)
        return unrows(context), unrows(alignment), [unrows(s) for s in new_state]

    # -------------------------------------------------------- teacher forcing

    def _scan(self, step_fn, inputs, states, inputs_mask, step_inputs=None):
        """Run `step_fn(x_t, states, step_inputs_t) -> (output, states,
        alignment)` over time.

        `step_inputs`: optional list of `None` or `(B, Ty, F)` tensors (drawn
        before the loop); `step_inputs_t` is the list of their slices at `t`.
        Masked steps carry the states unchanged and emit zeros.
        """
        # One scanned float32 (float64) tensor, the mask and the step inputs
        # riding as extra features: Keras 3.15's TensorFlow scan fails on
        # several inputs of unknown length.
        step_inputs = list(step_inputs or [])
        present = [x for x in step_inputs if x is not None]
        dtype = keras.backend.standardize_dtype(inputs.dtype)
        work = zoo_ops.at_least_float32(dtype)
        width = inputs.shape[-1] or ops.shape(inputs)[-1]
        parts = [
            ops.cast(inputs, work),
            ops.cast(inputs_mask, work)[:, :, None],
            *(ops.cast(x, work) for x in present),
        ]
        xs = ops.transpose(ops.concatenate(parts, -1), (1, 0, 2))  # (Ty, B, ...)
        # Where each mechanism's slice sits among the features: (start, end).
        bounds, start = [], width + 1
        for x in step_inputs:
            if x is None:
                bounds.append(None)
            else:
                bounds.append((start, start + ops.shape(x)[-1]))
                start = start + ops.shape(x)[-1]

        def scan_step(carry, x):
            x_t = ops.cast(x[:, :width], dtype)  # (B, E)
            keep = x[:, width : width + 1] > 0.5  # (B, 1)
            step_inputs_t = [None if b is None else x[:, b[0] : b[1]] for b in bounds]
            output, new_states, alignment = step_fn(x_t, carry, step_inputs_t)
            new_states = [
                ops.where(_broadcastable(keep, new), new, old)
                for new, old in zip(new_states, carry)
            ]
            output = ops.where(keep, output, ops.zeros_like(output))
            alignment = ops.where(keep, alignment, ops.zeros_like(alignment))
            return new_states, (output, alignment)

        final_states, (outputs, alignments) = zoo_ops.scan(scan_step, list(states), xs)
        outputs = ops.transpose(outputs, (1, 0, 2))  # (B, Ty, output_size)
        alignments = ops.transpose(alignments, (1, 0, 2))  # (B, Ty, Tx)
        return outputs, alignments, final_states

    def call(
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
        self._memory_lengths = [m.shape[1] for m in memories]
        if self.dropout > 0:
            inputs = self._input_dropout(inputs, training=training)
        if inputs_mask is None:
            inputs_mask = ops.ones(ops.shape(inputs)[:2], dtype="bool")
        constants = self.get_constants(memory, memory_mask)
        states = self.get_initial_state(memory, memory_mask, initial_state)
        if training:
            # Attention dropout drawn once per sequence, outside the
            # recurrence: a random draw inside a JAX scan leaks a tracer.
            self._dropout_masks = [
                mechanism.dropout_mask(memory_i)
                for mechanism, memory_i in zip(self._mechanisms, memories)
            ]
        try:
            outputs, alignments, final_states = self._teacher_forced(
                inputs, states, constants, inputs_mask, training
            )
        finally:
            self._dropout_masks = None
        if self.dropout > 0:
            outputs = self._output_dropout(outputs, training=training)
        return outputs, alignments, final_states

    def _teacher_forced(self, inputs, states, constants, inputs_mask, training):
        # Random numbers a mechanism needs at every step (e.g. monotonic
        # attention's noise) are drawn for the whole sequence before the
        # recurrence: a random draw inside a JAX scan leaks a tracer.
        step_inputs = [
            mechanism.per_step_inputs(inputs, memory, training)
            for mechanism, (memory, _, _) in zip(
                self._mechanisms, self._per_mechanism(constants)
            )
        ]
        step_inputs.append(self.decoder_step_inputs(inputs, training))
        return self._scan(
            lambda x_t, s, e: self.step(
                x_t, s, constants, training=training, step_inputs=e
            ),
            inputs,
            states,
            inputs_mask,
            step_inputs,
        )

    def decoder_step_inputs(self, inputs, training=None):
        """The decoder's own inputs of every teacher-forced step, drawn
        before the recurrence (as `BaseAttention.per_step_inputs` for a
        mechanism): `None` here, float32 `(B, Ty, F)` in a subclass that
        needs random numbers at each step. `step` gets the slice at `t` as
        the last entry of its `step_inputs`."""
        return None

    def _check_inputs(self, inputs_shape, memory_shapes):
        """`memory_shapes`: one shape per mechanism."""
        name = self.__class__.__name__
        inputs_shape = tuple(inputs_shape)
        if len(inputs_shape) == 3 and inputs_shape[1] is None:
            self._unknown_target_length = True  # see supports_jit
            for mechanism in self._mechanisms:
                mechanism.note_query_length(None)
        if len(inputs_shape) != 3 or inputs_shape[-1] is None:
            raise ValueError(
                f"{name}: `inputs` must have shape (batch_size, Ty, E) with known "
                f"E. Received: inputs.shape={inputs_shape}"
            )
        for memory_shape in memory_shapes:
            memory_shape = tuple(memory_shape)
            if len(memory_shape) != 3 or memory_shape[-1] is None:
                raise ValueError(
                    f"{name}: `memory` must have shape (batch_size, Tx, Dm) with "
                    f"known Dm. Received: memory.shape={memory_shape}"
                )
            b1, b2 = inputs_shape[0], memory_shape[0]
            if b1 is not None and b2 is not None and b1 != b2:
                raise ValueError(
                    f"{name}: `inputs` and `memory` must have the same batch size. "
                    f"Received: inputs.shape={inputs_shape}, "
                    f"memory.shape={memory_shape}"
                )

    def compute_mask(self, inputs, previous_mask=None):
        return previous_mask

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


@keras.saving.register_keras_serializable(package="attention_zoo")
class ParallelAttentionDecoder(AttentionRNNDecoder):
    """Luong-style decoder computed in parallel form when teacher-forced.

    Without input feeding the attention never feeds back into the recurrence,
    so teacher forcing can run the cell over the whole target first and then
    attend for all steps in one batched call (as the TensorFlow NMT tutorial
    does). The weights and `step` are those of
    `AttentionRNNDecoder(style="luong", input_feeding=False)`, so step-by-step
    decoding gives the same outputs.

    Args:
        cell: a Keras RNN cell without dropout.
        attention: an attention layer of this package, or a list of them
            (see `AttentionRNNDecoder`).
        attention_output_units: size of `a_t = tanh(W_c [c_t; h_t])`.
        initial_state: `"zeros"` or `"mean_memory"`.
        dropout: fraction of inputs and outputs dropped during training.
        seed: seed of the dropout.
        **kwargs: base layer arguments.
    """

    def __init__(
        self,
        cell,
        attention,
        attention_output_units: int | None = None,
        initial_state: str = "zeros",
        dropout: float = 0.0,
        seed: int | None = None,
        **kwargs,
    ):
        style, feeding = (
            kwargs.pop("style", "luong"),
            kwargs.pop("input_feeding", False),
        )
        if style != "luong" or feeding:
            raise ValueError(
                "ParallelAttentionDecoder is the Luong style without input feeding. "
                f"Received: style={style!r}, input_feeding={feeding}; use "
                "AttentionRNNDecoder for other forms"
            )
        super().__init__(
            cell,
            attention,
            style="luong",
            input_feeding=False,
            attention_output_units=attention_output_units,
            initial_state=initial_state,
            dropout=dropout,
            seed=seed,
            **kwargs,
        )

    def _teacher_forced(self, inputs, states, constants, inputs_mask, training):
        cell_states, _, attention_state = self._split_states(states)

        def cell_step(x_t, cell_states, _):
            h, new_states = self.cell(x_t, cell_states, training=training)
            return h, _as_list(new_states), ops.zeros_like(h[:, :1])

        hidden, _, final_states = self._scan(
            cell_step, inputs, cell_states, inputs_mask
        )
        contexts, alignments, final_attention_state = [], [], []
        for mechanism, (memory, projected_key, memory_mask) in zip(
            self._mechanisms, self._per_mechanism(constants)
        ):
            n = mechanism.num_states
            state_i, attention_state = attention_state[:n], attention_state[n:]
            if n:
                # The queries do not depend on the contexts, but the
                # mechanism's state runs from step to step.
                context, alignment, state_i = mechanism.attend_sequence(
                    hidden,
                    memory,
                    projected_key,
                    state_i,
                    query_mask=inputs_mask,
                    value_mask=memory_mask,
                    training=training,
                )
            else:
                context, alignment = mechanism.attend(
                    hidden,
                    memory,
                    projected_key,
                    query_mask=inputs_mask,
                    value_mask=memory_mask,
                    return_attention_scores=True,
                    training=training,
                )  # (B, Ty, Dm), (B, Ty, Tx)
            contexts.append(context)
            alignments.append(alignment)
            final_attention_state += list(state_i)
        context = ops.concatenate(contexts, -1) if len(contexts) > 1 else contexts[0]
        alignments = (
            ops.concatenate(alignments, -1) if len(alignments) > 1 else alignments[0]
        )
        outputs = self._attention_dense(ops.concatenate([context, hidden], axis=-1))
        outputs = outputs * ops.cast(inputs_mask[:, :, None], outputs.dtype)
        return outputs, alignments, list(final_states) + final_attention_state

    def get_config(self):
        config = super().get_config()
        del config["style"], config["input_feeding"]
        return config
