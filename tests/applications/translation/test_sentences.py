"""Sentences translated one at a time (`translation.sentences`): where a
text is cut, and how the sentences' searches join into one answer."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_zoo.applications.common import text as tokenizer
from attention_zoo.applications.common.text import END_ID, PAD_ID
from attention_zoo.applications.translation import postprocess, sentences


def cut(text):
    """The sentences of `text`, as the translator reads them."""
    return [piece for piece, _, _ in sentences.split(text, 128)]


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "Could not open the file. Check the path.",
            ["Could not open the file .", "Check the path ."],
        ),
        (
            "Delete it? All files will be lost!",
            ["Delete it ?", "All files will be lost !"],
        ),
        ("Saved. Done", ["Saved. Done"]),  # one word before the mark
        ("It failed. see the log", ["It failed. see the log"]),  # lower case after
        ("Use a tool, e.g. Foo or Bar.", ["Use a tool, e.g. Foo or Bar."]),
        ("Ask Mr. Smith about it.", ["Ask Mr. Smith about it."]),
        ("Written by J. Doe and others.", ["Written by J. Doe and others."]),
        (
            "1. Open the file. 2. Save it now.",
            ["1 . Open the file .", "2 . Save it now ."],
        ),
        (
            'He said "stop here." Then he left.',
            ['He said " stop here . "', "Then he left ."],
        ),
        (
            'The file is gone. "Undo" may help.',
            ["The file is gone .", '" Undo " may help .'],
        ),
        (
            "It is done (see above.) Now close it.",
            ["It is done ( see above . )", "Now close it ."],
        ),
        (
            "Open PH_PRINTF_1 first. PH_PRINTF_2 is next.",
            ["Open PH_PRINTF_1 first .", "PH_PRINTF_2 is next ."],
        ),
        ("Version 2.0 is out. Get it now.", ["Version 2 . 0 is out .", "Get it now ."]),
        ("Wait… Then try again.", ["Wait… Then try again."]),
        ("Loading files… Then try again.", ["Loading files …", "Then try again ."]),
        ("", [""]),
        ("One sentence only", ["One sentence only"]),
    ],
)
def test_where_a_text_is_cut(text, expected):
    assert cut(text) == expected


def test_only_the_first_tokens_are_cut():
    text = "Open it. " * 100
    pieces = sentences.split(text, 128)
    assert pieces[-1][1:] == (126, 128)
    assert len(pieces) == 43  # 42 whole sentences of 3 tokens, and 2 tokens


words = st.sampled_from(
    ["the", "File", "Open", "e.g", "Mr", "x", "PH_PRINTF_1", "2", "saved", "Él"]
)
marks = st.sampled_from([".", "!", "?", "…", ",", ")", '"', "(", "«", "»", "“", "”"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(words, marks), max_size=40))
def test_the_sentences_cover_every_token_in_order(tokens):
    found = sentences.spans(tokens)
    assert found[0][0] == 0 and found[-1][1] == len(tokens)
    for (_, end), (start, _) in zip(found, found[1:]):
        assert end == start
    for start, end in found:
        assert start < end or len(tokens) == 0
        # Each sentence holds at least two words.
        if len(found) > 1:
            assert sum(any(c.isalnum() for c in t) for t in tokens[start:end]) >= 2


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=80))
def test_a_sentence_reads_as_the_same_tokens(text):
    # The search re-tokenizes each sentence: its tokens must be the text's.
    tokens = tokenizer.tokenize(text)[:128]
    read = [
        t
        for piece, _, _ in sentences.split(text, 128)
        for t in tokenizer.tokenize(piece)
    ]
    assert read == tokens
    for piece, start, end in sentences.split(text, 128):
        if piece != text:
            assert tokenizer.tokenize(piece) == tokens[start:end]
            assert (
                postprocess.cased_tokens(piece)
                == postprocess.cased_tokens(text)[start:end]
            )


def fake_search(keep_beams, beams=2, steps=6):
    """A search of whole texts that writes, per text, hypothesis `k` as the
    ids `[10 * len(tokens) + k, ...]` once per source token, then `<end>`:
    each output token attends to its own source position only; the score
    is minus the number of tokens."""
    calls = []

    def search(texts):
        calls.append(list(texts))
        n = len(texts)
        ids = np.zeros((n, beams, steps), "int32")
        attention, scores = [], np.zeros((n, beams), "float32")
        for i, text in enumerate(texts):
            length = len(tokenizer.tokenize(text))
            out = min(length, steps)
            weights = np.zeros((beams, steps, length), "float32")
            for k in range(beams):
                ids[i, k, :out] = 10 * length + k + 5  # 5: past the special ids
                if out < steps:
                    ids[i, k, out] = END_ID
                for s in range(min(out, length)):
                    weights[k, s, s] = 1.0
                if out < steps and length:
                    weights[k, out, :] = 1.0 / length
                scores[i, k] = -(k + 1.0)
            attention.append(weights)
        if keep_beams:
            return ids, attention, scores
        return ids[:, 0], [a[0] for a in attention], scores[:, 0]

    return search, calls


@pytest.mark.parametrize("keep_beams", [False, True])
def test_the_sentences_outputs_join_into_one_answer(keep_beams):
    search, calls = fake_search(keep_beams)
    texts = ["Open it now. Close it.", "Just one sentence here", ""]
    ids, attention, scores = sentences.search(search, texts, 128, keep_beams)
    # One search call, of every sentence of every text.
    assert calls == [["Open it now .", "Close it .", "Just one sentence here", ""]]
    if not keep_beams:
        ids, scores = ids[:, None], scores[:, None]
        attention = [a[None] for a in attention]
    for k in range(ids.shape[1]):
        # "Open it now ." (4 tokens, then <end>) and "Close it ." (3).
        assert list(ids[0, k, :8]) == [45 + k] * 4 + [35 + k] * 3 + [END_ID]
        grid = attention[0][k]
        assert grid.shape[-1] == 7
        assert np.array_equal(grid[:7, :7], np.eye(7, dtype="float32"))
        # <end>: the last sentence's row, over its own positions.
        assert np.allclose(grid[7], [0, 0, 0, 0, 1 / 3, 1 / 3, 1 / 3])
        assert np.allclose(scores[0, k], -(k + 1.0))
        # A text of one sentence: the whole-text search's own answer.
        assert list(ids[1, k, :6]) == [45 + k] * 4 + [END_ID, PAD_ID]
        assert np.array_equal(
            attention[1][k][:6, :4],
            np.eye(6, 4, dtype="float32") + np.pad([[0.25] * 4], ((4, 1), (0, 0))),
        )
        assert list(ids[2, k, :2]) == [END_ID, PAD_ID]
        assert scores[1, k] == scores[2, k] == -(k + 1.0)
    assert attention[2].shape[-1] == 0


def test_a_score_weighs_each_sentence_by_its_tokens():
    pieces = [("a b c", 0, 3), ("d", 3, 4)]
    ids = np.array([[[5, 5, 5, END_ID]], [[6, END_ID, 0, 0]]], "int32")
    attention = [np.ones((1, 4, 3), "float32"), np.ones((1, 4, 1), "float32")]
    scores = np.array([[-1.0], [-4.0]], "float32")
    joined_ids, joined_attention, joined_scores = sentences.join(
        pieces, ids, attention, scores, 4
    )
    assert list(joined_ids[0]) == [5, 5, 5, 6, END_ID]
    # (-1 * 4 tokens + -4 * 2 tokens) / 6 tokens, <end> counted.
    assert np.isclose(joined_scores[0], -2.0)
    assert joined_attention.shape == (1, 5, 4)
