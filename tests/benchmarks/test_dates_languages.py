import pytest

from attention_zoo.applications.dates import data
from benchmarks.dates_languages import names_its_month, shares_its_month_word

TAUGHT = ["en", "de", "fr", "es", "it", "pt", "nl"]


def example(text, iso, language):
    return data.Example(text, iso, "test", language, "test")


@pytest.mark.parametrize(
    "text, iso, language, named, shared",
    [
        # Turkish "Mar" (March) and "May" are English's words for those months.
        ("13 Mar 2095", "2095-03-13", "tr", True, True),
        ("13 May 2095", "2095-05-13", "tr", True, True),
        ("13 Nisan 2095", "2095-04-13", "tr", True, False),
        ("5. toukokuuta 1970", "1970-05-05", "fi", True, False),
        # Spanish "marzo" is Italian's too.
        ("3 marzo 1999", "1999-03-03", "it", True, True),
        # The month in digits: no month word of the language.
        ("23.9.1987", "1987-09-23", "fi", False, False),
    ],
)
def test_a_month_word_a_taught_language_writes_for_that_month_is_shared(
    text, iso, language, named, shared
):
    e = example(text, iso, language)
    assert names_its_month(e) is named
    assert shares_its_month_word(e, TAUGHT) is shared
