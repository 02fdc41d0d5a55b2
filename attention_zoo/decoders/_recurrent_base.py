"""What the attention RNN decoders share: the memory plumbing (one memory or
one per mechanism, constants computed once per source) and teacher forcing
(`call`: the step scanned over the target)."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo.decoders._masked_scan import masked_scan
from attention_zoo.decoders._multi_memory import (
    per_mechanism,
    split_alignments,
    split_constants,
)


class RecurrentAttentionBase(keras.layers.Layer):
    """Memory plumbing and teacher forcing of a decoder built on `step`.

    Not a layer to use alone: `AttentionRNNDecoder` is the one to subclass.
    A subclass sets `_mechanisms` (its attention layers), `dropout` (with
    `_input_dropout` and `_output_dropout` when positive) and
    `_memory_lengths`, and provides `get_initial_state` and `step`; `call`
    then scans `step` over the target, handing every step the per-sequence
    dropout masks and per-step inputs it draws before the recurrence (a
    random draw inside a JAX scan leaks a tracer), so no per-call state
    lives on the layer.
    """

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

    def _set_memory_dims(self, memory_shapes):
        self._memory_dims = [int(shape[-1]) for shape in memory_shapes]
        # Several mechanisms: their contexts are concatenated.
        self._memory_dim = sum(self._memory_dims)

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
        """One memory (or mask, or shape) per mechanism; see `per_mechanism`."""
        name = self.__class__.__name__
        return per_mechanism(name, len(self._mechanisms), memory, arg, shapes)

    def _per_mechanism(self, constants):
        return split_constants(constants, len(self._mechanisms))

    def split_alignments(self, alignments, lengths=None):
        """Split alignments `(..., Tx_1 + ... + Tx_n)` into one per mechanism.

        With several mechanisms the decoder returns their alignments
        concatenated on the last axis (so that the decoding functions see one
        tensor). `lengths`: the memory lengths `[Tx_1, ..., Tx_n]`; by default
        those of the memories of the last call.
        """
        if lengths is None:
            lengths = self._memory_lengths
        return split_alignments(self.__class__.__name__, alignments, lengths)

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
        dropout_masks = None
        if training:
            # Attention dropout drawn once per sequence, outside the
            # recurrence (a random draw inside a JAX scan leaks a tracer),
            # and handed to every step: no per-call state on the layer.
            dropout_masks = [
                mechanism.dropout_mask(memory_i)
                for mechanism, memory_i in zip(self._mechanisms, memories)
            ]
        outputs, alignments, final_states = self._teacher_forced(
            inputs, states, constants, inputs_mask, training, dropout_masks
        )
        if self.dropout > 0:
            outputs = self._output_dropout(outputs, training=training)
        return outputs, alignments, final_states

    def _teacher_forced(
        self, inputs, states, constants, inputs_mask, training, dropout_masks=None
    ):
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
        return masked_scan(
            lambda x_t, s, e: self.step(
                x_t,
                s,
                constants,
                training=training,
                step_inputs=e,
                dropout_masks=dropout_masks,
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
                mechanism.record_query_length(None)
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
