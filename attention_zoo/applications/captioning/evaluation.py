"""BLEU-1..4 of a trained run by beam size, and where its attention looks."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from attention_zoo.applications.captioning.captions import normalize_caption
from attention_zoo.applications.captioning.dataset import Item, test_items
from attention_zoo.applications.captioning.features import extract_features
from attention_zoo.applications.captioning.predictor import Captioner
from attention_zoo.applications.captioning.scenes import SHAPES
from attention_zoo.applications.common.errors import read_examples
from attention_zoo.applications.common.search import search_name, search_names


def bleu_scores(hypotheses, references, max_order: int = 4) -> dict:
    """Corpus BLEU-1..`max_order` (0-1) with every reference of each image.

    sacreBLEU on the normalized, tokenized captions (`tokenize="none"`), no
    smoothing, closest reference length for the brevity penalty; images
    with fewer references are padded with None (sacreBLEU's variable
    reference count).
    """
    from sacrebleu.metrics import BLEU

    most = max((len(r) for r in references), default=1)
    streams = [[r[k] if k < len(r) else None for r in references] for k in range(most)]
    scores = {}
    for n in range(1, max_order + 1):
        bleu = BLEU(max_ngram_order=n, tokenize="none", smooth_method="none")
        scores[f"bleu{n}"] = bleu.corpus_score(list(hypotheses), streams).score / 100
    scores["signature"] = str(bleu.get_signature())
    return scores


def grounding(scenes, captions, attention, grid_shape) -> dict:
    """How often the attention peak of an object's noun lies in its box.

    For every generated word that names an object of the scene (its shape
    noun), the grid cell of highest attention at that step is a hit when
    its centre is inside the object's box: `grounding`. The same over the
    size and colour words before the noun too: `phrase_grounding`. Shape
    words naming no object of the scene are counted apart as
    `hallucinated_object_words`.
    """
    height, width = grid_shape

    def hit(weights, obj):
        row, col = divmod(int(np.argmax(weights)), width)
        x, y = (col + 0.5) / width, (row + 0.5) / height
        x0, y0, x1, y1 = obj.box
        return int(x0 <= x <= x1 and y0 <= y <= y1)

    hits = total = phrase_hits = phrase_total = hallucinated = 0
    for scene, caption, weights in zip(scenes, captions, attention):
        words = caption.split()
        named = scene.word_objects(words)
        hallucinated += sum(
            word in SHAPES and i not in named for i, word in enumerate(words)
        )
        hits += sum(hit(weights[i], obj) for i, obj in named.items())
        total += len(named)
        phrase = scene.word_objects(words, include_adjectives=True)
        phrase_hits += sum(hit(weights[i], obj) for i, obj in phrase.items())
        phrase_total += len(phrase)
    return {
        "grounding": hits / total if total else 0.0,
        "object_words": total,
        "phrase_grounding": phrase_hits / phrase_total if phrase_total else 0.0,
        "hallucinated_object_words": hallucinated,
    }


def attention_spread(attention, lengths) -> dict:
    """Mean per-step entropy (nats) and mean doubly stochastic penalty."""
    entropies, penalties = [], []
    for weights, n in zip(attention, lengths):
        w = np.asarray(weights[:n], "float64")
        if not len(w):
            continue
        entropies.append(float(-(w * np.log(np.clip(w, 1e-12, 1))).sum(-1).mean()))
        penalties.append(float(((1 - w.sum(0)) ** 2).sum()))
    return {
        "attention_entropy": float(np.mean(entropies)) if entropies else 0.0,
        "doubly_stochastic_penalty": float(np.mean(penalties)) if penalties else 0.0,
    }


def evaluate_items(
    captioner: Captioner, items, beam_widths=None, features=None
) -> dict:
    """BLEU-1..4 by beam size, speed, attention grounding and spread.

    `features`, if given, are the encoder's features of `items`.
    """
    beam_widths = beam_widths or [1, captioner.beam_width]
    references = [[normalize_caption(c) for c in _references(i)] for i in items]
    results = {"n": len(items)}
    if features is None:
        features = extract_features(
            captioner.encoder, [i.image for i in items], captioner.image_size
        )
    for width in dict.fromkeys(beam_widths):
        captioner.caption_features(features[:1], width)  # compile outside the clock
        start = time.perf_counter()
        captions, attention, _ = captioner.caption_features(features, width)
        seconds = time.perf_counter() - start
        name = search_name(width)
        scores = bleu_scores(captions, references)
        scores["captions_per_second"] = round(len(items) / max(seconds, 1e-9), 1)
        scores.update(
            attention_spread(attention, [len(c.split()) + 1 for c in captions])
        )
        if items and items[0].scene is not None:
            scores.update(
                grounding(
                    [i.scene for i in items], captions, attention, captioner.grid_shape
                )
            )
        scores["examples"] = [
            {"references": r, "caption": c}
            for r, c in list(zip(references, captions))[:5]
        ]
        results[name] = scores
    return results


def _references(item: Item):
    return item.scene.references if item.scene is not None else item.captions


def evaluate(run_dir, beam_width: int | None = None) -> dict:
    captioner = Captioner(run_dir, beam_width=beam_width)
    items = read_examples(
        Path(run_dir) / "data" / "test.json", lambda _: test_items(run_dir)
    )
    return evaluate_items(captioner, items)


def format_metrics(metrics: dict) -> str:
    lines = [f"test images: {metrics['n']:,}", ""]
    decoders = search_names(metrics)
    grounded = all("grounding" in metrics[k] for k in decoders)
    header = "| decoding | BLEU-1 | BLEU-2 | BLEU-3 | BLEU-4 |"
    header += " grounding | phrase grounding |" if grounded else ""
    lines += [
        header + " captions/s |",
        "| --- |" + " ---: |" * (5 + 2 * grounded),
    ]
    for k in decoders:
        m = metrics[k]
        cells = [f"{m[f'bleu{n}']:.4f}" for n in range(1, 5)]
        if grounded:
            cells.append(f"{100 * m['grounding']:.2f} %")
            cells.append(f"{100 * m['phrase_grounding']:.2f} %")
        cells.append(str(m["captions_per_second"]))
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    lines.append(f"\nBLEU: {metrics[decoders[0]]['signature']}")
    return "\n".join(lines)
