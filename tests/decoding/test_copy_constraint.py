"""`constrain_copies`: the searches copy each controlled token exactly as
often as the source holds it, checked against NumPy references."""

import itertools

import keras
import numpy as np
import pytest

from attention_zoo.decoding import (
    StepFunction,
    beam_search,
    constrain_copies,
    copy_budget,
    greedy_search,
)
from attention_zoo.decoding._common import NEG_INF
from tests.helpers import assert_compiled_matches_eager, to_numpy

PAD, START, END = 0, 1, 2
V, MAX_LENGTH = 8, 7
CONTROLLED = [5, 6, 7]
# Ids 5, 6, 7 are groups 0, 1, 2 (three placeholders); the others none.
GROUPS = np.array([-1, -1, -1, -1, -1, 0, 1, 2])
# Row 0 must copy 5 and 6, row 1 copies 6 twice, row 2 copies nothing.
REQUIRED = np.array([[5, 3, 6, PAD], [6, 6, PAD, PAD], [3, 4, PAD, PAD]], "int32")


def table(seed=0):
    """Logits `(MAX_LENGTH, V, V)` by step and previous token that lose
    placeholders unconstrained: 5 is preferred at every step (duplicated),
    7, in no source, next, and `<end>` after the first step (a dropped 6)."""
    rng = np.random.default_rng(seed)
    logits = rng.normal(scale=0.5, size=(MAX_LENGTH, V, V))
    logits[:, :, 5] += 4.0
    logits[:, :, 7] += 3.0
    logits[1:, :, END] += 3.5
    logits[:, :, 6] += 1.5
    return logits.astype("float32")


class TableStep:
    """`logits[t, previous token]`, the state the step index `t` `(B,)`."""

    def __init__(self, logits):
        self.logits = logits
        self.flat = keras.ops.convert_to_tensor(logits.reshape(-1, logits.shape[-1]))

    def __call__(self, tokens, state, constants):
        (t,) = state
        t = keras.ops.minimum(t, self.logits.shape[0] - 1)
        row = t * self.logits.shape[1] + keras.ops.cast(tokens, "int32")
        attention = keras.ops.ones((keras.ops.shape(tokens)[0], 2)) / 2
        return keras.ops.take(self.flat, row, axis=0), (state[0] + 1,), attention


def reference_logits(logits, t, previous, budget, groups=GROUPS, lift=True):
    """The rules of `copy_constraint` in NumPy: the budget after feeding
    `previous`, and the step's constrained logits (float64); `groups`
    `(V,)` or `(V, S)`, `lift` rule 4."""
    groups = np.asarray(groups).reshape(len(groups), -1)
    budget = budget.copy()
    for g in groups[previous]:
        if g >= 0 and budget[g] > 0:
            budget[g] -= 1
    out = logits[min(t, len(logits) - 1), previous].astype("float64")
    for v, row in enumerate(groups):
        if any(g >= 0 and budget[g] == 0 for g in row):
            out[v] = NEG_INF
    if (budget > 0).any():
        if lift:
            for v, row in enumerate(groups):
                if out[v] > NEG_INF and any(g >= 0 and budget[g] > 0 for g in row):
                    out[v] = max(out[v], out[END])
        out[END] = NEG_INF
    return out, budget


def reference_budget(required):
    return np.array([[int((row == v).sum()) for v in CONTROLLED] for row in required])


def reference_greedy(logits, budget, groups=GROUPS, lift=True, length=MAX_LENGTH):
    out = []
    for b_budget in budget:
        previous, tokens, done = START, [], False
        for t in range(length):
            if done:
                tokens.append(PAD)
                continue
            step, b_budget = reference_logits(
                logits, t, previous, b_budget, groups, lift
            )
            step[PAD] = NEG_INF
            previous = int(np.argmax(step))
            tokens.append(previous)
            done = previous == END
        out.append(tokens)
    return np.array(out)


def counts(tokens, row):
    return {v: int((row == v).sum()) for v in CONTROLLED} == {
        v: int((tokens == v).sum()) for v in CONTROLLED
    }


def search_inputs(batch=3):
    return (keras.ops.zeros((batch,), "int32"),), np.full((batch,), START, "int32")


def test_copy_budget_by_hand():
    budget = copy_budget(np.array([[0, -1, 0, 2], [7, -1, 1, 3]]), 3)
    assert to_numpy(budget).tolist() == [[2, 0, 1], [0, 1, 0]]


def test_greedy_keeps_each_placeholder_exactly_and_matches_numpy():
    logits = table()
    state, start = search_inputs()
    plain = to_numpy(
        greedy_search(TableStep(logits), state, start, END, MAX_LENGTH)["tokens"]
    )
    # Unconstrained, every row repeats 5 (and never copies 6).
    assert not any(counts(tokens, row) for tokens, row in zip(plain, REQUIRED))
    budget = copy_budget(GROUPS[REQUIRED], 3)
    np.testing.assert_array_equal(to_numpy(budget), reference_budget(REQUIRED))
    result = greedy_search(
        constrain_copies(TableStep(logits), END, GROUPS),
        (state, budget),
        start,
        END,
        MAX_LENGTH,
    )
    tokens = to_numpy(result["tokens"])
    np.testing.assert_array_equal(
        tokens, reference_greedy(logits, reference_budget(REQUIRED))
    )
    for row_tokens, row in zip(tokens, REQUIRED):
        assert END in row_tokens.tolist() and counts(row_tokens, row)


def test_any_order_is_allowed():
    # 6 preferred first, then 5, then <end>: a reordered `%2$s ... %1$s`.
    logits = np.full((3, V, V), -5.0, "float32")
    logits[0, :, 6] = logits[1, :, 5] = logits[2, :, END] = 5.0
    budget = copy_budget(GROUPS[np.array([[5, 6]])], 3)
    state, start = search_inputs(1)
    result = greedy_search(
        constrain_copies(TableStep(logits), END, GROUPS), (state, budget), start, END, 4
    )
    assert to_numpy(result["tokens"]).tolist() == [[6, 5, END, PAD]]


def test_an_owed_placeholder_comes_where_the_end_would():
    # The step wants <end>, then the word 3; the owed 5 is unlikely. With
    # rule 4 the 5 takes <end>'s logit, then the row ends; without it the
    # row writes 3 until the length cap, the only other way out.
    logits = np.full((2, V, V), -5.0, "float32")
    logits[:, :, END], logits[:, :, 3], logits[:, :, 5] = 5.0, 1.0, -3.0
    budget = copy_budget(GROUPS[np.array([[5]])], 3)
    state, start = search_inputs(1)
    step = constrain_copies(TableStep(logits), END, GROUPS)
    lifted = greedy_search(step, (state, budget), start, END, 3)
    assert to_numpy(lifted["tokens"]).tolist() == [[5, END, PAD]]
    plain = constrain_copies(TableStep(logits), END, GROUPS, lift_owed=False)
    capped = greedy_search(plain, (state, budget), start, END, 3)
    assert to_numpy(capped["tokens"]).tolist() == [[3, 3, 3]]
    np.testing.assert_array_equal(
        to_numpy(capped["tokens"]),
        reference_greedy(logits, np.array([[1, 0, 0]]), lift=False, length=3),
    )


def brute_force_best(logits, budget, max_length):
    """The best sequence of each row under the constrained distribution:
    every sequence of up to `max_length` tokens (ended, or cut at the cap),
    scored as beam search scores it (each step's logits minus their
    log-sum-exp), in float64."""
    words = [v for v in range(V) if v not in (PAD, END)]
    sequences = [
        prefix + (END,)
        for length in range(max_length)
        for prefix in itertools.product(words, repeat=length)
    ] + list(itertools.product(words, repeat=max_length))
    best = []
    for row_budget in budget:
        scored = []
        for sequence in sequences:
            total, previous, left = 0.0, START, row_budget
            for t, token in enumerate(sequence):
                step, left = reference_logits(logits, t, previous, left)
                total += step[token] - np.logaddexp.reduce(step)
                previous = token
            scored.append((total, sequence))
        best.append(max(scored)[1])
    return best


def test_beam_search_keeps_each_placeholder_and_finds_the_constrained_best():
    short = 4
    logits = table(seed=1)[:short]
    state, start = search_inputs()
    budget = copy_budget(GROUPS[REQUIRED], 3)
    plain = to_numpy(
        beam_search(TableStep(logits), state, start, END, short, beam_width=4)["tokens"]
    )
    assert not any(counts(tokens, row) for tokens, row in zip(plain[:, 0], REQUIRED))
    width = 6 ** (short - 1)  # every prefix of the 6 live tokens is kept
    result = beam_search(
        constrain_copies(TableStep(logits), END, GROUPS),
        (state, budget),
        start,
        END,
        short,
        beam_width=width,
    )
    tokens, scores = to_numpy(result["tokens"]), to_numpy(result["scores"])
    expected = brute_force_best(logits, reference_budget(REQUIRED), short)
    for b, row in enumerate(REQUIRED):
        # Every live hypothesis that ended keeps the row's placeholders exactly.
        for hypothesis, score in zip(tokens[b], scores[b]):
            if END in hypothesis.tolist() and score > NEG_INF / 2:
                assert counts(hypothesis, row), hypothesis
        best = tuple(int(t) for t in tokens[b, 0] if t != PAD)
        assert best == expected[b]
        assert END in best and counts(tokens[b, 0], row)


def test_compiled_matches_eager():
    logits = table(seed=2)
    step = constrain_copies(TableStep(logits), END, GROUPS)
    state, start = search_inputs()

    def decode(required):
        budget = copy_budget(required, 3)
        g = greedy_search(step, (state, budget), start, END, MAX_LENGTH)
        b = beam_search(step, (state, budget), start, END, MAX_LENGTH, beam_width=3)
        return g["tokens"], b["tokens"], b["scores"]

    assert_compiled_matches_eager(decode, GROUPS[REQUIRED])


def test_the_declaration_is_kept():
    shared = StepFunction(TableStep(table()), shares_constants_across_beams=True)
    assert constrain_copies(shared, END, GROUPS).shares_constants_across_beams
    assert not constrain_copies(
        TableStep(table()), END, GROUPS
    ).shares_constants_across_beams


def test_an_id_may_count_for_several_groups_and_a_group_have_several_ids():
    # Id 3 is both groups 0 and 1 (a word `ph_printf_1+ph_printf_2`), id 4
    # group 1 again (`` `ph_printf_2 ``). Row 0 owes groups 0 and 1 once: id 3
    # alone pays both; row 1 owes group 1 twice: id 3 is never allowed.
    groups = np.array([[-1, -1]] * 3 + [[0, 1], [1, -1], [0, -1], [1, -1], [2, -1]])
    required = np.array([[0, 1], [1, 1]])
    rng = np.random.default_rng(5)
    logits = rng.normal(size=(MAX_LENGTH, V, V)).astype("float32")
    logits[:, :, 3] += 6.0
    logits[1:, :, END] += 5.0
    state, start = search_inputs(2)
    result = greedy_search(
        constrain_copies(TableStep(logits), END, groups),
        (state, copy_budget(required, 3)),
        start,
        END,
        MAX_LENGTH,
    )
    tokens = to_numpy(result["tokens"])
    budget = np.array([[1, 1, 0], [0, 2, 0]])
    np.testing.assert_array_equal(tokens, reference_greedy(logits, budget, groups))
    assert tokens[0, :2].tolist() == [3, END]
    assert 3 not in tokens[1].tolist() and END in tokens[1].tolist()
    row = tokens[1][: tokens[1].tolist().index(END)]
    assert sum(1 for t in row if groups[t, 0] == 1) == 2


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: copy_budget(REQUIRED[0], 3), "required"),
        (lambda: copy_budget(REQUIRED, 0), "n_groups"),
        (
            lambda: constrain_copies(TableStep(table()), END, [[0, 0]] * V),
            "at most once",
        ),
        (lambda: constrain_copies(TableStep(table()), END, [-2] * V), "token_groups"),
        (lambda: constrain_copies(TableStep(table()), END, "abc"), "token_groups"),
        (lambda: constrain_copies(TableStep(table()), END, [0] * V), "end and pad"),
        (lambda: constrain_copies(None, END, GROUPS), "step_fn"),
        (lambda: constrain_copies(TableStep(table()), END, GROUPS, "no"), "lift_owed"),
        (lambda: constrain_copies(TableStep(table()), -1, GROUPS), "end_token"),
    ],
)
def test_bad_arguments(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()


@pytest.mark.parametrize(
    "groups, budget, message",
    [
        (GROUPS, np.zeros((3, 4), "int32"), "one entry per group"),
        (np.append(GROUPS, -1), np.zeros((3, 3), "int32"), "more ids"),
    ],
)
def test_a_budget_or_groups_of_another_size_are_refused(groups, budget, message):
    state, start = search_inputs()
    step = constrain_copies(TableStep(table()), END, groups)
    with pytest.raises(ValueError, match=message):
        greedy_search(step, (state, budget), start, END, MAX_LENGTH)
