"""A trained date run: text in, ISO dates, scores, validity and attention out."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import keras
import numpy as np

from attention_zoo.applications.common import InputError, RunPredictor, output_folder
from attention_zoo.applications.dates import data
from attention_zoo.applications.dates import model as models
from attention_zoo.applications.dates.readings import (
    agrees,
    disagreement,
    numeric_readings,
)

# The validity threshold is the score that this share of the validation
# dates falls below (training.py writes it to config.json).
THRESHOLD_QUANTILE = 0.002


@dataclass
class Prediction:
    """One answer: `iso` is the model's output ("" for `<invalid>`);
    `valid` says it is a real calendar date with `score` (the answer's
    log-probability) at least the run's threshold and, for an all-numeric
    input, its one reading (`readings.agrees`); `reason` says why not."""

    text: str
    iso: str
    valid: bool
    score: float
    reason: str
    unknown: list


class Normalizer(RunPredictor):
    """A trained run: text in, ISO dates, scores and attention out."""

    app = "dates"
    required_files = ("model.keras", "config.json", "vocabulary.json")

    def __init__(self, run_dir):
        super().__init__(run_dir)
        self.kind = self.config["model"]
        self.tx = self.config.get("tx", data.TX_CLASSIC)
        self.threshold = self.config.get("score_threshold", -math.inf)
        with self.reading("vocabulary.json"):
            self.vocabulary = data.CharVocabulary.from_json(
                json.loads(
                    (self.run_dir / "vocabulary.json").read_text(encoding="utf-8")
                )
            )
        self.iso = data.IsoVocabulary()
        self.model = self.load_model(model_names=(self.kind,))
        self._predict = self.compiled(
            "predict",
            lambda: models.make_predict_fn(self.model, self.kind),
            (self.tx,),
            "int32",
        )

    def check(self, text: str) -> None:
        """Raise `InputError` for inputs the model cannot read."""
        normalized = data.normalize(text)
        if not normalized:
            raise InputError(
                f"empty input: {text!r} has no characters besides whitespace"
            )
        if len(normalized) > self.tx:
            raise InputError(
                f"input too long: {text!r} has {len(normalized)} characters once "
                f"normalized; the model reads at most {self.tx}"
            )

    def encode(self, texts):
        return self.vocabulary.encode(texts, self.tx)

    def predict_ids(self, texts, batch_size: int = 1000):
        """`(ids (N, TY), attention (N, TY, TX), scores (N,))` as NumPy."""
        ids, attention, scores = [], [], []
        for start in range(0, len(texts), batch_size):
            outputs = self._predict(self.encode(texts[start : start + batch_size]))
            i, a, s = (keras.ops.convert_to_numpy(x) for x in outputs)
            ids.append(i)
            attention.append(a.astype("float32"))
            scores.append(s.astype("float32"))
        return np.concatenate(ids), np.concatenate(attention), np.concatenate(scores)

    def predict(self, texts, batch_size: int = 1000):
        """ISO strings and attention `(N, TY, TX)` for `texts`."""
        ids, attention, _ = self.predict_ids(list(texts), batch_size)
        return self.iso.decode(ids), attention

    def predict_scored(self, texts, batch_size: int = 1000):
        """`(isos, valid (N,) bool, scores (N,) float32, attention)`."""
        texts = list(texts)
        ids, attention, scores = self.predict_ids(texts, batch_size)
        isos = self.iso.decode(ids)
        valid = np.array(
            [
                data.is_calendar_date(iso) and agrees(data.normalize(text), iso)
                for text, iso in zip(texts, isos)
            ],
            bool,
        )
        return isos, valid & (scores >= self.threshold), scores, attention

    def predict_items(self, inputs) -> list[dict]:
        """`{"input", "text", "score", "valid", "reason", "attention"}` per text.

        See `RunPredictor.__call__`. An input the model cannot read (empty,
        or longer than it reads) is not refused: it gets the text "", the
        score -inf, `valid` False and the reason, like the SavedModel.
        """
        texts = [str(t) for t in inputs]
        reasons = {}
        for i, text in enumerate(texts):
            try:
                self.check(text)
            except InputError as error:
                reasons[i] = str(error)
        readable = [t for i, t in enumerate(texts) if i not in reasons]
        answers = iter(zip(*self.predict_scored(readable))) if readable else iter(())
        items = []
        for i, text in enumerate(texts):
            if i in reasons:
                items.append(
                    {
                        "input": text,
                        "text": "",
                        "score": -math.inf,
                        "valid": False,
                        "reason": reasons[i],
                        "attention": np.zeros((0, 0), "float32"),
                    }
                )
                continue
            iso, ok, score, weights = next(answers)
            items.append(
                {
                    "input": text,
                    "text": iso,
                    "score": float(score),
                    "valid": bool(ok),
                    "reason": self.reason(iso, float(score), text),
                    "attention": weights,
                }
            )
        return items

    def reason(self, iso: str, score: float, text: str = "") -> str:
        """Why the answer `iso` (to the input `text`) is not valid ("" when
        it is). An input that cannot be a date says so first, then the
        model's answer, then the numbers against it, then the score."""
        readings = numeric_readings(data.normalize(text))
        numbers = disagreement(readings, iso)
        if readings is not None and len(readings) != 1:
            return numbers
        if iso == "":
            return "the model reads no date in it"
        if not data.is_calendar_date(iso):
            return f"not a real calendar date ({iso})"
        if numbers:
            return numbers
        if score < self.threshold:
            return f"low confidence (score {score:.2f} < {self.threshold:.2f})"
        return ""

    def predictions(self, texts) -> list[Prediction]:
        isos, valid, scores, _ = self.predict_scored(texts)
        return [
            Prediction(
                text,
                iso,
                bool(ok),
                float(score),
                self.reason(iso, float(score), text),
                self.vocabulary.unknown(text),
            )
            for text, iso, ok, score in zip(texts, isos, valid, scores)
        ]


def predict(run_dir, texts, normalizer: Normalizer | None = None) -> list[Prediction]:
    """A `Prediction` per text; raises InputError for an unreadable one."""
    normalizer = normalizer or Normalizer(run_dir)
    normalizer.check_all(texts)
    return normalizer.predictions(list(texts))


def plot(
    run_dir, texts, output_dir, normalizer: Normalizer | None = None
) -> list[Path]:
    """One attention heatmap PNG per text: input characters x output characters."""
    from attention_zoo.plotting import save_attention_plot

    normalizer = normalizer or Normalizer(run_dir)
    normalizer.check_all(texts)
    isos, attention = normalizer.predict(list(texts))
    paths = []
    output_dir = output_folder(output_dir)
    for i, (text, iso) in enumerate(zip(texts, isos)):
        source = list(data.normalize(text))[: normalizer.tx]
        path = output_dir / f"attention_{i}.png"
        label = list(iso) or ["<invalid>"]
        save_attention_plot(
            path,
            attention[i][: len(label), : len(source)],
            source,
            label,
            title=f"{text!r} -> {iso or 'not a date'}",
        )
        paths.append(path)
    return paths
