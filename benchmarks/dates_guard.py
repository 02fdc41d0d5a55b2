"""The families of tests/applications/dates/data/guard_families.tsv (times,
ranges, weekdays of a month and relative words beside a date; absolute
days written in spellings the model was not taught): per family, how many
the normalizer answers right, refuses, and answers wrong (valid and not
the expected day; any valid answer where no single day is right).

    python -m benchmarks.dates_guard                  # the shipped preset
    python -m benchmarks.dates_guard --run runs/dates --verbose
"""

from __future__ import annotations

import argparse
import collections
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from attention_zoo.applications.dates.predictor import Normalizer  # noqa: E402
from benchmarks import harness  # noqa: E402
from tests.applications.dates.hand_written import read_guard_families  # noqa: E402


def outcomes(normalizer, rows) -> tuple[list, list]:
    """`(outcome per row, the normalizer's items)`."""
    items = normalizer([text for *_, text in rows])
    return [
        "refused"
        if not item["valid"]
        else ("right" if item["text"] == expected else "wrong")
        for (_, _, expected, _), item in zip(rows, items)
    ], items


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", default="attention_zoo/presets/dates_multilingual")
    parser.add_argument("--verbose", action="store_true", help="one line per input")
    args = parser.parse_args(argv)
    harness.print_facts(harness.run_facts())
    rows = read_guard_families()
    found, items = outcomes(Normalizer(args.run), rows)
    counts = collections.defaultdict(collections.Counter)
    for (family, *_), outcome in zip(rows, found):
        counts[family][outcome] += 1
    table = [
        [
            family,
            str(sum(c.values())),
            str(c["right"]),
            str(c["refused"]),
            str(c["wrong"]),
        ]
        for family, c in counts.items()
    ]
    total = sum(counts.values(), collections.Counter())
    table.append(
        [
            "all",
            str(len(rows)),
            str(total["right"]),
            str(total["refused"]),
            str(total["wrong"]),
        ]
    )
    harness.print_table(["family", "n", "right", "refused", "wrong"], table, True)
    if args.verbose:
        for (family, _, _, text), outcome, item in zip(rows, found, items):
            answer = item["text"] or "-"
            print(f"- {family} {outcome}: {text!r} -> {answer} {item['reason'][:80]}")


if __name__ == "__main__":
    main()
