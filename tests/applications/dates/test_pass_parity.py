"""Every date pass and check, Python half against graph half, one by one
and as the whole list, on generated dates in every language, the
hand-written files and hostile input. A new entry of `passes.PASSES` or
`checks.CHECKS` is covered here without a line of its own."""

import random

import pytest

from attention_zoo.applications.dates import checks, data, lexicon, passes
from attention_zoo.applications.dates.checks import CHECKS, READINGS_PARTS
from attention_zoo.applications.dates.passes import PASSES
from attention_zoo.applications.dates.readings import numeric_readings
from tests.applications.dates.hand_written import (
    read_guard_families,
    read_non_dates,
    read_real_dates,
)
from tests.applications.dates.test_eras import BEFORE_THE_ERA, NEGATIVE, OF_THE_ERA
from tests.hostile_bytes import NASTY

# Odd but valid text: direction marks, invisible and wide characters,
# other scripts' digits mixed, stand-ins the passes use, very long input.
HOSTILE = [
    "",
    " ",
    "\t\n\r\x0b\x0c",
    "\u200f3 May 1979\u200e",
    "\u202e1979 yaM 3\u202c",
    "\ufeff23/09/1987",
    "3\u200b May\u200d 1979",
    "3\u3000May\u30001979",
    "3\x85May\u2028 1979\u2029",
    "３ May １９７９",
    "１９８７ー０９ー２３",
    "١9८7-0٩-2३",
    "23 Ⅸ 1987",
    "3 Ma\u0301y 1979",
    "İSTANBUL, 3 Mayıs 1979",
    "ǅ ﬃ ẞ Σ ς",
    "🗓️ 3 May 1979 🎉",
    "十十十年十十月十十日",
    "平成元年元年, 令和99年, 平成100年",
    "星期七 周日 礼拜天",
    "\ue001\ue002\ue003 一",
    "11\tXI\t1918",
    "11 XI\n1918",
    "x" * 41 + ": 3 may",
    "label:\t3 may",
    "1" * 5000,
    "3 May 1979 " * 400,
    "a, " * 300 + "3 mai 1979",
    "-" * 100 + "1",
    "::: ,,, ... ///",
]
# Hand-picked inputs of the passes, kept from the tests they replace.
PASS_CASES = [
    "٢٣ سبتمبر ١٩٨٧",
    "۲۳/۰۹/۱۳۶۶",
    "२३ सितंबर १९८७",
    "１９８７年９月２３日",
    "0123456789",
    "٠١٢٣٤٥٦٧٨٩ ०१२३४५६७८९ ０１２３４５６７８９",
    "x\x00٩",
    "平成七年\x00一月",
    "11 XI\x00 1918 ; 5 V 1987",
    "n\x00te: 3 may",
    "二〇一九年十二月三十一日",
    "一九八七年九月二十三日（星期三）",
    "两周前, 兩點, 二十两, 星期二两",
    "غدًا, بعدَ ثلاثةِ أيّامٍ, مــايو, \u0670\u064b",
    "十月十日 周一, 二十日, 三十, 十",
    "星期\ue001 一",
    "星期一\ue001 二〇",
    "星期一\ue001",
    "\ue001",
    "3 May 1979",
    "平成七年一月十七日",
    "x\n令和元年5月1日 昭和60年",
    "大正15年, 平成123年",
    "11 XI 1918 r.",
    "1987. IX. 23. ; 1 I 2001 2 I 2002",
    "Louis XIV 1643, 3 X 4, 23 ix 1987, 2023-X-5",
    "Data de nascimento: 23/09/1987",
    "発行日：二〇一九年十二月三十一日",
    "Date : 3 May 2020",
    "Дата: 3 мая",
    "Time:  12:30",
    "https://example.com/ : x",
    "a\u2028b: 3 may",
    # text_spellings
    "2015年3月3号, 二〇一〇年十二月三十一號, 号3",
    "2021年3月25日に",
    "2021年3月25日までに",
    "2021年3月25日に x",
    "3 Marzec 2015, 12-Mär-2014, 3 למרץ 2015, 22. mär. 2016",
    "3 maaliskuu, 3 marzecx, 3 fév, aoû 3, 3 март",
    "2013 . 08 . 20",
    "2013 . 08 . 20 x",
    "20 / 08 - 2013",
    # drop_untaught_words
    "київ, 24 серпня 1991 р.",
    "kyoto, 1987年9月23日",
    "new york city, 11.09.2001",
    "tuesday, 11 september 2001",
    "rua simões, 7",
    "vicolo fiamma, 15 (archived)",
    "canale rolando, 136 appartamento 72",
    "уторак, 4. септембар 2040.",
    "paris, le 3 mai 1979",
    ", 3 mai 1979",
    "x" * 41 + ", 3 mai 1979",
    "x" * 40 + ", 3 mai 1979",
    "a\u2028b, 3 mai 1979",
]
# What the model reads of some of them (both halves).
KNOWN_VIEWS = {
    "٢٣ سبتمبر ١٩٨٧": "23 سبتمبر 1987",
    "۲۳/۰۹/۱۳۶۶": "23/09/1366",
    "२३ सितंबर १९८७": "23 सितंबर 1987",
    "１９８７年９月２３日": "1987年9月23日",
    "київ, 24 серпня 1991 р.": "24 серпня 1991 р.",
    "kyoto, 1987年9月23日": "1987年9月23日",
    "new york city, 11.09.2001": "11.09.2001",
    "2015年3月3号, 二〇一〇年十二月三十一號, 号3": "2015年3月3日, 2010年12月31日, 号3",
    "2021年3月25日までに": "2021年3月25日",
    "3 Marzec 2015, 12-Mär-2014, 3 למרץ 2015, 22. mär. 2016": (
        "3 marca 2015, 12-märz-2014, 3 במרץ 2015, 22. märz. 2016"
    ),
    "3 maaliskuu, 3 marzecx, 3 fév, aoû 3, 3 март": (
        "3 maaliskuuta, 3 marzecx, 3 févr, aoû 3, 3 март"
    ),
    "2013 . 08 . 20": "2013.08.20",
}


def _generated() -> list[str]:
    """Dates and non-dates from the generator, every language and family."""
    texts = [e.text for e in data.generate(600, seed=2)]
    texts += [e.text for e in data.generate(200, seed=5, languages=["zh", "ja"])]
    texts += [e.text for e in data.generate(300, seed=13)]
    other = ["pl", "cs", "hu", "ro", "ar", "hi", "he", "ru", "uk", "el", "ko", "vi"]
    texts += [e.text for e in data.generate(300, seed=7, languages=other)]
    return texts + [e.text for e in data.generate_negatives(300, seed=11)]


@pytest.fixture(scope="module")
def raw_texts() -> list[bytes]:
    """Every input of the pass tests, as the SavedModel receives it."""
    texts = PASS_CASES + HOSTILE + _generated()
    texts += [text for _, _, text in read_real_dates()] + read_non_dates()
    texts += BEFORE_THE_ERA + NEGATIVE + OF_THE_ERA
    return [t.encode("utf-8") for t in texts] + NASTY


@pytest.fixture(scope="module")
def words():
    return lexicon.load(), lexicon.load_days()


@pytest.fixture(scope="module")
def table(words):
    pytest.importorskip("tensorflow")
    from attention_zoo.applications.dates.graph_rules import word_table

    return word_table(*words)


def _read(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def _strings(tensor) -> list[str]:
    return [s.decode("utf-8") for s in tensor.numpy()]


def test_every_pass_has_two_halves_under_its_name():
    assert PASSES and passes.NORMALIZE + passes.LEXICON_PASSES == PASSES
    for p in PASSES:
        assert callable(p.python) and callable(p.graph), p.name
        assert p.python.__name__ == p.graph.__name__ == p.name, p
        assert p.graph.__module__.endswith(".graph_text"), p
    for c in CHECKS + READINGS_PARTS:
        assert callable(c.python) and callable(c.graph), c.name


@pytest.mark.tf_only
@pytest.mark.parametrize("index", range(len(PASSES)), ids=[p.name for p in PASSES])
def test_each_pass_rewrites_as_its_python_half(index, raw_texts, words, table):
    """Each pass on what the passes before it wrote (Python's), so that a
    difference is this pass's; and alone on the inputs it leaves as they
    are, so that a batch it has nothing to rewrite in is read too."""
    import tensorflow as tf

    lexicon_words, _ = words
    before = [
        passes.run_python(_read(raw), PASSES[:index], lexicon_words)
        for raw in raw_texts
    ]
    p = PASSES[index]
    expected = [passes.run_python(t, (p,), lexicon_words) for t in before]
    got = _strings(passes.run_graph(tf.constant(before), (p,), table))
    wrong = [(b, g, e) for b, g, e in zip(before, got, expected) if g != e]
    assert not wrong, wrong[:5]
    kept = [b for b, e in zip(before, expected) if b == e]
    assert _strings(passes.run_graph(tf.constant(kept), (p,), table)) == kept
    # The inputs hold something the pass rewrites: a new pass brings the
    # cases it rewrites (PASS_CASES).
    assert len(kept) < len(before), p.name


@pytest.mark.tf_only
def test_the_whole_list_reads_as_python(raw_texts, words, table):
    import tensorflow as tf

    lexicon_words, _ = words
    got = _strings(passes.run_graph(tf.constant(raw_texts), PASSES, table))
    expected = [
        passes.run_python(_read(raw), PASSES, lexicon_words) for raw in raw_texts
    ]
    wrong = [(r, g, e) for r, g, e in zip(raw_texts, got, expected) if g != e]
    assert not wrong, wrong[:5]
    for raw, view in KNOWN_VIEWS.items():
        assert expected[raw_texts.index(raw.encode())] == view
    empty = passes.run_graph(tf.constant([], tf.string), PASSES, table)
    assert empty.shape == (0,)


def _numeric_texts(n, seed):
    """All-numeric strings of every shape the rule reads, and near misses."""
    rng = random.Random(seed)
    texts = [
        "03/04/05",
        "23.09.87",
        "23/09/87",
        "03.04.2005",
        "1987-09-23",
        "19870923",
        "230987",
        "05052005",
        "31/02/2001",
        "3.14159",
        "87-09-23",
        "1987.09.23.",
        "1987. 9. 23.",
        '"10/04/1994"',
        "(23/09/1987).",
        "[1]",
        "(1987)",
        "-12-",
        ". 23.09.1987 .",
        "23. 9. 1987",
        "3. 4. 2005",
        "3. 4.2005",
        "23 09 1987",
        "23/09-1987",
        "2024-02-29",
        "29/02/2023",
        "1-1-1",
        "12/13/2099",
        "13/12/1899",
        "00/00/0000",
        "1990-1995",
        "4-5",
        "",
    ]
    for _ in range(n):
        if rng.random() < 0.5:  # anything
            digits = [str(rng.randint(0, 10 ** rng.randint(1, 4))) for _ in range(3)]
        else:  # a day, a month and a year in some order
            year = str(rng.randint(1890, 2110))
            digits = [str(rng.randint(0, 32)), str(rng.randint(0, 13))]
            digits.insert(rng.choice([0, 2]), year[-rng.choice([2, 4]) :])
            if rng.random() < 0.2:
                rng.shuffle(digits)
        digits = [d.zfill(rng.choice([0, 2, 4])) for d in digits]
        separator = rng.choice(["-", "/", ".", " ", ""])
        texts.append(separator.join(digits) + rng.choice(["", "", "."]))
    return texts


YEAR_TEXTS = [
    "14 july 1789",
    "le 14 juillet 1989",
    "room 1234, 3 may 1979",
    "3 may 79",
    "19790503",
    "12345 1979",
    "1979-05-03",
    "the twenty-seventh of july 2095",
    "",
    # No four-digit year: its last two digits, pivoted, or none.
    "3 may",
    "3 may '79",
    "3 may 05",
    "3 may 5",
    "1 jan. 2005 12345",
    "平成7年1月17日",
    "030579",
]
MONTH_TEXTS = [
    "5. toukokuuta 1970",
    "3 mai 1979",
    "jeudi 3 mai 1979 (uk)",
    "jeudi 03/05/1979",
    "le 23/09/1987",
    "date: 23/09/1987 (uk)",
    "jeudi 23 1987",
    "mar., 3 mai 1979",
    "२३ सितंबर १९८७",
    "23 сентября 1987 г.",
    "1979-05-03",
    "",
    "1979年5月3日",
    "1979年05月3日星期四",
    "1979년 5월 3일",
    "ngày 3 tháng 5 năm 1979",
    "3 thg 5, 1979",
    "3 tháng 05, 1979",
    "1979年15月3日",
    "112月3日 1979",
    "1979年5月",
    "tháng 5 năm 1979",
    "ngày 23 tháng 9 năm 1987",
    "1987年9月23日",
    "1987年09月023日",
    "5 gegužės 1970",
    # The day rule: written in digits, in words, or not at all.
    "bulan september 1987",
    "september 1987",
    "may 1979 (uk)",
    "the twenty-third of september 1987",
    "the twenty-first of september 1987",
    "le vingt-trois septembre 1987",
    "le trois mai 1979",
    "le sept mai 1979",
    "3rd may 1979",
    "23 sept 1987",
    "dez de dezembro de 1987",
]
CALENDAR_ANSWERS = [
    "2000-02-29",
    "1900-02-29",
    "2024-02-29",
    "2023-02-29",
    "1987-09-23",
    "1987-09-31",
    "1987-13-01",
    "1987-00-10",
    "1987-01-00",
    "0000-01-01",
    "9999-12-31",
    "",
    "19-0-0-0-0",
    "1987-9-23",
    "1987-09-233",
    "abcd-ef-gh",
]
# The number and weekday rules (`grounding`): times, ranges, notes in
# brackets, compact dates among words, month markers, weekdays.
GROUNDING_TEXTS = [
    "8:25 a.m. dec. 12, 2014",
    "12 dec 2014 (8:25)",
    "3 may 1979 [12]",
    "[12] [3]",
    "(3) 4 may 1979",
    "3 may 1979 (",
    "3 may 1979 ) 12 (",
    "date 03051979",
    "19790503 mai",
    "1979年5月3日 10時",
    "1979년 5월 3일",
    "ngày 3 tháng 5 năm 1979",
    "3 - 5 mai 1979",
    "5 - 5 mai 1979",
    "5 mai 79",
    "5 mai 079",
    "5 mai 0079",
    "05 05 1979 05",
    "0 mai 1979",
    "thursday 3 may 1979",
    "wednesday 3 may 1979",
    "donnerstag, 3. mai 1979 dienstag",
    "jeudi 3 mai 1979",
    "木曜日 1979年5月3日",
    "星期四 1979年5月3日",
    "third tuesday of september 2014",
    "1" * 300 + " may 1979",
]
GROUNDING_ANSWERS = ["1979-05-03", "2014-12-12", "2014-12-25", "1979-05-05", ""]
GROUNDING_ANSWERS += ["2014-09-03", "2014-09-16", "1979-02-29", "0000-01-01", "x"]
# The order rule's (`day_order`): a day after a month and its year, or
# before a comma and a month, beside the places a day goes.
ORDER_TEXTS = [
    "june 1998 issue 4",
    "may 2015 chapter 7",
    "march 2015 at 5",
    "volume 3, march 2015",
    "vol. 12, no. 3, may 2019",
    "3 , mai 2015",
    "3，5月 2015",
    "3، مايو 2015",
    "june 1998 4 june",
    "3 may 2015",
    "may 3, 2015",
    "2015年5月3日",
    "1998. június 4.",
    "2015 m. gegužės 3 d.",
    "3. mai 2015, 4",
    "may 2015 3 may",
    "2015, 3 may",
    "4 june 1998, june 1998 4",
    "3 may at 10",
    "3 de mayo a las 10",
    "3 mai à 10, 3 mai",
    "στις 10 μαΐου 2015",
    "à 3/5/2015",
    "issue #4, may 2015",
    "at10 may 2015",
    "10.30 3 may 2015 kl 10",
    "3rd edition, may 2015",
    "3rd of may, 2015",
    "may 3 edition, 2015 may",
    "3 ed ,",
    "3 ed, may",
]
ORDER_ANSWERS = ["2015-05-03", "1998-06-04", "2015-05-07", "2015-03-05"]
ORDER_ANSWERS += ["2015-03-03", "2019-05-03", "", "x", "2015-5-03"]
# Words are runs of letters: `1979bc` writes `bc`; `bcd` is no marker.
ERA_EDGES = {"bcd 1979": True, "3 may 1979bc": False, "x-1979": True}
ERA_EDGES |= {"\x00-1": True, "1979 İÖ": False, "a\u2028bc": False}


def _check_cases():
    """`{check name: (raw inputs, answers, pairs of (raw input, answer),
    fewest of each outcome)}`: each check's own cases, kept from the tests
    this file replaces; every check reads the common inputs too."""
    numeric = _numeric_texts(3000, seed=1)
    numeric += [e.text for e in data.generate(600, seed=2)]
    numeric += ["3rd of may 1979", "mai 1979", "phone 555 1234"]
    numeric_pairs = [
        (t, a)
        for t in numeric
        for a in sorted(numeric_readings(data.normalize(t)) or ())
        + ["", "1987-09-23", "2005-04-03"]
    ]
    year = YEAR_TEXTS + [e.text for e in data.generate(300, seed=3)]
    year_answers = ["1989-07-14", "1979-05-03", "1789-07-14", "2095-07-27", ""]
    year_answers += ["2005-05-03", "1905-05-03", "1995-01-17", "1979-5-03"]
    month = MONTH_TEXTS + [e.text for e in data.generate(300, seed=4)]
    month += [
        e.text for e in data.generate(200, seed=6, languages=["zh", "ja", "ko", "vi"])
    ]
    month_answers = ["1979-05-03", "1979-03-05", "1987-09-23", "1987-07-23"]
    month_answers += ["1970-10-05", "", "1979-5-03", "1987-00-23", "1987-09-00"]
    month_answers += ["1987-09-21"]
    month_pairs = [(t, a) for t in month for a in month_answers]
    readings_pairs = month_pairs + [
        (t, a) for t in _numeric_texts(300, seed=5) for a in ["2005-04-03", ""]
    ]
    era = BEFORE_THE_ERA + NEGATIVE + OF_THE_ERA + list(ERA_EDGES)
    families = read_guard_families()
    grounding = [(t, a) for t in GROUNDING_TEXTS for a in GROUNDING_ANSWERS]
    grounding += [(t, a) for _, _, a, t in families]
    grounding += [(t, a) for t in HOSTILE for a in GROUNDING_ANSWERS]
    grounding += [(e.text, e.iso) for e in data.generate(300, seed=8)]
    return {
        "era": ([(t, "") for t in era], 10),
        "calendar_date": ([("", a) for a in CALENDAR_ANSWERS], 3),
        "numeric": (numeric_pairs, 500),
        "year": ([(t, a) for t in year for a in year_answers], 100),
        "month": (month_pairs, 100),
        "readings": (readings_pairs, 100),
        "numbers": (grounding, 50),
        "weekday": (grounding, 10),
        "order": ([(t, a) for t in ORDER_TEXTS + HOSTILE for a in ORDER_ANSWERS], 8),
    }


@pytest.fixture(scope="module")
def check_cases():
    return _check_cases()


@pytest.fixture(scope="module")
def common_pairs(raw_texts):
    """The pass tests' inputs, each with a few answers: its generated date,
    a wrong one, no date, and answers that are no date."""
    answers = ["", "1987-09-23", "1979-05-03", "1987-02-30", "1987-9-23", "x"]
    pairs = [(_read(raw), a) for raw in raw_texts for a in answers[:2]]
    pairs += [(e.text, e.iso) for e in data.generate(400, seed=17)]
    rng = random.Random(3)
    return pairs + [(_read(raw), rng.choice(answers)) for raw in raw_texts]


def _judge(check_list, pairs, words, table):
    """The Python and graph verdicts of every check of `check_list` (all
    must agree) on `pairs` of (raw input, answer)."""
    import tensorflow as tf

    lexicon_words, days = words
    normalized = [passes.normalize(t) for t, _ in pairs]
    viewed = [passes.view(t, lexicon_words) for t in normalized]
    answers = [a for _, a in pairs]
    texts = {"normalized": normalized, "view": viewed}
    expected = [
        all(c.python(texts[c.reads][i], a, lexicon_words, days) for c in check_list)
        for i, a in enumerate(answers)
    ]
    graph = {k: tf.constant(v) for k, v in texts.items()}
    got = tf.constant([True] * len(pairs))
    for c in check_list:
        got &= c.graph(graph[c.reads], tf.constant(answers), table)
    return expected, got.numpy().tolist()


@pytest.mark.tf_only
@pytest.mark.parametrize(
    "check", CHECKS + READINGS_PARTS, ids=[c.name for c in CHECKS + READINGS_PARTS]
)
def test_each_check_judges_as_its_python_half(
    check, check_cases, common_pairs, words, table
):
    own, fewest = check_cases.get(check.name, ([], 0))
    pairs = own + common_pairs
    # On the text it reads, and on the normalized text (the view's
    # passes aside), which its own cases were written as.
    for level in (check, check._replace(reads="normalized")):
        expected, got = _judge((level,), pairs, words, table)
        wrong = [(p, g, e) for p, g, e in zip(pairs, got, expected) if g != e]
        assert not wrong, wrong[:10]
    # Its own cases exercise both outcomes.
    mine = expected[: len(own)]
    assert sum(mine) >= fewest and len(mine) - sum(mine) >= fewest, check.name


@pytest.mark.tf_only
def test_the_checks_together_judge_as_python(check_cases, common_pairs, words, table):
    import tensorflow as tf

    pairs = common_pairs + check_cases["readings"][0]
    expected, got = _judge(CHECKS, pairs, words, table)
    assert got == expected
    assert sum(expected) > 300 and len(expected) - sum(expected) > 300
    # As the predictor and the SavedModel call them.
    lexicon_words, days = words
    normalized = [passes.normalize(t) for t, _ in pairs]
    viewed = [passes.view(t, lexicon_words) for t in normalized]
    answers = [a for _, a in pairs]
    python = [
        checks.python_valid(n, v, a, lexicon_words, days)
        for n, v, a in zip(normalized, viewed, answers)
    ]
    graph = checks.graph_valid(
        tf.constant(normalized), tf.constant(viewed), tf.constant(answers), table
    )
    assert python == expected == graph.numpy().tolist()


@pytest.mark.tf_only
def test_the_era_edges(words, table):
    import tensorflow as tf

    (era,) = [c for c in CHECKS if c.name == "era"]
    texts = [passes.normalize(t) for t in BEFORE_THE_ERA + NEGATIVE + OF_THE_ERA]
    texts += [passes.normalize(t) for t in ERA_EDGES]
    got = era.graph(tf.constant(texts), None, table).numpy().tolist()
    assert got[-len(ERA_EDGES) :] == list(ERA_EDGES.values())
    assert got.count(False) == len(BEFORE_THE_ERA) + len(NEGATIVE) + 3


@pytest.mark.tf_only
def test_the_numeric_cases_hold_ambiguous_dates():
    texts = [data.normalize(t) for t in _numeric_texts(3000, seed=1)]
    assert sum(len(numeric_readings(t) or ()) > 1 for t in texts) > 50
