"""The counting of `python -m benchmarks.dates --anchors`, with fake parsers."""

import collections
import datetime

import pytest

from benchmarks.dates_anchors import (
    STRICT,
    outcome,
    parser_answers,
    spread,
    totals_table,
)
from tests.applications.dates.hand_written import (
    read_non_dates,
    read_non_dates_by_section,
    read_real_dates,
    read_real_dates_by_section,
)


@pytest.mark.parametrize(
    "answer, expected, result",
    [
        ("1979-05-03", "1979-05-03", "exact"),
        ("1979-03-05", "1979-05-03", "wrong"),
        (None, "1979-05-03", "refused"),
        (None, None, "refused"),
        ("2026-11-27", None, "wrong"),
    ],
    ids=["exact", "wrong", "refused", "non_date_refused", "non_date_answered"],
)
def test_outcome(answer, expected, result):
    assert outcome(answer, expected) == result


def test_a_parser_refuses_by_none_or_by_raising():
    def fake(text):
        if text == "overflow":
            raise OverflowError(text)
        if text == "error":
            raise ValueError(text)
        return None if text == "none" else datetime.datetime(1979, 5, 3, 12, 30)

    answers = parser_answers(fake)(["3 May", "none", "error", "overflow"])
    assert answers == ["1979-05-03", None, None, None]
    expected = ["1979-05-03", "1979-05-03", None, "1979-05-04"]
    assert [outcome(a, e) for a, e in zip(answers, expected)] == [
        "exact",
        "refused",
        "refused",
        "refused",
    ]


def test_a_parser_bug_is_not_a_refusal():
    def broken(text):
        raise KeyError(text)

    with pytest.raises(KeyError):
        parser_answers(broken)(["3 May 1979"])


def test_totals_count_wrong_answers_of_both_kinds():
    real = {"fake": ["exact", "wrong", "refused", "exact"]}
    non = {"fake": ["refused", "wrong"]}
    assert totals_table(real, non) == [
        ["fake", "50.0", "25.0", "25.0", "50.0", "2 of 6"]
    ]


def test_sections_of_a_small_file(tmp_path):
    path = tmp_path / "non_dates.txt"
    path.write_text(
        "# header\nbefore\n# --- words\nhello\n\n# a comment\nbye\n# --- numbers\n42\n",
        encoding="utf-8",
    )
    assert read_non_dates_by_section(path) == [
        ("", "before"),
        ("words", "hello"),
        ("words", "bye"),
        ("numbers", "42"),
    ]


def test_sections_of_the_committed_non_dates():
    rows = read_non_dates_by_section()
    assert [text for _, text in rows] == read_non_dates()
    sections = dict.fromkeys(section for section, _ in rows)
    assert len(sections) == 12 and "" not in sections
    found = {text: section for section, text in rows}
    assert found["hello"] == "words and phrases"
    assert found["12:30"] == "times and durations"
    assert found["😀"] == "emoji and symbols"
    assert found["03/04/05"].startswith("all-numeric dates with two readings")


def test_sections_of_the_committed_real_dates():
    rows = read_real_dates_by_section()
    assert [row for _, row in rows] == read_real_dates()
    sections = collections.Counter(section for section, _ in rows)
    assert list(sections) == [
        "seven languages: issue 23",
        "other scripts and languages: issue 40",
        "annotated dates: issue 40",
        "moved from non_dates.txt: issue 40",
    ]
    assert sections["seven languages: issue 23"] == 307


def test_spread_keeps_order_and_reaches_the_end():
    items = list(range(10))
    assert spread(items, 0) == items
    assert spread(items, 20) == items
    assert spread(items, 5) == [0, 2, 4, 6, 8]


def test_dateparser_strict_settings_refuse_a_partial_date():
    dateparser = pytest.importorskip("dateparser")
    default = parser_answers(dateparser.parse)(["3 May 1979", "May 1979"])
    strict = parser_answers(lambda t: dateparser.parse(t, settings=STRICT))(
        ["3 May 1979", "May 1979"]
    )
    assert default[0] == strict[0] == "1979-05-03"
    assert default[1] is not None and strict[1] is None
