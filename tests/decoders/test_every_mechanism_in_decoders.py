"""Every attention mechanism inside the decoders and beam search.

Mechanisms with a state across steps (location-sensitive, coverage,
monotonic, local-m) have it carried in the decoder state: teacher forcing must
equal step-by-step decoding, beam search must keep each hypothesis's state
(its replayed attention equals the attention it returned), and a trained
model must survive `.keras` saving. Decoders with several mechanisms are
checked the same way.
"""

from __future__ import annotations

import keras
import numpy as np
import pytest

from attention_zoo.decoders import (
    AttentionRNNDecoder,
    ParallelAttentionDecoder,
    ShowAttendTellDecoder,
)
from attention_zoo.decoding import beam_search, make_step_fn
from attention_zoo.layers import (
    BahdanauAttention,
    CoverageAttention,
    LocalAttention,
    LocationSensitiveAttention,
    LuongAttention,
    MonotonicAttention,
    MonotonicChunkwiseAttention,
)
from tests.helpers import to_numpy

B, TY, TX, TX2, E, DM, DM2, UNITS, V = 3, 5, 6, 4, 4, 7, 3, 8, 7
START, END = 1, 2

# name -> attention factory
MECHANISMS = {
    "bahdanau": lambda: BahdanauAttention(UNITS),
    "luong_general": lambda: LuongAttention("general"),
    "local_m": lambda: LocalAttention("local-m", window=1),
    "local_p": lambda: LocalAttention(
        "local-p", window=2, score_mode="concat", units=5
    ),
    "location": lambda: LocationSensitiveAttention(
        UNITS, filters=3, kernel_size=3, cumulative=True
    ),
    "coverage": lambda: CoverageAttention(UNITS),
    "monotonic": lambda: MonotonicAttention(UNITS, score_bias_init=1.0),
    "monotonic_luong_expected": lambda: MonotonicAttention(
        score_mode="luong", inference="expected"
    ),
    "mocha": lambda: MonotonicChunkwiseAttention(2, UNITS, score_bias_init=1.0),
}
# Alignments of these mechanisms sum to 1 at every real step.
SUMS_TO_ONE = {"bahdanau", "luong_general", "local_m", "location", "coverage"}

DECODERS = {
    "bahdanau_style": lambda attention: AttentionRNNDecoder(
        keras.layers.GRUCell(UNITS), attention
    ),
    "luong_input_feeding": lambda attention: AttentionRNNDecoder(
        keras.layers.LSTMCell(UNITS), attention, style="luong", input_feeding=True
    ),
    "parallel": lambda attention: ParallelAttentionDecoder(
        keras.layers.GRUCell(UNITS), attention
    ),
}


def cases():
    """(mechanism, decoder) pairs: every mechanism in two decoder forms."""
    out = []
    for name in MECHANISMS:
        out.append((name, "bahdanau_style"))
        out.append((name, "parallel"))
    out.append(("bahdanau", "luong_input_feeding"))
    return out


parametrize_cases = pytest.mark.parametrize(
    "mechanism,decoder_form", cases(), ids=[f"{m}-{d}" for m, d in cases()]
)


def inputs(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(B, TY, E)).astype("float32")
    memory = rng.normal(size=(B, TX, DM)).astype("float32")
    memory_mask = np.ones((B, TX), bool)
    memory_mask[1, 3:] = False
    memory_mask[2, 5:] = False
    return x, memory, memory_mask


def randomize(layer, seed=5, scale=0.5):
    rng = np.random.default_rng(seed)
    layer.set_weights(
        [
            rng.normal(scale=scale, size=w.shape).astype(w.dtype)
            for w in layer.get_weights()
        ]
    )


def built(mechanism, decoder_form):
    decoder = DECODERS[decoder_form](MECHANISMS[mechanism]())
    x, memory, _ = inputs()
    decoder(x, memory)
    randomize(decoder)
    return decoder


def step_by_step(decoder, x, memory, memory_mask):
    constants = decoder.get_constants(memory, memory_mask)
    states = decoder.get_initial_state(memory, memory_mask)
    outputs, alignments = [], []
    for t in range(x.shape[1]):
        output, states, alignment = decoder.step(x[:, t], states, constants)
        outputs.append(to_numpy(output))
        alignments.append(to_numpy(alignment))
    return np.stack(outputs, 1), np.stack(alignments, 1), [to_numpy(s) for s in states]


@parametrize_cases
def test_teacher_forced_equals_step_by_step(mechanism, decoder_form):
    decoder = built(mechanism, decoder_form)
    x, memory, memory_mask = inputs(seed=1)
    outputs, alignments, states = decoder(x, memory, memory_mask=memory_mask)
    step_outputs, step_alignments, step_states = step_by_step(
        decoder, x, memory, memory_mask
    )
    np.testing.assert_allclose(to_numpy(outputs), step_outputs, atol=1e-5)
    np.testing.assert_allclose(to_numpy(alignments), step_alignments, atol=1e-5)
    # The final states include the attention's own state.
    n_attention_states = decoder.attention.num_states
    assert len(states) == len(step_states)
    assert len(states) >= n_attention_states
    for a, b in zip(states, step_states):
        np.testing.assert_allclose(to_numpy(a), b, atol=1e-5)
    alignments = to_numpy(alignments)
    assert (
        alignments[~np.broadcast_to(memory_mask[:, None], alignments.shape)] == 0
    ).all()
    if mechanism in SUMS_TO_ONE:
        np.testing.assert_allclose(alignments.sum(-1), 1.0, atol=1e-5)


class Toy:
    """Embedding + decoder + output layer with random weights."""

    def __init__(self, decoder, memory, seed=0):
        keras.utils.set_random_seed(seed)
        self.embedding = keras.layers.Embedding(V, E)
        self.decoder = decoder
        self.output = keras.layers.Dense(V)
        self.output(self.decoder(self.embedding(np.zeros((B, 1), "int32")), memory)[0])
        for i, layer in enumerate((self.embedding, self.decoder, self.output)):
            randomize(layer, seed=seed + i, scale=1.0)
        self.step_fn = make_step_fn(self.decoder, self.embedding, self.output)

    def replay(self, memory, memory_mask, tokens):
        """Attention of each step when feeding `tokens` (N, T) back in."""
        constants = self.decoder.get_constants(memory, memory_mask)
        state = self.decoder.get_initial_state(memory, memory_mask)
        previous = np.full((tokens.shape[0],), START, "int32")
        attention = []
        for t in range(tokens.shape[1]):
            _, state, att = self.step_fn(previous, state, constants)
            attention.append(to_numpy(att))
            previous = tokens[:, t]
        return np.stack(attention, 1)


@parametrize_cases
def test_beam_search_keeps_each_hypothesis_state(mechanism, decoder_form):
    _, memory, memory_mask = inputs(seed=2)
    toy = Toy(DECODERS[decoder_form](MECHANISMS[mechanism]()), memory)
    constants = toy.decoder.get_constants(memory, memory_mask)
    state = toy.decoder.get_initial_state(memory, memory_mask)
    start = np.full((B,), START, "int32")
    k = 3
    result = beam_search(
        toy.step_fn, state, start, END, TY, beam_width=k, constants=constants
    )
    tokens = to_numpy(result["tokens"])  # (B, K, T)
    lengths = to_numpy(result["lengths"])
    attention = to_numpy(result["attention"])  # (B, K, T, Tx)
    # Replaying every hypothesis alone through the decoder gives back the
    # attention the beam returned for it: the state followed its hypothesis.
    rows = np.repeat(np.arange(B), k)
    replayed = toy.replay(
        memory[rows], memory_mask[rows], tokens.reshape(B * k, -1)
    ).reshape(B, k, TY, -1)
    for b in range(B):
        for h in range(k):
            n = lengths[b, h]
            np.testing.assert_allclose(
                attention[b, h, :n], replayed[b, h, :n], atol=1e-5
            )


def test_stateful_mechanism_with_show_attend_tell_decoder():
    """The Show, Attend and Tell decoder carries states the same way."""
    if "coverage" not in MECHANISMS:
        pytest.skip("no stateful mechanism registered")
    decoder = ShowAttendTellDecoder(
        keras.layers.LSTMCell(UNITS), MECHANISMS["coverage"]()
    )
    x, memory, memory_mask = inputs(seed=3)
    decoder(x, memory)
    randomize(decoder)
    outputs, alignments, states = decoder(x, memory, memory_mask=memory_mask)
    step_outputs, step_alignments, _ = step_by_step(decoder, x, memory, memory_mask)
    np.testing.assert_allclose(to_numpy(outputs), step_outputs, atol=1e-5)
    np.testing.assert_allclose(to_numpy(alignments), step_alignments, atol=1e-5)


# ------------------------------------------------------ several mechanisms


def two_memories(seed=4):
    rng = np.random.default_rng(seed)
    x, memory, memory_mask = inputs(seed)
    memory2 = rng.normal(size=(B, TX2, DM2)).astype("float32")
    mask2 = np.ones((B, TX2), bool)
    mask2[0, 2:] = False
    return x, [memory, memory2], [memory_mask, mask2]


MULTI = {
    "bahdanau_style": lambda: AttentionRNNDecoder(
        keras.layers.GRUCell(UNITS),
        [BahdanauAttention(UNITS), LuongAttention("general")],
    ),
    "parallel": lambda: ParallelAttentionDecoder(
        keras.layers.GRUCell(UNITS),
        [LuongAttention("general"), BahdanauAttention(5)],
        initial_state="mean_memory",
    ),
}


@pytest.mark.parametrize("form", list(MULTI))
def test_several_mechanisms_over_different_memories(form):
    decoder = MULTI[form]()
    x, memories, masks = two_memories()
    decoder(x, memories)
    randomize(decoder)
    outputs, alignments, states = decoder(x, memories, memory_mask=masks)
    assert tuple(alignments.shape) == (B, TY, TX + TX2)
    first, second = decoder.split_alignments(alignments)
    first, second = to_numpy(first), to_numpy(second)
    np.testing.assert_allclose(first.sum(-1), 1.0, atol=1e-5)
    np.testing.assert_allclose(second.sum(-1), 1.0, atol=1e-5)
    assert (second[0, :, 2:] == 0).all()  # the second memory's own mask
    step_outputs, step_alignments, _ = step_by_step(decoder, x, memories, masks)
    np.testing.assert_allclose(to_numpy(outputs), step_outputs, atol=1e-5)
    np.testing.assert_allclose(to_numpy(alignments), step_alignments, atol=1e-5)


def test_several_mechanisms_share_one_memory_and_concatenate_contexts():
    decoder = AttentionRNNDecoder(
        keras.layers.GRUCell(UNITS),
        [BahdanauAttention(UNITS), LuongAttention("general")],
    )
    x, memory, memory_mask = inputs(seed=5)
    outputs, alignments, _ = decoder(x, memory, memory_mask=memory_mask)
    # Bahdanau style output [s_t; c_t] with c_t = [c_t^1; c_t^2].
    assert tuple(outputs.shape) == (B, TY, UNITS + 2 * DM)
    assert tuple(alignments.shape) == (B, TY, 2 * TX)
    contexts = to_numpy(outputs)[..., UNITS:]
    first, second = decoder.split_alignments(alignments)
    np.testing.assert_allclose(
        contexts[..., :DM],
        np.einsum("btx,bxd->btd", to_numpy(first), memory),
        atol=1e-5,
    )
    np.testing.assert_allclose(
        contexts[..., DM:],
        np.einsum("btx,bxd->btd", to_numpy(second), memory),
        atol=1e-5,
    )


def test_several_mechanisms_fit_save_load_and_beam_search(tmp_path):
    from attention_zoo.losses import MaskedSequenceCrossEntropy

    keras.utils.set_random_seed(0)
    source = keras.Input((TX,), dtype="int32")
    source2 = keras.Input((TX2, DM2))
    target = keras.Input((None,), dtype="int32")
    memory = keras.layers.Embedding(V, DM, mask_zero=True, name="source_embedding")(
        source
    )
    embedded = keras.layers.Embedding(V, E, name="target_embedding")(target)
    decoder = AttentionRNNDecoder(
        keras.layers.GRUCell(UNITS),
        [BahdanauAttention(UNITS), LuongAttention("general")],
        name="decoder",
    )
    outputs, alignments, _ = decoder(embedded, [memory, source2])
    logits = keras.layers.Dense(V, name="logits")(outputs)
    model = keras.Model([source, source2, target], [logits, alignments])
    model.compile("adam", loss=[MaskedSequenceCrossEntropy(), None])
    rng = np.random.default_rng(0)
    tokens = rng.integers(1, V, size=(8, TX)).astype("int32")
    tokens[0, 4:] = 0
    features = rng.normal(size=(8, TX2, DM2)).astype("float32")
    labels = rng.integers(1, V, size=(8, TY)).astype("int32")
    history = model.fit([tokens, features, labels], labels, epochs=2, verbose=0)
    assert np.isfinite(history.history["loss"]).all()
    _, predicted_alignments = model.predict([tokens, features, labels], verbose=0)
    assert (predicted_alignments[0, :, 4:TX] == 0).all()  # the Embedding mask
    path = tmp_path / "multi.keras"
    model.save(path)
    loaded = keras.saving.load_model(path)
    for a, b in zip(
        model.predict([tokens, features, labels], verbose=0),
        loaded.predict([tokens, features, labels], verbose=0),
    ):
        np.testing.assert_array_equal(a, b)
    # Beam search over the two memories, with the loaded layers.
    loaded_decoder = loaded.get_layer("decoder")
    step_fn = make_step_fn(
        loaded_decoder,
        loaded.get_layer("target_embedding"),
        loaded.get_layer("logits"),
    )
    token_mask = tokens != 0
    memories = [loaded.get_layer("source_embedding")(tokens), features]
    masks = [token_mask, None]
    k = 2
    result = beam_search(
        step_fn,
        loaded_decoder.get_initial_state(memories, masks),
        np.full((8,), START, "int32"),
        END,
        TY,
        beam_width=k,
        constants=loaded_decoder.get_constants(memories, masks),
    )
    attention = to_numpy(result["attention"])  # (8, K, T, TX + TX2)
    assert attention.shape == (8, k, TY, TX + TX2)
    assert np.isfinite(attention).all()
    first, second = loaded_decoder.split_alignments(attention)
    live = np.arange(TY)[None, None, :] < to_numpy(result["lengths"])[:, :, None]
    np.testing.assert_allclose(to_numpy(first).sum(-1)[live], 1.0, atol=1e-5)
    np.testing.assert_allclose(to_numpy(second).sum(-1)[live], 1.0, atol=1e-5)
    assert (to_numpy(first)[0, :, :, 4:] == 0).all()


def test_memory_list_of_wrong_length_is_refused():
    decoder = AttentionRNNDecoder(
        keras.layers.GRUCell(UNITS),
        [BahdanauAttention(UNITS), LuongAttention("general")],
    )
    x, memory, _ = inputs()
    with pytest.raises(ValueError, match="`memory` must be one tensor shared by the 2"):
        decoder(x, [memory, memory, memory])


def test_empty_attention_list_is_refused():
    with pytest.raises(ValueError, match="non-empty list"):
        AttentionRNNDecoder(keras.layers.GRUCell(UNITS), [])


@pytest.mark.parametrize("decoder_form", ["bahdanau_style", "luong_input_feeding"])
def test_attention_dropout_trains_inside_the_recurrence(decoder_form):
    """One dropout mask per sequence, drawn outside the scan: `fit` works on
    every backend (a draw inside a JAX scan leaked a tracer)."""
    keras.utils.set_random_seed(0)
    tokens = keras.Input((None, E))
    memory = keras.Input((TX, DM))
    decoder = DECODERS[decoder_form](BahdanauAttention(UNITS, dropout=0.5, seed=3))
    outputs, alignments, _ = decoder(tokens, memory)
    model = keras.Model([tokens, memory], keras.layers.Dense(2)(outputs))
    model.compile("adam", "mse")
    x, mem, _ = inputs(seed=6)
    y = np.random.default_rng(0).normal(size=(B, TY, 2)).astype("float32")
    history = model.fit([x, mem], y, epochs=2, verbose=0)
    assert np.isfinite(history.history["loss"]).all()
    inference = to_numpy(decoder(x, mem)[0])
    np.testing.assert_array_equal(inference, to_numpy(decoder(x, mem)[0]))
    assert not np.allclose(to_numpy(decoder(x, mem, training=True)[0]), inference)
    # The returned alignments are those before dropout.
    _, train_alignments, _ = decoder(x, mem, training=True)
    np.testing.assert_allclose(to_numpy(train_alignments).sum(-1), 1.0, atol=1e-5)
    # One mask per sequence, the same at every step: a training call equals
    # stepping with the mask its mechanism draws from the same seed state.
    # The masks travel as arguments, so nothing of the call stays on the layer.
    (mechanism,) = decoder._mechanisms
    saved = to_numpy(mechanism.seed_generator.state)
    trained = to_numpy(decoder(x, mem, training=True)[0])
    mechanism.seed_generator.state.assign(saved)
    masks = [mechanism.dropout_mask(keras.ops.convert_to_tensor(mem))]
    constants = decoder.get_constants(mem)
    states = decoder.get_initial_state(mem)
    stepped = []
    for t in range(TY):
        output, states, _ = decoder.step(
            x[:, t], states, constants, training=True, dropout_masks=masks
        )
        stepped.append(to_numpy(output))
    np.testing.assert_allclose(np.stack(stepped, 1), trained, atol=1e-5)
    # Another call draws another mask.
    assert not np.allclose(to_numpy(decoder(x, mem, training=True)[0]), trained)
    assert not hasattr(decoder, "_dropout_masks")


@pytest.mark.parametrize("decoder_form", ["bahdanau_style", "parallel"])
def test_noise_drawn_per_step_trains_in_every_decoder(decoder_form):
    """Sigmoid noise drawn at every step (recurrent and parallel decoder):
    `fit` works on every backend (a draw inside a traced JAX scan would leak a tracer), and
    training calls differ from each other and from inference."""
    x, memory, _ = inputs(seed=7)
    y = np.random.default_rng(1).normal(size=(B, TY, 2)).astype("float32")
    decoder = DECODERS[decoder_form](
        MonotonicAttention(UNITS, sigmoid_noise=1.0, score_bias_init=1.0, seed=2)
    )
    tokens, mem = keras.Input((None, E)), keras.Input((TX, DM))
    outputs, _, _ = decoder(tokens, mem)
    model = keras.Model([tokens, mem], keras.layers.Dense(2)(outputs))
    model.compile("adam", "mse")
    history = model.fit([x, memory], y, epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"]).all()
    first = to_numpy(decoder(x, memory, training=True)[1])
    second = to_numpy(decoder(x, memory, training=True)[1])
    inference = to_numpy(decoder(x, memory)[1])
    assert not np.allclose(first, second)
    assert not np.allclose(first, inference)


@pytest.mark.parametrize("decoder_form", ["bahdanau_style", "luong_input_feeding"])
def test_teacher_forcing_hands_each_step_its_noise(decoder_form):
    """The noise drawn before the recurrence reaches the right step: teacher
    forcing with a given noise equals stepping with its slices."""
    decoder = DECODERS[decoder_form](
        MonotonicAttention(UNITS, sigmoid_noise=2.0, score_bias_init=1.0, seed=2)
    )
    x, memory, memory_mask = inputs(seed=3)
    decoder(x, memory)
    randomize(decoder)
    mechanism = decoder.attention
    noise = np.random.default_rng(4).normal(size=(B, TY, TX)).astype("float32")
    mechanism.per_step_inputs = lambda steps, value, training=None: (
        noise if training else None
    )
    outputs, alignments, _ = decoder(x, memory, memory_mask=memory_mask, training=True)
    constants = decoder.get_constants(memory, memory_mask)
    states = decoder.get_initial_state(memory, memory_mask)
    for t in range(TY):
        output, states, alignment = decoder.step(
            x[:, t], states, constants, training=True, step_inputs=[noise[:, t]]
        )
        np.testing.assert_allclose(to_numpy(output), to_numpy(outputs)[:, t], atol=1e-5)
        np.testing.assert_allclose(
            to_numpy(alignment), to_numpy(alignments)[:, t], atol=1e-5
        )
    # The noise matters: another draw gives other alignments.
    noise = noise[::-1].copy()
    assert not np.allclose(
        to_numpy(decoder(x, memory, memory_mask=memory_mask, training=True)[1]),
        to_numpy(alignments),
    )


@parametrize_cases
def test_masked_target_steps_keep_every_state(mechanism, decoder_form):
    """A target of 3 real steps ends with the states (attention's included)
    of its third step, and its masked steps emit zeros."""
    decoder = built(mechanism, decoder_form)
    x, memory, memory_mask = inputs(seed=8)
    inputs_mask = np.ones((B, TY), bool)
    inputs_mask[0, 3:] = False
    outputs, alignments, states = decoder(
        x, memory, inputs_mask=inputs_mask, memory_mask=memory_mask
    )
    assert (to_numpy(outputs)[0, 3:] == 0).all()
    assert (to_numpy(alignments)[0, 3:] == 0).all()
    _, _, short_states = step_by_step(decoder, x[:1, :3], memory[:1], memory_mask[:1])
    for state, expected in zip(states, short_states):
        np.testing.assert_allclose(to_numpy(state)[:1], expected, atol=1e-5)


@pytest.mark.parametrize("policy", ["mixed_float16", "mixed_bfloat16"])
@pytest.mark.parametrize("mechanism", ["location", "coverage", "monotonic", "local_m"])
def test_stateful_mechanisms_under_mixed_precision(mechanism, policy):
    keras.config.set_dtype_policy(policy)
    x, memory, memory_mask = inputs(seed=9)
    for form in ("bahdanau_style", "parallel"):
        decoder = DECODERS[form](MECHANISMS[mechanism]())
        outputs, alignments, states = decoder(x, memory, memory_mask=memory_mask)
        assert keras.backend.standardize_dtype(outputs.dtype) == policy.split("_")[1]
        for tensor in (outputs, alignments, *states):
            values = to_numpy(keras.ops.cast(tensor, "float32"))
            assert np.isfinite(values).all()
        step_outputs, _, _ = step_by_step(decoder, x, memory, memory_mask)
        assert np.isfinite(step_outputs.astype("float32")).all()
