"""sacreBLEU BLEU and chrF of a trained run, overall and by source length."""

from __future__ import annotations

import time
from pathlib import Path

from attention_zoo.applications.common import text as tokenizer
from attention_zoo.applications.common.errors import read_examples
from attention_zoo.applications.common.search import search_name, search_names
from attention_zoo.applications.translation import masking, postprocess
from attention_zoo.applications.translation.corpus import read_pairs
from attention_zoo.applications.translation.data import read_tsv_pairs
from attention_zoo.applications.translation.predictor import Translator

LENGTH_BUCKETS = ((0, 10), (10, 20), (20, 30), (30, 40), (40, 50), (50, 60), (60, None))


def length_bucket(n: int) -> str:
    for low, high in LENGTH_BUCKETS:
        if n >= low and (high is None or n < high):
            return f"{low}-{high - 1}" if high is not None else f"{low}+"
    raise AssertionError(n)


def _scores(hypotheses, pairs) -> dict:
    """Cased 13a scores against the raw references, then the normalized ones."""
    from attention_zoo.metrics import corpus_scores

    scores = corpus_scores(hypotheses, [p.target for p in pairs])
    normalized = corpus_scores(
        [tokenizer.normalize(h) for h in hypotheses],
        [tokenizer.normalize(p.target) for p in pairs],
        tokenized=True,
    )
    scores["bleu_normalized"] = normalized["bleu"]
    scores["chrf_normalized"] = normalized["chrf"]
    scores["bleu_normalized_signature"] = normalized["bleu_signature"]
    return scores


def evaluate_pairs(translator: Translator, pairs, beam_widths=None) -> dict:
    """sacreBLEU BLEU and chrF, greedy and beam, overall and by source length.

    `bleu` and `chrf` score the translator's output (readable text, see
    `postprocess`) against the raw references with sacreBLEU's default
    tokenization (13a), case-sensitive; `bleu_normalized` and
    `chrf_normalized` compare both sides in the tokenizer's normalized form
    (lower case, punctuation split off), the figures of earlier versions.
    """
    beam_widths = beam_widths or [1, translator.beam_width]
    lengths = [len(tokenizer.tokenize(p.source)) for p in pairs]
    results = {"n": len(pairs)}
    for width in dict.fromkeys(beam_widths):
        start = time.perf_counter()
        hypotheses, _ = translator.translations([p.source for p in pairs], width)
        seconds = time.perf_counter() - start
        name = search_name(width)
        scores = _scores(hypotheses, pairs)
        scores["sentences_per_second"] = round(len(pairs) / seconds, 1)
        if width > 1:
            scores["alpha"] = translator.alpha
        buckets = {}
        for low, _ in LENGTH_BUCKETS:
            label = length_bucket(low)
            rows = [i for i, n in enumerate(lengths) if length_bucket(n) == label]
            if rows:
                s = _scores([hypotheses[i] for i in rows], [pairs[i] for i in rows])
                buckets[label] = {
                    "n": len(rows),
                    **{k: s[k] for k in ("bleu", "chrf", "bleu_normalized")},
                }
        scores["by_source_length"] = buckets
        scores["examples"] = [
            {"source": p.source, "reference": p.target, "translation": h}
            for p, h in list(zip(pairs, hypotheses))[:5]
        ]
        results[name] = scores
    return results


# (label, unk_replace, truecase, detokenize) of `postprocessing_ablation`.
ABLATION = (
    ("model tokens (before)", False, False, False),
    ("+ detokenize", False, False, True),
    ("+ detokenize + unk replacement", True, False, True),
    ("+ detokenize + truecase", False, True, True),
    ("+ all three (default)", True, True, True),
)


def postprocessing_ablation(translator: Translator, pairs, beam_width=None) -> list:
    """Scores of one decoding of `pairs` post-processed each way of `ABLATION`.

    The first row is the output of earlier versions (lower-cased tokens,
    `<unk>` kept) scored the standard way (cased, 13a).
    """
    sources = [p.source for p in pairs]
    masks = masking.mask_inputs(sources, translator.masking)
    texts = translator.model_texts(sources, masks)
    ids, attention, _ = translator.search(texts, beam_width)
    rows = []
    for label, unk_replace, truecase, detokenize in ABLATION:
        tokens = translator.readable(texts, ids, attention, unk_replace, truecase)
        join = postprocess.detokenize if detokenize else " ".join
        hypotheses = [masking.restored(join(t), m) for t, m in zip(tokens, masks)]
        scores = _scores(hypotheses, pairs)
        scores["unk"] = sum(t.count(tokenizer.UNK) for t in tokens)
        rows.append({"postprocessing": label, **scores})
    return rows


def format_ablation(rows) -> str:
    lines = [
        "| post-processing | BLEU (13a, cased) | chrF | BLEU (normalized) | "
        "chrF (normalized) | `<unk>` left |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r['postprocessing']} | {r['bleu']:.2f} | {r['chrf']:.2f} | "
            f"{r['bleu_normalized']:.2f} | {r['chrf_normalized']:.2f} | {r['unk']} |"
        )
    lines.append(f"\nBLEU: {rows[0]['bleu_signature']}")
    lines.append(f"chrF: {rows[0]['chrf_signature']}")
    return "\n".join(lines)


def _test_pairs(run_dir, test_pairs=None):
    if test_pairs is not None:
        return read_examples(Path(test_pairs), read_tsv_pairs)
    return read_examples(Path(run_dir) / "data" / "test.tsv", read_pairs)


def evaluate(run_dir, beam_width: int | None = None, test_pairs=None) -> dict:
    """`evaluate_pairs` on the run's test pairs, or on the TSV file `test_pairs`
    (source, target, extra columns ignored)."""
    translator = Translator(run_dir, beam_width=beam_width)
    return evaluate_pairs(translator, _test_pairs(run_dir, test_pairs))


def ablation(run_dir, beam_width: int | None = None, test_pairs=None) -> str:
    """`format_ablation` of `postprocessing_ablation` on the pairs `evaluate`
    reads."""
    translator = Translator(run_dir, beam_width=beam_width)
    pairs = _test_pairs(run_dir, test_pairs)
    return format_ablation(postprocessing_ablation(translator, pairs))


def format_metrics(metrics: dict) -> str:
    lines = [f"test sentences: {metrics['n']:,}", ""]
    decoders = search_names(metrics)
    lines += [
        "| decoding | BLEU | chrF | BLEU (normalized) | chrF (normalized) "
        "| sentences/s |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for k in decoders:
        m = metrics[k]
        lines.append(
            f"| {k} | {m['bleu']:.2f} | {m['chrf']:.2f} | "
            f"{m.get('bleu_normalized', float('nan')):.2f} | "
            f"{m.get('chrf_normalized', float('nan')):.2f} | "
            f"{m['sentences_per_second']} |"
        )
    lines.append(
        "\nBLEU and chrF: readable output against the raw references, cased, "
        "sacreBLEU's 13a tokenization; normalized: both sides lower-cased with "
        "punctuation split off."
    )
    for k in decoders:
        lines.append(f"\n{k} BLEU: {metrics[k]['bleu_signature']}")
        lines.append(f"{k} chrF: {metrics[k]['chrf_signature']}")
    return "\n".join(lines)
