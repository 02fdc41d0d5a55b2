"""What one pass of form_settling changes: a forms run's answers with and
without it, on generated pairs and on the hand-written files.

The passes run only on forms the grounding refuses, so a pass can turn a
refusal into an answer, right or wrong, and nothing else; this counts
both, per source, and lists every answer it changes.

    python -m benchmarks.dates_passes --pass grain   # the shipped preset
    python -m benchmarks.dates_passes --pass hour --run RUN --per-language 100

Sources: `--per-language` generated pairs of each language (seeded; right
is the generator's form), the hand-written kinds files of
`benchmarks/data/dates_kinds/` and `dates_day_times/` (right is the
expected value at their reference), and the real dates, guard families
and non-dates of tests/applications/dates/data/ (right is the day; a
non-date has none). Those three are the single-day normalizer's: a forms
run that reads "yesterday" or "May 2020" there counts as wrong though it
reads them right, so their totals say little and the list of changed
answers is what to read.
"""

from __future__ import annotations

import argparse
import collections
import os
import random

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from attention_zoo.applications.dates import (  # noqa: E402
    form_settling,
    time_expressions,
)
from attention_zoo.applications.dates.formats import LANGUAGES  # noqa: E402
from attention_zoo.applications.dates.predictor import Normalizer  # noqa: E402
from benchmarks import harness  # noqa: E402
from benchmarks.dates_kinds_cases import DATA, read_cases  # noqa: E402
from tests.applications.dates import hand_written  # noqa: E402

DAY_TIMES = DATA.parent / "dates_day_times"


def without(name: str) -> tuple:
    """`form_settling.PASSES` less the pass `name` (a ValueError naming the
    passes when there is none of that name)."""
    names = [n for n, _ in form_settling.PASSES]
    if name not in names:
        raise ValueError(f"--pass must be one of {names}. Received: {name!r}")
    return tuple(p for p in form_settling.PASSES if p[0] != name)


def generated(per_language: int) -> list[tuple[str, str]]:
    """`(text, the generator's form)` of `per_language` generated pairs of
    each language, seeded (a form does not depend on the reference)."""
    r = random.Random(0)
    out = []
    for language in LANGUAGES:
        pairs = time_expressions.pairs(language)
        out += [
            (p.text, p.form) for p in r.sample(pairs, min(per_language, len(pairs)))
        ]
    return out


def hand_rows() -> tuple[list[tuple[str, str | None]], str]:
    """`(text, expected text or None)` of the hand-written files, and the
    reference of the kinds files (the days of the other files ignore it)."""
    rows = []
    for folder in (DATA, DAY_TIMES):
        reference, cases = read_cases(folder)
        rows += [(c.text, c.expected) for c in cases]
    rows += [(t, iso) for iso, _, t in hand_written.read_real_dates()]
    rows += [
        (t, None if e == "-" else e)
        for _, _, e, t in hand_written.read_guard_families()
    ]
    rows += [(t, None) for t in hand_written.read_non_dates()]
    return rows, reference.isoformat()


def answers(normalizer, texts, key: str, reference: str, passes) -> list:
    """Each text's answer (`key` of a valid item, None when refused) under
    `passes`."""
    kept = form_settling.PASSES
    form_settling.PASSES = passes
    try:
        items = normalizer(texts, reference=reference)
    finally:
        form_settling.PASSES = kept
    return [item[key] if item["valid"] else None for item in items]


def compare(normalizer, rows, key: str, reference: str, name: str):
    """`(counts, changed)`: outcomes without and with the pass, and the
    rows whose answer it changes."""
    texts = [text for text, _ in rows]
    before = answers(normalizer, texts, key, reference, without(name))
    after = answers(normalizer, texts, key, reference, form_settling.PASSES)
    counts = collections.Counter()
    changed = []
    for (text, expected), b, a in zip(rows, before, after):
        for label, got in (("without", b), ("with", a)):
            right = "right" if got == expected else "wrong"
            counts[label, "refused" if got is None else right] += 1
        if a != b:
            changed.append((text, expected, b, a))
    return counts, changed


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pass", dest="name", required=True, help="a pass's name")
    parser.add_argument("--run", default="attention_zoo/presets/dates_expressions")
    parser.add_argument("--per-language", type=int, default=400)
    args = parser.parse_args(argv)
    without(args.name)  # the name checked before the model loads
    harness.print_facts(harness.run_facts())
    normalizer = Normalizer(args.run)
    rows, reference = hand_rows()
    sources = [
        (f"generated, {args.per_language} a language", generated(args.per_language),
         "form", reference),
        ("hand-written", rows, "text", reference),
    ]  # fmt: skip
    for title, rows, key, reference in sources:
        counts, changed = compare(normalizer, rows, key, reference, args.name)
        print(f"\n{title} (n = {len(rows)}): right / refused / wrong\n")
        for label in ("without", "with"):
            cells = " / ".join(
                str(counts[label, o]) for o in ("right", "refused", "wrong")
            )
            print(f"- {label} `{args.name}`: {cells}")
        print(f"\n{len(changed)} answers changed:\n")
        for text, expected, b, a in changed:
            print(f"- {text!r} (expected {expected}): {b} -> {a}")


if __name__ == "__main__":
    main()
