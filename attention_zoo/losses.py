"""Sequence losses that ignore padding."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo._checks import checked_bool, is_int, is_rate, is_real


class _LabelMaskedLoss(keras.losses.Loss):
    """A loss whose padding comes from the labels alone.

    `keras.losses.Loss.__call__` would also weigh the losses with the Keras
    mask riding on `y_pred` (from an `Embedding(mask_zero=True)` upstream),
    rescaled by total / valid: on top of the masking the subclass's `call`
    does from the labels, that inflates the loss by the padding ratio. This
    is the same reduction without that mask.
    """

    def __call__(self, y_true, y_pred, sample_weight=None):
        from attention_zoo._keras_compat import reduce_weighted_values

        with keras.name_scope(self.name):
            losses = self.call(y_true, y_pred)
            return reduce_weighted_values(
                losses,
                sample_weight=sample_weight,
                reduction=self.reduction,
                dtype=self.dtype,
            )


@keras.saving.register_keras_serializable(package="attention_zoo")
class MaskedSequenceCrossEntropy(_LabelMaskedLoss):
    """Token cross-entropy averaged over the non-padding tokens of a batch.

    Positions whose label is `pad_token` contribute nothing, and the mean is
    taken over the real tokens (not over `batch * T`), so a batch of short
    sequences and one of long sequences are weighed per token. Padding is
    read from the labels only: a Keras mask riding on `y_pred` (from an
    `Embedding(mask_zero=True)` upstream) is not applied a second time.

    Args:
        pad_token: label id that marks padding.
        from_logits: whether `y_pred` holds logits (else probabilities).
        label_smoothing: float in `[0, 1)`; the target distribution becomes
            `(1 - label_smoothing) * one_hot + label_smoothing / V`.
        name: name of the loss.
        reduction: `"sum_over_batch_size"` (the default) or `"mean"`: the
            mean over the real tokens; `"sum"`: their sum; `"none"`: the
            `(B, T)` token losses, 0 at padding. (`"mean_with_sample_weight"`
            is refused: it would divide by the weights of the padding too.)
        dtype: as for any `keras.losses.Loss`.

    Call arguments:
        y_true: int `(B, T)` labels.
        y_pred: float `(B, T, V)`.

    Examples:
        >>> import numpy as np
        >>> loss = MaskedSequenceCrossEntropy(pad_token=0)
        >>> y_true = np.array([[3, 1, 0, 0]])
        >>> y_pred = np.zeros((1, 4, 5), "float32")  # uniform over 5 tokens
        >>> round(float(loss(y_true, y_pred)), 4)  # log 5, padding ignored
        1.6094
    """

    def __init__(
        self,
        pad_token: int = 0,
        from_logits: bool = True,
        label_smoothing: float = 0.0,
        name: str = "masked_sequence_cross_entropy",
        reduction: str = "sum_over_batch_size",
        dtype=None,
    ):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        if reduction == "mean_with_sample_weight":
            raise ValueError(
                "MaskedSequenceCrossEntropy: `reduction` must be one of "
                "'sum_over_batch_size', 'mean', 'sum', 'none' or None (the loss "
                "already averages over the real tokens). Received: "
                f"reduction={reduction!r}"
            )
        if not is_rate(label_smoothing):
            raise ValueError(
                "MaskedSequenceCrossEntropy: `label_smoothing` must be a float in "
                f"[0, 1). Received: label_smoothing={label_smoothing!r}"
            )
        if not is_int(pad_token):
            raise ValueError(
                "MaskedSequenceCrossEntropy: `pad_token` must be an integer label "
                f"id. Received: pad_token={pad_token!r}"
            )
        self.pad_token = int(pad_token)
        self.from_logits = checked_bool(
            "MaskedSequenceCrossEntropy", "from_logits", from_logits
        )
        self.label_smoothing = float(label_smoothing)

    def call(self, y_true, y_pred):
        y_true = ops.cast(y_true, "int32")
        if len(y_pred.shape) != len(y_true.shape) + 1:
            raise ValueError(
                "MaskedSequenceCrossEntropy: `y_pred` must have one more axis "
                f"than `y_true`. Received: y_true.shape={tuple(y_true.shape)}, "
                f"y_pred.shape={tuple(y_pred.shape)}"
            )
        y_pred = ops.cast(y_pred, "float32")
        vocab = ops.shape(y_pred)[-1]
        if self.from_logits:
            log_probs = ops.log_softmax(y_pred, axis=-1)
        else:
            log_probs = ops.log(ops.clip(y_pred, 1e-7, 1.0))
        target = ops.one_hot(y_true, vocab, dtype="float32")
        if self.label_smoothing:
            target = target * (
                1.0 - self.label_smoothing
            ) + self.label_smoothing / ops.cast(vocab, "float32")
        token_loss = -ops.sum(target * log_probs, axis=-1)  # (B, T)
        mask = ops.cast(ops.not_equal(y_true, self.pad_token), "float32")
        token_loss = token_loss * mask
        if self.reduction not in ("sum_over_batch_size", "mean"):
            return token_loss  # "sum", "none"
        # These reductions divide by B * T; rescale so the result is the mean
        # over real tokens (and 0 for a batch of padding only).
        total = ops.cast(ops.size(mask), "float32")
        count = ops.maximum(ops.sum(mask), 1.0)
        return token_loss * (total / count)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "pad_token": self.pad_token,
                "from_logits": self.from_logits,
                "label_smoothing": self.label_smoothing,
            }
        )
        return config


@keras.saving.register_keras_serializable(package="attention_zoo")
class DoublyStochasticAttentionLoss(_LabelMaskedLoss):
    """Doubly stochastic attention regulariser of Show, Attend and Tell.

    `strength * sum_i (1 - sum_t alpha_ti)^2` per sequence (Xu et al. 2015,
    eq. 14): the attention of every step sums to 1 over the `L` memory
    positions, and this term pushes the attention summed over the caption's
    steps towards 1 at every position too, so that the decoder looks at
    every part of the image over a caption. Only real caption steps (label
    not `pad_token`) count; a sequence with no real step costs 0.

    Use it as the loss of a model output that holds the alignments, with the
    caption labels as its target, next to the cross-entropy of the logits:
    `model.compile(loss={"logits": MaskedSequenceCrossEntropy(),
    "attention": DoublyStochasticAttentionLoss(1.0)})` and
    `y={"logits": labels, "attention": labels}`.

    Args:
        strength: float >= 0, the paper's `lambda`.
        pad_token: label id that marks padding.
        name: name of the loss.
        reduction: as for any `keras.losses.Loss`; the default averages the
            per-sequence penalties over the batch.
        dtype: as for any `keras.losses.Loss`.

    Call arguments:
        y_true: int `(B, Ty)` labels (only their padding is read).
        y_pred: float `(B, Ty, L)` attention weights.

    Examples:
        >>> import numpy as np
        >>> loss = DoublyStochasticAttentionLoss(strength=1.0)
        >>> labels = np.array([[5, 7, 0]])  # two real steps, one padding step
        >>> alphas = np.array([[[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]], "float32")
        >>> float(loss(labels, alphas))  # (1 - 2)^2 + (1 - 0)^2; padding ignored
        2.0
    """

    def __init__(
        self,
        strength: float = 1.0,
        pad_token: int = 0,
        name: str = "doubly_stochastic_attention",
        reduction: str = "sum_over_batch_size",
        dtype=None,
    ):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        if not is_real(strength) or strength < 0.0:
            raise ValueError(
                "DoublyStochasticAttentionLoss: `strength` must be a float >= 0. "
                f"Received: strength={strength!r}"
            )
        if not is_int(pad_token):
            raise ValueError(
                "DoublyStochasticAttentionLoss: `pad_token` must be an integer "
                f"label id. Received: pad_token={pad_token!r}"
            )
        self.strength = float(strength)
        self.pad_token = int(pad_token)

    def call(self, y_true, y_pred):
        if len(y_pred.shape) != 3 or len(y_true.shape) != 2:
            raise ValueError(
                "DoublyStochasticAttentionLoss: `y_true` must be labels (B, Ty) "
                "and `y_pred` attention weights (B, Ty, L). Received: "
                f"y_true.shape={tuple(y_true.shape)}, "
                f"y_pred.shape={tuple(y_pred.shape)}"
            )
        real = ops.cast(
            ops.not_equal(ops.cast(y_true, "int32"), self.pad_token), "float32"
        )
        alphas = ops.cast(y_pred, "float32") * real[:, :, None]
        coverage = ops.sum(alphas, axis=1)  # (B, L): attention summed over steps
        penalty = ops.sum(ops.square(1.0 - coverage), axis=-1)  # (B,)
        has_steps = ops.cast(ops.any(real > 0, axis=-1), "float32")
        return self.strength * penalty * has_steps

    def get_config(self):
        config = super().get_config()
        config.update({"strength": self.strength, "pad_token": self.pad_token})
        return config


@keras.saving.register_keras_serializable(package="attention_zoo")
class CoverageLoss(_LabelMaskedLoss):
    """Coverage loss of the pointer-generator network (See et al. 2017).

    At target step `t` the coverage `c^t = sum_{t' < t} a^{t'}` sums the
    attention of the previous steps, and the step costs
    `sum_i min(a_i^t, c_i^t)` (eq. 12): attending again to a source position
    that is already covered is penalised, up to the attention it already
    had. The loss of a sequence is `strength` times the mean of that cost
    over its real target steps (label not `pad_token`; eq. 13 and the
    reference implementation's per-sequence mean), and the default reduction
    averages it over the batch. Attention at padded steps is ignored (it
    neither costs nor adds to the coverage); a sequence with no real step
    costs 0. The cost of a step lies in `[0, 1]` when its weights sum to 1.

    Use it as the loss of a model output that holds the alignments (e.g. of
    a decoder with `attention_zoo.layers.CoverageAttention`), with the
    target labels as its target: `model.compile(loss={"logits":
    MaskedSequenceCrossEntropy(), "attention": CoverageLoss(1.0)})` and
    `y={"logits": labels, "attention": labels}`.

    Args:
        strength: float >= 0, the paper's `lambda`.
        pad_token: int, label id that marks padding.
        name: name of the loss.
        reduction: as for any `keras.losses.Loss`; the default averages the
            per-sequence losses over the batch.
        dtype: as for any `keras.losses.Loss`.

    Call arguments:
        y_true: int `(B, Ty)` labels (only their padding is read).
        y_pred: float `(B, Ty, Tx)` attention weights, one row per target
            step, as a decoder returns them.

    Examples:
        >>> import numpy as np
        >>> loss = CoverageLoss(strength=1.0)
        >>> labels = np.array([[5, 7, 0]])  # two real steps, one padding step
        >>> alphas = np.array([[[1.0, 0.0], [0.5, 0.5], [1.0, 0.0]]], "float32")
        >>> # step 0: c = 0 costs 0; step 1: c = (1, 0) costs min(.5, 1) = 0.5
        >>> float(loss(labels, alphas))  # (0 + 0.5) / 2 real steps
        0.25

    References:
        See, Liu, Manning. "Get To The Point: Summarization with
        Pointer-Generator Networks". ACL 2017. https://arxiv.org/abs/1704.04368
    """

    def __init__(
        self,
        strength: float = 1.0,
        pad_token: int = 0,
        name: str = "coverage",
        reduction: str = "sum_over_batch_size",
        dtype=None,
    ):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        if not is_real(strength) or strength < 0.0:
            raise ValueError(
                "CoverageLoss: `strength` must be a float >= 0. "
                f"Received: strength={strength!r}"
            )
        if not is_int(pad_token):
            raise ValueError(
                "CoverageLoss: `pad_token` must be an integer label id. "
                f"Received: pad_token={pad_token!r}"
            )
        self.strength = float(strength)
        self.pad_token = int(pad_token)

    def call(self, y_true, y_pred):
        if len(y_pred.shape) != 3 or len(y_true.shape) != 2:
            raise ValueError(
                "CoverageLoss: `y_true` must be labels (B, Ty) and `y_pred` "
                "attention weights (B, Ty, Tx). Received: "
                f"y_true.shape={tuple(y_true.shape)}, "
                f"y_pred.shape={tuple(y_pred.shape)}"
            )
        real = ops.cast(
            ops.not_equal(ops.cast(y_true, "int32"), self.pad_token), "float32"
        )  # (B, Ty)
        alphas = ops.cast(y_pred, "float32") * real[:, :, None]  # (B, Ty, Tx)
        # Exclusive cumulative sum over target steps, shifted rather than
        # `cumsum - alphas`, so the first step's coverage is exactly zero.
        coverage = ops.concatenate(
            [ops.zeros_like(alphas[:, :1]), ops.cumsum(alphas, axis=1)[:, :-1]], 1
        )  # (B, Ty, Tx)
        step_loss = ops.sum(ops.minimum(alphas, coverage), axis=-1)  # (B, Ty)
        steps = ops.sum(real, axis=-1)  # (B,)
        return self.strength * ops.sum(step_loss, axis=-1) / ops.maximum(steps, 1.0)

    def get_config(self):
        config = super().get_config()
        config.update({"strength": self.strength, "pad_token": self.pad_token})
        return config
