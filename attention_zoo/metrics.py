"""Sequence metrics that ignore padding."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo._checks import checked_bool, is_int


def _predicted_tokens(y_pred):
    if len(y_pred.shape) >= 3:  # (B, T, V) scores
        return ops.cast(ops.argmax(y_pred, axis=-1), "int32")
    return ops.cast(y_pred, "int32")  # (B, T) tokens


class _PaddedSequenceMetric(keras.metrics.Metric):
    def __init__(self, pad_token: int = 0, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        if not is_int(pad_token):
            raise ValueError(
                f"{type(self).__name__}: `pad_token` must be an integer label id. "
                f"Received: pad_token={pad_token!r}"
            )
        self.pad_token = int(pad_token)
        self.total = self.add_variable(shape=(), initializer="zeros", name="total")
        self.count = self.add_variable(shape=(), initializer="zeros", name="count")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = ops.cast(y_true, "int32")
        y_pred = _predicted_tokens(y_pred)
        valid = ops.not_equal(y_true, self.pad_token)
        correct = ops.logical_or(ops.equal(y_true, y_pred), ops.logical_not(valid))
        hits, counts = self._counts(correct, valid)
        if sample_weight is not None:
            sample_weight = ops.cast(sample_weight, "float32")
            if len(sample_weight.shape) > len(hits.shape):
                unit = (
                    "(batch_size,): one weight per sequence"
                    if len(hits.shape) == 1
                    else "(batch_size,) or (batch_size, T)"
                )
                raise ValueError(
                    f"{self.__class__.__name__}: `sample_weight` must have shape "
                    f"{unit}. Received: sample_weight.shape="
                    f"{tuple(sample_weight.shape)}"
                )
            while len(sample_weight.shape) < len(hits.shape):
                sample_weight = sample_weight[..., None]
            hits, counts = hits * sample_weight, counts * sample_weight
        self.total.assign_add(ops.cast(ops.sum(hits), self.dtype))
        self.count.assign_add(ops.cast(ops.sum(counts), self.dtype))

    def result(self):
        # 0 before any real token; not max(count, 1), which scaled the score
        # down whenever the weights summed to less than 1.
        return ops.divide_no_nan(self.total, self.count)

    def reset_state(self):
        self.total.assign(0.0)
        self.count.assign(0.0)

    def get_config(self):
        return {**super().get_config(), "pad_token": self.pad_token}


@keras.saving.register_keras_serializable(package="attention_zoo")
class MaskedTokenAccuracy(_PaddedSequenceMetric):
    """Fraction of non-padding tokens predicted correctly.

    `y_pred` may be scores `(B, T, V)` (argmax is taken) or tokens `(B, T)`.

    Examples:
        >>> import numpy as np
        >>> m = MaskedTokenAccuracy()
        >>> m.update_state(np.array([[3, 1, 0]]), np.array([[3, 2, 2]]))
        >>> float(m.result())
        0.5
    """

    def __init__(self, pad_token: int = 0, name="token_accuracy", dtype=None):
        super().__init__(pad_token=pad_token, name=name, dtype=dtype)

    def _counts(self, correct, valid):
        return ops.cast(correct, "float32") * ops.cast(valid, "float32"), ops.cast(
            valid, "float32"
        )


@keras.saving.register_keras_serializable(package="attention_zoo")
class SequenceExactMatch(_PaddedSequenceMetric):
    """Fraction of sequences whose non-padding tokens are all correct.

    A row of padding only (no real token) is not a sequence and counts
    neither way.

    Examples:
        >>> import numpy as np
        >>> m = SequenceExactMatch()
        >>> m.update_state(np.array([[3, 1, 0], [4, 4, 0]]), np.array([[3, 1, 7], [4, 2, 0]]))
        >>> float(m.result())
        0.5
    """

    def __init__(self, pad_token: int = 0, name="exact_match", dtype=None):
        super().__init__(pad_token=pad_token, name=name, dtype=dtype)

    def _counts(self, correct, valid):
        real = ops.cast(ops.any(valid, axis=-1), "float32")
        exact = ops.cast(ops.all(correct, axis=-1), "float32")
        return exact * real, real


def corpus_scores(hypotheses, references, tokenized: bool = False) -> dict:
    """sacreBLEU corpus BLEU and chrF of `hypotheses` against one reference each.

    Args:
        hypotheses: list of output strings.
        references: list of reference strings, aligned with `hypotheses`.
        tokenized: bool; True when both sides are already tokenized
            (punctuation split off), which silences sacreBLEU's warning about
            it. The scores are the same either way.

    Returns:
        `{"bleu": float, "chrf": float, "bleu_signature": str,
        "chrf_signature": str}`; the signatures are sacreBLEU's, to quote
        with the numbers.

    Examples:
        >>> scores = corpus_scores(["the cat sat on the mat"], ["the cat sat on the mat"])
        >>> round(scores["bleu"], 1), round(scores["chrf"], 1)
        (100.0, 100.0)
    """
    from sacrebleu.metrics import BLEU, CHRF

    tokenized = checked_bool("corpus_scores", "tokenized", tokenized)
    hypotheses, references = list(hypotheses), list(references)
    if len(hypotheses) != len(references):
        raise ValueError(
            "`hypotheses` and `references` must have the same length. Received: "
            f"{len(hypotheses)} hypotheses and {len(references)} references"
        )
    bleu, chrf = BLEU(force=tokenized), CHRF()
    bleu_score = bleu.corpus_score(hypotheses, [references])
    chrf_score = chrf.corpus_score(hypotheses, [references])
    return {
        "bleu": float(bleu_score.score),
        "chrf": float(chrf_score.score),
        "bleu_signature": str(bleu.get_signature()),
        "chrf_signature": str(chrf.get_signature()),
    }
