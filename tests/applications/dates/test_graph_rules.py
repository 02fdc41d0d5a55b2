"""The SavedModel's validity rules (TF ops) agree with the Python rules."""

import random

import pytest

from attention_zoo.applications.dates import data
from attention_zoo.applications.dates.readings import (
    agrees,
    numeric_readings,
    year_disagreement,
)

pytestmark = pytest.mark.tf_only


def test_in_graph_calendar_check_matches_python():
    import tensorflow as tf

    from attention_zoo.applications.dates.graph_rules import calendar_dates

    texts = [
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
    got = calendar_dates(tf.constant(texts)).numpy().tolist()
    assert got == [data.is_calendar_date(t) for t in texts]


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
        text = separator.join(digits) + rng.choice(["", "", "."])
        texts.append(text)
    return texts


def _graph_judges_as_python(graph_rule, python_rule, pairs, *tables) -> list[bool]:
    """Run `graph_rule(texts, answers, *tables)` on `pairs` of (normalized
    text, answer), assert it agrees with `python_rule(text, answer)` on
    every pair, and return the Python verdicts."""
    import tensorflow as tf

    got = graph_rule(
        tf.constant([t for t, _ in pairs]), tf.constant([a for _, a in pairs]), *tables
    ).numpy()
    expected = [python_rule(t, a) for t, a in pairs]
    wrong = [p for p, g, e in zip(pairs, got, expected) if g != e]
    assert not wrong, wrong[:10]
    return expected


def test_in_graph_numeric_rule_matches_python():

    from attention_zoo.applications.dates.graph_rules import numeric_agreement

    texts = _numeric_texts(3000, seed=1)
    texts += [e.text for e in data.generate(600, seed=2)]
    texts += ["3rd of may 1979", "mai 1979", "phone 555 1234"]
    texts = [data.normalize(t) for t in texts]
    pairs = []
    for text in texts:
        readings = sorted(numeric_readings(text) or ())
        for answer in readings + ["", "1987-09-23", "2005-04-03"]:
            pairs.append((text, answer))
    expected = _graph_judges_as_python(numeric_agreement, agrees, pairs)
    # The pairs exercise every outcome: agreement, ambiguity, no reading.
    assert sum(expected) > 500 and len(expected) - sum(expected) > 500
    assert sum(len(numeric_readings(t) or ()) > 1 for t in texts) > 50


def test_in_graph_year_rule_matches_python():

    from attention_zoo.applications.dates.graph_rules import year_agreement

    texts = [
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
    texts += [data.normalize(e.text) for e in data.generate(300, seed=3)]
    answers = ["1989-07-14", "1979-05-03", "1789-07-14", "2095-07-27", ""]
    answers += ["2005-05-03", "1905-05-03", "1995-01-17", "1979-5-03"]
    pairs = [(t, a) for t in texts for a in answers]
    expected = _graph_judges_as_python(
        year_agreement, lambda t, a: not year_disagreement(t, a), pairs
    )
    assert sum(expected) > 100 and len(expected) - sum(expected) > 100


def test_in_graph_month_rule_matches_python():

    from attention_zoo.applications.dates.graph_rules import (
        month_agreement,
        rules_agreement,
        word_table,
    )
    from attention_zoo.applications.dates.lexicon import (
        load,
        load_days,
        month_disagreement,
    )

    texts = [
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
    texts += [data.normalize(e.text) for e in data.generate(300, seed=4)]
    texts += [
        data.normalize(e.text)
        for e in data.generate(200, seed=6, languages=["zh", "ja", "ko", "vi"])
    ]
    answers = ["1979-05-03", "1979-03-05", "1987-09-23", "1987-07-23", "1970-10-05"]
    answers += ["", "1979-5-03", "1987-00-23", "1987-09-00", "1987-09-21"]
    pairs = [(t, a) for t in texts for a in answers]
    table = word_table(load(), load_days())
    expected = _graph_judges_as_python(
        month_agreement, lambda t, a: not month_disagreement(t, a), pairs, table
    )
    assert sum(expected) > 100 and len(expected) - sum(expected) > 100
    # The three rules at once, as the SavedModel runs them.
    pairs += [(t, a) for t in _numeric_texts(300, seed=5) for a in ["2005-04-03", ""]]
    expected = _graph_judges_as_python(
        rules_agreement,
        lambda t, a: (
            agrees(t, a)
            and not year_disagreement(t, a)
            and not month_disagreement(t, a)
        ),
        pairs,
        table,
    )
    assert sum(expected) > 100 and len(expected) - sum(expected) > 100
