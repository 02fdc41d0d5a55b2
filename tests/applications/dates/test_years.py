"""The written-year rule on the shipped normalizer: a year the model cannot
read is refused, with the reason, never answered as another year."""

import pytest

from attention_zoo.applications import from_preset
from attention_zoo.applications.dates.readings import written_years, year_disagreement


def test_written_years_are_four_digit_numbers_only():
    assert written_years("3 May 1979, room 12345 or 0042") == ["1979", "0042"]
    assert written_years("19790503") == []


@pytest.mark.parametrize(
    "text, answer, reason",
    [
        ("14 july 1789", "1989-07-14", "outside the years the model reads"),
        ("room 1234, 3 may 1979", "1979-05-30", ""),
        ("room 1234, 3 may 1979", "1997-05-03", "writes the year 1234 or 1979"),
        ("3 may 79", "1979-05-03", ""),
        ("14 july 1789", "", ""),
        # Without a four-digit year: the two digits it writes, pivoted.
        ("3 may '05", "2005-05-03", ""),
        ("3 may '05", "1905-05-03", "it writes no year: neither 1905 nor 05"),
        ("3 may", "2024-05-03", "it writes no year"),
        ("平成7年1月17日", "1995-01-17", "it writes no year: neither 1995 nor 95"),
        ("19790503", "1979-05-03", ""),
    ],
)
def test_the_rule_and_its_reason(text, answer, reason):
    got = year_disagreement(text, answer)
    assert (reason in got) if reason else got == ""


@pytest.fixture(scope="module")
def normalizer():
    return from_preset("dates_multilingual")


def test_historical_and_future_years_are_refused_not_moved(normalizer):
    texts = ["14 July 1789", "le 14 juillet 1889", "3. Oktober 2150", "5 May 1821"]
    for item in normalizer(texts):
        assert item["valid"] is False, item
        if item["text"]:
            assert item["text"][:4] not in item["input"]
        assert "outside the years" in item["reason"] or "no date" in item["reason"]


def test_years_it_reads_stay_valid(normalizer):
    texts = ["14 July 1989", "le 14 juillet 1989", "3. Oktober 2050", "5 May 1921"]
    answers = ["1989-07-14", "1989-07-14", "2050-10-03", "1921-05-05"]
    items = normalizer(texts)
    assert [i["text"] for i in items] == answers
    assert all(i["valid"] for i in items), [i["reason"] for i in items]
