"""A trained translation run: text in, translations and attention out.

Documented rules for inputs (in `Translator`, the CLI and the SavedModel):
an empty input (no token once normalized) translates to the empty string
with no attention; a source longer than `MAX_SOURCE_TOKENS` tokens is cut to
its first `MAX_SOURCE_TOKENS`; words outside the source vocabulary, in any
script, are read as `<unk>`; an output stops at `<end>` or after
`MAX_OUTPUT_TOKENS` tokens.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from attention_zoo.applications.common import InputError, RunPredictor, output_folder
from attention_zoo.applications.common import text as tokenizer
from attention_zoo.applications.translation import model as models

MAX_SOURCE_TOKENS = 128
MAX_OUTPUT_TOKENS = 160
# Decoding batches pad the source to a multiple of this.
DECODE_PAD = 32


class Translator(RunPredictor):
    """A trained run: text in, translations and attention out."""

    app = "translation"
    required_files = (
        "model.keras",
        "config.json",
        "source_vocabulary.json",
        "target_vocabulary.json",
    )

    def __init__(
        self, run_dir, beam_width: int | None = None, alpha: float | None = None
    ):
        super().__init__(run_dir)
        self.source_vocabulary = tokenizer.WordVocabulary.load(
            self.run_dir / "source_vocabulary.json"
        )
        self.target_vocabulary = tokenizer.WordVocabulary.load(
            self.run_dir / "target_vocabulary.json"
        )
        attention, decoder = self.config["attention"], self.config["decoder"]
        self.model = self.load_model(
            model_names=(f"{attention}_{decoder}", "no_attention")
        )
        self.beam_width = beam_width or self.config["beam_width"]
        self.alpha = self.config["alpha"] if alpha is None else alpha

    def translate_fn(self, beam_width: int):
        """The compiled decoding function for `beam_width` (1 = greedy)."""
        return self.compiled(
            beam_width,
            lambda: models.make_translate_fn(
                self.model,
                MAX_OUTPUT_TOKENS,
                beam_width=beam_width,
                alpha=self.alpha if beam_width > 1 else 0.0,
            ),
            (None,),
            "int32",
        )

    def encode(self, texts):
        """Source ids `(N, T)` padded to a multiple of `DECODE_PAD`, and lengths."""
        ids = [self.source_vocabulary.encode(t)[:MAX_SOURCE_TOKENS] for t in texts]
        lengths = np.array([len(i) for i in ids])
        width = DECODE_PAD * max(1, math.ceil(max(lengths, default=0) / DECODE_PAD))
        out = np.zeros((len(ids), width), "int32")
        for row, i in enumerate(ids):
            out[row, : len(i)] = i
        return out, lengths

    def translate_ids(self, texts, beam_width: int | None = None, batch_size: int = 64):
        """Output ids `(N, MAX_OUTPUT_TOKENS)` and attention, in input order.

        Texts are decoded in batches of similar length; an empty input gets
        all-padding ids and zero attention.
        """
        texts = list(texts)
        fn = self.translate_fn(beam_width or self.beam_width)
        counts = [len(tokenizer.tokenize(t)) for t in texts]
        order = sorted(range(len(texts)), key=counts.__getitem__)
        ids = np.zeros((len(texts), MAX_OUTPUT_TOKENS), "int32")
        attention = [None] * len(texts)
        batches = self.run_batches(
            fn, order, batch_size, lambda rows: self.encode([texts[i] for i in rows])[0]
        )
        for rows, tokens, weights in batches:
            for j, i in enumerate(rows):
                length = min(counts[i], MAX_SOURCE_TOKENS)
                if length == 0:
                    attention[i] = np.zeros((MAX_OUTPUT_TOKENS, 0), "float32")
                    continue
                ids[i] = tokens[j]
                attention[i] = weights[j, :, :length]
        return ids, attention

    def translate(self, texts, beam_width: int | None = None, batch_size: int = 64):
        """Translations (normalized, space-separated words) and attention per text."""
        ids, attention = self.translate_ids(texts, beam_width, batch_size)
        return [self.target_vocabulary.decode(row) for row in ids], attention

    def check(self, text: str) -> None:
        """Raise `InputError` for inputs the command line refuses (empty ones)."""
        if not tokenizer.tokenize(text):
            raise InputError(f"empty input: {text!r} has no words once normalized")


def translate(run_dir, texts, beam_width: int | None = None, translator=None):
    """`[(text, translation, unknown_words)]`; raises InputError for empty text."""
    translator = translator or Translator(run_dir, beam_width=beam_width)
    translator.check_all(texts)
    translations, _ = translator.translate(list(texts), beam_width)
    vocabulary = translator.source_vocabulary
    return [
        (
            text,
            translation,
            [w for w in tokenizer.tokenize(text) if w not in vocabulary.index],
        )
        for text, translation in zip(texts, translations)
    ]


# -------------------------------------------------------------------- plot


def plot(run_dir, texts, output_dir, beam_width=None, translator=None) -> list[Path]:
    """One attention heatmap PNG per text: source words x target words."""
    from attention_zoo.plotting import save_attention_plot

    output_dir = output_folder(output_dir)
    translator = translator or Translator(run_dir, beam_width=beam_width)
    translator.check_all(texts)
    translations, attention = translator.translate(list(texts), beam_width)
    paths = []
    for i, (text, translation) in enumerate(zip(texts, translations)):
        source = tokenizer.tokenize(text)[:MAX_SOURCE_TOKENS]
        target = (
            [*translation.split(" "), tokenizer.END] if translation else [tokenizer.END]
        )[: len(attention[i])]  # a translation cut at the limit has no <end>
        path = output_dir / f"attention_{i}.png"
        save_attention_plot(path, attention[i], source, target)
        paths.append(path)
    return paths
