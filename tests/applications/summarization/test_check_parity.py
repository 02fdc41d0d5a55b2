"""Every summarization check, Python half against graph half, one by one
and as the whole list (`checks.CHECKS`), on the rules' own cases,
generated text and hostile input. A new entry of `CHECKS` is covered here
without a line of its own."""

import random

import pytest

from attention_zoo.applications.summarization import checks
from attention_zoo.applications.summarization.checks import CHECKS
from tests.applications.summarization.test_address_rule import KEPT, REFUSED

# The training descriptions' words, for the made-up word rule.
DOMAIN = {"suite", "of", "the", ".", "-"}
# Bytes and words a careless or hostile caller sends: NUL, invalid and
# truncated UTF-8, control characters, white space Python and RE2 read
# differently, direction marks, very long text, nothing.
HOSTILE_TEXTS = [
    b"",
    b"\x00",
    b"https://example.org/a\x00 www.example.org",
    b"\x01\x02\x1b[31m http://x.y/ \x7f",
    b"\xe2\x80\x8fhttps://example.org/a \xe2\x80\x8ewww.example.org\xe2\x80\xae",
    b"\xe2\x80\x8f \xe2\x80\x8e \xe2\x81\xa6word\xe2\x81\xa9",
    b"\xff\xfe http://\xff \xe2\x82",
    b"word " * 20_000 + b"https://example.org/a",
    b"https://example.org/a " * 20_000 + b"word",
]
HOSTILE_WORDS = [
    [],
    [""],
    ["", "", ""],
    ["a\x00b", "a\x00c", "a\x00d"],
    ["\x00", "\x00", "\x00"],
    ["\x01", "\x1b", "\x7f", "suite"],
    ["\u200fsuite", "\u200esuite", "\u202esuite"],
    ["suite\u200f", "suite\u200f", "suite\u200f"],
    ["x" * 5_000, "x" * 5_000],
    ["suite", "of"] * 30,
    ["the"] * 60,
]


def _address_cases(n, seed):
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


def _summary_cases(n, seed):
    """(summary words, text words), with repeats in a row."""
    rng = random.Random(seed)
    vocabulary = ["suite", "of", "the", "Suite", ".", "-", "x", "ÉTÉ", "été", "3"]
    cases = []
    for _ in range(n):
        words = [rng.choice(vocabulary) for _ in range(rng.randint(0, 9))]
        if words and rng.random() < 0.4:  # a repeat in a row
            start = rng.randrange(len(words))
            gram = words[start : start + rng.randint(1, 4)]
            words[start:start] = gram * rng.randint(1, 3)
        text = [rng.choice(vocabulary).lower() for _ in range(rng.randint(0, 4))]
        cases.append((words[:20], text))
    return cases


def _cases():
    """(text bytes, summary words, text words): every check reads its
    part of each case."""
    texts = [t.encode() for t in REFUSED + KEPT] + _address_cases(600, seed=2)
    texts += HOSTILE_TEXTS
    summaries = _summary_cases(600, seed=1)
    summaries += [(["Suite", "of", "suite", "of"], []), (["x"], ["x"]), ([], [])]
    summaries += [(w, w[:3]) for w in HOSTILE_WORDS] + [(w, []) for w in HOSTILE_WORDS]
    cases = [(t, [], []) for t in texts]
    cases += [(" ".join(t).encode(), w, t) for w, t in summaries]
    # Both at once: hostile text with a hostile summary.
    cases += [(t, w, []) for t in HOSTILE_TEXTS for w in HOSTILE_WORDS]
    return cases


CASES = _cases()


def _python(check, with_domain):
    domain = DOMAIN if with_domain else None
    return [
        check.python(t.decode("utf-8", "replace"), w, set(tw), domain)
        for t, w, tw in CASES
    ]


def _graph_inputs(with_domain):
    import tensorflow as tf

    from attention_zoo.export.text import valid_utf8

    words = tf.ragged.constant([w for _, w, _ in CASES], dtype=tf.string)
    text_words = tf.ragged.constant([tw for _, _, tw in CASES], dtype=tf.string)
    keys = tf.constant(sorted(DOMAIN))
    table = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(keys, tf.ones_like(keys, tf.int64)), 0
    )
    return (
        valid_utf8(tf.constant([t for t, _, _ in CASES])),
        words.to_tensor(""),
        words.row_lengths(),
        text_words.to_tensor(""),
        text_words.row_lengths(),
        (lambda w: table.lookup(w) > 0) if with_domain else None,
    )


@pytest.mark.parametrize("check", CHECKS, ids=[c.name for c in CHECKS])
def test_every_check_has_both_halves(check):
    assert callable(check.python), f"{check.name}: no Python half"
    assert callable(check.graph), f"{check.name}: no graph half"
    assert check.reads in ("text", "summary")


@pytest.mark.tf_only
@pytest.mark.parametrize("with_domain", [True, False], ids=["domain", "no_domain"])
@pytest.mark.parametrize("check", CHECKS, ids=[c.name for c in CHECKS])
def test_the_graph_half_judges_as_the_python_half(check, with_domain):
    expected = [not reason for reason in _python(check, with_domain)]
    got = check.graph(*_graph_inputs(with_domain)).numpy().tolist()
    wrong = [
        (CASES[i][0][:80], CASES[i][1][:6])
        for i in range(len(CASES))
        if got[i] != expected[i]
    ]
    assert not wrong, f"{check.name}: graph and Python disagree on {wrong[:5]}"
    # Both answers occur often: a half that always passes cannot hide.
    assert 100 < sum(expected) < len(expected) - 100


@pytest.mark.tf_only
@pytest.mark.parametrize("with_domain", [True, False], ids=["domain", "no_domain"])
def test_the_whole_list_judges_alike(with_domain):
    domain = DOMAIN if with_domain else None
    expected = []
    for t, w, tw in CASES:
        facts = (t.decode("utf-8", "replace"), w, set(tw), domain)
        reasons = [checks.python_reason(reads, *facts) for reads in ("text", "summary")]
        expected.append(not any(reasons))
    got = checks.graph_valid(*_graph_inputs(with_domain)).numpy().tolist()
    assert got == expected


def test_the_predictor_reports_the_checks_in_the_list_order():
    # A text mostly of addresses whose summary also repeats itself: the
    # text's check speaks first, as before the list.
    text = "https://a.example/x https://b.example/y"
    reasons = [c.python(text, ["a", "a", "a"], set(), None) for c in CHECKS]
    assert all(reasons)
    assert (
        checks.python_reason("text", text, ["a", "a", "a"], set(), None) == reasons[0]
    )
    assert (
        checks.python_reason("summary", "plain words", ["a"] * 3, set(), None)
        == (reasons[1])
    )
