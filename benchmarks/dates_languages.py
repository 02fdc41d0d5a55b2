"""Dates in languages the normalizer was not taught: refused, never guessed.

    python -m benchmarks.dates_languages                  # fi and tr left out
    python -m benchmarks.dates_languages --leave-out de,pt --train-size 30000
    python -m benchmarks.dates_languages --quick          # smoke test

Trains a default run (the recipe: 30,000 dates, 10 epochs) on the other
languages (`attention-zoo dates train --languages ...`: their formats,
all-numeric dates and non-dates; the run's validity reads their month
words only), then answers new dates of every language with the run's
`Normalizer`, validity and all. All-numeric dates have no language (the
ambiguity rule decides them), so the languages left out are tested on
their dates that name the month in a word of that language (an
all-numeric date, or one whose month is digits with a weekday or a note
around it, is read by the numeric rule whatever the language, and is
counted apart).

Per language: refused (not valid), valid and exact, valid and wrong (the
confident guess the month-word rule exists to stop; target 0), and exact
whatever the validity. A language left out shares some month words with
the others (Italian "marzo" is Spanish, Dutch "juni" German, Turkish
"mar" and "may" English): a date whose month word a taught language
writes for the same month is one the model was taught to read, so its
row is apart, and a right answer to it is valid. The target (at least
99 % refused) is for the others; none may be valid and wrong.
"""

from __future__ import annotations

import argparse
import functools
import tempfile
from pathlib import Path

from attention_zoo.applications.dates import data, lexicon, text_words
from attention_zoo.applications.dates.config import TrainConfig
from attention_zoo.applications.dates.formats import LANGUAGES
from attention_zoo.applications.dates.predictor import Normalizer
from attention_zoo.applications.dates.training import train
from benchmarks import harness


@functools.cache
def _month_words(language: str) -> frozenset:
    return frozenset(w for w, months in lexicon.build([language]).items() if months)


@functools.cache
def _taught_lexicon(languages: tuple) -> dict:
    return lexicon.build(list(languages))


def names_its_month(example) -> bool:
    """Whether `example` writes its month in a word of its language."""
    return bool(_named(example))


def _named(example) -> set:
    found = text_words.words(text_words.mark_months(data.normalize(example.text)))
    return _month_words(example.language) & set(found)


def shares_its_month_word(example, taught) -> bool:
    """Whether a month word of `example` is also a word of a taught
    language for the same month (Turkish `mar`, `may` are English's): such
    a date is one the model was taught to read, whatever its language."""
    month = int(example.iso[5:7])
    words = _taught_lexicon(tuple(taught))
    return any(month in words.get(w, ()) for w in _named(example))


def language_rows(normalizer, examples, left_out, taught) -> list:
    items = normalizer([e.text for e in examples])
    rows, wrong = [], []
    groups = []
    for language in LANGUAGES:
        pairs = [(e, i) for e, i in zip(examples, items) if e.language == language]
        if language not in left_out:
            groups.append((language, pairs))
            continue
        shared = [shares_its_month_word(e, taught) for e, _ in pairs]
        groups.append(
            (f"{language} (left out)", [p for p, s in zip(pairs, shared) if not s])
        )
        groups.append(
            (
                f"{language} (left out; a taught language's month word)",
                [p for p, s in zip(pairs, shared) if s],
            )
        )
    for name, pairs in groups:
        if not pairs:
            continue
        n = len(pairs)
        refused = sum(not i["valid"] for _, i in pairs)
        right = sum(i["valid"] and i["text"] == e.iso for e, i in pairs)
        guessed = [(e, i) for e, i in pairs if i["valid"] and i["text"] != e.iso]
        exact = sum(i["text"] == e.iso for e, i in pairs)
        wrong += guessed
        rows.append(
            [
                name,
                str(n),
                f"{100 * refused / n:.1f}",
                f"{100 * right / n:.1f}",
                str(len(guessed)),
                f"{100 * exact / n:.1f}",
            ]
        )
    return rows, wrong


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--leave-out",
        default="fi,tr",
        help="languages to train without (default fi,tr: Latin letters the "
        "model reads, and month words no other language writes)",
    )
    parser.add_argument("--train-size", type=int, default=None)
    parser.add_argument("--epochs", type=int, default=None)
    parser.add_argument("--test-size", type=int, default=None, help="per language")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    left_out = args.leave_out.split(",")
    unknown = [x for x in left_out if x not in LANGUAGES]
    if unknown or len(left_out) >= len(LANGUAGES):
        parser.error(
            f"--leave-out: some of {','.join(LANGUAGES)}. Received: {args.leave_out}"
        )
    kept = [x for x in LANGUAGES if x not in left_out]
    train_size = args.train_size or (1500 if args.quick else 30000)
    epochs = args.epochs or (1 if args.quick else 10)
    test_size = args.test_size or (50 if args.quick else 300)
    harness.print_facts(
        harness.run_facts() + [f"load average: {harness.load_average()}"]
    )
    with tempfile.TemporaryDirectory() as folder:
        run = Path(folder) / "run"
        config = TrainConfig(
            n_train=train_size,
            epochs=epochs,
            n_test=200,
            seed=args.seed,
            languages=",".join(kept),
        )
        print(f"training on {','.join(kept)}: {config}", flush=True)
        train(run, config, verbose=0)
        seen = {
            data.normalize(e.text)
            for name in ("train", "validation", "test")
            for e in data.load_examples(run / "data" / f"{name}.json")
        }
        examples = []
        for i, language in enumerate(LANGUAGES):
            new = data.generate(
                test_size, args.seed + 100 + i, exclude=seen, languages=[language]
            )
            seen |= {data.normalize(e.text) for e in new}
            examples += new
        normalizer = Normalizer(run)
        flags = [names_its_month(e) for e in examples]
        worded = [e for e, named in zip(examples, flags) if named]
        rows, wrong = language_rows(normalizer, worded, left_out, kept)
        unseen, shared = [], []
        for e in worded:
            if e.language in left_out:
                (shared if shares_its_month_word(e, kept) else unseen).append(e)
        shared_right = sum(
            i["valid"] and i["text"] == e.iso
            for e, i in zip(shared, normalizer([e.text for e in shared]))
        )
        refused = sum(not i["valid"] for i in normalizer([e.text for e in unseen]))
        digits = [
            e
            for e, named in zip(examples, flags)
            if e.language in left_out and not named
        ]
        digits_valid = sum(i["valid"] for i in normalizer([e.text for e in digits]))
    print(
        f"\n{train_size} training dates of {','.join(kept)} (+25 % non-dates), "
        f"{epochs} epochs, seed {args.seed}; {test_size} new dates per language, "
        "of which those naming their month in a word of the language\n"
    )
    harness.print_table(
        [
            "language",
            "n",
            "refused, %",
            "valid and exact, %",
            "valid and wrong",
            "exact, %",
        ],
        rows,
        True,
    )
    share = refused / max(1, len(unseen))
    print(
        f"\nLeft out ({','.join(left_out)}), month words no taught language "
        f"writes for that month: {refused} of {len(unseen)} refused, "
        f"{100 * share:.1f} % (target >= 99 %: {harness.verdict(share >= 0.99)})"
    )
    print(
        f"Left out, a month word a taught language writes for the same month "
        f"(readable as that language): {len(shared)}, of which {shared_right} "
        "valid and right"
    )
    print(f"Valid and wrong (target 0): {len(wrong)}")
    print(
        f"Dates of {','.join(left_out)} with the month in digits (numeric rule): "
        f"{digits_valid} of {len(digits)} valid"
    )
    for e, i in wrong[:20]:
        print(f"- {e.text!r} ({e.language}) -> {i['text']}, expected {e.iso}")


if __name__ == "__main__":
    main()
