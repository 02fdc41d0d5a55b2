"""Relative expressions from CLDR (expressions.py): every kind of every language, each a form."""

import re

import babel
import pytest

from attention_zoo.applications.dates import expressions
from attention_zoo.applications.dates.form_parser import parse_form
from attention_zoo.applications.dates.formats import LOCALES
from attention_zoo.applications.dates.resolver import resolve

pytestmark = pytest.mark.backend_free

FIELDS = expressions.UNITS + expressions.WEEKDAY_FIELDS


def _cldr_kinds(language):
    """The kinds CLDR has data for in `language`, read from Babel here, not from the generator."""
    fields = babel.Locale.parse(LOCALES[language])._data["date_fields"]
    kinds = set()
    for field in FIELDS:
        data = fields.get(field, {})
        week = fields.get("week", {}).get("relative", {})
        for offset, text in data.get("relative", {}).items():
            group = "weekday" if field in expressions.WEEKDAY_FIELDS else field
            if group == "weekday" and offset in (-1, 1) and offset in week:
                # "next Friday" is read; "volgende week vrijdag" (next
                # week's Friday) is not.
                if week[offset].casefold() not in text.casefold():
                    kinds.add(f"{field} relative {offset}")
            elif (group, offset) not in expressions.LEFT_OUT:
                kinds.add(f"{field} relative {offset}")
        kinds.update(f"{field} {d}" for d in ("future", "past") if data.get(d))
        if field in expressions.UNITS:  # "3 hr. ago": a width's counted texts
            for width in ("short", "narrow"):
                abbreviated = fields.get(f"{field}-{width}", {})
                kinds.update(
                    f"{field} {d} {width}"
                    for d in ("future", "past")
                    if abbreviated.get(d)
                )
    return kinds


@pytest.fixture(scope="module")
def every_language():
    return {
        language: expressions.relative_expressions(language) for language in LOCALES
    }


def test_the_27_languages(every_language):
    assert len(every_language) == 27


@pytest.mark.parametrize("language", list(LOCALES))
def test_every_language_yields_every_kind_it_has_cldr_data_for(
    every_language, language
):
    got = {e.kind for e in every_language[language]}
    want = _cldr_kinds(language)
    # A kind is missing only where each of its texts means two things (Hindi).
    ambiguous_kinds = want - got
    unclear = expressions.ambiguous(language)
    for kind in ambiguous_kinds:
        if kind.endswith((" short", " narrow")):
            continue  # a width left out ("-{0} h", "za {0} g."): expressions._widths
        field, _, offset = kind.split(" ")
        text = babel.Locale.parse(LOCALES[language])._data["date_fields"][field][
            "relative"
        ][int(offset)]
        assert text.casefold() in unclear, kind
    assert got <= want
    assert {
        "day relative -1",
        "day relative 0",
        "day past",
        "day future",
        "week past",
        "year future",
    } <= want


def test_every_form_is_in_the_grammar_and_resolves(every_language):
    for pairs in every_language.values():
        for expression in pairs:
            assert str(parse_form(expression.form)) == expression.form
            answer = resolve(expression.form, "2026-01-15T09:17:42")
            assert answer.valid, (expression, answer.reason)


def test_one_text_one_form_in_a_language(every_language):
    for pairs in every_language.values():
        meant = {}
        for expression in pairs:
            assert (
                meant.setdefault(expression.text.casefold(), expression.form)
                == expression.form
            ), expression


def test_a_text_with_two_meanings_is_left_out():
    # Hindi कल is yesterday and tomorrow, परसों the day before and after.
    unclear = expressions.ambiguous("hi")
    assert unclear["कल"] == {"shift day -1", "shift day +1"}
    assert unclear["परसों"] == {"shift day -2", "shift day +2"}
    assert not {e.text for e in expressions.relative_expressions("hi")} & {"कल", "परसों"}


@pytest.mark.parametrize(
    ("language", "text", "form"),
    [
        ("es", "ayer", "shift day -1"),
        ("es", "pasado mañana", "shift day +2"),
        ("es", "hace 3 días", "shift day -3"),
        ("es", "el mes pasado", "cycle month -1"),
        ("de", "vor 2 Wochen", "shift week -2"),
        ("fr", "dans 3 heures", "shift hour +3"),
        ("ru", "вчера", "shift day -1"),
        ("zh", "明天", "shift day +1"),
        ("en", "this Friday", "weekday 0 FRI"),
        ("en", "in 2 Fridays", "weekday +2 FRI"),
        ("en", "now", "shift second 0"),
        ("en", "next Friday", "weekday +1 FRI"),
        ("fr", "vendredi dernier", "weekday -1 FRI"),
        ("de", "vor zwei Wochen", "shift week -2"),
        ("es", "dentro de 7 días", "shift day +7"),
        # counts in words beyond num2words' families (`SPELLED_ELSEWHERE`)
        ("ru", "три дня назад", "shift day -3"),
        ("ru", "через пять минут", "shift minute +5"),
        ("uk", "три дні тому", "shift day -3"),
        ("pl", "za trzy dni", "shift day +3"),
        ("sv", "för två veckor sedan", "shift week -2"),
        ("nb", "om to uker", "shift week +2"),
        ("tr", "üç gün önce", "shift day -3"),
        ("id", "dua hari yang lalu", "shift day -2"),
        ("hu", "három nap múlva", "shift day +3"),
        ("ro", "acum trei zile", "shift day -3"),
        ("vi", "ba ngày trước", "shift day -3"),
    ],
)
def test_known_pairs(every_language, language, text, form):
    assert {e.form for e in every_language[language] if e.text == text} == {form}


@pytest.mark.parametrize(
    ("language", "left_out"),
    [
        ("ru", r"^(через )?(два|две) "),  # two agrees with the unit
        ("uk", r"^(через )?(два|дві) "),
        ("ro", r"^(peste |acum )?(doi|două) "),  # doi ani, două zile
        ("hu", r"^(kettő|két|hét) "),  # két before a noun; hét is also the week
        ("vi", r"^(sau )?năm (giây|phút|giờ|ngày|tuần|tháng|năm)"),  # năm: the year
        ("cs", r"\b(dva|tři|čtyři|pět|šest|sedm|osm|devět|deset)\b"),  # a case
        ("fi", r"\b(kaksi|kolme|neljä|viisi|kuusi|seitsemän|kahdeksan|yhdeksän|kymmenen)\b"),
    ],
)
def test_no_count_in_words_where_it_would_be_misspelled_or_misread(
    every_language, language, left_out
):
    texts = [e.text for e in every_language[language] if e.form.startswith("shift ")]
    assert not [t for t in texts if re.search(left_out, t)]
    if language not in ("cs", "fi"):  # the other counts are written in words
        assert [t for t in texts if not re.search(r"\d", t) and " " in t]


@pytest.mark.parametrize(
    ("language", "text"),
    [("zh", "下周五"), ("ja", "来週の金曜日"), ("nl", "volgende week vrijdag")],
)
def test_the_friday_of_next_week_is_left_out(every_language, language, text):
    assert text not in {e.text for e in every_language[language]}


def test_a_language_it_does_not_read_is_named():
    with pytest.raises(ValueError, match="Received: language='xx'"):
        expressions.relative_expressions("xx")


def test_the_units_abbreviations_are_written_with_and_without_their_dots(
    every_language,
):
    english = {e.text: e.form for e in every_language["en"]}
    assert english["3 hr. ago"] == english["3 hr ago"] == "shift hour -3"
    assert english["in 5 min"] == "shift minute +5"
    german = {e.text: e.form for e in every_language["de"]}
    assert german["vor 5 Std."] == "shift hour -5"


def test_no_abbreviation_of_a_sign_or_of_one_letter_is_written(every_language):
    texts = {e.text for language in ("fr", "pl", "en") for e in every_language[language]}
    assert "-3 h" not in texts  # French narrow: a number's sign
    assert "za 3 g." not in texts and "za 3 g" not in texts  # it reads 'zaterdag'
    assert "3h ago" not in texts
