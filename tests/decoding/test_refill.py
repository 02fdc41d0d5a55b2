"""Greedy search with refilled rows: each sequence gets the tokens, score,
length and attention greedy search gives it, whatever the rows, the order
in which they free up and the move of the last live rows to fewer."""

import numpy as np
import pytest

from attention_zoo.decoding import decode_memory, greedy_search
from attention_zoo.decoding.refill import check_slots, greedy_refill
from tests.decoding.test_search import END, PAD, START, ToyModel
from tests.helpers import to_numpy

N = 13


@pytest.fixture(scope="module")
def toy():
    model = ToyModel(seed=3, batch=N)
    model.memory_mask[::3, 2:] = False  # sources of two lengths
    return model


def as_numpy(out):
    return {k: to_numpy(v) for k, v in out.items()}


@pytest.mark.parametrize("slots, max_length", [((4, 2), 12), ((5, 2, 1), 3), (16, 12)])
def test_refilled_rows_give_greedy_searchs_outputs(toy, slots, max_length):
    state, constants, start = toy.inputs()
    expected = as_numpy(
        greedy_search(toy.step_fn, state, start, END, max_length, constants, PAD)
    )
    got = as_numpy(
        greedy_refill(toy.step_fn, state, START, END, max_length, slots, constants, PAD)
    )
    # Outputs of several lengths, some cut at max_length: the rows free up
    # at different steps and take the next sequence.
    lengths = expected["lengths"]
    assert len(set(lengths.tolist())) > 1
    np.testing.assert_array_equal(got["tokens"], expected["tokens"])
    np.testing.assert_array_equal(got["lengths"], lengths)
    np.testing.assert_allclose(got["scores"], expected["scores"], atol=1e-5)
    np.testing.assert_allclose(got["attention"], expected["attention"], atol=1e-6)


def test_inactive_sequences_are_not_searched(toy):
    state, constants, start = toy.inputs()
    active = np.arange(N) % 4 != 1
    expected = as_numpy(
        greedy_search(toy.step_fn, state, start, END, 12, constants, PAD)
    )
    got = as_numpy(
        greedy_refill(
            toy.step_fn, state, START, END, 12, (4, 2), constants, PAD, active=active
        )
    )
    np.testing.assert_array_equal(got["tokens"][active], expected["tokens"][active])
    assert (got["tokens"][~active] == PAD).all()
    assert (got["lengths"][~active] == 0).all()
    assert (got["scores"][~active] == 0).all()
    assert (got["attention"][~active] == 0).all()


def test_decode_memory_with_slots_is_greedy_search(toy):
    memory, mask = toy.memory, toy.memory_mask
    args = (toy.step_fn, toy.decoder, memory, START, END, 12)
    expected = as_numpy(decode_memory(*args, memory_mask=mask, pad_token=PAD))
    got = as_numpy(decode_memory(*args, memory_mask=mask, pad_token=PAD, slots=3))
    np.testing.assert_array_equal(got["tokens"], expected["tokens"])
    with pytest.raises(ValueError, match="greedy search only"):
        decode_memory(*args, memory_mask=mask, beam_width=2, slots=3)


@pytest.mark.parametrize("slots", [0, (4, 4), (2, 4), (), (4, True), "4"])
def test_slots_must_be_decreasing_positive_ints(slots):
    with pytest.raises(ValueError, match="Received: slots="):
        check_slots(slots)
