"""Exact match of a trained run, overall and per format, family, language."""

from __future__ import annotations

import collections
import re
from pathlib import Path

import numpy as np

from attention_zoo.applications.common.errors import read_examples
from attention_zoo.applications.dates import data, forms_data
from attention_zoo.applications.dates.form_evaluation import evaluate_forms
from attention_zoo.applications.dates.predictor import Normalizer


def evaluate_examples(normalizer: Normalizer, examples) -> dict:
    """Exact match, character accuracy, and exact match per format/family/language.

    `valid` is the share of the dates whose answer is valid (a calendar
    date scored above the run's threshold); `exact_and_valid` the share
    both right and valid.
    """
    predictions, valid, _, _ = normalizer.scored([e.text for e in examples])
    exact = np.array([p == e.iso for p, e in zip(predictions, examples)])
    chars = np.array(
        [
            sum(a == b for a, b in zip(p.ljust(data.TY), e.iso)) / data.TY
            for p, e in zip(predictions, examples)
        ]
    )

    def breakdown(key):
        groups = collections.defaultdict(list)
        for hit, e in zip(exact, examples):
            groups[getattr(e, key)].append(hit)
        return {
            k: {"n": len(v), "exact_match": float(np.mean(v))}
            for k, v in sorted(groups.items())
        }

    return {
        "n": len(examples),
        "exact_match": float(exact.mean()),
        "character_accuracy": float(chars.mean()),
        "valid": float(valid.mean()),
        "exact_and_valid": float((exact & valid).mean()),
        "by_language": breakdown("language"),
        "by_family": breakdown("family"),
        "by_format": breakdown("format_name"),
        "errors": [
            {"text": e.text, "expected": e.iso, "predicted": p}
            for p, e, hit in zip(predictions, examples, exact)
            if not hit
        ][:50],
    }


def evaluate_non_dates(normalizer: Normalizer, texts) -> dict:
    """Share of `texts` (non-dates) flagged invalid, with the reasons and
    the ones that slipped through."""
    texts = list(texts)
    isos, valid, scores, _ = normalizer.scored(texts)
    # Counted by kind: a reason cut before its details (dates, scores).
    reasons = collections.Counter(
        re.split(r" \(|:| \d", normalizer.reason(iso, float(s), text))[0]
        for text, iso, s, ok in zip(texts, isos, scores, valid)
        if not ok
    )
    return {
        "n": len(texts),
        "flagged": float(1 - valid.mean()),
        "reasons": dict(reasons.most_common()),
        "accepted": [
            {"text": t, "predicted": iso, "score": round(float(s), 3)}
            for t, iso, s, ok in zip(texts, isos, scores, valid)
            if ok
        ],
    }


def evaluate(run_dir) -> dict:
    normalizer = Normalizer(run_dir)
    path = Path(run_dir) / "data" / "test.json"
    if normalizer.forms:
        return evaluate_forms(normalizer, read_examples(path, forms_data.load_examples))
    return evaluate_examples(normalizer, read_examples(path, data.load_examples))


def format_metrics(metrics: dict, per_format: bool = True) -> str:
    # A forms run's figures add the value at each example's reference
    # (`form_evaluation.evaluate_forms`): a column where they have it.
    forms = "value_exact" in metrics
    value = " value exact |" if forms else ""

    def row(name, v):
        cell = f" {100 * v['value_exact']:.2f} % |" if forms else ""
        return f"| {name} | {v['n']} | {100 * v['exact_match']:.2f} % |{cell}"

    lines = [
        f"test {'examples' if forms else 'dates'}: {metrics['n']:,}",
        f"exact match: {100 * metrics['exact_match']:.2f} %",
        *([f"value exact: {100 * metrics['value_exact']:.2f} %"] if forms else []),
        f"character accuracy: {100 * metrics['character_accuracy']:.2f} %",
        f"valid (calendar date, score above threshold): {100 * metrics['valid']:.2f} %",
        "",
        f"| language | n | exact match |{value}",
        "| --- | ---: | ---: |" + (" ---: |" if forms else ""),
    ]
    lines += [row(k, v) for k, v in metrics["by_language"].items()]
    lines += [
        "",
        f"| {'kind' if forms else 'family'} | n | exact match |{value}",
        "| --- | ---: | ---: |" + (" ---: |" if forms else ""),
    ]
    lines += [row(k, v) for k, v in metrics["by_family"].items()]
    if per_format and not forms:
        lines += ["", "| format | n | exact match |", "| --- | ---: | ---: |"]
        lines += [
            f"| `{k}` | {v['n']} | {100 * v['exact_match']:.2f} % |"
            for k, v in metrics["by_format"].items()
        ]
    return "\n".join(lines)
