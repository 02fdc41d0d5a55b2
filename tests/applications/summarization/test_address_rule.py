"""A text that is mostly URLs, e-mail addresses or paths is no package
description: not valid, in Python and in the SavedModel's graph alike."""

import random

import pytest

from attention_zoo.applications.summarization.address_rule import (
    address_reason,
    address_share,
)

URLS = (
    "https://example.org/a https://example.org/b "
    "http://mirror.example.net/debian/ ftp://ftp.example.com/pub/"
)
DESCRIPTION = (
    "This package provides a small library to parse and write XML files, "
    "with bindings for Python. See https://libfoo.example.org/docs for "
    "the manual."
)
REFUSED = [
    URLS,
    "https://example.org",
    "www.example.org/download",
    "<jane@example.org>, john.doe@lists.example.com",
    "/usr/share/doc/foo ~/.config/foo ./configure",
    "- https://a.example/x\n- https://b.example/y\n- http://c.example/",
    "Mirrors: http://a.example/ http://b.example/ (http://c.example/).",
]
KEPT = [
    DESCRIPTION,
    "See https://example.org",  # one address in two words: not mostly
    "Contact the maintainer at jane@example.org or on IRC about bugs.",
    "Files go to /usr/share/foo and the configuration to /etc/foo.conf.",
    "This suite includes: suite of, suite of, suite of",
    "TCP/IP and/or UDP tools, 1/2 size",
    "- * | ... :// @",  # no word at all: the other rules decide
    "",
]


@pytest.mark.parametrize("text", REFUSED)
def test_a_text_mostly_of_addresses_is_refused(text):
    assert address_share(text) > 0.5
    assert address_reason(text).startswith(
        "the text is mostly web addresses, e-mail addresses or paths"
    )


@pytest.mark.parametrize("text", KEPT)
def test_a_description_mentioning_an_address_is_kept(text):
    assert address_reason(text) == ""


def test_the_reason_gives_the_share():
    assert "(100 % of its words)" in address_reason(URLS)
    assert "(75 % of its words)" in address_reason("list http://a.b c@d.org /e/f")


def _hostile_cases(n, seed):
    """Raw bytes mixing addresses, words and hostile bytes (invalid UTF-8,
    NUL, white space Python and RE2 read differently)."""
    rng = random.Random(seed)
    pieces = [
        b"https://example.org/a",
        b"ftp://x.y/",
        b"www.example.org",
        b"a@b.org",
        b"(c@d.museum).",
        b"/usr/bin",
        b"~/x",
        b"word",
        b"\xc3\xa9t\xc3\xa9",
        b"-",
        b"//",
        b"@",
        b"\xff\xfe",
        b"\xe2\x82",
        b"\x00",
        b"http://\xff",
        b"\xc2\xa0",
        b"\x0b",
        b"\x1c",
        b"\xe2\x80\x83",
    ]
    spaces = [b" ", b"\n", b"\t", b"  ", b"", b"\r\n", b"\x0c"]
    cases = []
    for _ in range(n):
        chunks = [rng.choice(pieces) for _ in range(rng.randint(0, 8))]
        cases.append(b"".join(c + rng.choice(spaces) for c in chunks))
    return cases


@pytest.mark.tf_only
def test_the_graph_judges_as_python():
    import tensorflow as tf

    from attention_zoo.applications.summarization.address_rule import (
        address_agreement,
    )
    from attention_zoo.export.text import valid_utf8

    cases = [t.encode() for t in REFUSED + KEPT] + _hostile_cases(600, seed=2)
    got = address_agreement(valid_utf8(tf.constant(cases))).numpy()
    expected = [not address_reason(t.decode("utf-8", "replace")) for t in cases]
    assert got.tolist() == expected
    assert 100 < sum(expected) < len(expected) - 100


def test_the_shipped_summarizer_refuses_a_list_of_urls(summarizer):
    (urls, description) = summarizer([URLS, DESCRIPTION])
    assert urls["valid"] is False
    assert "the text is mostly web addresses" in urls["reason"], urls["reason"]
    assert "not a description" in urls["reason"]
    assert "mostly web addresses" not in description["reason"]
