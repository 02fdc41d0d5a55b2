"""The validity checks of an answer: one list of named checks, each a
pair (Python, graph) under one name, as the text passes are (`passes`).

They are a list of their own because they rewrite nothing: each reads
an input and the model's answer and says whether the answer agrees with
the input. Both halves mean the same: True where it agrees. The Python
rules return the reason they refuse (`eras.era_disagreement`,
`readings.year_disagreement`, ...), which `Normalizer.reason` reports in
its own order; a Python half here is that reason being "". The predictor
(`Normalizer._scored`) and the SavedModel (`export.py`) iterate `CHECKS`
(`python_valid`, `graph_valid`); tests/applications/dates/test_pass_parity.py
runs every check and every part of `readings` on both sides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from attention_zoo.applications.dates import graph_rules
from attention_zoo.applications.dates.data import is_calendar_date
from attention_zoo.applications.dates.day_order import (
    order_agreement,
    order_disagreement,
)
from attention_zoo.applications.dates.eras import era_disagreement
from attention_zoo.applications.dates.grounding import (
    number_agreement,
    number_disagreement,
    weekday_agreement,
    weekday_disagreement,
)
from attention_zoo.applications.dates.lexicon import month_disagreement
from attention_zoo.applications.dates.readings import agrees, year_disagreement


class Check(NamedTuple):
    """One check. `python(text, answer, lexicon, days) -> bool` and
    `graph(texts, answers, table) -> bool (B,)`: True where the answer
    agrees. `reads`: "view", the text the model read (`passes.view`), or
    "normalized", the text before the passes that read the run's lexicon
    (`passes.normalize`)."""

    name: str
    python: Callable
    graph: Callable
    reads: str = "view"


def _numeric(text, answer, lexicon, days):
    return agrees(text, answer)


def _year(text, answer, lexicon, days):
    return not year_disagreement(text, answer)


def _month(text, answer, lexicon, days):
    return not month_disagreement(text, answer, lexicon, days)


# The three rules on the input's numbers and words. One check, as the
# graph parses the numeric candidates once for all three
# (`graph_rules.rules_agreement`): the SavedModel runs it on every call.
READINGS_PARTS = (
    Check("numeric", _numeric, lambda t, a, table: graph_rules.numeric_agreement(t, a)),
    Check("year", _year, lambda t, a, table: graph_rules.year_agreement(t, a)),
    Check("month", _month, graph_rules.month_agreement),
)

CHECKS = (
    # The words that drop_untaught_words drops can write the era
    # (`BC, 3 May 1979`).
    Check(
        "era",
        lambda t, a, lexicon, days: not era_disagreement(t),
        lambda t, a, table: graph_rules.era_agreement(t),
        reads="normalized",
    ),
    Check(
        "calendar_date",
        lambda t, a, lexicon, days: is_calendar_date(a),
        lambda t, a, table: graph_rules.calendar_dates(a),
    ),
    Check(
        "readings",
        lambda *args: all(part.python(*args) for part in READINGS_PARTS),
        graph_rules.rules_agreement,
    ),
    # A time, a range, a count of days or an ordinal weekday beside a date:
    # the model answered them with a confident day made of the wrong
    # numbers (`grounding`).
    Check(
        "numbers",
        lambda t, a, lexicon, days: not number_disagreement(t, a, lexicon),
        number_agreement,
    ),
    # A citation's issue or a time after a month and its year ("June 1998
    # issue 4"), read as the day (`day_order`).
    Check(
        "order",
        lambda t, a, lexicon, days: not order_disagreement(t, a, lexicon),
        order_agreement,
    ),
    Check(
        "weekday",
        lambda t, a, lexicon, days: not weekday_disagreement(t, a),
        lambda t, a, table: weekday_agreement(t, a),
    ),
)
assert len({c.name for c in CHECKS + READINGS_PARTS}) == len(CHECKS) + 3
assert {c.reads for c in CHECKS + READINGS_PARTS} <= {"view", "normalized"}


def python_valid(normalized: str, viewed: str, answer: str, lexicon, days) -> bool:
    """Whether every check agrees with `answer`, on the `normalized` text
    and the text the model read (`viewed`)."""
    texts = {"normalized": normalized, "view": viewed}
    return all(c.python(texts[c.reads], answer, lexicon, days) for c in CHECKS)


def graph_valid(normalized, viewed, answers, table):
    """bool `(B,)`: `python_valid` in the graph, `table` from
    `graph_rules.word_table`."""
    import tensorflow as tf

    texts = {"normalized": normalized, "view": viewed}
    agree = [c.graph(texts[c.reads], answers, table) for c in CHECKS]
    return tf.reduce_all(tf.stack(agree), axis=0)
