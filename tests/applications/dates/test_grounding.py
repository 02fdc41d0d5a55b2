"""The number and weekday rules (`grounding`): a time, a range, a count of
days or an ordinal weekday beside a date is refused rather than answered
with a day made of the wrong numbers. Their graph halves are checked
against these in test_pass_parity.py."""

import pytest

from attention_zoo.applications.dates import data, lexicon, passes
from attention_zoo.applications.dates.grounding import (
    number_disagreement,
    weekday_disagreement,
    weekday_words,
)
from tests.applications.dates.hand_written import read_guard_families, read_real_dates

WORDS = lexicon.load()


def _numbers(text, answer):
    return number_disagreement(data.normalize(text), answer, WORDS)


@pytest.mark.parametrize(
    "text, answer",
    [
        ("9:41 am Nov. 14, 2013", "2013-11-41"),  # the minutes as the day
        ("9:41 am Nov. 14, 2013", "2013-11-14"),  # the time is no part of it
        ("4:18 p.m., 6 mars 2016", "2016-03-18"),
        ("22 - 26 de agosto de 2011", "2011-08-26"),
        ("6 - 26 de agosto de 2011", "2011-08-26"),  # 6 is no month: agosto is
        ("vom 9. bis 12. Juni 1994", "1994-06-12"),
        ("4 days after 7 June 2012", "2012-06-07"),
        ("2011-03-09T10:44:12Z", "2011-03-09"),
        ("1987年9月23日 10時", "1987-09-23"),
        ("3 mai 1979 3 mai 1979", "1979-05-03"),  # more numbers than parts
        ("23/09/1987 23/09/1987", "1987-09-23"),
    ],
)
def test_a_number_the_answer_does_not_use_is_refused(text, answer):
    assert _numbers(text, answer)


@pytest.mark.parametrize(
    "text, answer",
    [
        ("14 nov. 2013", "2013-11-14"),
        ("14/11/13", "2013-11-14"),
        ("20131114", "2013-11-14"),
        ("14 nov 2013 [12]", "2013-11-14"),  # a footnote
        ("15 April 1912 (aged 62)", "1912-04-15"),
        ("1987年9月23日", "1987-09-23"),  # 9月 is a month word
        ("ngày 5 tháng 9 năm 1987", "1987-09-05"),
        ("14 nov. 2013", ""),
        ("9:41", "x"),
    ],
)
def test_the_numbers_of_a_date_are_its_parts(text, answer):
    assert _numbers(text, answer) == ""


def test_every_generated_and_hand_written_date_is_grounded():
    for example in data.generate(2000, seed=31):
        if example.iso:
            text = passes.view(data.normalize(example.text), WORDS)
            assert not _numbers(text, example.iso), example
            assert not weekday_disagreement(text, example.iso), example
    for iso, language, text in read_real_dates():
        view = passes.view(data.normalize(text), WORDS)
        assert not number_disagreement(view, iso, WORDS), (language, text)
        assert not weekday_disagreement(view, iso), (language, text)


def test_a_weekday_must_be_the_answers():
    # 2014-09-03 is a Wednesday; the third Tuesday is the 16th.
    assert weekday_disagreement("third tuesday of september 2014", "2014-09-03")
    assert not weekday_disagreement("tuesday, 16 september 2014", "2014-09-16")
    assert weekday_disagreement("mardi 17 septembre 2014", "2014-09-17")
    assert not weekday_disagreement("mercredi 17 septembre 2014", "2014-09-17")
    assert weekday_disagreement("2014年9月17日 星期二", "2014-09-17")
    assert not weekday_disagreement("third tuesday", "2014-02-30")  # no date
    # `mar` is March and a Tuesday: a month word, no weekday.
    assert "mar" not in weekday_words() and "tuesday" in weekday_words()


@pytest.fixture(scope="module")
def normalizer():
    from attention_zoo.applications.dates.predictor import Normalizer

    return Normalizer.from_preset("dates_multilingual")


@pytest.mark.tf_only
def test_the_shipped_normalizer_answers_right_or_refuses(normalizer):
    """The families of guard_families.tsv the number and weekday rules
    cover: none answered wrong (the shipped preset answered 24 of them wrong
    before the rules, docs/dates.md)."""
    covered = {"time_with_date", "iso_datetime", "weekday_of_month", "range"}
    rows = [row for row in read_guard_families() if row[0] in covered]
    items = normalizer([text for *_, text in rows])
    wrong = [
        (text, item["text"])
        for (_, _, expected, text), item in zip(rows, items)
        if item["valid"] and item["text"] != expected
    ]
    assert not wrong
    (item,) = normalizer(["8:25 a.m. Dec. 12, 2014"])
    assert not item["valid"] and "the number 8," in item["reason"], item
