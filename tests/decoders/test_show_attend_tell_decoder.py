import keras
import numpy as np
import pytest

from attention_zoo.decoders import ShowAttendTellDecoder
from attention_zoo.layers import BahdanauAttention, LuongAttention
from attention_zoo.losses import (
    DoublyStochasticAttentionLoss,
    MaskedSequenceCrossEntropy,
)
from tests import numpy_reference as ref
from tests.decoders.battery import DecoderBattery
from tests.helpers import gradients, to_numpy

B, TY, L, E, D, UNITS = 3, 5, 9, 4, 7, 8

CONFIGS = {
    "gate_deep_output": dict(),
    "no_gate": dict(gate=False),
    "no_deep_output": dict(deep_output=False),
    "zeros_luong_score": dict(initial_state="zeros", score="luong"),
    "context_dropout": dict(context_dropout=0.5, seed=3),
}
parametrize_configs = pytest.mark.parametrize("name", list(CONFIGS))


def make(name, **extra):
    kwargs = dict(CONFIGS[name], **extra)
    score = kwargs.pop("score", "bahdanau")
    attention = (
        BahdanauAttention(UNITS) if score == "bahdanau" else LuongAttention("general")
    )
    return ShowAttendTellDecoder(keras.layers.LSTMCell(UNITS), attention, **kwargs)


BATTERY = DecoderBattery({name: (lambda name=name: make(name)) for name in CONFIGS})


@parametrize_configs
class TestShowAttendTellDecoderContract:
    """The decoder battery's checks (tests/decoders/battery.py), per decoder."""

    def test_implements_the_step_decoder_protocol(self, name):
        BATTERY.check_implements_the_step_decoder_protocol(name)

    def test_teacher_forced_equals_step_by_step(self, name):
        BATTERY.check_teacher_forced_equals_step_by_step(name)

    def test_greedy_and_beam_search_run_through_the_protocol(self, name):
        BATTERY.check_greedy_and_beam_search_run_through_the_protocol(name)

    def test_get_config_round_trip(self, name):
        BATTERY.check_get_config_round_trip(name)

    def test_keras_save_and_load_give_identical_outputs(self, name, tmp_path):
        BATTERY.check_keras_save_and_load_give_identical_outputs(name, tmp_path)


def inputs(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(B, TY, E)).astype("float32")
    memory = rng.normal(size=(B, L, D)).astype("float32")
    memory_mask = np.ones((B, L), bool)
    memory_mask[1, 6:] = False
    inputs_mask = np.ones((B, TY), bool)
    inputs_mask[0, 3:] = False
    return x, memory, inputs_mask, memory_mask


def built(name):
    decoder = make(name)
    x, memory, _, _ = inputs()
    decoder(x, memory)
    rng = np.random.default_rng(5)
    decoder.set_weights(
        [
            rng.normal(scale=0.5, size=w.shape).astype(w.dtype)
            for w in decoder.get_weights()
        ]
    )
    return decoder


def _w(v):
    return to_numpy(v).astype("float64")


def reference(decoder, x, memory, memory_mask, keep=None):
    """NumPy float64 outputs, alignments and final (h, c); `keep` (B, Ty, 1)
    scales the context the LSTM sees at each step (context dropout)."""
    cell = decoder.cell
    lstm = (_w(cell.kernel), _w(cell.recurrent_kernel), _w(cell.bias))
    # h_0, c_0: tanh MLPs of the mean over the unmasked memory positions.
    mean = (memory * memory_mask[:, :, None]).sum(1) / memory_mask.sum(1)[:, None]
    h, c = (
        np.tanh(mean @ _w(d.kernel) + _w(d.bias)) for d in decoder._initial_state_denses
    )
    all_outputs, all_weights = [], []
    for t in range(TY):
        scores = ref.layer_scores(decoder.attention, h[:, None, :], memory)
        context, weights = ref.attention(scores, memory, None, memory_mask)
        context = context[:, 0]
        if decoder.gate:
            gate = decoder._gate_dense
            context = ref.sigmoid(h @ _w(gate.kernel) + _w(gate.bias)) * context
        cell_context = context if keep is None else keep[:, t] * context
        h, c = ref.lstm_step(np.concatenate([x[:, t], cell_context], -1), h, c, *lstm)
        if decoder.deep_output:
            expected = (
                x[:, t]
                + h @ _w(decoder._hidden_output_dense.kernel)
                + context @ _w(decoder._context_output_dense.kernel)
            )
        else:
            expected = np.concatenate([h, context], -1)
        all_outputs.append(expected)
        all_weights.append(weights[:, 0])
    return np.stack(all_outputs, 1), np.stack(all_weights, 1), h, c


@pytest.mark.parametrize("name", ["gate_deep_output", "no_gate", "no_deep_output"])
def test_matches_numpy_float64_reference(name):
    decoder = built(name)
    x, memory, _, memory_mask = inputs(seed=7)
    outputs, alignments, states = decoder(x, memory, memory_mask=memory_mask)
    expected, weights, h, c = reference(decoder, x, memory, memory_mask)
    np.testing.assert_allclose(to_numpy(alignments), weights, atol=1e-5)
    np.testing.assert_allclose(to_numpy(outputs), expected, atol=1e-5)
    np.testing.assert_allclose(to_numpy(states[0]), h, atol=1e-5)
    np.testing.assert_allclose(to_numpy(states[1]), c, atol=1e-5)


def test_context_dropout_hides_the_context_from_the_lstm_only():
    decoder = built("context_dropout")
    x, memory, _, memory_mask = inputs(seed=8)
    keep = np.array([[2, 0, 2, 2, 0], [0, 0, 2, 0, 2], [2, 2, 2, 2, 2]], "float32")
    keep = keep[:, :, None]
    # The flags the decoder would draw, fixed here to compare with NumPy.
    decoder.decoder_step_inputs = lambda inputs, training=None: keep
    outputs, alignments, states = decoder(
        x, memory, memory_mask=memory_mask, training=True
    )
    expected, weights, h, c = reference(decoder, x, memory, memory_mask, keep)
    np.testing.assert_allclose(to_numpy(alignments), weights, atol=1e-5)
    np.testing.assert_allclose(to_numpy(outputs), expected, atol=1e-5)
    np.testing.assert_allclose(to_numpy(states[0]), h, atol=1e-5)
    # Not the same as without it: the flags reached the LSTM.
    plain, _, _, _ = reference(decoder, x, memory, memory_mask)
    assert np.abs(plain - expected).max() > 1e-3


def test_context_dropout_draws_flags_in_training_only():
    decoder = built("context_dropout")
    x, memory, _, memory_mask = inputs(seed=9)
    words = np.zeros((64, 50, E), "float32")
    flags = to_numpy(decoder.decoder_step_inputs(words, training=True))
    assert flags.shape == (64, 50, 1)
    assert set(np.unique(flags)) == {0.0, 2.0}  # dropped, or kept and scaled
    assert 0.45 < (flags == 0).mean() < 0.55
    assert decoder.decoder_step_inputs(words, training=False) is None
    # Inference ignores it: the same outputs as the NumPy reference without it.
    outputs, _, _ = decoder(x, memory, memory_mask=memory_mask)
    expected, _, _, _ = reference(decoder, x, memory, memory_mask)
    np.testing.assert_allclose(to_numpy(outputs), expected, atol=1e-5)
    first = to_numpy(decoder(x, memory, memory_mask=memory_mask, training=True)[0])
    second = to_numpy(decoder(x, memory, memory_mask=memory_mask, training=True)[0])
    assert np.abs(first - second).max() > 1e-4


def test_masks_and_fully_masked_memory_have_finite_gradients():
    decoder = built("gate_deep_output")
    x, memory, inputs_mask, memory_mask = inputs(seed=2)
    memory_mask[2] = False  # an image with no valid position
    outputs, alignments, _ = decoder(
        x, memory, inputs_mask=inputs_mask, memory_mask=memory_mask
    )
    alignments = to_numpy(alignments)
    expected = inputs_mask.astype("float32")
    expected[2] = 0.0
    np.testing.assert_allclose(alignments.sum(-1), expected, atol=1e-5)
    assert (alignments[1, :, 6:] == 0).all()
    assert (to_numpy(outputs)[0, 3:] == 0).all()
    grads = gradients(
        decoder,
        [x, memory],
        dict(inputs_mask=inputs_mask, memory_mask=memory_mask),
        lambda out: keras.ops.sum(out[0]) + keras.ops.sum(out[1]),
    )
    assert all(g is None or np.isfinite(g).all() for g in grads)


def caption_model(name="gate_deep_output", vocab=12):
    grid = keras.Input((L, D), name="grid")
    words = keras.Input((None,), dtype="int32", name="words")
    embedded = keras.layers.Embedding(vocab, E, mask_zero=True)(words)
    outputs, alignments, _ = make(name)(embedded, grid)
    logits = keras.layers.Dense(vocab, name="logits")(outputs)
    alignments = keras.layers.Identity(name="attention")(alignments)
    return keras.Model([grid, words], {"logits": logits, "attention": alignments})


def test_fit_with_the_doubly_stochastic_term_and_keras_round_trip(tmp_path):
    # With context dropout: its flags ride through the recurrence on every
    # backend (drawn before the loop).
    keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    grid = rng.normal(size=(8, L, D)).astype("float32")
    labels = rng.integers(1, 12, size=(8, TY)).astype("int32")
    labels[1, 3:] = 0
    words = np.concatenate([np.full((8, 1), 1, "int32"), labels[:, :-1]], 1)
    words[1, 4:] = 0
    model = caption_model("context_dropout")
    model.compile(
        keras.optimizers.Adam(0.01),
        loss={
            "logits": MaskedSequenceCrossEntropy(),
            "attention": DoublyStochasticAttentionLoss(1.0),
        },
    )
    history = model.fit(
        [grid, words],
        {"logits": labels, "attention": labels},
        epochs=3,
        batch_size=4,
        verbose=0,
    )
    losses = history.history["attention_loss"]
    assert np.isfinite(history.history["loss"]).all()
    assert losses[-1] < losses[0]  # the regulariser is trained, not only reported
    path = tmp_path / "captioner.keras"
    model.save(path)
    loaded = keras.saving.load_model(path)
    for key, value in model.predict([grid, words], verbose=0).items():
        np.testing.assert_array_equal(
            value, loaded.predict([grid, words], verbose=0)[key]
        )


def test_symbolic_shapes():
    x, memory = keras.Input((None, E)), keras.Input((L, D))
    for name, size in [("gate_deep_output", E), ("no_deep_output", UNITS + D)]:
        outputs, alignments, states = make(name)(x, memory)
        assert tuple(outputs.shape) == (None, None, size)
        assert tuple(alignments.shape) == (None, None, L)
        assert [tuple(s.shape) for s in states] == [(None, UNITS), (None, UNITS)]


@pytest.mark.parametrize("policy", ["mixed_float16", "mixed_bfloat16"])
def test_mixed_precision(policy):
    keras.config.set_dtype_policy(policy)
    decoder = make("gate_deep_output")
    x, memory, inputs_mask, memory_mask = inputs()
    outputs, alignments, _ = decoder(
        x, memory, inputs_mask=inputs_mask, memory_mask=memory_mask
    )
    assert keras.backend.standardize_dtype(outputs.dtype) == policy.split("_")[1]
    alignments = to_numpy(keras.ops.cast(alignments, "float32"))
    assert np.isfinite(to_numpy(keras.ops.cast(outputs, "float32"))).all()
    np.testing.assert_allclose(
        alignments.sum(-1), inputs_mask.astype("float32"), atol=2e-2
    )
    # Context dropout's float32 flags meet the half-precision context.
    outputs, _, _ = make("context_dropout")(
        x, memory, inputs_mask=inputs_mask, memory_mask=memory_mask, training=True
    )
    assert np.isfinite(to_numpy(keras.ops.cast(outputs, "float32"))).all()


def test_bad_arguments():
    with pytest.raises(
        ValueError, match=r"Bahdanau's placement .* Received: .*'luong'"
    ):
        ShowAttendTellDecoder(
            keras.layers.LSTMCell(4), BahdanauAttention(4), style="luong"
        )
    with pytest.raises(ValueError, match=r"Received: initial_state='random'"):
        ShowAttendTellDecoder(
            keras.layers.LSTMCell(4), BahdanauAttention(4), initial_state="random"
        )
    for rate in (1.0, -0.1, "0.5"):
        with pytest.raises(ValueError, match=rf"Received: context_dropout={rate!r}"):
            ShowAttendTellDecoder(
                keras.layers.LSTMCell(4), BahdanauAttention(4), context_dropout=rate
            )
    with pytest.raises(ValueError, match=r"Received: cell.dropout=0.5"):
        ShowAttendTellDecoder(
            keras.layers.LSTMCell(4, dropout=0.5), BahdanauAttention(4)
        )
