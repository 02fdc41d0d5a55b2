"""Greedy search in two passes: the full search's answers, from a short
search of every batch and a full one of the rows it left unfinished."""

import numpy as np

from attention_zoo.applications.common.predictor import RunPredictor
from attention_zoo.applications.common.text import END_ID, PAD_ID
from attention_zoo.applications.translation.first_pass import (
    STRAGGLER_ROWS,
    two_pass_batches,
)

MAX_LENGTH = 40
WIDTH = 8  # the padded source width of every input here


def fake_search(length, calls):
    """A greedy search of `length` steps: each row is decided by its own
    ids alone, as greedy search decides it; row `r` writes `r % 13` words
    then `<end>`, or never ends when `r % 13 == 0` (the repeating output
    that holds a whole batch)."""

    def search(x):
        calls.append((length, x.shape))
        rows = x[:, 0]
        tokens = np.full((len(x), length), PAD_ID, "int32")
        attention = np.zeros((len(x), length, x.shape[1]), "float32")
        for b, r in enumerate(rows):
            words = r % 13 or MAX_LENGTH + 1
            steps = min(words + 1, length)
            tokens[b, :steps] = 4 + (r + np.arange(steps)) % 7
            if words < length:
                tokens[b, words] = END_ID
            attention[b, :steps] = (r + 1) / (np.arange(steps)[:, None] + 2)
        return tokens, attention, rows.astype("float32") / 100

    return search


def answers(batches, n):
    """The last answer of each input, as `Translator.search` keeps them."""
    out = [None] * n
    for chunk, tokens, attention, scores in batches:
        for j, i in enumerate(chunk):
            out[i] = (tokens[j].tolist(), attention[j].tolist(), float(scores[j]))
    return out


def run(n, batch_size=16):
    calls = []
    inputs = list(range(n))

    def prepare(rows):
        return np.repeat(np.asarray(rows, "int32")[:, None], WIDTH, axis=1)

    two = answers(
        two_pass_batches(
            lambda length: fake_search(length, calls),
            RunPredictor.run_batches,
            inputs,
            batch_size,
            prepare,
            MAX_LENGTH,
        ),
        n,
    )
    one = answers(
        RunPredictor.run_batches(
            fake_search(MAX_LENGTH, []), inputs, batch_size, prepare
        ),
        n,
    )
    return two, one, calls


def test_two_passes_give_the_full_searchs_answers():
    two, one, _ = run(50)
    assert two == one
    # Rows 0, 13, 26 and 39 never end: the second pass wrote their 40 words.
    assert [r for r, o in enumerate(two) if o[0][-1] != PAD_ID] == [0, 13, 26, 39]


def test_the_full_search_runs_only_the_unfinished_rows_in_small_batches():
    _, _, calls = run(50)
    short = [c for c in calls if c[0] == WIDTH]
    full = [c for c in calls if c[0] == MAX_LENGTH]
    # Every batch of 16 (the last of 2 rows, searched at once) first with
    # the short search; 4 never-ending rows and 16 late ones, in batches
    # of exactly STRAGGLER_ROWS rows.
    assert short == [(WIDTH, (16, WIDTH))] * 3
    assert full[0] == (MAX_LENGTH, (2, WIDTH))
    unfinished = len([r for r in range(48) if r % 13 == 0 or r % 13 >= WIDTH])
    assert full[1:] == [(MAX_LENGTH, (STRAGGLER_ROWS, WIDTH))] * (
        -(-unfinished // STRAGGLER_ROWS)
    )


def test_a_small_call_is_searched_once_at_full_length():
    two, one, calls = run(STRAGGLER_ROWS, batch_size=64)
    assert two == one
    assert calls == [(MAX_LENGTH, (STRAGGLER_ROWS, WIDTH))]
