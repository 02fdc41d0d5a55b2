"""The soft-attention LSTM decoder of Show, Attend and Tell (Xu et al. 2015)."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo._checks import checked_bool, is_rate
from attention_zoo._keras_compat import set_keras_mask
from attention_zoo.decoders._decoder_args import as_list
from attention_zoo.decoders._multi_memory import attend
from attention_zoo.decoders.attention_rnn_decoder import AttentionRNNDecoder


@keras.saving.register_keras_serializable(package="attention_zoo")
class ShowAttendTellDecoder(AttentionRNNDecoder):
    """Soft-attention caption decoder: Bahdanau placement, gate, deep output.

    One step, with `a` the memory (e.g. a CNN feature grid), `y_{t-1}` the
    embedded previous word and `h_{t-1}` the previous LSTM state:

    - `alpha_t = softmax(f_att(a, h_{t-1}))`, the attention over the `L`
      memory positions (any attention layer of this package, e.g.
      `BahdanauAttention`);
    - `beta_t = sigmoid(w_beta^T h_{t-1} + b_beta)`, a scalar gate per
      sequence (`gate=True`, section 4.2.1 of the paper), and the context
      `z_t = beta_t * sum_i alpha_ti a_i`;
    - `h_t, c_t = LSTM([y_{t-1}; z_t], (h_{t-1}, c_{t-1}))`;
    - the deep output (`deep_output=True`, eq. 7):
      `o_t = y_{t-1} + L_h h_t + L_z z_t`, of the embedding's size, which an
      output layer `L_o` (e.g. dropout and a `Dense` over the vocabulary)
      turns into logits. With `deep_output=False` the output is `[h_t; z_t]`.

    `context_dropout` (not in the paper) hides `z_t` from the LSTM at a
    random fraction of the training steps, the whole vector at once (the
    kept steps scaled by `1 / (1 - context_dropout)`); the deep output still
    sees `z_t`. Without it the LSTM can carry what the attention saw at one
    step (an object's shape, read while its size and colour were emitted)
    to the next, so nothing keeps the attention on the object when its noun
    is emitted. With it, a word must sometimes come from the attention of
    its own step.

    The initial state is `tanh` MLPs of the mean memory by default
    (`initial_state="mean_memory"`: `h_0 = f_init,h(mean(a))`,
    `c_0 = f_init,c(mean(a))`). Everything else (teacher forcing with
    `model.fit`, the step API driven by `attention_zoo.decoding`, masks,
    the memory projected once per sequence) is `AttentionRNNDecoder`'s with
    `style="bahdanau"`. The doubly stochastic regulariser of the paper is
    `attention_zoo.losses.DoublyStochasticAttentionLoss`, applied to the
    returned alignments.

    Sizes: `B` batch size, `Ty` caption steps, `L` memory positions (`H*W`),
    `E` word embedding size, `D` memory features.

    Args:
        cell: a Keras RNN cell without dropout; the paper's is
            `keras.layers.LSTMCell`.
        attention: an attention layer of this package (a `BaseAttention`),
            or a list of them (see `AttentionRNNDecoder`).
        gate: bool, multiply the context by `beta_t`.
        deep_output: bool, output `y_{t-1} + L_h h_t + L_z z_t` (size `E`)
            instead of `[h_t; z_t]` (size `units + D`).
        initial_state: `"mean_memory"` (the paper's) or `"zeros"`.
        dropout: fraction of the inputs and outputs dropped during training.
        context_dropout: fraction of the training steps at which the LSTM
            input gets no context (see above); 0 disables it.
        seed: seed of the dropout.
        **kwargs: base layer arguments.

    Call arguments:
        inputs: `(B, Ty, E)`, the embedded caption shifted right.
        memory: `(B, L, D)`, e.g. `attention_zoo.encoders` feature grids.
        initial_state: optional list of cell states `(B, units)`.
        inputs_mask: optional boolean `(B, Ty)`.
        memory_mask: optional boolean `(B, L)`.
        training: bool.

    Returns:
        `(outputs, alignments, states)`: outputs `(B, Ty, output_size)`,
        alignments `(B, Ty, L)` and the list of final states (cell states,
        then the attention's own state if it has one).

    Examples:
        >>> import numpy as np
        >>> from attention_zoo.layers import BahdanauAttention
        >>> decoder = ShowAttendTellDecoder(
        ...     keras.layers.LSTMCell(8), BahdanauAttention(units=8)
        ... )
        >>> words = np.random.rand(2, 4, 6).astype("float32")  # (B, Ty, E)
        >>> grid = np.random.rand(2, 9, 5).astype("float32")  # (B, L, D): 3x3 grid
        >>> outputs, alignments, states = decoder(words, grid)
        >>> tuple(outputs.shape), tuple(alignments.shape), len(states)
        ((2, 4, 6), (2, 4, 9), 2)

    References:
        Xu et al. 2015, Show, Attend and Tell: Neural Image Caption
        Generation with Visual Attention, https://arxiv.org/abs/1502.03044
    """

    def __init__(
        self,
        cell,
        attention,
        gate: bool = True,
        deep_output: bool = True,
        initial_state: str = "mean_memory",
        dropout: float = 0.0,
        context_dropout: float = 0.0,
        seed: int | None = None,
        **kwargs,
    ):
        fixed = {
            "style": kwargs.pop("style", "bahdanau"),
            "input_feeding": kwargs.pop("input_feeding", False),
            "attention_output_units": kwargs.pop("attention_output_units", None),
        }
        if fixed != {
            "style": "bahdanau",
            "input_feeding": False,
            "attention_output_units": None,
        }:
            raise ValueError(
                "ShowAttendTellDecoder has Bahdanau's placement without input "
                f"feeding. Received: {fixed}; use AttentionRNNDecoder for other forms"
            )
        super().__init__(
            cell,
            attention,
            style="bahdanau",
            initial_state=initial_state,
            dropout=dropout,
            seed=seed,
            **kwargs,
        )
        if not is_rate(context_dropout):
            raise ValueError(
                f"{self.__class__.__name__}: `context_dropout` must be a float in "
                f"[0, 1). Received: context_dropout={context_dropout!r}"
            )
        name = self.__class__.__name__
        self.gate = checked_bool(name, "gate", gate)
        self.deep_output = checked_bool(name, "deep_output", deep_output)
        self.context_dropout = float(context_dropout)
        if self.context_dropout > 0:
            # Applied to ones (B, Ty, 1): each step's keep flag, 0 or
            # 1 / (1 - rate), drawn before the recurrence.
            self._context_dropout = keras.layers.Dropout(
                self.context_dropout,
                seed=None if self.seed is None else self.seed + 2,
            )

    @property
    def output_size(self) -> int:
        if self.deep_output:
            return self._input_dim
        return self.units + self._memory_dim

    def build(self, inputs_shape, memory_shape, initial_state_shape=None):
        super().build(inputs_shape, memory_shape, initial_state_shape)
        self._input_dim = int(inputs_shape[-1])
        if self.gate:
            self._gate_dense = keras.layers.Dense(
                1, activation="sigmoid", name="gate_dense", dtype=self.dtype_policy
            )
            self._gate_dense.build((None, self.units))
        if self.deep_output:
            # L_h and L_z of eq. 7; the embedding E y_{t-1} is the input itself.
            self._hidden_output_dense = keras.layers.Dense(
                self._input_dim,
                use_bias=False,
                name="hidden_output_dense",
                dtype=self.dtype_policy,
            )
            self._hidden_output_dense.build((None, self.units))
            self._context_output_dense = keras.layers.Dense(
                self._input_dim,
                use_bias=False,
                name="context_output_dense",
                dtype=self.dtype_policy,
            )
            self._context_output_dense.build((None, self._memory_dim))

    def decoder_step_inputs(self, inputs, training=None):
        """The LSTM's context keep flags `(B, Ty, 1)` in training, else None."""
        if not training or self.context_dropout == 0:
            return None
        shape = (ops.shape(inputs)[0], ops.shape(inputs)[1], 1)
        return self._context_dropout(ops.ones(shape, "float32"), training=True)

    def step(
        self,
        inputs,
        states,
        constants,
        training=None,
        step_inputs=None,
        dropout_masks=None,
    ):
        """One decoder step; see `AttentionRNNDecoder.step`."""
        inputs = ops.cast(inputs, self.compute_dtype)
        set_keras_mask(inputs, None)
        cell_states, _, attention_state = self._split_states(states)
        previous = cell_states[0]  # h_{t-1}
        context, alignment, attention_state = attend(
            self._mechanisms,
            previous,
            constants,
            attention_state,
            training,
            step_inputs,
            dropout_masks,
        )  # (B, D), (B, L)
        if self.gate:
            context = self._gate_dense(previous) * context  # beta_t: (B, 1)
        cell_context = context
        if step_inputs is not None and len(step_inputs) > len(self._mechanisms):
            keep = step_inputs[len(self._mechanisms)]  # (B, 1) or None
            if keep is not None:
                cell_context = ops.cast(keep, context.dtype) * context
        h, new_states = self.cell(
            ops.concatenate([inputs, cell_context], axis=-1),
            cell_states,
            training=training,
        )
        if self.deep_output:
            output = (
                inputs
                + self._hidden_output_dense(h)
                + self._context_output_dense(context)
            )
        else:
            output = ops.concatenate([h, context], axis=-1)
        return output, as_list(new_states) + attention_state, alignment

    def compute_output_spec(self, inputs, memory, *args, **kwargs):
        if not self.built:
            self._input_dim = int(inputs.shape[-1])
        return super().compute_output_spec(inputs, memory, *args, **kwargs)

    def get_config(self):
        config = super().get_config()
        for key in ("style", "input_feeding", "attention_output_units"):
            del config[key]
        config.update(
            {
                "gate": self.gate,
                "deep_output": self.deep_output,
                "context_dropout": self.context_dropout,
            }
        )
        return config
