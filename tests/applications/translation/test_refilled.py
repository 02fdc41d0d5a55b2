"""How `refilled` cuts the sorted texts into calls of the refilled search."""

import numpy as np

from attention_zoo.applications.translation import refilled


def test_a_call_holds_one_width_and_a_short_run_joins_the_next():
    widths = [32] * 70 + [64] * 3 + [96] * 2 + [128] * 1
    order = list(range(len(widths)))
    calls = refilled.groups(order, widths, batch_size=64)
    assert [len(c) for c in calls] == [70, 6]
    assert sum(calls, []) == order
    # Each run of at least 8 texts alone; the last short one is its own.
    calls = refilled.groups(order, widths, batch_size=8)
    assert [len(c) for c in calls] == [70, 6]
    calls = refilled.groups(order, widths, batch_size=2)
    assert [len(c) for c in calls] == [70, 3, 2, 1]


def test_a_call_holds_at_most_call_cells_over_its_width_texts(monkeypatch):
    monkeypatch.setattr(refilled, "CALL_CELLS", 16 * 32)
    calls = refilled.groups(list(range(40)), [32] * 40, batch_size=4)
    assert [len(c) for c in calls] == [16, 16, 8]
    # Narrower texts, more of them a call; a joined run counts its widest.
    calls = refilled.groups(list(range(80)), [8] * 80, batch_size=4)
    assert [len(c) for c in calls] == [64, 16]
    calls = refilled.groups(list(range(40)), [8] * 2 + [64] * 38, batch_size=4)
    assert [len(c) for c in calls] == [8, 8, 8, 8, 8]


def test_rows_and_slots_of_a_call():
    assert [refilled.call_rows(n) for n in (1, 8, 9, 483, 512)] == [
        8, 8, 16, 512, 512,
    ]  # fmt: skip
    assert refilled.slot_sizes(512, 64) == (64, 8)
    assert refilled.slot_sizes(16, 64) == (16, 8)
    assert refilled.slot_sizes(8, 64) == (8,)
    assert refilled.slot_sizes(512, 4) == (4,)


def test_batches_pad_each_call_with_empty_texts_and_drop_them():
    seen = []

    def search_function(slots):
        def search(x):
            seen.append((slots, list(x)))
            rows = len(x)
            ids = np.array([[0 if i is None else i + 1] for i in x], "int32")
            return (
                ids,
                np.zeros((rows, 1, 4), "float16"),
                np.arange(rows, dtype="float32"),
            )

        return search

    out = list(refilled.batches(search_function, [2, 0, 1], [32, 32, 32], list, 64))
    assert seen == [((8,), [2, 0, 1] + [None] * 5)]
    ((chunk, tokens, attention, scores),) = out
    assert chunk == [2, 0, 1] and tokens[:, 0].tolist() == [3, 1, 2]
    assert attention.dtype == np.float32 and scores.tolist() == [0, 1, 2]
