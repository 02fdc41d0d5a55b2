"""A trained date run: text in, ISO dates and attention out."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from attention_zoo.applications.common import InputError, RunPredictor, output_folder
from attention_zoo.applications.dates import data
from attention_zoo.applications.dates import model as models


class Normalizer(RunPredictor):
    """A trained run: text in, ISO dates and attention out."""

    app = "dates"
    required_files = ("model.keras", "config.json", "vocabulary.json")

    def __init__(self, run_dir):
        super().__init__(run_dir)
        self.kind = self.config["model"]
        with self.reading("vocabulary.json"):
            self.vocabulary = data.CharVocabulary.from_json(
                json.loads((self.run_dir / "vocabulary.json").read_text())
            )
        self.iso = data.IsoVocabulary()
        self.model = self.load_model(model_names=(self.kind,))
        self._predict = self.compiled(
            "predict",
            lambda: models.make_predict_fn(self.model, self.kind),
            (data.TX,),
            "int32",
        )

    def check(self, text: str) -> None:
        """Raise `InputError` for inputs the model cannot read."""
        normalized = data.normalize(text)
        if not normalized:
            raise InputError(
                f"empty input: {text!r} has no characters besides whitespace"
            )
        if len(normalized) > data.TX:
            raise InputError(
                f"input too long: {text!r} has {len(normalized)} characters once "
                f"normalized; the model reads at most {data.TX}"
            )

    def predict_ids(self, texts, batch_size: int = 1000):
        ids, attention = [], []
        for _, i, a in self.run_batches(
            self._predict, texts, batch_size, self.vocabulary.encode
        ):
            ids.append(i)
            attention.append(a)
        return np.concatenate(ids), np.concatenate(attention)

    def predict(self, texts, batch_size: int = 1000):
        """ISO strings and attention `(N, TY, TX)` for `texts`."""
        ids, attention = self.predict_ids(list(texts), batch_size)
        return self.iso.decode(ids), attention

    def predict_items(self, inputs) -> list[dict]:
        """`{"input", "text", "valid", "attention"}` per text (see `RunPredictor`)."""
        self.check_all(inputs)
        isos, attention = self.predict(inputs)
        return [
            {
                "input": text,
                "text": iso,
                "valid": data.is_calendar_date(iso),
                "attention": weights,
            }
            for text, iso, weights in zip(inputs, isos, attention)
        ]


def predict(run_dir, texts, normalizer: Normalizer | None = None):
    """`[(text, iso, is_calendar_date, unknown_characters)]`; raises InputError."""
    normalizer = normalizer or Normalizer(run_dir)
    normalizer.check_all(texts)
    isos, _ = normalizer.predict(list(texts))
    return [
        (text, iso, data.is_calendar_date(iso), normalizer.vocabulary.unknown(text))
        for text, iso in zip(texts, isos)
    ]


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
        source = list(data.normalize(text))[: data.TX]
        path = output_dir / f"attention_{i}.png"
        save_attention_plot(
            path, attention[i], source, list(iso), title=f"{text!r} -> {iso}"
        )
        paths.append(path)
    return paths
