"""Readable translations: unknown words copied through, true case, spacing.

The model reads and writes lower-cased tokens (`common.text.tokenize`).
Three steps turn its output tokens into text a person reads, in this order,
in Python (`readable_tokens`, `detokenize`) and in the SavedModel graph
(`translation.export`) alike:

1. unknown-word replacement (Luong et al. 2015): each `<unk>` becomes the
   source token its step's attention weighs most (argmax over the source
   positions), as the source wrote it: names and numbers are copied through.
   A translator that masks placeholders limits how often each source
   token that holds one is copied (`readable_tokens`' `limits`,
   `masking.copy_limits`), so that no copy adds a placeholder;
2. truecasing: every other token takes its most frequent cased form where it
   does not start a sentence in the training targets (`Truecaser`), and a
   token that starts a sentence is capitalised;
3. detokenisation with Spanish spacing: no space before `. , ; : ! ? ) ] }
   » ” ’ …`, none after `¿ ¡ ( [ { « “ ‘`, none around `-` (as in
   "Hadad-ezer"). Straight quotes `"` keep their spaces, as whether one
   opens or closes is not a local rule.

A token starts a sentence when it is the first, when the token before it is
one of `SENTENCE_END`, or when the token before it is one of `OPENERS`
(`¿Qué`) that itself starts a sentence: one opener, as the graph checks it.
"""

from __future__ import annotations

import collections
import json
import re
from pathlib import Path

import numpy as np

from attention_zoo.applications.common.text import (
    END_ID,
    PAD_ID,
    START_ID,
    UNK,
    spaced,
)

SENTENCE_END = (".", "!", "?", "…")
OPENERS = ("¿", "¡", "(", "[", "{", "«", "“", "‘", '"')
# RE2 and Python `re` read these two patterns alike (`translation.export`
# runs them in the graph).
NO_SPACE_BEFORE = r" ([.,;:!?)\]}»”’…])"
NO_SPACE_AFTER = r"([¿¡(\[{«“‘]) "
AROUND_HYPHEN = r" ?- ?"


def cased_tokens(text: str) -> list[str]:
    """The tokens of `common.text.tokenize`, in the text's own case.

    Lower-casing adds no space or punctuation, so token `i` here is token
    `i` of `tokenize(text)`.
    """
    text = spaced(text)
    return text.split(" ") if text else []


def starts_sentence(tokens, i: int) -> bool:
    """Whether token `i` of `tokens` starts a sentence (module docstring)."""
    if i == 0 or tokens[i - 1] in SENTENCE_END:
        return True
    return tokens[i - 1] in OPENERS and (i == 1 or tokens[i - 2] in SENTENCE_END)


def capitalize(token: str) -> str:
    """`token` with its first character upper-cased, the rest as they are."""
    return token[:1].upper() + token[1:]


class Truecaser:
    """Each lower-cased word's most frequent cased form inside sentences.

    Args:
        forms: `{lower: cased}` for the words whose usual form is not their
            lower-cased one ("jesús": "Jesús"); any other word stays
            lower-case.
        capitalize_starts: whether a sentence's first word is capitalised
            (as in prose; not in data that never capitalises, such as
            number words).
    """

    def __init__(self, forms: dict[str, str], capitalize_starts: bool = True):
        self.forms = dict(forms)
        self.capitalize_starts = bool(capitalize_starts)

    @classmethod
    def learn(cls, texts) -> Truecaser:
        """Count the cased forms of the tokens of `texts` that start no sentence.

        A token after `:` is not counted either way (quoted speech starts
        there with a capital in the Reina-Valera, a list does not). Ties go
        to the lower-cased form, then to the alphabetically first.
        A word seen only at sentence starts stays lower-case. Sentence starts
        are capitalised when most of those of `texts` that begin with a
        letter are.
        """
        counts = collections.defaultdict(collections.Counter)
        starts = upper_starts = 0
        for text in texts:
            tokens = cased_tokens(text)
            for i, token in enumerate(tokens):
                if i and tokens[i - 1] == ":":
                    continue  # quoted speech may start here ("dijo: Haya luz")
                if not starts_sentence(tokens, i):
                    counts[token.lower()][token] += 1
                elif token[:1].isalpha():
                    starts += 1
                    upper_starts += token[:1].isupper()
        forms = {}
        for lower, seen in counts.items():
            best = min(seen, key=lambda form: (-seen[form], form != lower, form))
            if best != lower:
                forms[lower] = best
        return cls(forms, capitalize_starts=2 * upper_starts > starts)

    def case(self, token: str) -> str:
        return self.forms.get(token, token)

    def save(self, path) -> None:
        data = {"capitalize_starts": self.capitalize_starts, "forms": self.forms}
        Path(path).write_text(
            json.dumps(data, ensure_ascii=False, indent=0), encoding="utf-8"
        )

    @classmethod
    def load(cls, path) -> Truecaser:
        """The truecaser saved at `path`; with no file (a run trained before
        truecasing) one that only capitalises sentence starts."""
        path = Path(path)
        if not path.is_file():
            return cls({})
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(data["forms"], data["capitalize_starts"])


def readable_tokens(
    tokens,
    attention,
    source_tokens,
    truecaser: Truecaser | None,
    unk_replace: bool = True,
    truecase: bool = True,
    limits=None,
) -> list[str]:
    """Steps 1 and 2 of the module docstring on one translation.

    Args:
        tokens: the output tokens, lower-cased, `<unk>` for unknown words.
        attention: `(steps, source_length)` weights, one row per token.
        source_tokens: `cased_tokens` of the source.
        truecaser: the run's `Truecaser` (None: no truecasing).
        unk_replace: replace `<unk>` by the attended source token.
        truecase: apply `truecaser` and capitalise sentence starts.
        limits: per source token, how often an `<unk>` may become it (None:
            any number; default: every token any number); an `<unk>` with
            no token left to become is dropped.
    """
    out = []
    left = None if limits is None else list(limits)
    for step, token in enumerate(tokens):
        if token == UNK and unk_replace and len(source_tokens):
            weights = np.asarray(attention[step][: len(source_tokens)], "float64")
            if left is not None:
                spent = [n == 0 for n in left[: len(weights)]]
                weights = np.where(spent, -np.inf, weights)
                if np.isneginf(weights).all():
                    continue
            chosen = int(np.argmax(weights))
            if left is not None and left[chosen] is not None:
                left[chosen] -= 1
            out.append(source_tokens[chosen])
        elif truecase and truecaser is not None:
            out.append(truecaser.case(token))
        else:
            out.append(token)
    if truecase and (truecaser is None or truecaser.capitalize_starts):
        out = [
            capitalize(t) if starts_sentence(out, i) else t for i, t in enumerate(out)
        ]
    return out


def readable_text(tokens, attention, source_tokens, truecaser) -> str:
    """The three steps on one translation: `readable_tokens`, then
    `detokenize`. The Python half of `translation.export.readable_text`,
    the SavedModel's (tests/applications/translation/test_postprocess.py
    checks the two)."""
    return detokenize(readable_tokens(tokens, attention, source_tokens, truecaser))


def detokenize(tokens) -> str:
    """Step 3 of the module docstring: `tokens` joined with Spanish spacing."""
    text = " ".join(tokens)
    text = re.sub(NO_SPACE_BEFORE, r"\1", text)
    text = re.sub(NO_SPACE_AFTER, r"\1", text)
    return re.sub(AROUND_HYPHEN, "-", text)


def output_token(i: int, words, source_tokens) -> str:
    """The target word of id `i` (`words`: the target vocabulary's tokens);
    with copy attention an id past the vocabulary is the source word at
    that position, as written."""
    position = i - len(words)
    if position < 0:
        return words[i]
    return source_tokens[position] if position < len(source_tokens) else UNK


def output_steps(row) -> list[int]:
    """The decoding steps of an output's tokens (ids `row`): up to its
    `<end>` or padding, a `<start>` the search wrote skipped, so that it
    shifts no attention row."""
    steps = []
    for step, i in enumerate(row):
        if i in (PAD_ID, END_ID):
            break
        if i != START_ID:
            steps.append(step)
    return steps
