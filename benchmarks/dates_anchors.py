"""The date normalizer against the parsers people use today:
`python -m benchmarks.dates --anchors`.

One run, the same inputs for every system: the hand-written real dates
(`tests/applications/dates/data/real_dates.tsv`, with their ISO form and
language) and non-dates (`non_dates.txt`, with the section each line is
in). The systems:

- ours: the normalizer of `--run` (default: the shipped preset
  `dates_multilingual`), called as a user calls it, `normalizer(texts)`;
  an answer counts as given only if it is valid;
- dateparser: `dateparser.parse(text)`, default settings;
- dateparser strict: `dateparser.parse(text, settings={"STRICT_PARSING":
  True, "REQUIRE_PARTS": ["day", "month", "year"]})`;
- dateutil: `dateutil.parser.parse(text)`, default settings; an exception
  is a refusal. dateutil fills the parts a text lacks from today's date
  (`default=`); a fixed default such as `datetime(1900, 1, 1)` would be no
  fairer (it would answer partial dates with the 1st of January 1900
  instead of today's day), so the defaults are kept, as a user meets them.

An anchor's answer is the date of the `datetime` it returns (`None`: a
refusal). Each real date is answered exactly, refused, or answered wrong
(an answer that is not its ISO form); each non-date is refused, or answered
(which is wrong: none of them is a complete, real, unambiguous date, by the
rules of docs/dates.md, which are ours; a parser that reads "today" or
"12:30" as today's date does what it was written for).

Speed: throughput on a batch of `--anchor-batch` real dates (cycled), in
inputs/s, the median of a few samples; latency on one input, the median of
`--anchor-calls` calls, each on the next real date. Every system gives the
same thing back, an ISO date or `None` per input, and the systems are
sampled in turn (`harness.time_interleaved`), after warm-up calls (our
compilation at each batch size, the parsers' language data). On
TensorFlow, ours is timed twice: in-process, and as the SavedModel that
`attention-zoo dates export` writes, loaded with plain
`tf.saved_model.load` (`dates_normalizer.load_saved_model`).

The anchors are benchmark dependencies, not the package's:
`pip install ".[bench]"`.
"""

from __future__ import annotations

import collections
import itertools
import sys
import tempfile
from collections.abc import Callable

import keras

from attention_zoo.applications.dates.predictor import Normalizer
from attention_zoo.presets import preset_folder
from benchmarks import harness
from tests.applications.dates.hand_written import (
    read_non_dates_by_section,
    read_real_dates_by_section,
)

PRESET = "dates_multilingual"
STRICT = {"STRICT_PARSING": True, "REQUIRE_PARTS": ["day", "month", "year"]}
OUTCOMES = ("exact", "refused", "wrong")
OURS = "ours"
SAVED = "ours, SavedModel"
# Timed samples of the batch throughput: (full, --quick).
BATCH_REPEATS = (5, 2)
EXAMPLES = 4


def outcome(answer: str | None, expected: str | None) -> str:
    """`exact`, `refused` or `wrong`: an `answer` (`None`: refused) to a real
    date whose ISO form is `expected`, or to a non-date (`expected` None,
    where every answer is wrong)."""
    if answer is None:
        return "refused"
    return "exact" if answer == expected else "wrong"


def parser_answers(parse: Callable) -> Callable[[list[str]], list]:
    """A parser `text -> datetime or None` (raising `ValueError` or
    `OverflowError` to refuse) as `texts -> [ISO date or None]`."""

    def answers(texts):
        isos = []
        for text in texts:
            try:
                value = parse(text)
            except (ValueError, OverflowError):
                value = None
            isos.append(None if value is None else value.date().isoformat())
        return isos

    return answers


def normalizer_answers(normalizer) -> Callable[[list[str]], list]:
    """`texts -> [ISO date or None]`: the valid answers of a `Normalizer`."""

    def answers(texts):
        return [item["text"] if item["valid"] else None for item in normalizer(texts)]

    return answers


def saved_model_answers(serve) -> Callable[[list[str]], list]:
    """`texts -> [ISO date or None]`: the valid answers of the SavedModel's
    `serving_default`."""
    import tensorflow as tf

    def answers(texts):
        out = serve(text=tf.constant(texts))
        return [
            text.decode("utf-8") if ok else None
            for text, ok in zip(out["text"].numpy(), out["valid"].numpy())
        ]

    return answers


def anchors() -> tuple[dict, str]:
    """`({name: texts -> answers}, versions)` of the anchors; exits in one
    line naming the extra when one is not installed."""
    try:
        import dateparser
        import dateutil
        import dateutil.parser
    except ImportError as error:
        sys.exit(
            "benchmarks/dates_anchors.py needs dateparser and python-dateutil: "
            f"pip install '.[bench]' ({error})"
        )
    systems = {
        "dateparser": parser_answers(dateparser.parse),
        "dateparser strict": parser_answers(
            lambda text: dateparser.parse(text, settings=STRICT)
        ),
        "dateutil": parser_answers(dateutil.parser.parse),
    }
    versions = (
        f"dateparser {dateparser.__version__}, python-dateutil {dateutil.__version__}"
    )
    return systems, versions


def spread(items: list, cap: int) -> list:
    """`cap` items evenly spaced through `items`, in order (all of them when
    `cap` is 0 or not smaller), so that a capped run still has every
    language and section."""
    if not cap or cap >= len(items):
        return list(items)
    return [items[i * len(items) // cap] for i in range(cap)]


def percent(outcomes: list, which: str) -> str:
    return f"{100 * outcomes.count(which) / len(outcomes):.1f}"


def real_date_table(keys, outcomes) -> list:
    """Per key (a language, a section of the file), then all: n and
    `exact / refused / wrong` % per system; `keys[i]` is the i-th date's."""
    groups = collections.defaultdict(list)
    for i, key in enumerate(keys):
        groups[key].append(i)
    groups["all"] = list(range(len(keys)))
    return [
        [language, str(len(rows))]
        + [
            " / ".join(percent([got[i] for i in rows], o) for o in OUTCOMES)
            for got in outcomes.values()
        ]
        for language, rows in sorted(
            groups.items(), key=lambda kv: (kv[0] == "all", kv[0])
        )
    ]


def non_date_table(non, outcomes) -> list:
    """Per section, then all: n and the refused % per system."""
    groups = collections.defaultdict(list)
    for i, (section, _) in enumerate(non):
        groups[section].append(i)
    groups["all"] = list(range(len(non)))
    return [
        # The last section's name explains itself in brackets: its head is enough.
        [section.split(" (")[0], str(len(rows))]
        + [percent([got[i] for i in rows], "refused") for got in outcomes.values()]
        for section, rows in groups.items()
    ]


def totals_table(real_outcomes, non_outcomes) -> list:
    rows = []
    for name, real in real_outcomes.items():
        non = non_outcomes[name]
        wrong = real.count("wrong") + non.count("wrong")
        rows.append(
            [name]
            + [percent(real, o) for o in OUTCOMES]
            + [percent(non, "refused"), f"{wrong} of {len(real) + len(non)}"]
        )
    return rows


def examples(texts, expected, answers, which: str = "wrong") -> str:
    """How many inputs have the outcome `which`, and the first few of them:
    `'text' -> answer (expected iso)`."""
    shown = [
        f"{text!r} -> {answer}" + (f" (expected {iso})" if iso else "")
        for text, iso, answer in zip(texts, expected, answers)
        if outcome(answer, iso) == which
    ]
    return f"{len(shown)}" + (f" ({'; '.join(shown[:EXAMPLES])})" if shown else "")


def speed_rows(systems, texts, batch_size, calls, quick) -> list:
    """Per system: inputs/s on a batch, one-input p50, and how many times
    faster ours (and the SavedModel) are than it."""
    batch = list(itertools.islice(itertools.cycle(texts), batch_size))

    def one(answers):
        inputs = itertools.cycle(texts)
        return lambda: answers([next(inputs)])

    throughput = harness.time_interleaved(
        {name: (lambda fn=fn: fn(batch)) for name, fn in systems.items()},
        BATCH_REPEATS[quick],
        warmup=1,
        min_sample_s=0,
        progress=True,
    )
    latency = harness.time_interleaved(
        {name: one(fn) for name, fn in systems.items()},
        calls,
        warmup=3,
        min_sample_s=0,
    )
    ours = [name for name in (OURS, SAVED) if name in systems]
    rows = []
    for name in systems:
        cells = [
            name,
            f"{batch_size / throughput[name].median:,.0f} "
            f"±{harness.spread_percent(throughput[name]):.0f}%",
            f"{1e3 * latency[name].median:.2f}",
        ]
        for mine in ours:
            cells.append(
                f"{throughput[name].median / throughput[mine].median:.2f}x / "
                f"{latency[name].median / latency[mine].median:.2f}x"
            )
        rows.append(cells)
    return rows, ours


def run_anchors(args) -> None:
    parsers, versions = anchors()
    run = args.run or preset_folder(PRESET)
    harness.print_facts(
        harness.run_facts()
        + [
            f"anchors: {versions}",
            "ours: " + (f"the shipped preset {PRESET}" if args.run is None else run),
            f"load average: {harness.load_average()}",
        ]
    )
    sectioned = spread(read_real_dates_by_section(), args.anchor_inputs)
    real = [row for _, row in sectioned]
    non = spread(read_non_dates_by_section(), args.anchor_inputs)
    normalizer = Normalizer(run)
    systems = {OURS: normalizer_answers(normalizer), **parsers}
    texts = [text for _, _, text in real] + [text for _, text in non]
    expected = [iso for iso, _, _ in real] + [None] * len(non)
    answers = {name: answers(texts) for name, answers in systems.items()}
    outcomes = {
        name: [outcome(a, iso) for a, iso in zip(got, expected)]
        for name, got in answers.items()
    }
    real_outcomes = {name: got[: len(real)] for name, got in outcomes.items()}
    non_outcomes = {name: got[len(real) :] for name, got in outcomes.items()}

    print(f"\nReal dates (n = {len(real)}): exact / refused / wrong, %\n")
    languages = [language for _, language, _ in real]
    harness.print_table(
        ["language", "n", *systems], real_date_table(languages, real_outcomes), True
    )
    print("The same per section of the file (the seven first languages, the")
    print("twenty added, dates with notes around them):\n")
    sections = [section for section, _ in sectioned]
    harness.print_table(
        ["section", "n", *systems], real_date_table(sections, real_outcomes), True
    )
    print(f"Non-dates (n = {len(non)}): refused, %\n")
    harness.print_table(
        ["section", "n", *systems], non_date_table(non, non_outcomes), True
    )
    print("Totals\n")
    harness.print_table(
        [
            "",
            "real dates: exact, %",
            "refused, %",
            "wrong, %",
            "non-dates: refused, %",
            "wrong answers in all",
        ],
        totals_table(real_outcomes, non_outcomes),
        True,
    )
    n = len(real)
    print(f"First {EXAMPLES} of each kind:\n")
    for name, got in answers.items():
        real_args = texts[:n], expected[:n], got[:n]
        print(
            f"- {name}: real dates refused {examples(*real_args, 'refused')}, "
            f"answered wrong {examples(*real_args)}; non-dates answered "
            f"{examples(texts[n:], expected[n:], got[n:])}"
        )
    print()

    real_texts = [text for _, _, text in real]
    with tempfile.TemporaryDirectory() as folder:
        timed = dict(systems)
        if keras.backend.backend() == "tensorflow":
            from benchmarks.dates_normalizer import load_saved_model

            loaded, serve = load_saved_model(run, folder)  # loaded: kept alive
            saved = saved_model_answers(serve)
            same = sum(a == b for a, b in zip(saved(texts), answers[OURS]))
            print(
                f"The SavedModel's answers are the in-process ones on {same} of "
                f"{len(texts)} inputs.\n"
            )
            timed = {OURS: systems[OURS], SAVED: saved, **parsers}
        rows, ours = speed_rows(
            timed, real_texts, args.anchor_batch, args.anchor_calls, args.quick
        )
    harness.print_table(
        [
            "",
            f"batch of {args.anchor_batch:,}, inputs/s",
            "one input, p50 ms",
            *(f"{name} faster: batch / one input" for name in ours),
        ],
        rows,
        True,
    )
    print(
        f"Batch: median of {BATCH_REPEATS[args.quick]} samples of one call on "
        f"{args.anchor_batch:,} real dates (cycled), ± half the interquartile "
        f"range; one input: median of {args.anchor_calls} calls, each on the "
        "next real date; systems sampled in turn after warm-up calls. "
        "'faster' columns: the row's seconds over ours (> 1: ours is faster).\n"
    )
