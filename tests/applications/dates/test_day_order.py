"""The order rule (`day_order`): a day written after a month and its year,
or before a comma and a month, is no day; the places a day goes in the
languages' formats are kept."""

import pytest

from attention_zoo.applications.dates import data, lexicon, passes
from attention_zoo.applications.dates.day_order import order_disagreement
from tests.applications.dates.hand_written import read_real_dates

pytestmark = pytest.mark.backend_free

LEXICON = lexicon.load()


def _reason(text: str, answer: str) -> str:
    return order_disagreement(passes.view(data.normalize(text), LEXICON), answer, LEXICON)


@pytest.mark.parametrize(
    "text, answer, where",
    [
        ("June 1998 issue 4", "1998-06-04", "after a month and a year"),
        ("May 2015 chapter 7", "2015-05-07", "after a month and a year"),
        ("March 2015 at 5", "2015-03-05", "a time"),  # the hour rule first
        ("mayo de 2015, número 7", "2015-05-07", "after a month and a year"),
        ("März 2015 Heft 4", "2015-03-04", "after a month and a year"),
        ("volume 3, March 2015", "2015-03-03", "before a comma and a month"),
        ("Vol. 12, No. 3, May 2019", "2019-05-03", "before a comma and a month"),
        ("3rd edition, May 2015", "2015-05-03", "before a comma and a month"),
        ("vol. 3, marzo de 2015", "2015-03-03", "before a comma and a month"),
        ("3 May at 10", "2010-05-03", "a time"),
        ("12 March at 15", "2015-03-12", "a time"),
        ("3 de mayo a las 10", "2010-05-03", "a time"),
        ("3 mai à 10", "2010-05-03", "a time"),
        ("3 May 2003 at 3", "2003-05-03", "a time"),
    ],
)  # fmt: skip
def test_a_number_in_no_days_place_is_no_day(text, answer, where):
    assert where in _reason(text, answer)


@pytest.mark.parametrize(
    "text, answer",
    [
        ("May 3, 2015", "2015-05-03"),
        ("3 May 2015", "2015-05-03"),
        ("Sunday, May 3, 2015", "2015-05-03"),
        ("2015年5月3日", "2015-05-03"),
        ("2015년 5월 3일", "2015-05-03"),
        ("1998. június 4.", "1998-06-04"),
        ("2015 m. gegužės 3 d.", "2015-05-03"),
        ("2015, 3 May", "2015-05-03"),  # no month before the year
        ("the 3rd of May, 2015", "2015-05-03"),  # its month before the comma
        ("June 1998 – 4 June 1998", "1998-06-04"),  # one 4 in a day's place
        ("3/5/2015", "2015-05-03"),  # no month word
        ("June 1998 issue 4", "1998-06-12"),  # not its day: other rules'
        ("June 1998 issue 4", ""),
        ("στις 10 Μαΐου 2015", "2015-05-10"),  # a day before its month
        ("à 3/5/2015", "2015-05-03"),  # a numeric date, no hour
        ("de 1914 à 1918", "1914-01-01"),  # four digits, no hour
    ],
)  # fmt: skip
def test_the_places_a_day_goes_are_kept(text, answer):
    assert _reason(text, answer) == ""


def test_no_generated_or_hand_written_date_is_refused():
    pairs = [(e.text, e.iso) for e in data.generate(3000, seed=11) if e.iso]
    pairs += [(text, iso) for iso, _, text in read_real_dates()]
    refused = [(t, a) for t, a in pairs if _reason(t, a)]
    assert not refused, refused[:5]
    assert len(pairs) > 3000
