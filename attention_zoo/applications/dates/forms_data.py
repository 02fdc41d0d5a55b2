"""The training data of a forms run (`--target forms`): texts and the form each is read into.

A run of the forms target learns to write a form of `forms.py` (`date
1979-05-03`, `shift day -1`, `weekday +1 FRI`), not an ISO date: the
resolver does the calendar arithmetic against the caller's reference. Its
data mixes two sources, `EXPRESSION_SHARE` of each split's size the
expressions, the rest absolute days (non-dates on top):

- today's absolute days (`data.make_splits`, non-dates included), their
  ISO date written as the form `date YYYY-MM-DD` (a non-date is `""`, the
  `<invalid>` answer; an impossible day keeps its form, `date 2001-04-31`,
  which the form parser refuses);
- the generated time expressions of `time_expressions.pairs`, every kind in
  every language of the run. Their texts are split once, by a seeded
  shuffle within each language and kind, into a training, a validation and
  a test pool (`HELD_OUT`, `split_texts`: only texts whose pattern keeps
  another text in training are held out), so no test text was trained
  on; each split then draws a language uniformly, a kind with a weight of
  the square root of its pool (so a language's few years are not lost
  among its hundreds of relative expressions), then a pair of it.
  Training first takes its pool in rounds (`draw`: a text drawn by
  chance alone is never trained on when its kind's pool is large, as
  English "yesterday" was in no split of the first forms run), one text
  of every template before a second of any, and a template of fewer
  than `TEMPLATE_DRAWS` texts (a word: "yesterday") again until it has
  been taken that many times, then draws the rest with replacement;
  validation and test draw without.

The non-dates of `data.make_splits` that are time expressions here (its
`time` and `partial_date` kinds: "5pm", "March 2015", which the
absolute-day target refuses) are left out (`CONFLICTING`), bar the
durations (a number of days or minutes), which name no point in time; so
are its four-digit numbers alone ("1987": a year here) and ranges of years.

Every example keeps the reference its pair was generated at and the value
`resolver.resolve(form, reference)` must give there (`value`), which the
evaluation checks besides the form.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import math
import random
import re
from collections import defaultdict
from pathlib import Path

import numpy as np

from attention_zoo.applications.dates import data, time_expressions
from attention_zoo.applications.dates.expression_pairs import REFERENCE
from attention_zoo.applications.dates.formats import LOCALES

TY_FORMS = 40  # longest form written, in characters (the longest generated is 39)
EXPRESSION_SHARE = 0.5
# The share of each language's and kind's expression texts held out for
# validation and for test.
HELD_OUT = {"validation": 0.05, "test": 0.1}
# How many times training takes every template at least: "in # days" is
# taught as many times as it has numbers, and a word that is the one text
# of its template ("yesterday", "avant-hier", "noon") was taught once an
# epoch, and came and went between runs of the same recipe.
TEMPLATE_DRAWS = 3
ABSOLUTE = "absolute"  # the kind of today's absolute days
# The non-date kinds of `negatives.py` that hold time expressions of this
# target; a duration among them stays a non-date (`_DURATION`).
CONFLICTING = ("non_date_time", "non_date_partial_date")
# The durations `negatives.NegativeGenerator._time` writes.
_DURATION = re.compile(r"\d+ (?:minutes|days|weeks|months|years|jours|tage)\b")
# A range of years among the labelled numbers ("1990-1995", "1914 to 1918"):
# an interval of years here (`expr_spans`).
_YEAR_RANGE = re.compile(r"^\d{4} ?(?:-|\u2013|/|to) ?\d{4}$")
# A number of four digits alone ("1987", "* 1948" once marked up): a year
# here (`year 1987`, `expr_days.partial`), whatever the number drawn meant.
_YEAR = re.compile(r"^\W*[1-9]\d{3}\W*$")


@dataclasses.dataclass
class FormExample:
    """A text, its form (`""`: not a date), and the value at `reference`."""

    text: str
    form: str
    language: str
    kind: str  # a kind of time_expressions.KINDS, "absolute" or "non_date"
    reference: str
    value: str

    @property
    def is_date(self) -> bool:
        return self.form != ""

    # The names `evaluation` and `data` read of an `Example`.
    @property
    def family(self) -> str:
        return self.kind

    @property
    def format_name(self) -> str:
        return self.kind


class FormVocabulary(data.IsoVocabulary):
    """Output tokens of a forms run: `<pad>`=0, `<start>`=1, `<end>`=2, the
    printable ASCII characters a form is written in, then `<invalid>`."""

    chars = "".join(chr(c) for c in range(32, 127))
    tokens = [data.PAD, data.START, data.END, *chars, data.INVALID]
    invalid_id = len(tokens) - 1
    index = {c: i for i, c in enumerate(tokens)}
    length = TY_FORMS

    def encode(self, forms) -> np.ndarray:
        """int32 `(N, TY_FORMS)`; `""` is `<invalid>` then padding."""
        out = np.full((len(forms), self.length), self.pad_id, "int32")
        for row, form in enumerate(forms):
            ids = [self.index[c] for c in form] if form else [self.invalid_id]
            out[row, : len(ids)] = ids
        return out


def from_absolute(example: data.Example) -> FormExample:
    """A generated absolute day (or non-date) as a forms example."""
    form = f"date {example.iso}" if example.iso else ""
    kind = ABSOLUTE if example.is_date else data.NON_DATE
    return FormExample(
        example.text, form, example.language, kind, REFERENCE.isoformat(), example.iso
    )


def split_pools(languages, seed: int, max_length: int) -> dict:
    """`{split: {(language, kind): [FormExample]}}`, texts disjoint across
    splits (`benchmarks/forms_threshold.py` reads the validation pool)."""
    pools = {split: defaultdict(list) for split in ("train", *HELD_OUT)}
    for language in languages:
        groups = defaultdict(dict)
        for pair in time_expressions.pairs(language):
            key = data.normalize(pair.text)
            if not key or len(key) > max_length or len(pair.form) > TY_FORMS:
                continue
            example = FormExample(
                pair.text, pair.form, language, pair.kind, pair.reference, pair.value
            )
            groups[pair.kind].setdefault(key, []).append(example)
        for kind, by_text in sorted(groups.items()):
            split_texts(by_text, pools, (language, kind), f"{seed}/{language}/{kind}")
    return pools


def template(text: str) -> str:
    """`text` with each run of digits as `#`: "in 3 days" and "in 5 days" are one."""
    return re.sub(r"\d+", "#", text)


def split_texts(by_text: dict, pools: dict, key, seed: str) -> None:
    """Deal the texts of `by_text` (normalized text: its examples) into
    `pools[split][key]`, `HELD_OUT` of them to validation and test: only a
    text whose template (`template`) keeps another text in training, so a
    held-out text asks the model to read a new number in a pattern it was
    taught, never a word it never saw ("yesterday" is always trained)."""
    texts = sorted(by_text)
    random.Random(seed).shuffle(texts)
    trained = collections.Counter(template(text) for text in texts)
    left = list(texts)
    for split, share in HELD_OUT.items():
        n = round(share * len(texts)) or int(len(texts) >= 5)
        for text in [t for t in left if trained[template(t)] >= 2][:n]:
            trained[template(text)] -= 1
            left.remove(text)
            pools[split][key] += by_text[text]
    for text in left:
        pools["train"][key] += by_text[text]


def conflicting(example: data.Example) -> bool:
    """Whether a non-date of `data.make_splits` is a time expression of this
    target (`CONFLICTING`): "5pm" and "March 2015", not a number of days;
    a year alone ("1987") and a range of years ("1990-1995")."""
    text = data.normalize(example.text)
    if _YEAR.match(text):
        return True
    if example.format_name == "non_date_labelled_number":
        return bool(_YEAR_RANGE.match(text))
    return example.format_name in CONFLICTING and not _DURATION.search(text)


def draw(
    pool: dict, n: int, rng: random.Random, replace: bool, per_template: int = 1
) -> list[FormExample]:
    """`n` examples of `pool` (fewer when it runs out without `replace`): a
    language uniformly, a kind by the square root of its size, one of its
    pairs. With `replace`, the pool is taken in rounds first, in a seeded
    order: the k-th round takes the k-th text of every template of a
    language (`template`) that has one, and, while k < `per_template`,
    a template of fewer texts its texts again in turn; every round before
    the next. So when `n` is smaller than the takings, what is left out is
    more numbers of a pattern ("in 7 days"), never the one text of a word
    ("yesterday", which a shuffle alone left out of forms29); a word is
    taken `per_template` times, where "in # days" is taken once per number
    (a word taught once an epoch came and went between runs). The draws
    past the takings are by language and kind, with replacement."""
    if per_template < 1:
        raise ValueError(f"per_template must be at least 1, got {per_template!r}")
    out = []
    if replace:
        every = [e for key in sorted(pool) for e in pool[key]]
        rng.shuffle(every)
        texts = defaultdict(list)  # template: indices into every, shuffled order
        for i, e in enumerate(every):
            texts[(e.language, template(e.text))].append(i)
        # (k, i): the k-th taking of its template is every[i]; a stable sort
        # on k keeps the shuffled order within each round.
        takings = [
            (k, indices[k % len(indices)])
            for indices in texts.values()
            for k in range(max(len(indices), per_template))
        ]
        takings.sort()
        out = [every[i] for _, i in takings[:n]]
    left = {key: list(examples) for key, examples in pool.items() if examples}
    while len(out) < n and left:
        language = rng.choice(sorted({language for language, _ in left}))
        kinds = sorted(key for key in left if key[0] == language)
        key = rng.choices(kinds, [math.sqrt(len(left[k])) for k in kinds])[0]
        examples = left[key]
        i = rng.randrange(len(examples))
        out.append(examples[i] if replace else examples.pop(i))
        if not examples:
            del left[key]
    return out


def make_splits(
    n_train: int,
    n_val: int,
    n_test: int,
    *,
    seed: int = 0,
    negatives: float = 0.0,
    max_length: int = data.TX,
    languages=None,
):
    """Train, validation and test lists of `FormExample`, `EXPRESSION_SHARE`
    of each a time expression, the rest today's absolute days and
    non-dates (`data.make_splits`, `negatives` per day); no normalized text
    is in two of them. `languages`: those of `formats.LOCALES` to draw from
    (default all; `"any"`, the all-numeric days, is ignored here)."""
    chosen = [lang for lang in (languages or LOCALES) if lang in LOCALES]
    share = EXPRESSION_SHARE
    sizes = [(n, n - round(share * n)) for n in (n_train, n_val, n_test)]
    absolute = data.make_splits(
        *(max(days, 1) for _, days in sizes),
        seed=seed,
        negatives=negatives,
        max_length=max_length,
        languages=languages,
    )
    pools = split_pools(chosen, seed, max_length)
    rng = random.Random(seed + 10)  # data.make_splits draws with seed to seed + 4
    out = []
    for (n, days), split, taken in zip(
        sizes, ("train", "validation", "test"), absolute
    ):
        out.append(
            [from_absolute(e) for e in taken if not conflicting(e)]
            + draw(
                pools[split],
                n - days,
                rng,
                replace=split == "train",
                per_template=TEMPLATE_DRAWS,
            )
        )
    held = {data.normalize(e.text) for e in out[1] + out[2]}
    out[0] = [e for e in out[0] if data.normalize(e.text) not in held]
    random.Random(seed + 11).shuffle(out[0])
    return tuple(out)


def save_examples(path: Path, examples) -> None:
    path.write_text(
        json.dumps([dataclasses.asdict(e) for e in examples], ensure_ascii=False),
        encoding="utf-8",
    )


def load_examples(path: Path) -> list[FormExample]:
    return [
        FormExample(**e) for e in json.loads(Path(path).read_text(encoding="utf-8"))
    ]
