"""Luong-style decoder computed in parallel form when teacher-forced."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo.decoders._decoder_args import as_list
from attention_zoo.decoders._masked_scan import masked_scan
from attention_zoo.decoders.attention_rnn_decoder import AttentionRNNDecoder


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

    def _teacher_forced(
        self, inputs, states, constants, inputs_mask, training, dropout_masks=None
    ):
        # All steps attend in one call, which draws its own attention
        # dropout: the per-sequence `dropout_masks` serve stepping only.
        cell_states, _, attention_state = self._split_states(states)

        def cell_step(x_t, cell_states, _):
            h, new_states = self.cell(x_t, cell_states, training=training)
            return h, as_list(new_states), ops.zeros_like(h[:, :1])

        hidden, _, final_states = masked_scan(
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
