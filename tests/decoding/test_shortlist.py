"""The vocabulary shortlist: which ids each sequence lists, the step's
logits at them against a float64 reference, and searches over a
shortlist that holds every id giving the full searches' outputs."""

import keras
import numpy as np
import pytest

from attention_zoo.decoders import AttentionRNNDecoder
from attention_zoo.decoding import beam_search, greedy_search, make_step_fn
from attention_zoo.decoding._common import NEG_INF
from attention_zoo.decoding.refill import greedy_refill
from attention_zoo.decoding.shortlist import (
    check_shortlist,
    expand,
    packed,
    shortlist,
    shortlist_step,
    unpacked,
)
from attention_zoo.layers import BahdanauAttention
from tests.helpers import to_numpy

V, VS, TX, B = 12, 9, 4, 5
PAD, START, END = 0, 1, 2


def reference(source_ids, candidates, shared, size):
    """The shortlist of each row, in plain Python (module docstring)."""
    ids, valid = [], []
    for row in source_ids:
        picked = {int(c) for s in row for c in candidates[s] if c >= 0}
        rest = sorted(picked - set(shared))[: size - len(shared)]
        listed = list(shared) + rest
        ids.append(listed + [0] * (size - len(listed)))
        valid.append([True] * len(listed) + [False] * (size - len(listed)))
    return np.array(ids), np.array(valid)


@pytest.mark.parametrize("size", [5, 7, 12])
def test_shared_ids_come_first_then_each_candidate_once_in_increasing_order(size):
    rng = np.random.default_rng(0)
    candidates = rng.integers(-1, V, size=(VS, 3))
    candidates[0] = -1  # padding makes no id likely
    shared = [0, 1, 2, 7]  # 7 is a candidate too: listed once, in its place
    source = rng.integers(0, VS, size=(6, TX))
    source[0] = 0  # a source of padding only: the shared ids alone
    source[1] = 3  # one word repeated: its candidates once
    expected_ids, expected_valid = reference(source, candidates, shared, size)
    for on_host in (False, True):  # the same lines in the graph and in NumPy
        ids, valid = shortlist(source, candidates, shared, size, V, on_host=on_host)
        if on_host:
            assert isinstance(ids, np.ndarray) and ids.dtype == np.int32
        np.testing.assert_array_equal(to_numpy(valid), expected_valid)
        np.testing.assert_array_equal(to_numpy(ids), expected_ids)
    # Packed for a search's input and unpacked there, as it was.
    again = unpacked(packed(ids, valid))
    np.testing.assert_array_equal(to_numpy(again[0]), expected_ids)
    np.testing.assert_array_equal(to_numpy(again[1]), expected_valid)
    # The smallest size cuts some rows: their lowest ids are kept.
    if size == 5:
        assert to_numpy(valid).all(axis=1).any()


@pytest.mark.parametrize(
    "arguments, named",
    [
        (dict(candidates=np.zeros((3,), "int32")), "candidates"),
        (dict(candidates=np.full((3, 2), V)), "candidates"),
        (dict(candidates=np.full((3, 2), 0.5)), "candidates"),
        (dict(shared=[0, 1, 1]), "shared"),
        (dict(shared=[0, V]), "shared"),
        (dict(size=2), "size"),
        (dict(size=V + 1), "size"),
        (dict(vocab_size=0), "vocab_size"),
        (dict(tokens=(5,)), "shared"),
    ],
)
def test_check_shortlist_names_the_argument_at_fault(arguments, named):
    given = dict(
        candidates=np.zeros((3, 2), "int32"), shared=[0, 1, 2], size=4, vocab_size=V
    )
    given.update(arguments)
    with pytest.raises(ValueError, match=f"`{named}`"):
        check_shortlist(**given)


class Toy:
    """A random attention decoder over `V` tokens, peaky enough that greedy
    and beam search pick different outputs."""

    def __init__(self, seed=0):
        keras.utils.set_random_seed(seed)
        rng = np.random.default_rng(seed)
        self.embedding = keras.layers.Embedding(V, 4)
        self.decoder = AttentionRNNDecoder(
            keras.layers.GRUCell(6), BahdanauAttention(6)
        )
        self.norm = keras.layers.LayerNormalization()
        self.output = keras.layers.Dense(V)
        self.memory = rng.normal(size=(B, TX, 3)).astype("float32")
        self.mask = np.ones((B, TX), bool)
        self.mask[1, 2:] = False
        hidden = self.decoder(self.embedding(np.zeros((B, 1), "int32")), self.memory)[0]
        self.output(self.norm(hidden))
        for layer in (self.embedding, self.decoder, self.output):
            layer.set_weights(
                [
                    rng.normal(scale=1.5, size=w.shape).astype("float32")
                    for w in layer.get_weights()
                ]
            )
        self.source = rng.integers(1, VS, size=(B, TX))

    def full_step(self):
        return make_step_fn(
            self.decoder, self.embedding, lambda x: self.output(self.norm(x))
        )

    def listed_step(self, shared):
        kernel, bias = self.output.kernel, self.output.bias
        return shortlist_step(
            self.decoder, self.embedding, self.norm, kernel, bias, shared
        )

    def inputs(self):
        constants = self.decoder.get_constants(self.memory, self.mask)
        state = self.decoder.get_initial_state(self.memory, self.mask)
        return state, constants


def every_id():
    """Shared `0..3`, the rest as candidates of every source word."""
    shared = [0, 1, 2, 3]
    candidates = np.tile(np.arange(4, V), (VS, 1))
    return candidates, shared, V


def test_the_step_computes_the_listed_ids_logits_and_neg_inf_at_padding():
    toy = Toy()
    candidates = np.full((VS, 2), -1)
    candidates[:, 0] = np.arange(VS) % (V - 4) + 4
    shared = [0, 1, 2, 3]
    ids, valid = shortlist(toy.source, candidates, shared, 8, V)
    state, constants = toy.inputs()
    tokens = np.array([1, 0, 3, 2, 1], "int32")  # positions = ids among the shared
    logits, _, _ = toy.listed_step(shared)(tokens, state, (constants, ids, valid))
    full, _, _ = toy.full_step()(tokens, state, constants)
    ids, valid, full = to_numpy(ids), to_numpy(valid), to_numpy(full)
    expected = np.where(
        valid, np.take_along_axis(full.astype("float64"), ids, axis=1), NEG_INF
    )
    np.testing.assert_allclose(to_numpy(logits), expected, rtol=1e-5, atol=1e-5)
    assert not valid.all()  # some padding was checked


def test_greedy_refilled_and_beam_search_over_every_id_are_the_full_searches():
    toy = Toy(seed=1)
    candidates, shared, size = every_id()
    ids, valid = shortlist(toy.source, candidates, shared, size, V)
    state, constants = toy.inputs()
    listed = (constants, ids, valid)
    start = np.full((B,), START, "int32")
    full, short = toy.full_step(), toy.listed_step(shared)
    pairs = [
        (
            greedy_search(full, state, start, END, 6, constants, PAD),
            greedy_search(short, state, start, END, 6, listed, PAD),
        ),
        (
            greedy_refill(full, state, START, END, 6, (2, 1), constants, PAD),
            greedy_refill(short, state, START, END, 6, (2, 1), listed, PAD),
        ),
        (
            beam_search(full, state, start, END, 6, 3, constants, PAD),
            beam_search(short, state, start, END, 6, 3, listed, PAD),
        ),
    ]
    for expected, got in pairs:
        np.testing.assert_array_equal(
            to_numpy(expand(got["tokens"], ids)), to_numpy(expected["tokens"])
        )
        np.testing.assert_allclose(
            to_numpy(got["scores"]), to_numpy(expected["scores"]), atol=1e-4
        )


def test_a_search_over_a_short_list_emits_only_its_ids():
    toy = Toy(seed=2)
    candidates = np.full((VS, 1), -1)
    candidates[:, 0] = np.arange(VS) % (V - 4) + 4
    shared = [0, 1, 2, 3]
    ids, valid = shortlist(toy.source, candidates, shared, 6, V)
    state, constants = toy.inputs()
    start = np.full((B,), START, "int32")
    out = greedy_search(
        toy.listed_step(shared), state, start, END, 6, (constants, ids, valid), PAD
    )
    tokens = to_numpy(expand(out["tokens"], ids))
    ids, valid = to_numpy(ids), to_numpy(valid)
    for row, listed, ok in zip(tokens, ids, valid):
        assert set(row.tolist()) <= set(listed[ok].tolist())
