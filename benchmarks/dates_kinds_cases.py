"""The hand-written time expressions of `benchmarks/data/dates_kinds/`:
reading them, the shape of an expected value, and scoring an answer.

Kept apart from `dates_kinds.py` (the systems and the tables) so that the
tests read and score a fixture without a model or a peer installed.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from pathlib import Path

DATA = Path(__file__).parent / "data" / "dates_kinds"
KINDS = (
    "absolute",
    "datetime",
    "time",
    "relative",
    "partial",
    "interval",
    "computed",
    "holiday",
)
NON_DATE = "non-date"
OUTCOMES = ("right", "refused", "wrong")
REFERENCE_LINE = "# reference:"

# A point's grain from its shape: the characters each grain keeps.
_POINT = re.compile(
    r"(?P<body>\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}(?::\d{2})?)?)?)?)"
    r"(?P<zone>Z|[+-]\d{2}:\d{2})?"
)
_LENGTH = {4: "year", 7: "month", 10: "day", 16: "minute", 19: "second"}
GRAIN_LENGTH = {grain: length for length, grain in _LENGTH.items()}
# The grains each kind's expected value may have ("interval": each end's).
KIND_GRAINS = {
    "absolute": {"day"},
    "datetime": {"minute", "second"},
    "time": {"minute", "second"},
    "relative": {"year", "month", "day", "minute", "second"},
    "partial": {"year", "month", "day"},
    "interval": {"year", "month", "day", "minute", "second"},
    "computed": {"day"},
    "holiday": {"day"},
}


@dataclasses.dataclass(frozen=True)
class Case:
    """One line: `expected` is None for a non-date (it must be refused)."""

    language: str
    kind: str
    text: str
    expected: str | None
    where: str  # file:line, for messages


def point_grain(value: str) -> str:
    """`year`, `month`, `day`, `minute` or `second`: the grain of an ISO
    8601 point as the files write it; a `ValueError` naming the value if
    it is none (wrong shape, or a day or time that does not exist)."""
    match = _POINT.fullmatch(value)
    body = match and match["body"]
    if not match or (match["zone"] and len(body) < GRAIN_LENGTH["minute"]):
        raise ValueError(f"not an ISO 8601 point: {value[:80]!r}")
    grain = _LENGTH[len(body)]
    try:
        if grain in ("year", "month"):
            dt.date(int(body[:4]), int(body[5:7] or 1) if grain == "month" else 1, 1)
        else:
            dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as error:
        raise ValueError(f"no such date or time: {value[:80]!r} ({error})") from None
    if body[:4] == "0000":
        raise ValueError(f"years run from 0001: {value[:80]!r}")
    return grain


def value_grain(value: str) -> str:
    """The grain of a point, or of an interval's ends `start/end` (which
    must share it, the start not after the end)."""
    ends = value.split("/")
    if len(ends) == 1:
        return point_grain(value)
    if len(ends) != 2:
        raise ValueError(f"an interval is start/end: {value[:80]!r}")
    grains = {point_grain(end) for end in ends}
    if len(grains) != 1:
        raise ValueError(f"an interval's ends differ in grain: {value[:80]!r}")
    if _sortable(ends[0]) > _sortable(ends[1]):
        raise ValueError(f"an interval's start is after its end: {value[:80]!r}")
    return grains.pop()


def _sortable(point: str):
    if "T" not in point:
        return point
    moment = dt.datetime.fromisoformat(point.replace("Z", "+00:00"))
    return (moment.astimezone(dt.timezone.utc) if moment.tzinfo else moment).isoformat()


def check_expected(case: Case) -> str:
    """The grain of `case.expected`; a `ValueError` naming the line if it
    is not a well-formed value of its kind (an interval for `interval`,
    a point of one of `KIND_GRAINS[kind]` otherwise)."""
    try:
        grain = value_grain(case.expected)
    except ValueError as error:
        raise ValueError(f"{case.where}: {error}") from None
    if ("/" in case.expected) != (case.kind == "interval"):
        raise ValueError(
            f"{case.where}: a {case.kind} answer must "
            f"{'' if case.kind == 'interval' else 'not '}be an interval: "
            f"{case.expected!r}"
        )
    if grain not in KIND_GRAINS[case.kind]:
        raise ValueError(
            f"{case.where}: a {case.kind} answer is not at the {grain} grain: "
            f"{case.expected!r}"
        )
    return grain


def read_file(path: Path) -> tuple[str | None, list[Case]]:
    """`(reference, cases)` of one TSV: the `# reference: ...` line's value
    (None if the file has none) and its data lines."""
    reference, cases = None, []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        where = f"{path.name}:{number}"
        if line.startswith(REFERENCE_LINE):
            reference = line[len(REFERENCE_LINE) :].strip()
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            raise ValueError(
                f"{where}: expected 4 tab-separated fields (language, kind, "
                f"text, expected), received {len(fields)}: {line[:80]!r}"
            )
        language, kind, text, expected = fields
        if kind not in (*KINDS, NON_DATE):
            raise ValueError(f"{where}: unknown kind {kind!r}; kinds: {KINDS}")
        if (expected == "-") != (kind == NON_DATE):
            raise ValueError(
                f"{where}: '-' is the expected value of a non-date, and of it "
                f"alone: {line[:80]!r}"
            )
        case = Case(language, kind, text, None if kind == NON_DATE else expected, where)
        if case.expected is not None:
            check_expected(case)
        cases.append(case)
    return reference, cases


def read_cases(folder: Path = DATA) -> tuple[dt.datetime, list[Case]]:
    """Every case of the `*.tsv` files in `folder`, and the one reference
    they all state (an aware `datetime`); a `ValueError` naming the file
    when one states none or another."""
    references, cases = {}, []
    for path in sorted(Path(folder).glob("*.tsv")):
        reference, found = read_file(path)
        if reference is None:
            raise ValueError(f"{path.name}: no '{REFERENCE_LINE} ...' line")
        references[path.name] = reference
        cases.extend(found)
    if not references:
        raise ValueError(f"no .tsv file in {str(folder)[:80]!r}")
    if len(set(references.values())) != 1:
        raise ValueError(f"the files state different references: {references}")
    text = next(iter(references.values()))
    reference = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    if reference.tzinfo is None:
        raise ValueError(f"the reference needs a zone (Z or an offset): {text!r}")
    return reference, cases


def _canonical(value: str) -> str:
    return value.replace("Z", "+00:00")


def at_grain(answer: str, grain: str) -> str:
    """A peer's ISO answer (a point or `start/end`) cut to `grain`: a
    finer answer loses its finer parts (and keeps its offset at a minute
    or second grain); a coarser one is kept as it is, so it cannot match."""
    if "/" in answer:
        return "/".join(at_grain(end, grain) for end in answer.split("/"))
    match = _POINT.fullmatch(answer)
    if not match or len(match["body"]) < GRAIN_LENGTH[grain]:
        return answer
    cut = match["body"][: GRAIN_LENGTH[grain]]
    if grain in ("minute", "second") and match["zone"]:
        cut += match["zone"]
    return cut


def outcome(answer: str | None, expected: str | None) -> str:
    """`right`, `refused` or `wrong` (answered, confidently, not the value):
    `answer` None is a refusal; a non-date (`expected` None) answered at all
    is wrong. `Z` and `+00:00` are the same offset."""
    if answer is None:
        return "refused"
    if expected is None:
        return "wrong"
    return "right" if _canonical(answer) == _canonical(expected) else "wrong"
