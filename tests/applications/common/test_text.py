"""The word tokenizer's spacing: one pass of `str.translate` puts spaces
around punctuation as the regular expression of the exported graph does."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from attention_zoo.applications.common.text import (
    PUNCTUATION,
    PUNCTUATION_CLASS,
    cased_tokens,
    spaced,
    tokenize,
)

CHARACTERS = st.one_of(
    st.sampled_from(PUNCTUATION + " \t\n\r\x0b\x0caZé9İ"), st.characters()
)


def regex_rule(text: str) -> str:
    """The rule as `attention_zoo.export` spells it, in Python's `re`."""
    punctuation = re.sub(f"({PUNCTUATION_CLASS})", r" \1 ", text)
    return re.sub(r"[ \t\n\r\f\v]+", " ", punctuation).strip(" \t\n\r\f\v")


@settings(max_examples=300, deadline=None)
@given(st.text(CHARACTERS, max_size=40))
def test_spacing_is_the_graphs_rule_on_any_text(text):
    assert spaced(text) == regex_rule(text)
    assert tokenize(text) == (
        regex_rule(text.lower()).split(" ") if regex_rule(text.lower()) else []
    )
    assert len(cased_tokens(text)) == len(tokenize(text))


def test_spacing_by_hand():
    assert spaced("  Hello,world!(x)¿y?  ") == "Hello , world ! ( x ) ¿ y ?"
    assert tokenize("Don't—stop…") == ["don", "'", "t", "—", "stop", "…"]
    assert tokenize(" \t\n") == []
