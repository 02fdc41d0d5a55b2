"""Attention heatmaps of a translation run's outputs, one PNG per text."""

from __future__ import annotations

from pathlib import Path

from attention_zoo.applications.common import output_folder
from attention_zoo.applications.common import text as tokenizer
from attention_zoo.applications.translation import masking, postprocess
from attention_zoo.applications.translation.predictor import (
    MAX_SOURCE_TOKENS,
    Translator,
)


def plot(run_dir, texts, output_dir, beam_width=None, translator=None) -> list[Path]:
    """One attention heatmap PNG per text: source words x target words."""
    from attention_zoo.plotting import save_attention_plot

    output_dir = output_folder(output_dir)
    translator = translator or Translator(run_dir, beam_width=beam_width)
    translator.check_all(texts)
    texts = list(texts)
    # The masked text, as the model read it (`masking`).
    texts = translator.model_texts(
        texts, masking.mask_inputs(texts, translator.masking)
    )
    ids, attention, _ = translator.search(texts, beam_width)
    translations = translator.readable(texts, ids, attention)
    paths = []
    for i, (text, translation) in enumerate(zip(texts, translations)):
        source = postprocess.cased_tokens(text)[:MAX_SOURCE_TOKENS]
        # A translation cut at the limit has no <end>.
        target = [*translation, tokenizer.END][: len(attention[i])]
        path = output_dir / f"attention_{i}.png"
        save_attention_plot(path, attention[i], source, target)
        paths.append(path)
    return paths
