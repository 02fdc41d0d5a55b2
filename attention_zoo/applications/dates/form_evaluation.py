"""The test figures of a forms run: its forms, and their values at each example's reference."""

from __future__ import annotations

import collections

import numpy as np

from attention_zoo.applications.dates.resolver import resolve


def evaluate_forms(normalizer, examples) -> dict:
    """Exact match of the form, of the value, and validity, per language and kind.

    `exact_match`: the form written is the example's; `value_exact`: the
    form resolves at the example's reference to the example's value (so a
    form written another way with the same meaning counts); `valid` and
    `exact_and_valid` as `evaluation.evaluate_examples`. `by_family` and
    `by_format` are by kind, for `evaluation.format_metrics`.
    """
    texts = [e.text for e in examples]
    forms, valid, _, _ = normalizer.scored(texts)
    exact = np.array([f == e.form for f, e in zip(forms, examples)], bool)
    values = [
        resolve(f, e.reference).text if f and e.form else f
        for f, e in zip(forms, examples)
    ]
    value_exact = np.array(
        [
            v == e.value if e.form else f == ""
            for v, f, e in zip(values, forms, examples)
        ],
        bool,
    )
    chars = np.array(
        [
            sum(a == b for a, b in zip(f, e.form)) / max(len(f), len(e.form), 1)
            for f, e in zip(forms, examples)
        ]
    )

    def breakdown(key):
        groups = collections.defaultdict(list)
        for hit, hit_value, e in zip(exact, value_exact, examples):
            groups[getattr(e, key)].append((hit, hit_value))
        return {
            k: {
                "n": len(v),
                "exact_match": float(np.mean([h for h, _ in v])),
                "value_exact": float(np.mean([h for _, h in v])),
            }
            for k, v in sorted(groups.items())
        }

    by_kind = breakdown("kind")
    return {
        "n": len(examples),
        "exact_match": float(exact.mean()) if len(exact) else 0.0,
        "value_exact": float(value_exact.mean()) if len(exact) else 0.0,
        "character_accuracy": float(chars.mean()) if len(chars) else 0.0,
        "valid": float(valid.mean()) if len(valid) else 0.0,
        "exact_and_valid": float((value_exact & valid).mean()) if len(valid) else 0.0,
        "by_language": breakdown("language"),
        "by_family": by_kind,
        "by_format": by_kind,
        "errors": [
            {"text": e.text, "expected": e.form, "predicted": f}
            for f, e, hit in zip(forms, examples, value_exact)
            if not hit
        ][:50],
    }
