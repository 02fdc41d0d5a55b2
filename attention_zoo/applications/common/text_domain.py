"""Whether a text resembles the texts a model was trained on.

A translator trained on Bible verses, given "Can I have a cup of coffee,
please?", answers in confident Spanish with English words left in it: the
decoder's own probabilities hardly move (flagging by the search's score
caught few modern sentences: docs/design.md). What moves is how
surprising the words and their order are next to the training texts.
`TextDomain` keeps a word bigram language model of the training texts
(absolute discounting, Ney et al. 1994, d = 0.75, the rest of each
history's mass to an add-0.1 unigram model) and the set of words they
hold; a text is in the domain when its mean surprisal per word
(`surprisal`) and its share of words never seen in training, names left
out (`unseen_share`), are both at most the `QUANTILE` quantile of the
validation texts'. The translator and the summarizer use it.

Those two tests let through what is plain English in any domain: "I left
my umbrella on the bus." reads unsurprising to a model of package
descriptions, whose words and orders cover everyday English well
(the summarizer flagged only about half of the modern sentences:
docs/design.md). A
domain may therefore keep a `background`: the bigram model of other
English text (the other text application's shipped preset: the Bible for
package descriptions, package descriptions for the Bible). `contrast` is
the log-likelihood ratio of the background against the domain, summed
over the words (Moore and Lewis 2010 select in-domain text by the same
difference, per word); a text is in the domain only when it is at most
the validation texts' `contrast_quantile` quantile, that is, when its
words hold enough evidence for the domain. A sum and not a mean: a
long text carries more evidence than a short one, and a five-word text
can hardly hold enough ("Jesus wept." is refused by a translator of
verses; it may be a verse, or a message).

The run keeps it as `domain.json`: words, counts, thresholds and the
background's words and counts, read as data.
"""

from __future__ import annotations

import collections
import json
import math
from pathlib import Path

import numpy as np

from attention_zoo.applications.common.errors import MalformedFileError
from attention_zoo.applications.common.text import cased_tokens, tokenize

DOMAIN_FILE = "domain.json"
# The share of validation texts each threshold leaves out.
QUANTILE = 0.998
DISCOUNT = 0.75
UNIGRAM_SMOOTHING = 0.1
# Bigrams seen once are left to the unigram model: half the file, and
# hardly a change in the surprisal of a text.
MIN_BIGRAM_COUNT = 2
# Tokens never hold a space: no text can write these markers.
START, END = " <s>", " </s>"


def is_capitalized(word: str) -> bool:
    """Whether `word` starts with an upper-case letter."""
    return word[:1] != word[:1].lower()


def inner_steps(words: list[str]) -> range:
    """The transitions (`k` predicts `words[k]`, `len(words)` the end) a
    text's figures count: all of them for a single word, without the first
    and the last from two words on. Those two weigh most in a short text,
    which then read as surprising for its length alone (a model of long
    texts found "forty-two" more surprising than any of its validation
    numbers, "seven hundred and fifty-one thousand...")."""
    return range(1, len(words)) if len(words) >= 2 else range(len(words) + 1)


class TextDomain:
    """A word bigram model of the training sources, and its thresholds.

    Args:
        words: the words of the training sources; `START` and `END` first.
        counts: how often each word occurs (`END`: once per text; `START`:
            the number of texts).
        bigrams: `(i, j, count)` of the word pairs kept, `START` and `END`
            included.
        max_surprisal: the mean surprisal per word (nats) a text may have.
        max_unseen_share: the share of its words that may be unseen.
        background: a `TextDomain` of other text to contrast with, or None
            (its own thresholds are not used).
        max_contrast: the largest `contrast` (nats) a text may have.
    """

    def __init__(
        self,
        words,
        counts,
        bigrams,
        max_surprisal,
        max_unseen_share,
        background=None,
        max_contrast=math.inf,
    ):
        self.words = list(words)
        self.index = {w: i for i, w in enumerate(self.words)}
        self.counts = np.asarray(counts, "float64")
        self.bigrams = {(int(i), int(j)): int(c) for i, j, c in bigrams}
        self.max_surprisal = float(max_surprisal)
        self.max_unseen_share = float(max_unseen_share)
        self.background = background
        self.max_contrast = float(max_contrast)
        # A history's count: how often the word is followed at all (START:
        # once per text; END never); `kept` is the mass its kept bigrams
        # take after discounting, the rest goes to the unigram model.
        self.histories = self.counts.copy()
        self.histories[1] = 0.0
        kept = np.zeros(len(self.words))
        for (i, _), c in self.bigrams.items():
            kept[i] += c - DISCOUNT
        self.kept = kept
        self.tokens = float(self.counts[1:].sum())  # START is no prediction

    @classmethod
    def fit(
        cls, train_texts, validation_texts, background=None, contrast_quantile=QUANTILE
    ) -> TextDomain:
        """The domain of `train_texts`, thresholds chosen on `validation_texts`
        (the training texts when there are none); `background` (a
        `TextDomain` or None) is contrasted with at `contrast_quantile`."""
        if not 0.0 < contrast_quantile <= 1.0:
            raise ValueError(
                "`contrast_quantile` must be in (0, 1]. Received: "
                f"contrast_quantile={contrast_quantile!r}"
            )
        counts = collections.Counter()
        pairs = collections.Counter()
        texts = 0
        for text in train_texts:
            words = tokenize(text)
            if not words:
                continue
            texts += 1
            counts.update(words)
            sequence = [START, *words, END]
            pairs.update(zip(sequence, sequence[1:]))
        if not texts:
            raise ValueError("no training text to describe the domain with")
        words = [START, END, *sorted(counts, key=lambda w: (-counts[w], w))]
        index = {w: i for i, w in enumerate(words)}
        totals = [texts, texts, *(counts[w] for w in words[2:])]
        kept = sorted(
            (index[a], index[b], c)
            for (a, b), c in pairs.items()
            if c >= MIN_BIGRAM_COUNT
        )
        if background is not None:
            # Only its model: a background's own background is not ours.
            background = cls(
                background.words, background.counts, background.bigram_rows(), 0, 0
            )
        domain = cls(words, totals, kept, math.inf, 1.0, background)
        held_out = [t for t in validation_texts if tokenize(t)] or list(train_texts)
        surprisals = [domain.surprisal(t) for t in held_out]
        shares = [domain.unseen_share(t) for t in held_out]
        domain.max_surprisal = float(np.quantile(surprisals, QUANTILE))
        domain.max_unseen_share = float(np.quantile(shares, QUANTILE))
        if background is not None:
            contrasts = [domain.contrast(t) for t in held_out]
            domain.max_contrast = float(np.quantile(contrasts, contrast_quantile))
        return domain

    def _unigram(self, j: int) -> float:
        count = self.counts[j] if j >= 0 else 0.0
        size = len(self.words) + 1  # an unseen word is one more type
        return (count + UNIGRAM_SMOOTHING) / (self.tokens + UNIGRAM_SMOOTHING * size)

    def log_probs(self, words: list[str]) -> list[float]:
        """log p of each transition of `START words END` (nats)."""
        ids = [0, *(self.index.get(w, -1) for w in words), 1]
        logs = []
        for i, j in zip(ids, ids[1:]):
            p = self._unigram(j)
            history = self.histories[i] if i >= 0 else 0.0
            if history > 0:
                seen = self.bigrams.get((i, j), 0)
                backoff = (history - self.kept[i]) / history
                p = max(seen - DISCOUNT, 0.0) / history + backoff * p
            logs.append(math.log(p))
        return logs

    def surprisal(self, text: str) -> float:
        """The mean -log p of the `inner_steps` of `text` (nats a word)."""
        words = tokenize(text)
        logs = self.log_probs(words)
        steps = inner_steps(words)
        return -sum(logs[k] for k in steps) / len(steps)

    def contrast(self, text: str) -> float:
        """log p(background) - log p(domain) of `text`, summed over its
        `inner_steps` but those into names (nats; -inf without a
        background). Names are copied whatever the domain: "Parshandatha,
        Dalphon, Aspatha" is no evidence against verses, nor for them."""
        if self.background is None:
            return -math.inf
        words = tokenize(text)
        names = [is_capitalized(c) for c in cased_tokens(text)]
        here, there = self.log_probs(words), self.background.log_probs(words)
        return sum(
            there[k] - here[k]
            for k in inner_steps(words)
            if k == len(words) or not names[k]
        )

    def unseen_share(self, text: str) -> float:
        """The share of the words of `text` the training sources never hold,
        names left out.

        A name (a word written with a capital) is copied across by the
        translator whether it saw it or not: the test verses of Esther name
        Hathach and Mehuman, which no training verse does, and are no less
        verses for it. A text's first word counts as a name too when
        capitalised ("Naomi said to Ruth"): on the shipped translator's
        test verses that kept slightly more verses valid and flagged the
        same modern sentences (docs/benchmarks.md).
        """
        words = tokenize(text)
        if not words:
            return 0.0
        cased = cased_tokens(text)
        unseen = sum(
            w not in self.index and not is_capitalized(c) for w, c in zip(words, cased)
        )
        return unseen / len(words)

    def in_domain(self, text: str) -> bool:
        """Whether `text` is in the domain: the Python half of
        `text_domain_graph.GraphDomain.in_domain`, which the SavedModels
        run (tests/applications/common/test_text_domain.py checks the two)."""
        return self.reason(text) == ""

    def reason(self, text: str) -> str:
        """Why `text` is not in the domain ("" when it is)."""
        share = self.unseen_share(text)
        if share > self.max_unseen_share:
            return (
                f"{100 * share:.0f} % of its words never occur in the training "
                f"texts (at most {100 * self.max_unseen_share:.0f} % in those it "
                "was validated on): not a text like the training texts"
            )
        surprisal = self.surprisal(text)
        if surprisal > self.max_surprisal:
            return (
                f"its words and their order are unlike the training texts "
                f"(surprisal {surprisal:.2f} > {self.max_surprisal:.2f} nats a word)"
            )
        contrast = self.contrast(text)
        if contrast > self.max_contrast:
            return (
                "its words hold too little evidence of the training texts "
                f"against other text ({-contrast:.1f} < {-self.max_contrast:.1f} "
                "nats; a short text seldom holds enough)"
            )
        return ""

    def bigram_rows(self) -> list[list[int]]:
        """The kept bigrams as `[i, j, count]` rows."""
        return [[i, j, c] for (i, j), c in sorted(self.bigrams.items())]

    def save(self, path) -> None:
        content = {
            "words": self.words,
            "counts": [int(c) for c in self.counts],
            "bigrams": self.bigram_rows(),
            "max_surprisal": self.max_surprisal,
            "max_unseen_share": self.max_unseen_share,
            "discount": DISCOUNT,
            "quantile": QUANTILE,
        }
        if self.background is not None:
            content["background"] = {
                "words": self.background.words,
                "counts": [int(c) for c in self.background.counts],
                "bigrams": self.background.bigram_rows(),
            }
            content["max_contrast"] = self.max_contrast
        Path(path).write_text(
            json.dumps(content, ensure_ascii=False, separators=(",", ":")),
            encoding="utf-8",
        )

    @classmethod
    def load(cls, path) -> TextDomain:
        """The domain of `path`, refused naming the file unless it holds
        words, counts as many, bigrams within them and finite thresholds
        (and so does its background, when it has one)."""
        try:
            content = json.loads(Path(path).read_text(encoding="utf-8"))
            thresholds = [content["max_surprisal"], content["max_unseen_share"]]
            background = content.get("background")
            if background is not None:
                thresholds.append(content["max_contrast"])
            ok = (
                _model_ok(content)
                and (background is None or _model_ok(background))
                and all(
                    type(t) in (int, float) and math.isfinite(t) for t in thresholds
                )
                and min(thresholds[:2]) >= 0
            )
        except (ValueError, TypeError, KeyError, AttributeError, IndexError):
            ok = False
        if not ok:
            raise MalformedFileError(
                f"{path} is not the text domain of this run (it needs words, "
                "their counts, bigrams of them and finite thresholds); train "
                "the run again or restore the file"
            )
        if background is not None:
            background = cls(
                background["words"], background["counts"], background["bigrams"], 0, 0
            )
        return cls(
            content["words"],
            content["counts"],
            content["bigrams"],
            *thresholds[:2],
            background,
            *thresholds[2:],
        )

    @classmethod
    def fit_for(cls, config, train_texts, validation_texts, auto="none") -> TextDomain:
        """`fit` with the background and quantile of a text application's
        `config` (`contrast_with`: a shipped preset's domain, "none", or
        "auto", which is `auto`)."""
        name = auto if config.contrast_with == "auto" else config.contrast_with
        background = None
        if name != "none":
            from attention_zoo.presets import preset_folder

            background = cls.load(preset_folder(name) / DOMAIN_FILE)
        return cls.fit(
            train_texts, validation_texts, background, config.contrast_quantile
        )


def _model_ok(content) -> bool:
    """Whether `content` holds words (`START`, `END` first), as many
    positive counts and bigrams within the words."""
    words, counts, bigrams = content["words"], content["counts"], content["bigrams"]
    return (
        isinstance(words, list)
        and all(isinstance(w, str) for w in words)
        and words[:2] == [START, END]
        and len(set(words)) == len(words)
        and isinstance(counts, list)
        and len(counts) == len(words)
        and all(type(c) is int and c > 0 for c in counts)
        and isinstance(bigrams, list)
        and all(
            isinstance(b, list)
            and len(b) == 3
            and all(type(x) is int for x in b)
            and 0 <= b[0] < len(words)
            and 0 <= b[1] < len(words)
            and b[2] > 0
            for b in bigrams
        )
    )
