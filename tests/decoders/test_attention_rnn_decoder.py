import warnings

import keras
import numpy as np
import pytest

from attention_zoo.decoders import AttentionRNNDecoder, ParallelAttentionDecoder
from attention_zoo.layers import (
    BahdanauAttention,
    LocationSensitiveAttention,
    LuongAttention,
)
from tests.decoders.battery import DecoderBattery
from tests.helpers import to_numpy

B, TY, TX, E, DM, UNITS = 3, 5, 6, 4, 7, 8

CONFIGS = {
    "bahdanau_gru": lambda: AttentionRNNDecoder(
        keras.layers.GRUCell(UNITS), BahdanauAttention(UNITS)
    ),
    "bahdanau_lstm_mean_memory": lambda: AttentionRNNDecoder(
        keras.layers.LSTMCell(UNITS),
        BahdanauAttention(UNITS),
        initial_state="mean_memory",
    ),
    "luong_lstm": lambda: AttentionRNNDecoder(
        keras.layers.LSTMCell(UNITS), LuongAttention("general"), style="luong"
    ),
    "luong_gru_input_feeding": lambda: AttentionRNNDecoder(
        keras.layers.GRUCell(UNITS),
        LuongAttention("concat", units=5),
        style="luong",
        input_feeding=True,
        attention_output_units=6,
    ),
    "parallel_lstm": lambda: ParallelAttentionDecoder(
        keras.layers.LSTMCell(UNITS), LuongAttention("general")
    ),
    "parallel_gru_bahdanau_score": lambda: ParallelAttentionDecoder(
        keras.layers.GRUCell(UNITS),
        BahdanauAttention(UNITS),
        initial_state="mean_memory",
    ),
}
parametrize_configs = pytest.mark.parametrize("name", list(CONFIGS))


BATTERY = DecoderBattery(CONFIGS)


@parametrize_configs
class TestAttentionRNNDecoderContract:
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
    memory = rng.normal(size=(B, TX, DM)).astype("float32")
    memory_mask = np.ones((B, TX), bool)
    memory_mask[1, 3:] = False
    memory_mask[2, 5:] = False
    inputs_mask = np.ones((B, TY), bool)
    inputs_mask[0, 3:] = False  # a target of 3 tokens
    return x, memory, inputs_mask, memory_mask


def built(name):
    decoder = CONFIGS[name]()
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


def step_by_step(decoder, x, memory, memory_mask, steps):
    constants = decoder.get_constants(memory, memory_mask)
    states = decoder.get_initial_state(memory, memory_mask)
    outputs, alignments = [], []
    for t in range(steps):
        output, states, alignment = decoder.step(x[:, t], states, constants)
        outputs.append(to_numpy(output))
        alignments.append(to_numpy(alignment))
    return np.stack(outputs, 1), np.stack(alignments, 1), [to_numpy(s) for s in states]


def test_float64_teacher_forced_equals_step_by_step_to_1e_12():
    # The recurrence scanned its inputs in float32: 1.4e-8 apart before.
    if keras.backend.backend() != "tensorflow":
        pytest.skip("float64 is TensorFlow's in Keras")
    decoder = AttentionRNNDecoder(
        keras.layers.GRUCell(UNITS, dtype="float64"),
        LocationSensitiveAttention(UNITS, dtype="float64"),
        dtype="float64",
    )
    _, _, _, memory_mask = inputs(seed=1)
    rng = np.random.default_rng(1)  # float64 values float32 cannot hold
    x, memory = rng.normal(size=(B, TY, E)), rng.normal(size=(B, TX, DM))
    outputs, alignments, _ = decoder(x, memory, memory_mask=memory_mask)
    step_outputs, step_alignments, _ = step_by_step(decoder, x, memory, memory_mask, TY)
    assert keras.backend.standardize_dtype(outputs.dtype) == "float64"
    np.testing.assert_allclose(to_numpy(outputs), step_outputs, atol=1e-12)
    np.testing.assert_allclose(to_numpy(alignments), step_alignments, atol=1e-12)


@parametrize_configs
def test_masks(name):
    decoder = built(name)
    x, memory, inputs_mask, memory_mask = inputs(seed=2)
    outputs, alignments, states = decoder(
        x, memory, inputs_mask=inputs_mask, memory_mask=memory_mask
    )
    outputs, alignments = to_numpy(outputs), to_numpy(alignments)
    # Alignments: a distribution over unmasked memory steps, zero elsewhere.
    expected_sums = inputs_mask.astype("float32")
    np.testing.assert_allclose(alignments.sum(-1), expected_sums, atol=1e-5)
    assert (
        alignments[np.broadcast_to(~memory_mask[:, None, :], alignments.shape)] == 0
    ).all()
    # Masked target steps emit zeros and leave the state where the last real
    # step put it.
    assert (outputs[0, 3:] == 0).all()
    _, _, short_states = step_by_step(decoder, x[:1], memory[:1], memory_mask[:1], 3)
    for state, expected in zip(states, short_states):
        np.testing.assert_allclose(to_numpy(state)[0], expected[0], atol=1e-5)


def test_parallel_form_equals_luong_without_input_feeding():
    parallel = built("parallel_lstm")
    sequential = AttentionRNNDecoder(
        keras.layers.LSTMCell(UNITS), LuongAttention("general"), style="luong"
    )
    x, memory, inputs_mask, memory_mask = inputs(seed=3)
    sequential(x, memory)
    sequential.set_weights(parallel.get_weights())
    kwargs = dict(inputs_mask=inputs_mask, memory_mask=memory_mask)
    for a, b in zip(
        parallel(x, memory, **kwargs)[:2], sequential(x, memory, **kwargs)[:2]
    ):
        np.testing.assert_allclose(to_numpy(a), to_numpy(b), atol=1e-5)


def test_explicit_initial_state_is_used():
    decoder = built("bahdanau_lstm_mean_memory")
    x, memory, _, _ = inputs()
    h = np.random.default_rng(0).normal(size=(B, UNITS)).astype("float32")
    c = np.random.default_rng(1).normal(size=(B, UNITS)).astype("float32")
    outputs = to_numpy(decoder(x, memory, initial_state=[h, c])[0])
    constants = decoder.get_constants(memory)
    first, _, _ = decoder.step(x[:, 0], [h, c], constants)
    np.testing.assert_allclose(outputs[:, 0], to_numpy(first), atol=1e-5)
    default = to_numpy(decoder(x, memory)[0])
    assert not np.allclose(default, outputs)


def functional_model(name, vocab=11):
    source = keras.Input((None,), dtype="int32")
    target = keras.Input((None,), dtype="int32")
    memory = keras.layers.Embedding(vocab, DM, mask_zero=True)(source)
    embedded = keras.layers.Embedding(vocab, E, mask_zero=True)(target)
    outputs, alignments, _ = CONFIGS[name]()(embedded, memory)
    logits = keras.layers.Dense(vocab)(outputs)
    return keras.Model([source, target], [logits, alignments])


def token_data(n=8, vocab=11, seed=0):
    rng = np.random.default_rng(seed)
    source = rng.integers(1, vocab, size=(n, TX)).astype("int32")
    source[0, 4:] = 0
    target = rng.integers(1, vocab, size=(n, TY)).astype("int32")
    target[1, 2:] = 0
    return source, target


@parametrize_configs
def test_fit_and_keras_save_load(name, tmp_path):
    from attention_zoo.losses import MaskedSequenceCrossEntropy

    keras.utils.set_random_seed(0)
    model = functional_model(name)
    model.compile(optimizer="adam", loss=[MaskedSequenceCrossEntropy(), None])
    source, target = token_data()
    before = model.get_weights()
    history = model.fit([source, target], target, epochs=2, batch_size=4, verbose=0)
    assert np.isfinite(history.history["loss"]).all()
    assert history.history["loss"][1] < history.history["loss"][0]
    assert all(not np.array_equal(a, b) for a, b in zip(before, model.get_weights()))
    logits, alignments = model.predict([source, target], verbose=0)
    assert (alignments[0, :, 4:] == 0).all()  # the source padding mask arrived
    path = tmp_path / "decoder.keras"
    model.save(path)
    loaded = keras.saving.load_model(path)
    for a, b in zip([logits, alignments], loaded.predict([source, target], verbose=0)):
        np.testing.assert_array_equal(a, b)


def test_symbolic_shapes():
    decoder = CONFIGS["luong_gru_input_feeding"]()
    x = keras.Input((None, E))
    memory = keras.Input((TX, DM))
    outputs, alignments, states = decoder(x, memory)
    assert tuple(outputs.shape) == (None, None, 6)
    assert tuple(alignments.shape) == (None, None, TX)
    assert [tuple(s.shape) for s in states] == [(None, UNITS), (None, 6)]


def test_dropout_only_in_training():
    decoder = AttentionRNNDecoder(
        keras.layers.GRUCell(UNITS), BahdanauAttention(UNITS), dropout=0.5, seed=1
    )
    x, memory, _, _ = inputs()
    a = to_numpy(decoder(x, memory)[0])
    np.testing.assert_array_equal(a, to_numpy(decoder(x, memory)[0]))
    assert not np.allclose(a, to_numpy(decoder(x, memory, training=True)[0]))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        pytest.param(
            dict(style="transformer"),
            r"`style` must be one of .* Received: style='transformer'",
            id="style",
        ),
        pytest.param(
            dict(input_feeding=True),
            r"`input_feeding` needs style='luong'",
            id="feeding_bahdanau",
        ),
        pytest.param(
            dict(initial_state="random"),
            r"Received: initial_state='random'",
            id="initial_state",
        ),
        pytest.param(
            dict(attention=keras.layers.Attention()),
            r"`attention` must be an attention layer of attention_zoo",
            id="keras_attention",
        ),
        pytest.param(
            dict(cell=keras.layers.GRUCell(4, dropout=0.2)),
            r"Received: cell.dropout=0.2",
            id="cell_dropout",
        ),
        pytest.param(
            dict(cell=keras.layers.Dense(4)),
            r"`cell` must be a Keras RNN cell",
            id="not_a_cell",
        ),
        pytest.param(
            dict(attention_output_units=0),
            r"Received: attention_output_units=0",
            id="attention_output_units",
        ),
    ],
)
def test_bad_arguments(kwargs, message):
    arguments = dict(cell=keras.layers.GRUCell(4), attention=BahdanauAttention(4))
    arguments.update(kwargs)
    with pytest.raises(ValueError, match=message):
        AttentionRNNDecoder(**arguments)


def test_bad_inputs():
    decoder = CONFIGS["bahdanau_gru"]()
    x, memory, _, _ = inputs()
    with pytest.raises(
        ValueError,
        match=r"same batch size. Received: inputs.shape=\(3, 5, 4\), memory.shape=\(2, 6, 7\)",
    ):
        decoder(x, memory[:2])
    with pytest.raises(ValueError, match=r"Received: inputs.shape=\(3, 4\)"):
        decoder(x[:, 0], memory)
    decoder(x, memory)
    with pytest.raises(ValueError, match=r"the cell has 1 state\(s\). Received: 2"):
        decoder(x, memory, initial_state=[x[:, 0, :1], x[:, 0, :1]])


def _w(v):
    return to_numpy(v).astype("float64")


def test_bahdanau_gru_decoder_matches_numpy_float64_reference():
    from tests import numpy_reference as ref

    decoder = built("bahdanau_gru")
    x, memory, _, memory_mask = inputs(seed=7)
    outputs, alignments, _ = decoder(x, memory, memory_mask=memory_mask)
    cell, attention = decoder.cell, decoder.attention
    gru = (_w(cell.kernel), _w(cell.recurrent_kernel), _w(cell.bias))
    s = np.zeros((B, UNITS))
    for t in range(TY):
        scores = ref.layer_scores(attention, s[:, None, :], memory)  # (B, 1, Tx)
        context, weights = ref.attention(scores, memory, None, memory_mask)
        s = ref.gru_step(np.concatenate([x[:, t], context[:, 0]], -1), s, *gru)
        np.testing.assert_allclose(to_numpy(alignments)[:, t], weights[:, 0], atol=1e-5)
        np.testing.assert_allclose(
            to_numpy(outputs)[:, t], np.concatenate([s, context[:, 0]], -1), atol=1e-5
        )


def test_luong_input_feeding_decoder_matches_numpy_float64_reference():
    from tests import numpy_reference as ref

    decoder = built("luong_gru_input_feeding")
    x, memory, _, memory_mask = inputs(seed=8)
    outputs, alignments, _ = decoder(x, memory, memory_mask=memory_mask)
    cell, attention = decoder.cell, decoder.attention
    gru = (_w(cell.kernel), _w(cell.recurrent_kernel), _w(cell.bias))
    w_c = _w(decoder._attention_dense.kernel)
    h, feed = np.zeros((B, UNITS)), np.zeros((B, 6))
    for t in range(TY):
        h = ref.gru_step(np.concatenate([x[:, t], feed], -1), h, *gru)
        scores = ref.layer_scores(attention, h[:, None, :], memory)
        context, weights = ref.attention(scores, memory, None, memory_mask)
        feed = np.tanh(np.concatenate([context[:, 0], h], -1) @ w_c)
        np.testing.assert_allclose(to_numpy(alignments)[:, t], weights[:, 0], atol=1e-5)
        np.testing.assert_allclose(to_numpy(outputs)[:, t], feed, atol=1e-5)


@pytest.mark.parametrize("policy", ["mixed_float16", "mixed_bfloat16"])
@pytest.mark.parametrize("name", ["bahdanau_lstm_mean_memory", "parallel_lstm"])
def test_mixed_precision(name, policy):
    keras.config.set_dtype_policy(policy)
    decoder = CONFIGS[name]()
    x, memory, inputs_mask, memory_mask = inputs()
    outputs, alignments, states = decoder(
        x, memory, inputs_mask=inputs_mask, memory_mask=memory_mask
    )
    compute = policy.split("_")[1]
    assert keras.backend.standardize_dtype(outputs.dtype) == compute
    assert all(
        keras.backend.standardize_dtype(w.dtype) == "float32" for w in decoder.weights
    )
    outputs = to_numpy(keras.ops.cast(outputs, "float32"))
    alignments = to_numpy(keras.ops.cast(alignments, "float32"))
    assert np.isfinite(outputs).all() and np.isfinite(alignments).all()
    np.testing.assert_allclose(
        alignments.sum(-1), inputs_mask.astype("float32"), atol=2e-2
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda: ParallelAttentionDecoder(keras.layers.GRUCell(8), BahdanauAttention(4)),
        lambda: AttentionRNNDecoder(keras.layers.GRUCell(8), BahdanauAttention(4)),
        lambda: ParallelAttentionDecoder(
            keras.layers.GRUCell(8), LocationSensitiveAttention(4)
        ),
    ],
    ids=["parallel", "recurrent", "stateful_mechanism"],
)
def test_fit_on_batches_of_unknown_length_with_jit_compile(make):
    # jit_compile="auto" is XLA on a TensorFlow GPU machine, and XLA cannot
    # compile the gradient of TensorFlow's while loop over an unknown length
    # (a decoder's recurrence, a stateful mechanism's steps): those layers say
    # so (`supports_jit`) and Keras trains without XLA. Before, fit failed in
    # tf2xla.
    if keras.backend.backend() != "tensorflow":
        pytest.skip("tf.data batches of unknown length and tf2xla are TensorFlow's")
    import tensorflow as tf

    source, target = (
        keras.Input((None,), dtype="int32"),
        keras.Input((None,), dtype="int32"),
    )
    memory = keras.layers.Embedding(10, 8, mask_zero=True)(source)
    embedded = keras.layers.Embedding(10, 8, mask_zero=True)(target)
    outputs = make()(embedded, memory)
    outputs = outputs[0] if isinstance(outputs, (list, tuple)) else outputs
    model = keras.Model([source, target], keras.layers.Dense(10)(outputs))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Keras warns when it falls back
        model.compile("adam", "sparse_categorical_crossentropy", jit_compile=True)
    assert model.jit_compile is False
    rng = np.random.default_rng(0)
    rows = [
        ((rng.integers(1, 10, n), rng.integers(1, 10, m)), rng.integers(1, 10, m))
        for n, m in [(5, 3), (7, 4), (6, 2), (3, 5)]
    ]
    spec = ((tf.TensorSpec([None], tf.int64),) * 2, tf.TensorSpec([None], tf.int64))
    dataset = tf.data.Dataset.from_generator(lambda: iter(rows), output_signature=spec)
    history = model.fit(dataset.padded_batch(2), epochs=2, verbose=0)
    assert np.isfinite(history.history["loss"]).all()


def test_jit_support_is_lost_on_tensorflow_only_for_unknown_lengths():
    from attention_zoo.layers import LocalAttention

    on_tensorflow = keras.backend.backend() == "tensorflow"
    memory = keras.Input((6, 4))
    for length, loses in ((5, False), (None, on_tensorflow)):
        decoder = AttentionRNNDecoder(keras.layers.GRUCell(8), BahdanauAttention(4))
        parallel = ParallelAttentionDecoder(
            keras.layers.GRUCell(8), BahdanauAttention(4)
        )
        stateful = LocationSensitiveAttention(4)
        for layer in (decoder, parallel, stateful):
            assert layer.supports_jit  # before any call
        decoder(keras.Input((length, 3)), memory)
        parallel(keras.Input((length, 3)), memory)
        stateful(keras.Input((length, 4)), memory)
        for layer in (decoder, parallel, stateful):
            assert layer.supports_jit is not loses, layer
        # local-m has a state but places every step's window at once.
        local_m = LocalAttention("local-m", window=2)
        local_m(keras.Input((length, 4)), memory)
        assert local_m.supports_jit


def test_a_known_length_model_keeps_jit_support_after_batches_of_unknown_size():
    # Step decoding reshapes a query to rows (B / R, R, Dq); an unknown batch
    # size made R unknown and was taken for an unknown length before.
    tokens, memory = keras.Input((6,), dtype="int32"), keras.Input((4, 5))
    embedded = keras.layers.Embedding(10, 3)(tokens)
    decoder = AttentionRNNDecoder(
        keras.layers.GRUCell(8), LocationSensitiveAttention(4)
    )
    outputs = decoder(embedded, memory)
    outputs = outputs[0] if isinstance(outputs, (list, tuple)) else outputs
    model = keras.Model([tokens, memory], keras.layers.Dense(10)(outputs))
    x = [np.ones((10, 6), "int32"), np.ones((10, 4, 5), "float32")]
    model.predict(x, batch_size=4, verbose=0)  # a last batch of 2
    assert all(layer.supports_jit for layer in model._flatten_layers())
