import importlib
import itertools

import keras
import numpy as np
import pytest

from attention_zoo.decoders import AttentionRNNDecoder
from attention_zoo.decoding import (
    beam_search,
    best_hypothesis,
    coverage_penalty,
    decode_memory,
    greedy_search,
    length_penalty,
    make_step_fn,
    sample,
)
from attention_zoo.layers import BahdanauAttention
from tests.helpers import assert_compiled_matches_eager, to_numpy

PAD, START, END = 0, 1, 2
V, TX, MAX_LENGTH = 5, 4, 5


class ToyModel:
    """A random attention decoder with peaky distributions over 5 tokens."""

    def __init__(self, seed=0, batch=2):
        keras.utils.set_random_seed(seed)
        rng = np.random.default_rng(seed)
        self.embedding = keras.layers.Embedding(V, 4)
        self.decoder = AttentionRNNDecoder(
            keras.layers.GRUCell(6), BahdanauAttention(6)
        )
        self.output = keras.layers.Dense(V)
        self.memory = rng.normal(size=(batch, TX, 3)).astype("float32")
        self.memory_mask = np.ones((batch, TX), bool)
        self.memory_mask[1, 3:] = False
        self.output(
            self.decoder(self.embedding(np.zeros((batch, 1), "int32")), self.memory)[0]
        )
        for layer in (self.embedding, self.decoder, self.output):
            layer.set_weights(
                [
                    rng.normal(scale=1.5, size=w.shape).astype("float32")
                    for w in layer.get_weights()
                ]
            )
        self.step_fn = make_step_fn(self.decoder, self.embedding, self.output)

    def inputs(self, rows=None):
        memory, mask = self.memory, self.memory_mask
        if rows is not None:
            memory, mask = memory[rows], mask[rows]
        constants = self.decoder.get_constants(memory, mask)
        state = self.decoder.get_initial_state(memory, mask)
        return state, constants, np.full((memory.shape[0],), START, "int32")

    def teacher_forced(self, rows, sequences):
        """Per-step log-probs (N, T, V) and attention (N, T, Tx), float64."""
        state, constants, tokens = self.inputs(rows)
        log_probs, attention = [], []
        for t in range(sequences.shape[1]):
            logits, state, att = self.step_fn(tokens, state, constants)
            logits = to_numpy(logits).astype("float64")
            log_probs.append(logits - np.log(np.exp(logits).sum(-1, keepdims=True)))
            attention.append(to_numpy(att).astype("float64"))
            tokens = sequences[:, t].astype("int32")
        return np.stack(log_probs, 1), np.stack(attention, 1)


@pytest.fixture(params=["one top_k", "blocks of 2"])
def ranking(request, monkeypatch):
    """Each way beam search ranks its extensions (ranking.py): the toy's 5
    tokens are below the blocked top-k's size, so its blocks are forced
    (2 a block: the 5 logits padded to 6)."""
    if request.param == "blocks of 2":
        module = importlib.import_module("attention_zoo.decoding.beam_search")
        monkeypatch.setattr(module, "_block", lambda vocab: 2)
    return request.param


def all_hypotheses():
    """Every output: up to MAX_LENGTH - 1 non-end tokens then END, or MAX_LENGTH non-end tokens."""
    others = [
        t for t in range(V) if t not in (END, PAD)
    ]  # live sequences never emit PAD
    out = []
    for length in range(1, MAX_LENGTH + 1):
        for prefix in itertools.product(others, repeat=length - 1):
            out.append(list(prefix) + [END] + [PAD] * (MAX_LENGTH - length))
    out += [list(p) for p in itertools.product(others, repeat=MAX_LENGTH)]
    return np.array(out, "int32")


def brute_force_scores(model, b, alpha, beta):
    """GNMT scores of every hypothesis for batch element b, in float64."""
    hyps = all_hypotheses()
    rows = np.full(len(hyps), b)
    log_probs, attention = model.teacher_forced(rows, hyps)
    lengths = np.array(
        [list(h).index(END) + 1 if END in h else MAX_LENGTH for h in hyps]
    )
    valid = np.arange(MAX_LENGTH)[None, :] < lengths[:, None]
    token_lp = np.take_along_axis(log_probs, hyps[:, :, None], 2)[:, :, 0]
    total = (token_lp * valid).sum(1)
    scores = total / (((5.0 + lengths) / 6.0) ** alpha)
    coverage = (attention * valid[:, :, None]).sum(1)  # (N, Tx)
    logs = np.log(np.clip(coverage, 1e-10, 1.0)) * model.memory_mask[b][None, :]
    scores = scores + beta * logs.sum(-1)
    return hyps, scores, lengths


@pytest.mark.parametrize(
    "alpha, beta",
    [(0.0, 0.0), (1.0, 0.0), (0.0, 0.5), (0.6, 0.3)],
    ids=["plain", "length_penalty", "coverage_penalty", "both"],
)
def test_wide_beam_finds_the_brute_force_best(alpha, beta, ranking):
    model = ToyModel(seed=1)
    state, constants, start = model.inputs()
    width = len(all_hypotheses())  # nothing is ever pruned
    result = beam_search(
        model.step_fn,
        state,
        start,
        END,
        MAX_LENGTH,
        beam_width=width,
        constants=constants,
        alpha=alpha,
        beta=beta,
        memory_mask=model.memory_mask,
    )
    tokens, scores = to_numpy(result["tokens"]), to_numpy(result["scores"])
    lengths = to_numpy(result["lengths"])
    for b in range(2):
        hyps, expected, expected_lengths = brute_force_scores(model, b, alpha, beta)
        order = np.argsort(-expected)[:10]
        # The 10 best hypotheses, in order, with their scores and lengths.
        np.testing.assert_array_equal(tokens[b, :10], hyps[order])
        np.testing.assert_allclose(
            scores[b, :10], expected[order], rtol=1e-4, atol=1e-4
        )
        np.testing.assert_array_equal(lengths[b, :10], expected_lengths[order])


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("alpha", [0.0, 0.7])
def test_beam_width_one_equals_greedy(seed, alpha):
    model = ToyModel(seed=seed)
    state, constants, start = model.inputs()
    greedy = greedy_search(
        model.step_fn, state, start, END, MAX_LENGTH, constants=constants
    )
    beam = beam_search(
        model.step_fn,
        state,
        start,
        END,
        MAX_LENGTH,
        beam_width=1,
        constants=constants,
        alpha=alpha,
    )
    np.testing.assert_array_equal(
        to_numpy(beam["tokens"])[:, 0], to_numpy(greedy["tokens"])
    )
    np.testing.assert_array_equal(
        to_numpy(beam["lengths"])[:, 0], to_numpy(greedy["lengths"])
    )
    np.testing.assert_allclose(
        to_numpy(beam["attention"])[:, 0], to_numpy(greedy["attention"]), atol=1e-6
    )
    if alpha == 0:
        np.testing.assert_allclose(
            to_numpy(beam["scores"])[:, 0], to_numpy(greedy["scores"]), atol=1e-5
        )


@pytest.mark.parametrize("width", [1, 3])
def test_best_hypothesis_is_greedy_or_the_first_beam(width):
    model = ToyModel(seed=2)
    state, constants, start = model.inputs()
    best = best_hypothesis(
        model.step_fn, state, start, END, MAX_LENGTH, width, constants, alpha=0.6
    )
    if width == 1:
        expected = greedy_search(
            model.step_fn, state, start, END, MAX_LENGTH, constants=constants
        )
    else:
        beams = beam_search(
            model.step_fn, state, start, END, MAX_LENGTH, width, constants, alpha=0.6
        )
        expected = {key: value[:, 0] for key, value in beams.items()}
    assert set(best) == {"tokens", "scores", "lengths", "attention"}
    for key in best:
        np.testing.assert_array_equal(to_numpy(best[key]), to_numpy(expected[key]))


@pytest.mark.parametrize("width", [1, 3])
def test_best_hypothesis_keeps_every_beam_on_request(width):
    model = ToyModel(seed=2)
    state, constants, start = model.inputs()
    args = (model.step_fn, state, start, END, MAX_LENGTH, width, constants)
    every = best_hypothesis(*args, alpha=0.6, keep_beams=True)
    best = best_hypothesis(*args, alpha=0.6)
    for key in best:
        assert to_numpy(every[key]).shape[:2] == (len(to_numpy(start)), width)
        np.testing.assert_array_equal(to_numpy(every[key])[:, 0], to_numpy(best[key]))
    if width > 1:
        scores = to_numpy(every["scores"])
        assert (np.diff(scores, axis=1) <= 1e-6).all()  # best first
    with pytest.raises(TypeError, match="keep_beams"):
        best_hypothesis(*args, keep_beams="yes")


def test_nbest_sorted_and_attention_follows_back_pointers(ranking):
    model = ToyModel(seed=3)
    state, constants, start = model.inputs()
    result = beam_search(
        model.step_fn,
        state,
        start,
        END,
        MAX_LENGTH,
        beam_width=6,
        constants=constants,
        alpha=0.6,
        beta=0.2,
        memory_mask=model.memory_mask,
    )
    tokens, scores = to_numpy(result["tokens"]), to_numpy(result["scores"])
    lengths, attention = to_numpy(result["lengths"]), to_numpy(result["attention"])
    assert (np.diff(scores, axis=1) <= 0).all()
    for b in range(2):
        # Re-run the model on each returned hypothesis: its attention must be
        # the beam's attention for that hypothesis, step by step.
        _, expected = model.teacher_forced(np.full(6, b), tokens[b])
        for k in range(6):
            n = lengths[b, k]
            np.testing.assert_allclose(attention[b, k, :n], expected[k, :n], atol=1e-5)
            assert (attention[b, k, n:] == 0).all()
            assert (tokens[b, k, n:] == PAD).all()
            np.testing.assert_allclose(attention[b, k, :n].sum(-1), 1.0, atol=1e-5)
            masked = ~model.memory_mask[b]
            assert (attention[b, k, :, masked] == 0).all()


class FixedLogits:
    """A step function that reads its log-probs from a table by step index."""

    def __init__(self, table):
        self.table = keras.ops.convert_to_tensor(np.log(np.array(table, "float32")))

    def __call__(self, tokens, state, constants):
        (t,) = state
        logits = keras.ops.take(
            self.table, keras.ops.minimum(t, len(self.table) - 1), axis=0
        )
        attention = keras.ops.ones((keras.ops.shape(tokens)[0], 2)) / 2
        return logits, (t + 1,), attention


def test_length_penalty_changes_the_ranking_by_its_formula():
    # Step 0: END with p=0.4 (score log 0.4 = -0.916), token 3 with p=0.6.
    # After 3: token 4 (p=0.9), then END (p=0.9): total log(0.6 * 0.81) = -0.722,
    # length 3. Without penalty the long one already wins; make it lose by
    # lowering its probabilities: 0.6 * 0.7 * 0.7 = 0.294 -> -1.224.
    table = [
        [0.0, 0.0, 0.4, 0.6, 0.0],
        [0.0, 0.0, 0.3, 0.0, 0.7],
        [0.0, 0.0, 0.7, 0.0, 0.3],
    ]
    table = np.array(table) + 1e-6
    step = FixedLogits(table / table.sum(-1, keepdims=True))
    state = (keras.ops.zeros((1,), "int32"),)
    start = np.full((1,), START, "int32")
    plain = beam_search(step, state, start, END, 3, beam_width=3)
    assert to_numpy(plain["tokens"])[0, 0].tolist() == [END, PAD, PAD]
    short, long = np.log(0.4), np.log(0.6 * 0.7 * 0.7)
    assert short > long
    # alpha = 1: lp(1) = 1, lp(3) = 8 / 6, and -1.224 / (8 / 6) = -0.918 < -0.916:
    # still short. alpha = 2: -1.224 / (16 / 9) = -0.689 > -0.916: long wins.
    for alpha, expected in ((1.0, [END, PAD, PAD]), (2.0, [3, 4, END])):
        result = beam_search(step, state, start, END, 3, beam_width=3, alpha=alpha)
        assert to_numpy(result["tokens"])[0, 0].tolist() == expected
        best = short if expected[0] == END else long / ((5 + 3) / 6) ** alpha
        np.testing.assert_allclose(to_numpy(result["scores"])[0, 0], best, rtol=1e-4)


def test_penalties_by_hand():
    np.testing.assert_allclose(
        to_numpy(length_penalty(np.array([1, 5]), 1.0)), [1.0, 10 / 6]
    )
    np.testing.assert_allclose(to_numpy(length_penalty(np.array([3]), 0.0)), [1.0])
    coverage = np.array([[0.5, 2.0, 0.0, 0.25]], "float32")
    mask = np.array([[True, True, False, True]])
    np.testing.assert_allclose(
        to_numpy(coverage_penalty(coverage, mask, beta=0.2)),
        [0.2 * (np.log(0.5) + np.log(1.0) + np.log(0.25))],
        rtol=1e-6,
    )


def test_greedy_stops_at_end_and_pads():
    table = np.full((4, V), 0.01)
    table[0, 3] = table[1, 4] = table[2, END] = table[3, 3] = 1.0
    step = FixedLogits(table / table.sum(-1, keepdims=True))
    result = greedy_search(
        step, (keras.ops.zeros((2,), "int32"),), np.full((2,), START), END, max_length=6
    )
    assert to_numpy(result["tokens"]).tolist() == [[3, 4, END, PAD, PAD, PAD]] * 2
    assert to_numpy(result["lengths"]).tolist() == [3, 3]
    attention = to_numpy(result["attention"])
    assert (attention[:, 3:] == 0).all() and np.allclose(attention[:, :3], 0.5)


def test_pad_token_equal_to_end_token_ends_and_pads_with_it():
    # A vocabulary that pads with its end token: emitting it must still end
    # the sequence (only a pad token distinct from the end is forbidden).
    table = np.full((4, V), 0.01)
    table[0, 3] = table[1, END] = table[2, 4] = table[3, 3] = 1.0
    step = FixedLogits(table / table.sum(-1, keepdims=True))
    state, start = (keras.ops.zeros((2,), "int32"),), np.full((2,), START)
    greedy = greedy_search(step, state, start, END, max_length=5, pad_token=END)
    assert to_numpy(greedy["tokens"]).tolist() == [[3, END, END, END, END]] * 2
    assert to_numpy(greedy["lengths"]).tolist() == [2, 2]
    beam = beam_search(step, state, start, END, 5, beam_width=2, pad_token=END)
    assert to_numpy(beam["tokens"])[:, 0].tolist() == [[3, END, END, END, END]] * 2
    assert to_numpy(beam["lengths"])[:, 0].tolist() == [2, 2]


def test_sampling_never_emits_pad_at_any_temperature():
    table = np.full((1, V), 1.0 / V)  # uniform: pad would be drawn often
    step = FixedLogits(table)
    state, start = (keras.ops.zeros((64,), "int32"),), np.full((64,), START)
    result = sample(step, state, start, END, 6, temperature=1e9, seed=0)
    tokens = to_numpy(result["tokens"])
    lengths = to_numpy(result["lengths"])
    for row, length in zip(tokens, lengths):
        assert PAD not in row[:length].tolist()
    assert (tokens != PAD).any()


def test_sampling_is_seeded_and_top_k_one_is_greedy():
    model = ToyModel(seed=4)
    state, constants, start = model.inputs()
    args = (model.step_fn, state, start, END, MAX_LENGTH)
    a = sample(*args, constants=constants, seed=7)
    b = sample(*args, constants=constants, seed=7)
    np.testing.assert_array_equal(to_numpy(a["tokens"]), to_numpy(b["tokens"]))
    greedy = greedy_search(*args, constants=constants)
    for kwargs in (dict(top_k=1), dict(temperature=1e-4)):
        s = sample(*args, constants=constants, seed=3, **kwargs)
        np.testing.assert_array_equal(to_numpy(s["tokens"]), to_numpy(greedy["tokens"]))
    # Different seeds explore: over many draws more than one sequence appears.
    draws = {
        tuple(to_numpy(sample(*args, constants=constants, seed=s)["tokens"])[0])
        for s in range(8)
    }
    assert len(draws) > 1


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda m, a: greedy_search(*a, END, 0), r"Received: max_length=0"),
        (lambda m, a: beam_search(*a, END, 3, beam_width=0), r"Received: beam_width=0"),
        (
            lambda m, a: sample(*a, END, 3, temperature=0.0),
            r"Received: temperature=0.0",
        ),
        (lambda m, a: sample(*a, END, 3, top_k=0), r"Received: top_k=0"),
        (
            lambda m, a: sample(*a, END, 3, constants=m.inputs()[1], top_k=V + 1),
            rf"`top_k` must be at most the vocabulary size .*, {V}. "
            rf"Received: top_k={V + 1}",
        ),
        (lambda m, a: greedy_search(*a, -1, 3), r"Received: end_token=-1"),
        (
            lambda m, a: beam_search(*a, END, 3, pad_token=-1),
            r"`pad_token` must be a non-negative integer. Received: pad_token=-1",
        ),
        (
            lambda m, a: greedy_search(*a, END, 3, m.inputs()[1], pad_token=V),
            rf"`pad_token` must be an id below the vocabulary size of the "
            rf"step's logits, {V}. Received: pad_token={V}",
        ),
        (
            lambda m, a: beam_search(*a, V + 2, 3, constants=m.inputs()[1]),
            rf"vocabulary size of the step's logits, {V}. Received: end_token={V + 2}",
        ),
        (
            lambda m, a: greedy_search(a[0], a[1], np.full((3,), START), END, 3),
            r"the batch size of `start_tokens`.*start_tokens.shape=\(3,\)",
        ),
        (
            lambda m, a: beam_search(a[0], a[1], a[2][:, None], END, 3),
            r"`start_tokens` must have shape \(batch_size,\). "
            r"Received: start_tokens.shape=\(2, 1\)",
        ),
        (
            lambda m, a: beam_search(
                lambda tokens, state, constants: None,
                (np.zeros((2, 3)),),
                a[2],
                END,
                3,
                constants=(np.zeros((3, 4)),),
            ),
            r"Every tensor of `constants` must have the batch size",
        ),
    ],
    ids=[
        "max_length",
        "beam_width",
        "temperature",
        "top_k",
        "top_k_past_vocabulary",
        "end_token",
        "pad_token_negative",
        "pad_token_past_vocabulary",
        "end_token_past_vocabulary",
        "start_tokens_batch",
        "start_tokens_rank",
        "constants_batch",
    ],
)
def test_bad_arguments(call, message):
    model = ToyModel()
    state, _, start = model.inputs()
    with pytest.raises(ValueError, match=message):
        call(model, (model.step_fn, state, start))


def test_compiled_decoding_matches_eager(ranking):
    model = ToyModel(seed=5)
    state, constants, start = model.inputs()

    def decode(state, constants, start):
        g = greedy_search(
            model.step_fn, state, start, END, MAX_LENGTH, constants=constants
        )
        b = beam_search(
            model.step_fn,
            state,
            start,
            END,
            MAX_LENGTH,
            beam_width=3,
            constants=constants,
            alpha=0.6,
            beta=0.2,
            memory_mask=model.memory_mask,
        )
        return g["tokens"], g["attention"], b["tokens"], b["scores"], b["attention"]

    assert_compiled_matches_eager(decode, state, constants, start)


def test_shared_and_copied_constants_give_the_same_beams():
    model = ToyModel(seed=6)
    state, constants, start = model.inputs()
    assert model.step_fn.shares_constants_across_beams

    def plain_step(tokens, state, constants):  # no attribute: constants copied
        return model.step_fn(tokens, state, constants)

    kwargs = dict(
        beam_width=4,
        constants=constants,
        alpha=0.6,
        beta=0.2,
        memory_mask=model.memory_mask,
    )
    shared = beam_search(model.step_fn, state, start, END, MAX_LENGTH, **kwargs)
    copied = beam_search(plain_step, state, start, END, MAX_LENGTH, **kwargs)
    for key in ("tokens", "lengths"):
        np.testing.assert_array_equal(to_numpy(shared[key]), to_numpy(copied[key]))
    for key in ("scores", "attention"):
        np.testing.assert_allclose(
            to_numpy(shared[key]), to_numpy(copied[key]), atol=1e-5
        )


@pytest.mark.parametrize("alpha, beta", [(0.0, 0.0), (0.6, 0.2)])
def test_every_ranking_keeps_the_same_beams(monkeypatch, alpha, beta):
    # CI has no GPU: the ranking a GPU takes (one top_k over k * V) and the
    # CPU's blocked top-k (blocks of 2 and 3 forced on the toy's 5 tokens,
    # with and without padding a hypothesis's logits) must keep the same.
    module = importlib.import_module("attention_zoo.decoding.beam_search")

    model = ToyModel(seed=8)
    state, constants, start = model.inputs()
    kwargs = dict(
        beam_width=3,
        constants=constants,
        alpha=alpha,
        beta=beta,
        memory_mask=model.memory_mask,
    )
    results = []
    for accelerator, block in ((True, None), (False, 2), (False, 3), (False, 5)):
        monkeypatch.setattr(module, "_on_accelerator", lambda on=accelerator: on)
        monkeypatch.setattr(module, "_block", lambda vocab, size=block: size)
        results.append(
            beam_search(model.step_fn, state, start, END, MAX_LENGTH, **kwargs)
        )
    gpu, *cpu = results
    for blocked in cpu:
        for key in ("tokens", "lengths"):
            np.testing.assert_array_equal(to_numpy(blocked[key]), to_numpy(gpu[key]))
        for key in ("scores", "attention"):
            np.testing.assert_allclose(
                to_numpy(blocked[key]), to_numpy(gpu[key]), atol=1e-5
            )


def test_beam_search_traced_for_any_batch_ranks_in_blocks_as_when_run():
    # A SavedModel's signature leaves the batch unknown: the blocked top-k
    # still gets the vocabulary's size (300, blocks of 15) and ranks as run
    # eagerly.
    if keras.backend.backend() != "tensorflow":
        pytest.skip("a trace with an unknown batch is TensorFlow's (tf.function)")
    import tensorflow as tf

    vocab = 300
    rng = np.random.default_rng(5)
    weights = keras.ops.convert_to_tensor(
        rng.normal(size=(vocab, vocab)).astype("float32")
    )

    def step(tokens, state, constants):
        (h,) = state
        logits = keras.ops.matmul(keras.ops.one_hot(tokens, vocab), weights) + h
        return logits, (h,), keras.ops.ones((keras.ops.shape(tokens)[0], 3)) / 3

    def decode(h, start):
        out = beam_search(step, (h,), start, END, 6, beam_width=4)
        return out["tokens"], out["scores"]

    traced = tf.function(
        decode,
        input_signature=[
            tf.TensorSpec((None, vocab), tf.float32),
            tf.TensorSpec((None,), tf.int32),
        ],
    )
    h = rng.normal(size=(3, vocab)).astype("float32")
    start = np.full((3,), START, "int32")
    for ours, eager in zip(
        traced(h, start), decode(keras.ops.convert_to_tensor(h), start)
    ):
        np.testing.assert_allclose(to_numpy(ours), to_numpy(eager), rtol=1e-6)


def test_sampling_compiled_with_jax_equals_eager():
    if keras.backend.backend() != "jax":
        pytest.skip(
            "TensorFlow's XLA draws other numbers than eager for a seed (documented)"
        )
    import jax

    model = ToyModel(seed=7)
    state, constants, start = model.inputs()

    def draw(state, constants, start):
        out = sample(
            model.step_fn, state, start, END, MAX_LENGTH, constants=constants, seed=3
        )
        return out["tokens"]

    eager = to_numpy(draw(state, constants, start))
    np.testing.assert_array_equal(
        eager, to_numpy(jax.jit(draw)(state, constants, start))
    )


def test_pad_is_never_generated_by_live_sequences():
    # A model that prefers the pad token: decoding must pick the next best.
    table = np.full((3, V), 0.05)
    table[:, PAD] = 0.8
    table[0, 3] = table[1, 4] = table[2, END] = 0.1
    step = FixedLogits(table / table.sum(-1, keepdims=True))
    state = (keras.ops.zeros((1,), "int32"),)
    start = np.full((1,), START, "int32")
    greedy = greedy_search(step, state, start, END, 3)
    beam = beam_search(step, state, start, END, 3, beam_width=2)
    assert to_numpy(greedy["tokens"])[0].tolist() == [3, 4, END]
    assert PAD not in to_numpy(beam["tokens"])[0, 0, : to_numpy(beam["lengths"])[0, 0]]


def test_numpy_integer_arguments_are_accepted():
    model = ToyModel(seed=6)
    state, constants, start = model.inputs()
    args = (model.step_fn, state, start)
    ints = dict(end_token=END, max_length=MAX_LENGTH, pad_token=PAD)
    numpy_ints = {k: np.int64(v) for k, v in ints.items()}
    for search, extra in (
        (greedy_search, {}),
        (beam_search, {"beam_width": 3}),
        (sample, {"top_k": 2, "seed": 1}),
    ):
        plain = search(*args, constants=constants, **ints, **extra)
        numpy = search(
            *args,
            constants=constants,
            **numpy_ints,
            **{k: np.int64(v) for k, v in extra.items()},  # the seed too
        )
        np.testing.assert_array_equal(
            to_numpy(plain["tokens"]), to_numpy(numpy["tokens"])
        )


def test_sample_inside_jax_jit_draws_afresh_from_a_key_argument():
    # The docstring used to advise a SeedGenerator here, which a raw jax.jit
    # traces once (the same tokens at every call) and whose state then leaks.
    if keras.backend.backend() != "jax":
        pytest.skip("jax.jit")
    import jax

    model = ToyModel(seed=6)
    state, constants, start = model.inputs()

    @jax.jit
    def draw(key):
        return sample(
            model.step_fn, state, start, END, MAX_LENGTH, constants=constants, seed=key
        )["tokens"]

    first, again = draw(jax.random.PRNGKey(0)), draw(jax.random.PRNGKey(0))
    others = [to_numpy(draw(jax.random.PRNGKey(n))) for n in range(1, 6)]
    np.testing.assert_array_equal(to_numpy(first), to_numpy(again))
    assert any((o != to_numpy(first)).any() for o in others)


@pytest.mark.parametrize("beam_width", [1, 3])
def test_decode_memory_is_best_hypothesis_on_the_protocols_constants(beam_width):
    model = ToyModel(seed=2)
    state, constants, start = model.inputs()
    expected = best_hypothesis(
        model.step_fn, state, start, END, MAX_LENGTH, beam_width, constants, PAD
    )
    got = decode_memory(
        model.step_fn,
        model.decoder,
        model.memory,
        START,
        END,
        MAX_LENGTH,
        memory_mask=model.memory_mask,
        beam_width=beam_width,
        pad_token=PAD,
    )
    assert set(got) == set(expected)
    for key in expected:
        np.testing.assert_allclose(to_numpy(got[key]), to_numpy(expected[key]))


def test_first_argmax_is_numpys_argmax_ties_included():
    from attention_zoo.decoding.greedy import first_argmax

    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 17)).astype("float32")
    x[:8, 3] = x[:8, 11] = 9.0  # a tie: the first index wins, as argmax
    x[8:16] = 0.0
    x[16, 5] = -0.0
    got = to_numpy(first_argmax(keras.ops.convert_to_tensor(x)))
    np.testing.assert_array_equal(got, np.argmax(x, axis=-1))


def test_write_sets_one_step_and_keeps_the_others():
    from attention_zoo.decoding._common import write

    buffer = np.arange(2 * 4 * 3, dtype="float32").reshape(2, 4, 3)
    value = np.full((2, 3), -1.0, "float32")
    got = to_numpy(write(keras.ops.convert_to_tensor(buffer), 2, value))
    expected = buffer.copy()
    expected[:, 2] = value
    np.testing.assert_array_equal(got, expected)
