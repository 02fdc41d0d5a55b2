"""A text that is mostly URLs, e-mail addresses or paths is no package
description: not valid (the graph half: test_check_parity.py)."""

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


def test_the_shipped_summarizer_refuses_a_list_of_urls(summarizer):
    (urls, description) = summarizer([URLS, DESCRIPTION])
    assert urls["valid"] is False
    assert "the text is mostly web addresses" in urls["reason"], urls["reason"]
    assert "not a description" in urls["reason"]
    assert "mostly web addresses" not in description["reason"]
