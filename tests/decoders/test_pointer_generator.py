"""Copy attention (`PointerGenerator`): the mixture against a NumPy float64
reference, the extended vocabulary, teacher forcing == stepping, greedy and
beam search over the extended ids with `p_gen`, config and `.keras` round
trips, masks and mixed precision."""

import keras
import numpy as np
import pytest
from keras import ops

from attention_zoo.decoders import (
    AttentionRNNDecoder,
    PointerGenerator,
    extended_source_ids,
)
from attention_zoo.decoding import beam_search, greedy_search, make_copy_step_fn
from attention_zoo.layers import BahdanauAttention, CoverageAttention
from tests.helpers import to_numpy

V, TX, D, H, E = 5, 3, 4, 6, 2


def reference(logits, attention, memory, output, inputs, ids, kernel, bias):
    """The See et al. (2017) mixture in float64, one loop per source word."""
    logits, attention = np.float64(logits), np.float64(attention)
    pattern = "bi,bid->bd" if attention.ndim == 2 else "bti,bid->btd"
    context = np.einsum(pattern, attention, np.float64(memory))
    features = np.concatenate([context, np.float64(output), np.float64(inputs)], -1)
    p_gen = 1 / (1 + np.exp(-(features @ np.float64(kernel) + np.float64(bias))))
    vocab = np.exp(logits - logits.max(-1, keepdims=True))
    vocab /= vocab.sum(-1, keepdims=True)
    final = np.concatenate([vocab, np.zeros(vocab.shape[:-1] + (TX,))], -1) * p_gen
    for b in range(ids.shape[0]):
        for i in range(TX):
            final[b, ..., ids[b, i]] += (1 - p_gen[b, ..., 0]) * attention[b, ..., i]
    return final, p_gen


def hand_sized(seed=0, steps=None):
    rng = np.random.default_rng(seed)
    lead = (2,) if steps is None else (2, steps)
    attention = rng.random(lead + (TX,))
    attention /= attention.sum(-1, keepdims=True)
    return (
        rng.normal(size=lead + (V,)).astype("float32"),
        attention.astype("float32"),
        rng.normal(size=(2, TX, D)).astype("float32"),
        rng.normal(size=lead + (H,)).astype("float32"),
        rng.normal(size=lead + (E,)).astype("float32"),
        # Row 0: an in-vocabulary word, an unknown word twice (both at
        # position 1's id). Row 1: the same known word twice, one unknown.
        np.array([[2, V + 1, V + 1], [3, 3, V + 2]], "int32"),
    )


@pytest.mark.parametrize("steps", [None, 4], ids=["one-step", "sequence"])
def test_the_mixture_matches_a_float64_reference(steps):
    inputs = hand_sized(steps=steps)
    layer = PointerGenerator(V)
    probs, p_gen = layer(*inputs, return_p_gen=True)
    kernel, bias = (to_numpy(w) for w in layer._gate.weights)
    expected, expected_gate = reference(*inputs, kernel, bias)
    np.testing.assert_allclose(to_numpy(probs), expected, atol=1e-6)
    np.testing.assert_allclose(to_numpy(p_gen), expected_gate, atol=1e-6)
    np.testing.assert_allclose(to_numpy(probs).sum(-1), 1.0, atol=1e-5)


def test_an_unknown_word_at_two_positions_gets_both_weights_on_one_id():
    logits, attention, memory, output, inputs, ids = hand_sized()
    layer = PointerGenerator(V)
    probs, p_gen = (to_numpy(x) for x in layer(*hand_sized(), return_p_gen=True))
    copy = 1 - p_gen[0, 0]
    # Row 0, ids [2, V+1, V+1]: id V+1 holds positions 1 and 2.
    np.testing.assert_allclose(
        probs[0, V + 1], copy * (attention[0, 1] + attention[0, 2]), rtol=1e-5
    )
    assert probs[0, V] == 0 and probs[0, V + 2] == 0
    # A known word copied adds to what the vocabulary gives it.
    assert probs[1, 3] > probs[1, 4]


def test_log_probs_are_floored_and_the_sequence_form_equals_the_steps():
    inputs = hand_sized(steps=3)
    layer = PointerGenerator(V, epsilon=1e-7)
    full = to_numpy(layer(*inputs, return_log_probs=True))
    assert np.isfinite(full).all() and full.min() >= np.log(1e-7) - 1e-6
    for t in range(3):
        step = [inputs[0][:, t], inputs[1][:, t], inputs[2], inputs[3][:, t]]
        step += [inputs[4][:, t], inputs[5]]
        np.testing.assert_allclose(
            to_numpy(layer(*step, return_log_probs=True)), full[:, t], atol=1e-5
        )


def test_extended_source_ids():
    index = {"<pad>": 0, "<unk>": 1, "the": 2, "tool": 3}
    ids, extended = extended_source_ids(
        ["the", "zork", "tool", "zork", "emacs"], index, 1, 4
    )
    assert ids == [2, 1, 3, 1, 1]
    assert extended == [2, 5, 3, 5, 8]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"vocab_size": 0}, "`vocab_size` must be a positive integer"),
        ({"vocab_size": 2.5}, "`vocab_size` must be a positive integer"),
        ({"vocab_size": 5, "epsilon": 0.0}, r"`epsilon` must be a number in \(0, 1\)"),
    ],
)
def test_bad_arguments_are_refused_by_name(kwargs, message):
    with pytest.raises(ValueError, match=message):
        PointerGenerator(**kwargs)


def test_shapes_that_do_not_fit_are_refused_by_name():
    logits, attention, memory, output, inputs, ids = hand_sized()
    layer = PointerGenerator(V)
    with pytest.raises(ValueError, match="last axis of `logits` must be vocab_size=5"):
        layer(logits[:, :4], attention, memory, output, inputs, ids)
    with pytest.raises(ValueError, match="the same source length Tx"):
        layer(logits, attention, memory[:, :2], output, inputs, ids)


def copy_model(mechanism="bahdanau"):
    """A tiny teacher-forced copy model and the layers its step reuses."""
    source = keras.Input((TX,), dtype="int32", name="source")
    extended = keras.Input((TX,), dtype="int32", name="extended")
    target = keras.Input((None,), dtype="int32", name="target")
    memory = keras.layers.Embedding(V, D, name="source_embedding")(source)
    embedding = keras.layers.Embedding(V, E, name="target_embedding")
    embedded = embedding(target)
    attention = (
        CoverageAttention(4, name="attention")
        if mechanism == "coverage"
        else BahdanauAttention(4, name="attention")
    )
    decoder = AttentionRNNDecoder(keras.layers.GRUCell(H), attention, name="decoder")
    outputs, alignments, _ = decoder(embedded, memory)
    logits = keras.layers.Dense(V, name="logits")(outputs)
    probs = PointerGenerator(V, name="copy")(
        logits, alignments, memory, outputs, embedded, extended
    )
    return keras.Model([source, extended, target], probs)


def test_teacher_forcing_equals_stepping_and_the_searches_decode_extended_ids():
    model = copy_model()
    rng = np.random.default_rng(1)
    source = rng.integers(2, V, size=(2, TX)).astype("int32")
    extended = np.array([[2, V + 1, 3], [V, 4, V]], "int32")
    target = np.array([[1, 3, V + 1, 2], [1, V, 4, 3]], "int32")  # copied ids fed back
    known = np.where(target >= V, 1, target)  # the model reads <unk> = 1
    forced = to_numpy(model([source, extended, known]))
    decoder, embedding = model.get_layer("decoder"), model.get_layer("target_embedding")
    step_fn = make_copy_step_fn(
        decoder, embedding, model.get_layer("logits"), model.get_layer("copy"), unk_id=1
    )
    memory = model.get_layer("source_embedding")(source)
    constants = (decoder.get_constants(memory), memory, extended)
    state = decoder.get_initial_state(memory)
    for t in range(target.shape[1]):
        log_probs, state, trace = step_fn(target[:, t], state, constants)
        np.testing.assert_allclose(np.exp(to_numpy(log_probs)), forced[:, t], atol=1e-5)
        assert set(trace) == {"attention", "p_gen"}
    start = np.ones((2,), "int32")
    greedy = greedy_search(
        step_fn, decoder.get_initial_state(memory), start, 2, 5, constants
    )
    assert to_numpy(greedy["tokens"]).max() < V + TX
    assert tuple(greedy["p_gen"].shape) == (2, 5, 1)
    p_gen = to_numpy(greedy["p_gen"])
    lengths = to_numpy(greedy["lengths"])
    assert ((p_gen[0, : lengths[0]] > 0) & (p_gen[0, : lengths[0]] < 1)).all()
    beam = beam_search(
        step_fn, decoder.get_initial_state(memory), start, 2, 5, 3, constants
    )
    assert tuple(beam["p_gen"].shape) == (2, 3, 5, 1)
    assert tuple(beam["attention"].shape) == (2, 3, 5, TX)
    # Beam 1 is greedy search, p_gen included.
    narrow = beam_search(
        step_fn, decoder.get_initial_state(memory), start, 2, 5, 1, constants
    )
    np.testing.assert_array_equal(
        to_numpy(narrow["tokens"])[:, 0], to_numpy(greedy["tokens"])
    )
    np.testing.assert_allclose(to_numpy(narrow["p_gen"])[:, 0], p_gen, atol=1e-5)


def test_config_and_keras_file_round_trips(tmp_path):
    model = copy_model("coverage")
    layer = model.get_layer("copy")
    clone = PointerGenerator.from_config(layer.get_config())
    assert clone.get_config() == layer.get_config()
    rng = np.random.default_rng(2)
    inputs = [
        rng.integers(2, V, size=(3, TX)).astype("int32"),
        np.array([[2, V + 1, V + 1]] * 3, "int32"),
        rng.integers(1, V, size=(3, 4)).astype("int32"),
    ]
    path = tmp_path / "copy.keras"
    model.save(path)
    loaded = keras.saving.load_model(path)
    np.testing.assert_allclose(
        to_numpy(loaded(inputs)), to_numpy(model(inputs)), atol=1e-6
    )


def test_masked_source_positions_are_never_copied():
    logits, attention, memory, output, inputs, ids = hand_sized()
    attention = attention.copy()
    attention[:, 2] = 0  # a padded position: the attention gives it nothing
    attention /= attention.sum(-1, keepdims=True)
    probs = to_numpy(
        PointerGenerator(V)(logits, attention, memory, output, inputs, ids)
    )
    assert probs[1, V + 2] == 0  # row 1's unknown word sat at the padding
    np.testing.assert_allclose(probs.sum(-1), 1.0, atol=1e-5)


def test_mixed_precision_gives_a_float32_distribution():
    policy = keras.config.dtype_policy()
    keras.config.set_dtype_policy("mixed_float16")
    try:
        layer = PointerGenerator(V)
        probs, p_gen = layer(*hand_sized(steps=2), return_p_gen=True)
    finally:
        keras.config.set_dtype_policy(policy)
    assert keras.backend.standardize_dtype(probs.dtype) == "float32"
    assert keras.backend.standardize_dtype(p_gen.dtype) == "float32"
    np.testing.assert_allclose(to_numpy(probs).sum(-1), 1.0, atol=1e-3)


def test_gradients_reach_the_gate_and_stay_finite():
    from tests.helpers import gradients

    inputs = hand_sized(steps=2)
    layer = PointerGenerator(V)
    layer(*inputs)
    grads = gradients(
        layer,
        inputs,
        {"return_log_probs": True},
        lambda log_probs: -ops.mean(log_probs[..., V + 1]),
    )
    assert all(g is None or np.isfinite(g).all() for g in grads)
    kernel = grads[-2]
    assert np.abs(kernel).sum() > 0
