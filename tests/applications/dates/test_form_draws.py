"""The training draws of the forms target past the whole pool
(`forms_data.draw`): a template of a kind uniformly, then one of its pairs."""

import collections
import random

import pytest

from attention_zoo.applications.dates import forms_data

pytestmark = pytest.mark.backend_free


def _examples(language, kind, texts):
    return [
        forms_data.FormExample(t, "year 2000", language, kind, "", "") for t in texts
    ]


def test_past_the_pool_a_word_comes_back_as_often_as_a_pattern_of_numbers():
    numbers = [f"il y a {i} jours" for i in range(100)]
    pool = {("fr", "relative"): _examples("fr", "relative", numbers + ["avant-hier"])}
    drawn = forms_data.draw(pool, 101 + 4000, random.Random(0), replace=True)
    counts = collections.Counter(forms_data.template(e.text) for e in drawn[101:])
    # Two templates, 2,000 draws each expected: a pair drawn uniformly would
    # give the word about 40.
    assert set(counts) == {"il y a # jours", "avant-hier"}
    assert 1800 < counts["avant-hier"] < 2200
    # The first pass still takes every pair once.
    assert len({e.text for e in drawn[:101]}) == 101
