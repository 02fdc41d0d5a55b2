"""A part the model wrote that its text writes nowhere is dropped
(form_settling's pass `grain`, form_grains.py): a day for a month and a
year, a month for a year, "today" for a time alone. The coarser form is
checked as any form, and the pass keeps off any text that writes
something the part could be."""

import pytest

from attention_zoo.applications.dates.form_answers import form_checks
from attention_zoo.applications.dates.form_grains import grain_words
from attention_zoo.applications.dates.form_text import FormText
from attention_zoo.applications.dates.form_words import clock_words
from attention_zoo.applications.dates.formats import LANGUAGES
from tests.applications.dates.settling import WORDS, settled

pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize(
    "text, written, expected",
    [
        ("March 2015", "date 2015-03-08", "month 2015-03"),
        ("marzo de 2015", "date 2015-03-08", "month 2015-03"),
        ("im März 2015", "date 2015-03-21", "month 2015-03"),
        ("2015年3月", "date 2015-03-08", "month 2015-03"),
        ("in März", "date --03-08", "month --03"),  # the year left open
        ("सन १९४७", "month 1947-08", "year 1947"),
        ("at 8:30 am", "shift day 0 at 08:30", "time 08:30"),
        ("um 8 Uhr", "shift day 0 at 08:00", "time 08:00"),
        ("दोपहर 2:30 बजे", "shift day 0 at 14:30", "time 14:30"),
    ],
)  # fmt: skip
def test_the_unwritten_part_is_dropped(text, written, expected):
    # form_checks, as Normalizer.settled: an absolute day is checked as an
    # ISO date, not by form_grounding.
    assert settled(text, written) == (expected, ("grain",))
    assert form_checks(text, expected, *WORDS)
    assert not form_checks(text, written, *WORDS)


@pytest.mark.parametrize(
    "text, written",
    [
        # The day is written, as a number or a word: a misread day is no
        # day unwritten (a month would leave "12" unread).
        ("12 March 2015", "date 2015-03-08"),
        ("the eighth of March 2015", "date 2015-03-09"),
        # A word no month text writes (an ordinal the lexicon lacks).
        ("le huitième mars 2015", "date 2015-03-09"),
        # The month is named or written as a number (the year alone leaves
        # it unread).
        ("August 1947", "month 1947-09"),
        ("8/1947", "month 1947-09"),
        # A relative word is left unread by a time.
        ("tomorrow at 8:30", "shift day 0 at 08:30"),
        # A word no time alone writes: Portuguese Friday without `-feira`.
        ("sexta às 18h", "shift day 0 at 18:00"),
        # Not a time at all: `a` is no clock word.
        ("Hausnummer 17a", "shift day 0 at 17:00"),
        # A shift of another day is no "today".
        ("at 8:30 am", "shift day -1 at 08:30"),
    ],
)  # fmt: skip
def test_a_text_that_could_write_the_part_stays_refused(text, written):
    # Left alone by the pass, or dropped and refused by the checks of the
    # coarser form (the number or month it leaves unread).
    form, _ = settled(text, written)
    assert not form_checks(text, form, *WORDS)


@pytest.mark.parametrize(
    "text, written",
    [
        ("Christmas 2015", "date 2015-12-25"),  # the holiday's day
        ("today at 8:30", "shift day 0 at 08:30"),  # "today" written
        ("3 March 2015", "date 2015-03-03"),
    ],
)
def test_a_grounded_form_is_left_alone(text, written):
    assert form_checks(text, written, *WORDS)
    assert settled(text, written) == (written, ())


def test_the_words_of_a_kind_are_the_generators():
    words = grain_words("time", LANGUAGES)
    assert {"uhr", "pm", "बजे", "heures"} <= words
    assert "sexta" not in words and "tomorrow" not in words
    assert {"de"} <= grain_words("month", LANGUAGES)


def test_clock_words_hold_no_letter_of_an_unfound_period():
    # CLDR writes `5\u202fa.\u202fm.` and `’s middags`: read as a text is,
    # their periods are found, and `a`, `m`, `p`, `s` are no clock words.
    words = clock_words(LANGUAGES)
    assert not {"a", "m", "p", "s"} & words
    assert {"uhr", "uur", "horas", "h"} <= words
    assert not FormText("Hausnummer 17a", *WORDS).writes_a_clock()
    assert FormText("17 Uhr", *WORDS).writes_a_clock()
