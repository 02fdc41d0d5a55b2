import collections
import datetime as dt
import re

import numpy as np
import pytest

from attention_zoo.applications.dates import data


def test_at_least_40_formats_in_four_languages_and_five_families():
    assert len(set(data.FORMAT_NAMES)) == len(data.FORMATS) >= 40
    languages = collections.Counter(f.language for f in data.FORMATS)
    assert {"en", "fr", "de", "es"} <= set(languages)
    assert {"babel", "pattern", "ordinal", "abbreviation", "numeric"} == {
        f.family for f in data.FORMATS
    }


def test_examples_are_valid_and_cover_every_format():
    examples = data.generate(6000, seed=3)
    assert {e.format_name for e in examples} == set(data.FORMAT_NAMES)
    for e in examples:
        date = dt.date.fromisoformat(e.iso)
        assert data.MIN_DATE <= date <= data.MAX_DATE
        assert 0 < len(data.normalize(e.text)) <= data.TX
    texts = [e.text for e in examples]
    assert any(t.isupper() for t in texts) and any(t.islower() for t in texts)
    assert any("  " in t or t != t.strip() for t in texts)  # stray whitespace
    assert any(re.search(r"\b\d+(st|nd|rd|th)\b", t, re.I) for t in texts)
    assert any("sept." in t.lower() for t in texts)


def test_the_year_is_the_calendar_year_not_the_week_year():
    # 2024-12-30 is in ISO week 1 of 2025: Babel's `Y` would print 2025.
    date = dt.date(2024, 12, 30)
    for fmt in data.FORMATS:
        assert "2024" in fmt.render(date), fmt.name


@pytest.mark.parametrize(
    "name, date, expected",
    [
        ("ordinal_the_d_of_month_y", dt.date(1979, 5, 3), "the 3rd of May 1979"),
        ("ordinal_d_month_y", dt.date(2001, 9, 11), "11th September 2001"),
        ("ordinal_month_d_y", dt.date(2001, 9, 22), "September 22nd, 2001"),
        ("ordinal_fr_le_d", dt.date(1979, 5, 1), "le 1er mai 1979"),
        ("abbr_dotted_mon_d_y", dt.date(2001, 9, 14), "Sept. 14, 2001"),
        ("numeric_mdy_slash_us", dt.date(1979, 5, 23), "05/23/1979"),
        ("numeric_dmy_dot_de", dt.date(1979, 5, 3), "03.05.1979"),
        ("babel_full_de_DE", dt.date(1979, 5, 3), "Donnerstag, 3. Mai 1979"),
    ],
)
def test_renderings(name, date, expected):
    (fmt,) = [f for f in data.FORMATS if f.name == name]
    assert fmt.render(date) == expected


def test_slash_dates_are_never_ambiguous():
    for e in data.generate(4000, seed=5):
        fmt = next(f for f in data.FORMATS if f.name == e.format_name)
        if fmt.slash_ambiguous:
            date = dt.date.fromisoformat(e.iso)
            assert date.day > 12 or date.day == date.month


def test_splits_never_share_an_input_and_are_seeded():
    train, val, test = data.make_splits(3000, 300, 500, seed=1)
    keys = [{data.normalize(e.text) for e in split} for split in (train, val, test)]
    assert [len(k) for k in keys] == [3000, 300, 500]
    assert not (keys[0] & keys[1] or keys[0] & keys[2] or keys[1] & keys[2])
    again = data.make_splits(3000, 300, 500, seed=1)[2]
    assert [e.text for e in again] == [e.text for e in test]


def test_vocabularies():
    vocab = data.CharVocabulary.from_texts(["3 Mai 1979", "août"])
    ids = vocab.encode(["3 MAI 1979", "ñ" + "1" * 40])
    assert ids.shape == (2, data.TX)
    assert ids[0, :10].tolist() == [vocab.index[c] for c in "3 mai 1979"]
    assert ids[0, 10:].tolist() == [0] * 20
    assert ids[1, 0] == 1  # unknown character
    assert vocab.unknown("ñandú 3") == ["d", "n", "ñ", "ú"]
    assert data.CharVocabulary.from_json(vocab.to_json()).tokens == vocab.tokens
    iso = data.IsoVocabulary()
    encoded = iso.encode(["1979-05-03"])
    assert iso.decode(np.concatenate([encoded, [[2]]], 1)) == ["1979-05-03"]
    assert data.is_calendar_date("2000-02-29") and not data.is_calendar_date(
        "1900-02-29"
    )
