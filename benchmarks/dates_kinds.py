"""Every kind of time expression, ours beside the peers:
`python -m benchmarks.dates_kinds`.

The inputs are the hand-written files of `benchmarks/data/dates_kinds/`
(absolute days, dates with a time, times alone, relative expressions,
partial dates, intervals, computed days, holidays, and non-dates), each
line with its language and its ISO 8601 value against the one reference
date-time the files state (`dates_kinds_cases.py` reads them). For each
kind and language, each system is right, refuses, or answers wrong (a
confident error; for a non-date, any answer).

The systems, each called as a user calls it:

- ours: the dates predictor of `--run` or `--preset` (default: the shipped preset
  `dates_multilingual`), or of an export folder (`--export`, through
  `load_exported`), `predictor(texts, reference=...)`; an answer is its `text` when
  `valid`, and it is right only when that text is the expected value
  itself (`Z` and `+00:00` alike), given the files' reference (a run of ISO
  dates, the preset, answers the same whatever the reference).
- dateparser: `dateparser.parse(text, settings={"RELATIVE_BASE": the
  reference (naive, UTC), "PREFER_DATES_FROM": "future"})`, languages
  detected; for the interval file `dateparser.search.search_dates(text,
  settings=...)`, whose first and last dates are the start and the end
  (one date found is a point answer, so wrong).
- parsedatetime: `Calendar(version=VERSION_CONTEXT_STYLE).parseDT(text,
  sourceTime=the reference)`, refused when the context has no date or
  time. Its `evalRanges` is not used: in 2.6 it ignores `sourceTime` (it
  answered from today's clock when tried), so an interval gets the point
  `parseDT` reads.
- ctparse: `ctparse(text, ts=the reference, timeout=1)`: a `Time` as the
  parts it gives (year, month, day, hour:minute), an `Interval` as
  `start/end`; a `Duration` ("in 3 days" read as an amount), a `Time`
  without a year, or no parse is a refusal.

A peer answers with a `datetime` (a date and a time whatever the text
wrote), so its answer is compared at the grain of the expected value
(`dates_kinds_cases.at_grain`): by year for `1987`, year and month for
`2015-03`, day, minute or second, with the offset at a minute or second
grain when the peer gives one. An answer coarser than the expected value
(ctparse's `2014-12-12` for a date-time) does not match. A peer that is
not installed is skipped with its install line.

Speed: inputs/s of one system's second pass over every input (the first
compiles ours and loads the peers' language data), and the median time of
one call with one input, over every input (after `WARM` such calls, which
compile ours for a batch of one), the systems one after the other, not
interleaved (`python -m benchmarks.dates --anchors` is the timed
comparison).
"""

from __future__ import annotations

import collections
import datetime as dt
import statistics
import time
import warnings
from importlib.metadata import version

from benchmarks import harness
from benchmarks.dates_kinds_cases import (
    DATA,
    KINDS,
    NON_DATE,
    OUTCOMES,
    at_grain,
    outcome,
    read_cases,
    value_grain,
)

PRESET = "dates_multilingual"
OURS = "ours"
INSTALL = {
    "dateparser": "pip install dateparser",
    "parsedatetime": "pip install parsedatetime",
    "ctparse": "pip install ctparse",
}
EXAMPLES = 3
# Single-input calls made before the timed ones: ours compiles its model
# for a batch of one at the first, and reads a few lengths.
WARM = 20


def _iso(moment: dt.datetime) -> str:
    return moment.isoformat(timespec="seconds")


def dateparser_answers(reference: dt.datetime):
    import dateparser
    from dateparser.search import search_dates

    settings = {
        "RELATIVE_BASE": reference.astimezone(dt.timezone.utc).replace(tzinfo=None),
        "PREFER_DATES_FROM": "future",
    }

    def answer(case):
        if case.kind != "interval":
            found = dateparser.parse(case.text, settings=settings)
            return None if found is None else _iso(found)
        found = search_dates(case.text, settings=settings)
        if not found:
            return None
        ends = [found[0][1], found[-1][1]]
        return _iso(ends[0]) if len(found) == 1 else "/".join(map(_iso, ends))

    return answer, f"dateparser {version('dateparser')}"


def parsedatetime_answers(reference: dt.datetime):
    import parsedatetime

    calendar = parsedatetime.Calendar(version=parsedatetime.VERSION_CONTEXT_STYLE)
    source = reference.astimezone(dt.timezone.utc).replace(tzinfo=None)

    def answer(case):
        moment, context = calendar.parseDT(case.text, sourceTime=source)
        return _iso(moment) if context.hasDateOrTime else None

    return answer, f"parsedatetime {version('parsedatetime')}"


def ctparse_time(value) -> str | None:
    """A ctparse `Time` as the ISO 8601 of the parts it gives, from the
    year down; None when it gives no year."""
    if value is None or value.year is None:
        return None
    text = f"{value.year:04d}"
    if value.month is None:
        return text
    text += f"-{value.month:02d}"
    if value.day is None:
        return text
    text += f"-{value.day:02d}"
    if value.hour is None:
        return text
    return text + f"T{value.hour:02d}:{value.minute or 0:02d}"


def ctparse_answers(reference: dt.datetime):
    import ctparse
    from ctparse.types import Interval, Time

    ts = reference.astimezone(dt.timezone.utc).replace(tzinfo=None)

    def answer(case):
        parsed = ctparse.ctparse(case.text, ts=ts, timeout=1)
        value = parsed and parsed.resolution
        if isinstance(value, Time):
            return ctparse_time(value)
        if isinstance(value, Interval):
            ends = [ctparse_time(value.t_from), ctparse_time(value.t_to)]
            return None if None in ends else "/".join(ends)
        return None

    return answer, f"ctparse {version('ctparse')}"


PEERS = {
    "dateparser": dateparser_answers,
    "parsedatetime": parsedatetime_answers,
    "ctparse": ctparse_answers,
}


def peer_systems(reference) -> tuple[dict, list, list]:
    """`({name: case -> answer}, versions, skipped lines)` of the peers
    that import."""
    systems, versions, skipped = {}, [], []
    for name, make in PEERS.items():
        try:
            answer, version = make(reference)
        except ImportError as error:
            skipped.append(f"{name} skipped, not installed ({error}): {INSTALL[name]}")
            continue
        systems[name] = answer
        versions.append(version)
    return systems, versions, skipped


def peer_batch(answer):
    """`cases -> answers` of a peer's one-case function; an exception a
    parser raises on a text is its refusal."""

    def answers(cases):
        got = []
        for case in cases:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    got.append(answer(case))
            except (ValueError, OverflowError, TypeError, KeyError, IndexError):
                got.append(None)
        return got

    return answers


def ours_predictor(run=None, export=None):
    """The run's `Normalizer`, or the predictor of an export folder
    (`load_exported`: a SavedModel, LiteRT or ONNX export of a forms run)."""
    if export is not None:
        from attention_zoo.applications import load_exported

        predictor = load_exported(export)
        if not hasattr(predictor, "predict_items"):  # an ISO run's SavedModel
            raise SystemExit(
                "--export reads an export of a forms run, whose predictor takes "
                "the reference; this one is of a run of ISO dates, which takes "
                f"none. Received: --export {export}"
            )
        return predictor
    from attention_zoo.applications.dates.predictor import Normalizer

    return Normalizer(run)


def ours_batch(normalizer, reference: dt.datetime):
    def answers(cases):
        items = normalizer([case.text for case in cases], reference=reference)
        return [item["text"] if item["valid"] else None for item in items]

    return answers


def single_latency(batch, cases, warm: int = WARM) -> float:
    """The median milliseconds of `batch([case])`, one call per case, over
    every case, after `warm` untimed calls."""
    if not cases:
        raise ValueError("single_latency needs at least one case. Received: cases=[]")
    for case in cases[:warm]:
        batch([case])
    times = []
    for case in cases:
        start = time.perf_counter()
        batch([case])
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def score(cases, answers: list) -> list[str]:
    """Each case's outcome: ours exactly, a peer at the expected grain."""
    return [outcome(a, c.expected) for c, a in zip(cases, answers)]


def peer_score(cases, answers: list) -> list[str]:
    return [
        outcome(
            a
            if a is None or c.expected is None
            else at_grain(a, value_grain(c.expected)),
            c.expected,
        )
        for c, a in zip(cases, answers)
    ]


def cell(outcomes: list) -> str:
    """`right / refused / wrong (right %)`."""
    counts = " / ".join(str(outcomes.count(o)) for o in OUTCOMES)
    rate = 100 * outcomes.count("right") / len(outcomes) if outcomes else 0.0
    return f"{counts} ({rate:.0f} %)"


def grouped(cases, outcomes: dict, key) -> list:
    """Rows per value of `key(case)` (sorted), then `all`: n and each
    system's cell."""
    groups = collections.defaultdict(list)
    for i, case in enumerate(cases):
        groups[key(case)].append(i)
    rows = sorted(groups.items()) + [("all", list(range(len(cases))))]
    return [
        [name, str(len(rows_))]
        + [cell([got[i] for i in rows_]) for got in outcomes.values()]
        for name, rows_ in rows
    ]


def wrong_examples(cases, answers, outcomes, kind: str) -> str:
    shown = [
        f"{c.text!r} -> {a} (expected {c.expected})"
        for c, a, o in zip(cases, answers, outcomes)
        if o == "wrong" and c.kind == kind
    ]
    return f"{len(shown)}" + (f": {'; '.join(shown[:EXAMPLES])}" if shown else "")


def main(argv=None) -> None:
    parser = harness.argument_parser(__doc__)
    parser.add_argument(
        "--preset", default=PRESET, help=f"a shipped dates preset (default: {PRESET})"
    )
    parser.add_argument("--run", help="a trained dates run, instead of --preset")
    parser.add_argument(
        "--export",
        help="an export folder of a forms run (attention-zoo dates export "
        "--format saved_model, onnx or litert), read through load_exported, "
        "instead of --preset",
    )
    parser.add_argument("--data", default=str(DATA), help="the folder of the TSVs")
    args = parser.parse_args(argv)
    reference, cases = read_cases(args.data)
    peers, versions, skipped = peer_systems(reference)
    if args.run is not None and args.export is not None:
        parser.error("give --run or --export, not both")
    if args.export is not None:
        run, shown = None, f"the export {args.export} (load_exported)"
    elif args.run is None:
        from attention_zoo.presets import preset_folder

        run, shown = preset_folder(args.preset), f"the shipped preset {args.preset}"
    else:
        run, shown = args.run, args.run
    harness.print_header("Time expressions by kind: ours and the peers")
    harness.print_facts(
        [
            f"reference: {reference.isoformat()} (a {reference:%A}), "
            f"data: {args.data}, {len(cases)} lines",
            f"ours: {shown}",
            "peers: " + (", ".join(versions) or "none installed"),
            *skipped,
            f"load average: {harness.load_average()}",
        ]
    )
    ours = ours_predictor(run, args.export)
    systems = {OURS: ours_batch(ours, reference)} | {
        n: peer_batch(a) for n, a in peers.items()
    }
    answers, outcomes, rates, single = {}, {}, {}, {}
    for name, batch in systems.items():
        batch(cases)  # the first pass compiles ours and loads the peers' languages
        start = time.perf_counter()
        answers[name] = batch(cases)
        rates[name] = len(cases) / (time.perf_counter() - start)
        single[name] = single_latency(batch, cases)
        scorer = score if name == OURS else peer_score
        outcomes[name] = scorer(cases, answers[name])

    dates = [i for i, c in enumerate(cases) if c.kind != NON_DATE]
    date_cases = [cases[i] for i in dates]
    date_outcomes = {n: [got[i] for i in dates] for n, got in outcomes.items()}
    print("\nPer kind: right / refused / wrong (right %)\n")
    harness.print_table(
        ["kind", "n", *systems],
        sorted(
            grouped(date_cases, date_outcomes, lambda c: c.kind)[:-1],
            key=lambda row: KINDS.index(row[0]),
        )
        + grouped(date_cases, date_outcomes, lambda c: "all")[-1:],
        True,
    )
    for kind in KINDS:
        keep = [i for i, c in enumerate(date_cases) if c.kind == kind]
        kind_cases = [date_cases[i] for i in keep]
        kind_outcomes = {n: [got[i] for i in keep] for n, got in date_outcomes.items()}
        if not keep:  # a folder of some kinds only (--data)
            continue
        print(f"`{kind}` per language: right / refused / wrong (right %)\n")
        harness.print_table(
            ["language", "n", *systems],
            grouped(kind_cases, kind_outcomes, lambda c: c.language),
            True,
        )
    non = [i for i, c in enumerate(cases) if c.kind == NON_DATE]
    print(f"Non-dates (n = {len(non)}): refused / answered\n")
    harness.print_table(
        ["", *systems],
        [
            [
                "non-dates",
                *(
                    f"{[got[i] for i in non].count('refused')} / "
                    f"{[got[i] for i in non].count('wrong')}"
                    for got in outcomes.values()
                ),
            ],
            ["inputs/s (second pass)", *(f"{rates[n]:,.0f}" for n in systems)],
            ["one input, p50 ms", *(f"{single[n]:.2f}" for n in systems)],
        ],
        True,
    )
    print(f"Confident errors, the first {EXAMPLES} per kind:\n")
    for name in systems:
        for kind in (*KINDS, NON_DATE):
            print(
                f"- {name}, {kind}: "
                + wrong_examples(cases, answers[name], outcomes[name], kind)
            )
    print()


if __name__ == "__main__":
    main()
