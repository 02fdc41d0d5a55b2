"""How a forms run's training split draws its expressions (`forms_data.draw`):
one text of every template first, every pair before any twice when each
template is taken once, and the words that are their template's one text
taken `per_template` times."""

import collections
import random

import pytest

from attention_zoo.applications.dates import forms_data

pytestmark = pytest.mark.backend_free


def _examples(language, kind, texts):
    return [
        forms_data.FormExample(t, "year 2000", language, kind, "", "") for t in texts
    ]


def test_training_takes_every_pair_of_its_pool_before_repeating_one():
    words = ["yesterday", "tomorrow", "ayer", "mañana", "anteayer"]
    pool = {
        ("en", "relative"): _examples(
            "en", "relative", [f"in {i} days" for i in range(300)] + words[:2]
        ),
        ("en", "year"): _examples("en", "year", ["y0", "y1"]),
        ("es", "time"): _examples(
            "es", "time", [f"t{i}" for i in range(20)] + words[2:]
        ),
    }
    every = [e for examples in pool.values() for e in examples]

    def ids(examples):
        return sorted(id(e) for e in examples)

    drawn = forms_data.draw(pool, 400, random.Random(0), replace=True)
    assert len(drawn) == 400 and set(ids(drawn)) == set(ids(every))
    # Fewer than the pool: no pair twice, and one text of every template of
    # a language first: each word (its own template) before a second
    # "in # days", "y#" or "t#".
    firsts = [
        e for e in every if e.text in words or e.text in ("in 0 days", "y0", "t0")
    ]
    for seed in range(5):
        some = forms_data.draw(pool, len(firsts), random.Random(seed), replace=True)
        assert len(set(ids(some))) == len(firsts)
        assert {e.text for e in some} >= set(words)
        assert sorted(forms_data.template(e.text) for e in some) == sorted(
            forms_data.template(e.text) for e in firsts
        )
    # Validation and test: without replacement, as before.
    held = forms_data.draw(pool, 1000, random.Random(0), replace=False)
    assert ids(held) == ids(every)


def test_a_template_of_fewer_texts_is_taken_again_up_to_per_template():
    words = ["yesterday", "ayer"]
    numbers = [f"in {i} days" for i in range(5)]
    pool = {
        ("en", "relative"): _examples("en", "relative", numbers + words[:1]),
        ("es", "relative"): _examples("es", "relative", words[1:] + ["y0", "y1"]),
    }
    # Every template three times: "in # days" its five texts, each word
    # three times, "y#" its two texts and one of them again.
    drawn = forms_data.draw(pool, 14, random.Random(0), replace=True, per_template=3)
    counts = collections.Counter(e.text for e in drawn)
    assert {w: counts[w] for w in words} == {"yesterday": 3, "ayer": 3}
    assert all(counts[t] == 1 for t in numbers)
    assert sorted(counts[t] for t in ("y0", "y1")) == [1, 2]
    # The k-th taking of every template before the (k+1)-th of any: of 12
    # takings, 9 are two of each template and a third of one.
    for seed in range(5):
        some = forms_data.draw(
            pool, 9, random.Random(seed), replace=True, per_template=3
        )
        counts = collections.Counter(forms_data.template(e.text) for e in some)
        assert sorted(counts.values()) == [2, 2, 2, 3]
    with pytest.raises(ValueError, match="per_template must be at least 1, got 0"):
        forms_data.draw(pool, 3, random.Random(0), replace=True, per_template=0)
