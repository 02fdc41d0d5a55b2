"""A street named after a day is no date (form_streets.py); a street word
away from the day, or a word of another language, leaves the day alone."""

import pytest

from attention_zoo.applications.dates.form_answers import answer
from attention_zoo.applications.dates.form_streets import street_disagreement
from attention_zoo.applications.dates.reference import parse_reference

pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize(
    "text, word",
    [
        ("Rue du 4 septembre", "'rue du' before"),
        ("Place du 8 mai 1945", "'place du' before"),
        ("Avenida 9 de Julio", "'avenida' before"),
        ("Plaza 2 de Mayo", "'plaza' before"),
        ("ul. 3 Maja 12", "'ul' before"),
        ("ул. 8 Марта, д. 12", "'ул' before"),
        ("Straße des 17. Juni", "'straße des' before"),
        ("via 4 novembre", "'via' before"),
        ("شارع 26 يوليو", "'شارع' before"),
        ("12 April Road, London", "'road' after"),
        ("19 Mayıs Caddesi", "'caddesi' after"),
        ("Október 6. utca", "'utca' after"),
    ],
)  # fmt: skip
def test_a_street_word_beside_the_day_names_a_street(text, word):
    found = street_disagreement(text)
    assert "a street's name" in found and word in found, found


@pytest.mark.parametrize(
    "text",
    [
        "le 4 septembre",
        "took place 3 May 2015",  # French's "place" only with its article
        "Main Street on 3 May",  # the street word away from the day
        "reservar plaza el 3 de mayo",  # a seat, a word between
        "sent via email on 3 May",
        "the 1st of May",
        "12 April 2015",
    ],
)
def test_a_street_word_away_from_the_day_or_none_leaves_it(text):
    assert street_disagreement(text) == ""


def test_the_answer_says_so():
    item = {"input": "Place du 8 mai 1945", "score": 0.0, "valid": True}
    moment = parse_reference("2026-01-15T09:00:00")
    out = answer(item, "date 1945-05-08", moment, "future", -1.0, None)
    assert (out["valid"], out["text"]) == (False, "")
    assert "a street's name" in out["reason"]


def test_no_generated_text_is_a_streets_name(generated_pairs):
    every = [p.text for pairs in generated_pairs.values() for p in pairs]
    assert [t for t in every if street_disagreement(t)] == []
