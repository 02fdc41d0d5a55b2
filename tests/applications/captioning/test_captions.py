"""Caption normalisation, in Python and in a graph."""

import doctest

import pytest

from attention_zoo.applications.captioning import captions
from attention_zoo.applications.captioning.captions import (
    CAPTION_PUNCTUATION_CLASS,
    normalize_caption,
)


def test_module_docstring_examples():
    result = doctest.testmod(captions, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_normalize_caption():
    assert normalize_caption("  A child in a pink dress is climbing up stairs.\n") == (
        "a child in a pink dress is climbing up stairs ."
    )
    assert (
        normalize_caption("A man's T-shirt,   (red)!")
        == "a man ' s t - shirt , ( red ) !"
    )
    assert normalize_caption("\t") == ""
    # The word vocabulary's tokenizer finds the same words in a normalised
    # caption, so generated words and BLEU's references agree.
    from attention_zoo.applications.common.text import tokenize

    for caption in ("R&B on a 50% “sale” — ok…", "¿Qué? a+b=c <x> @home ~ |"):
        normalized = normalize_caption(caption)
        assert tokenize(normalized) == normalized.split(" ")


def test_normalize_caption_matches_the_graph():
    tf = pytest.importorskip("tensorflow")
    from attention_zoo.export import normalize_strings, split_punctuation

    texts = [
        "  A child in a pink dress is climbing up stairs.\n",
        "A man's T-shirt,   (red)!",
        'Two "dogs" play; one@home #1 50% [x]{y}~',
        "ÉLAN café",
        "R&B “live” — ¿ok?…",
    ]
    graph = normalize_strings(
        split_punctuation(tf.constant(texts), CAPTION_PUNCTUATION_CLASS)
    )
    assert [t.decode() for t in graph.numpy()] == [normalize_caption(t) for t in texts]
