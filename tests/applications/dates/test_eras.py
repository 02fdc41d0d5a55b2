"""The era rule: a date before the common era, or with a negative year, is
refused with the reason, by the predictor and the SavedModel's graph alike
(the graph: test_pass_parity.py, which reads the cases here)."""

import pytest

from attention_zoo.applications.dates import data
from attention_zoo.applications.dates.eras import era_disagreement
from tests.applications.dates.hand_written import read_real_dates

BEFORE_THE_ERA = [
    "3 May 1979 BC",
    "3 May 1979 B.C.",
    "3 May 1979 BCE",
    "3 May 1979 B.C.E.",
    "May 3, 1979 before Christ",
    "3 mai 1979 av. J.-C.",
    "3 mai 1979 avant Jésus-Christ",
    "3. Mai 1979 v. Chr.",
    "3. Mai 1979 v.u.Z.",
    "3 de mayo de 1979 a. C.",
    "3 maggio 1979 a.C.",
    "3 de maio de 1979 a.C.",
    "3 mei 1979 v.Chr.",
    "3 maja 1979 p.n.e.",
    "3. května 1979 př. n. l.",
    "3 maj 1979 f.Kr.",
    "3. toukokuuta 1979 eKr.",
    "3 Mayıs 1979 MÖ",
    "i. e. 1979. május 3.",
    "3 mai 1979 î.Hr.",
    "3 Mei 1979 SM",
    "ngày 3 tháng 5 năm 1979 TCN",
    "3 мая 1979 г. до н. э.",
    "3 травня 1979 р. до н. е.",
    "3 Μαΐου 1979 π.Χ.",
    "公元前1979年5月3日",
    "紀元前1979年5月3日",
    "기원전 1979년 5월 3일",
    "3 مايو 1979 ق.م",
    "3 मई 1979 ईसा-पूर्व",
    "3 במאי 1979 לפנה״ס",
    "BC, 3 May 1979",
]
NEGATIVE = ["3 May -1979", "3 May −1979", "-1979-05-03", "3 mai -1979"]
OF_THE_ERA = [
    "3 May 1979",
    "3 May 1979 AD",
    "3 maj 1979 e.Kr.",  # Swedish: of the common era
    "03-05-1979",
    "1979-05-03",
    "3-May-1979",
    "3 - 5 - 1979",
    "abc 1979",
    "",
]


@pytest.mark.parametrize("text", BEFORE_THE_ERA)
def test_a_date_before_the_common_era_is_named(text):
    assert "before the common era" in era_disagreement(data.normalize(text))


@pytest.mark.parametrize("text", NEGATIVE)
def test_a_negative_year_is_named(text):
    assert "negative year" in era_disagreement(data.normalize(text))


@pytest.mark.parametrize("text", OF_THE_ERA)
def test_dates_of_the_era_are_not_refused(text):
    assert era_disagreement(data.normalize(text)) == ""


def test_no_generated_or_hand_written_date_is_refused():
    for example in data.generate(3000, seed=12):
        assert not era_disagreement(data.normalize(example.text)), example
    for _iso, language, text in read_real_dates():
        assert not era_disagreement(data.normalize(text)), (language, text)


@pytest.fixture(scope="module")
def normalizer():
    from attention_zoo.applications.dates.predictor import Normalizer

    return Normalizer.from_preset("dates_multilingual")


def test_the_shipped_normalizer_refuses_them_with_the_reason(normalizer):
    items = normalizer(["3 May 1979 BC", "3 May 1979 B.C.", "3 May -1979"])
    for item in items:
        assert item["valid"] is False, item
    assert "before the common era" in items[0]["reason"]
    assert "before the common era" in items[1]["reason"]
    assert "negative year" in items[2]["reason"]
    # The same date of the common era stays valid.
    (item,) = normalizer(["3 May 1979"])
    assert (item["text"], item["valid"]) == ("1979-05-03", True)
