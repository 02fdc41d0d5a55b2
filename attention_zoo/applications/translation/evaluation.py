"""sacreBLEU BLEU and chrF of a trained run, overall and by source length."""

from __future__ import annotations

import time
from pathlib import Path

from attention_zoo.applications.common import decoding_name, decodings
from attention_zoo.applications.common import text as tokenizer
from attention_zoo.applications.common.errors import read_examples
from attention_zoo.applications.translation.corpus import read_pairs
from attention_zoo.applications.translation.predictor import Translator

LENGTH_BUCKETS = ((0, 10), (10, 20), (20, 30), (30, 40), (40, 50), (50, 60), (60, None))


def length_bucket(n: int) -> str:
    for low, high in LENGTH_BUCKETS:
        if n >= low and (high is None or n < high):
            return f"{low}-{high - 1}" if high is not None else f"{low}+"
    raise AssertionError(n)


def evaluate_pairs(translator: Translator, pairs, beam_widths=None) -> dict:
    """sacreBLEU BLEU and chrF, greedy and beam, overall and by source length.

    Hypotheses and references are compared in the tokenizer's normalized
    form (lower case, punctuation split off), as the model writes them.
    """
    from attention_zoo.metrics import corpus_scores

    beam_widths = beam_widths or [1, translator.beam_width]
    references = [tokenizer.normalize(p.target) for p in pairs]
    lengths = [len(tokenizer.tokenize(p.source)) for p in pairs]
    results = {"n": len(pairs)}
    for width in dict.fromkeys(beam_widths):
        start = time.perf_counter()
        hypotheses, _ = translator.translate([p.source for p in pairs], width)
        seconds = time.perf_counter() - start
        name = decoding_name(width)
        scores = corpus_scores(hypotheses, references, tokenized=True)
        scores["sentences_per_second"] = round(len(pairs) / seconds, 1)
        if width > 1:
            scores["alpha"] = translator.alpha
        buckets = {}
        for low, _ in LENGTH_BUCKETS:
            label = length_bucket(low)
            rows = [i for i, n in enumerate(lengths) if length_bucket(n) == label]
            if rows:
                s = corpus_scores(
                    [hypotheses[i] for i in rows],
                    [references[i] for i in rows],
                    tokenized=True,
                )
                buckets[label] = {"n": len(rows), "bleu": s["bleu"], "chrf": s["chrf"]}
        scores["by_source_length"] = buckets
        scores["examples"] = [
            {"source": p.source, "reference": r, "translation": h}
            for p, r, h in list(zip(pairs, references, hypotheses))[:5]
        ]
        results[name] = scores
    return results


def evaluate(run_dir, beam_width: int | None = None) -> dict:
    translator = Translator(run_dir, beam_width=beam_width)
    return evaluate_pairs(
        translator, read_examples(Path(run_dir) / "data" / "test.tsv", read_pairs)
    )


def format_metrics(metrics: dict) -> str:
    lines = [f"test sentences: {metrics['n']:,}", ""]
    decoders = decodings(metrics)
    lines += [
        "| decoding | BLEU | chrF | sentences/s |",
        "| --- | ---: | ---: | ---: |",
    ]
    for k in decoders:
        m = metrics[k]
        lines.append(
            f"| {k} | {m['bleu']:.2f} | {m['chrf']:.2f} | {m['sentences_per_second']} |"
        )
    for k in decoders:
        lines.append(f"\n{k} BLEU: {metrics[k]['bleu_signature']}")
        lines.append(f"{k} chrF: {metrics[k]['chrf_signature']}")
    return "\n".join(lines)
