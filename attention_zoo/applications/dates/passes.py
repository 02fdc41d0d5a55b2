"""The date normalization: one ordered list of named passes.

Each pass rewrites an input before the model reads it, and is a pair
under one name: a Python half (`text`, `text_words`: one string in, one
out), which the data, the lexicon and the predictors run, and a graph
half (`graph_text`, TensorFlow ops on `(B,)` strings), which the
SavedModel runs. Both sides iterate `PASSES`, so the order is written
here only; tests/applications/dates/test_pass_parity.py runs every pass
and the whole list on both sides. What a pass does is in its halves'
docstrings; why it sits where it does is beside its entry.

The passes that read the run's lexicon (`reads_lexicon`) come last:
`normalize` is the list without them, the text the era check reads
(`checks`) and the training data are made of; `view` runs the rest on
it: the whole list is what the model reads. Adding a pass: docs/dates.md
("Adding a date pass").
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import NamedTuple

from attention_zoo.applications.dates import (
    graph_text,
    text,
    text_spellings,
    text_words,
)


class Pass(NamedTuple):
    """One pass. `python(text) -> str` and `graph(texts) -> texts`, or,
    where `reads_lexicon`, `python(text, words)` (`lexicon.load`) and
    `graph(texts, table)` (`graph_rules.word_table`)."""

    name: str
    python: Callable
    graph: Callable
    reads_lexicon: bool = False


PASSES = (
    Pass("ascii_digits", text.ascii_digits, graph_text.ascii_digits),
    Pass("arabic_marks", text.arabic_marks, graph_text.arabic_marks),
    # Upper case only (`XI`, not `xi`): before lower_case.
    Pass("roman_months", text.roman_months, graph_text.roman_months),
    # 平成七年 becomes 平成7年 here, which japanese_era reads.
    Pass("cjk_numerals", text.cjk_numerals, graph_text.cjk_numerals),
    Pass("japanese_era", text.japanese_era, graph_text.japanese_era),
    Pass("lower_case", text.lower_case, graph_text.lower_case),
    # After roman_months, whose separators are spaces, not any whitespace.
    Pass("whitespace", text.whitespace, graph_text.whitespace),
    # The spellings of a day the model was not taught, as it was taught
    # (`text_spellings`): on the lower-cased, stripped text (`$` is its
    # end), after cjk_numerals (`三号` is `3号` there).
    Pass("cjk_day_marker", text_spellings.cjk_day_marker, graph_text.cjk_day_marker),
    Pass(
        "japanese_particle",
        text_spellings.japanese_particle,
        graph_text.japanese_particle,
    ),
    Pass("month_spellings", text_spellings.month_spellings, graph_text.month_spellings),
    Pass("numeric_spaces", text_spellings.numeric_spaces, graph_text.numeric_spaces),
    # Its labels are lower case, at the start of the stripped text.
    Pass("drop_label", text.drop_label, graph_text.drop_label),
    Pass(
        "drop_untaught_words",
        text_words.drop_untaught_words,
        graph_text.drop_untaught_words,
        reads_lexicon=True,
    ),
)
_SPLIT = next(i for i, p in enumerate(PASSES) if p.reads_lexicon)
# Without the run's lexicon (`normalize`) and with it (`view`).
NORMALIZE, LEXICON_PASSES = PASSES[:_SPLIT], PASSES[_SPLIT:]
assert all(p.reads_lexicon for p in LEXICON_PASSES), "lexicon passes come last"
assert len({p.name for p in PASSES}) == len(PASSES), "one name per pass"


def run_python(text: str, passes=PASSES, words=None) -> str:
    """`text` through the Python halves of `passes`, in order; `words`:
    the lexicon, for the passes that read it."""
    for p in passes:
        text = p.python(text, words) if p.reads_lexicon else p.python(text)
    return text


def run_graph(texts, passes=PASSES, table=None):
    """`texts` `(B,)` through the graph halves of `passes`, in order;
    `table`: the lexicon's word table, for the passes that read it."""
    for p in passes:
        texts = p.graph(texts, table) if p.reads_lexicon else p.graph(texts)
    return texts


def normalize(text: str) -> str:
    """The model's view of an input before its run's lexicon: digits of
    other scripts, Arabic's vowel marks dropped, Roman-numeral months, Chinese and Japanese numerals and
    era years read, lower case, single spaces, stripped, without a
    leading label it was not taught."""
    if isinstance(text, str):
        return _normalized(text)
    return run_python(text, NORMALIZE)  # not hashable: uncached, as before


# A text is normalized by the model's reading and again by each of the
# grounding's searches (`phrase_spans.normalized`, `FormText`): the passes
# are pure, so each text is run through them once.
@functools.lru_cache(maxsize=16384)
def _normalized(text: str) -> str:
    return run_python(text, NORMALIZE)


def view(normalized: str, words) -> str:
    """What a run reads of a `normalized` text: the passes that read its
    lexicon `words`."""
    return run_python(normalized, LEXICON_PASSES, words)
