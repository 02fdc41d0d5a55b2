"""The teacher-forced recurrence of the decoders: a step function scanned
over time, masked steps carrying the state unchanged."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo import ops as zoo_ops


def _broadcastable(keep, x):
    """`keep` `(B, 1)` reshaped to broadcast over a state `x` of any rank."""
    return ops.reshape(keep, (-1,) + (1,) * (len(x.shape) - 1))


def masked_scan(step_fn, inputs, states, inputs_mask, step_inputs=None):
    """Run `step_fn(x_t, states, step_inputs_t) -> (output, states,
    alignment)` over time.

    Args:
        step_fn: one step; everything else it reads (constants, dropout
            masks) it takes from its closure, never from the layer.
        inputs: `(B, Ty, E)`.
        states: list of `(B, ...)` tensors.
        inputs_mask: boolean `(B, Ty)`; masked steps carry the states
            unchanged and emit zeros.
        step_inputs: optional list of `None` or `(B, Ty, F)` tensors (drawn
            before the loop); `step_inputs_t` is the list of their slices at
            `t`.

    Returns:
        `(outputs (B, Ty, ...), alignments (B, Ty, Tx), final states)`.
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
