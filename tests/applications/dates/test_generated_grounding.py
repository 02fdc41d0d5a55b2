"""Every generated time expression is grounded in its own form
(form_grounding.py), so a run that reads it right is not refused, and no
pass of form_settling.py changes a grounded form, so settling only the
forms the grounding refuses (Normalizer.settled) changes no answer. The
pairs are those of test_time_expressions.py."""

import random
import re

import pytest

from attention_zoo.applications.dates import form_answers, lexicon
from attention_zoo.applications.dates.form_settling import settle

pytestmark = pytest.mark.backend_free

GROUNDED_PER_KIND = 6  # texts of each kind and language, seeded


def _ungrounded(pairs):
    # An absolute day (`date 1979-05-03`) is checked as an ISO date, by
    # the checks of test_grounding.py and test_months.py; every other form
    # by form_grounding. A text beside a numeric date of two readings
    # (`sábado, 10/09/1932, 05:09:19`, one pair) is refused by the numeric
    # rule as such a date alone is, though the generator writes it.
    words = lexicon.load(), lexicon.load_days()
    found = [
        (p.text, p.form, form_answers.grounding_reason(p.text, p.form, *words))
        for p in pairs
    ]
    return [f for f in found if f[2] and not f[2].startswith("ambiguous: ")]


def test_every_kind_of_every_language_is_grounded_in_its_text(generated_pairs):
    # form_grounding: a generated text writes every number and word of its
    # form, so a run that reads it right is not refused. A seeded sample of
    # each kind of each language (every text: the slow test below).
    sample = []
    for language, pairs in generated_pairs.items():
        by_kind = {}
        for pair in pairs:
            by_kind.setdefault(pair.kind, []).append(pair)
        for kind, found in sorted(by_kind.items()):
            r = random.Random(f"grounded/{language}/{kind}")
            sample += r.sample(found, min(GROUNDED_PER_KIND, len(found)))
    assert len(sample) > 1500
    assert _ungrounded(sample) == []


@pytest.mark.slow
def test_every_generated_text_is_grounded_in_its_text(generated_pairs):
    every = [p for pairs in generated_pairs.values() for p in pairs]
    assert _ungrounded(every) == []


def test_no_pass_changes_a_generated_form(generated_pairs):
    # Normalizer.settled settles only the forms the grounding refuses: a
    # grounded form must be one form_settling leaves alone (its hour is
    # written and agrees with the period beside its number; a text writing
    # a zone has it; a holiday's day is the one its name means). Every
    # generated text is grounded (above), so no form may change: times,
    # dates with a time, intervals of times, zones in words, holidays.
    words = lexicon.load(), lexicon.load_days()
    every = [p for pairs in generated_pairs.values() for p in pairs]
    clocks = [p for p in every if re.search(r"[0-9]{2}:[0-9]{2}", p.form)]
    assert len(clocks) > 5000
    assert any("[Europe/Moscow]" in p.form for p in clocks)
    assert sum(p.form.startswith("easter") for p in every) > 500
    changed = [(p.text, p.form) for p in every if settle(p.text, p.form, *words)[1]]
    assert changed == []
