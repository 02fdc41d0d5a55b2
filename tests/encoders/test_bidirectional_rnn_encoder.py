import keras
import numpy as np
import pytest

from attention_zoo.encoders import BidirectionalRNNEncoder
from tests.helpers import to_numpy

CONFIGS = {
    "gru_concat": dict(units=4),
    "lstm_sum_two_layers": dict(
        units=4, cell_type="lstm", merge_mode="sum", num_layers=2
    ),
    "gru_ave": dict(units=3, merge_mode="ave"),
}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_padding_does_not_change_real_steps_or_final_state(name):
    encoder = BidirectionalRNNEncoder(**CONFIGS[name])
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 6, 5)).astype("float32")
    mask = np.ones((2, 6), bool)
    mask[0, 3:] = False
    memory, states = encoder(x, mask=mask)
    short_memory, short_states = encoder(x[:1, :3])
    np.testing.assert_allclose(
        to_numpy(memory)[0, :3], to_numpy(short_memory)[0], atol=1e-5
    )
    for a, b in zip(states, short_states):
        np.testing.assert_allclose(to_numpy(a)[0], to_numpy(b)[0], atol=1e-5)
    size = 2 * encoder.units if encoder.merge_mode == "concat" else encoder.units
    assert tuple(memory.shape) == (2, 6, size)
    assert len(states) == (2 if encoder.cell_type == "lstm" else 1)


def test_merge_modes_combine_directions():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(2, 4, 3)).astype("float32")
    concat = BidirectionalRNNEncoder(units=3, merge_mode="concat")
    memory, (state,) = concat(x)
    outputs = {}
    for mode in ("sum", "mul", "ave"):
        other = BidirectionalRNNEncoder(units=3, merge_mode=mode)
        other(x)
        other.set_weights(concat.get_weights())
        outputs[mode] = to_numpy(other(x)[0])
    forward, backward = to_numpy(memory)[..., :3], to_numpy(memory)[..., 3:]
    np.testing.assert_allclose(outputs["sum"], forward + backward, atol=1e-6)
    np.testing.assert_allclose(outputs["mul"], forward * backward, atol=1e-6)
    np.testing.assert_allclose(outputs["ave"], (forward + backward) / 2, atol=1e-6)


def test_implicit_mask_flows_to_the_memory(tmp_path):
    tokens = keras.Input((None,), dtype="int32")
    embedded = keras.layers.Embedding(10, 4, mask_zero=True)(tokens)
    memory, states = BidirectionalRNNEncoder(units=3, cell_type="lstm")(embedded)
    assert tuple(memory.shape) == (None, None, 6)
    model = keras.Model(tokens, [memory, *states])
    x = np.array([[1, 2, 3, 0, 0], [4, 5, 6, 7, 8]])
    expected = model.predict(x, verbose=0)
    model.save(tmp_path / "encoder.keras")
    loaded = keras.saving.load_model(tmp_path / "encoder.keras")
    for a, b in zip(expected, loaded.predict(x, verbose=0)):
        np.testing.assert_array_equal(a, b)
    short = model.predict(x[:1, :3], verbose=0)
    np.testing.assert_allclose(expected[1][0], short[1][0], atol=1e-5)


def test_get_config_round_trip():
    encoder = BidirectionalRNNEncoder(
        units=3,
        cell_type="lstm",
        merge_mode="sum",
        num_layers=2,
        dropout=0.1,
        seed=2,
        unroll=True,
    )
    config = encoder.get_config()
    assert config["unroll"] is True
    assert BidirectionalRNNEncoder.from_config(config).get_config() == config
    # Unrolling changes the loop, not the function.
    x = np.random.default_rng(0).normal(size=(2, 4, 5)).astype("float32")
    rolled = BidirectionalRNNEncoder.from_config({**config, "unroll": False})
    unrolled = BidirectionalRNNEncoder.from_config(config)
    rolled(x)
    unrolled(x)
    unrolled.set_weights(rolled.get_weights())
    for encoder, unroll in ((rolled, False), (unrolled, True)):
        for layer in encoder._rnn_layers:
            assert layer.forward_layer.unroll is unroll
            assert layer.backward_layer.unroll is unroll
    np.testing.assert_allclose(
        to_numpy(rolled(x)[0]), to_numpy(unrolled(x)[0]), atol=1e-5
    )


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(units=0), r"Received: units=0"),
        (dict(units=2, cell_type="rnn"), r"Received: cell_type='rnn'"),
        (dict(units=2, merge_mode="max"), r"Received: merge_mode='max'"),
        (dict(units=2, num_layers=0), r"Received: num_layers=0"),
        (dict(units=2, dropout=1.5), r"Received: dropout=1.5"),
    ],
    ids=["units", "cell_type", "merge_mode", "num_layers", "dropout"],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        BidirectionalRNNEncoder(**kwargs)


def test_matches_numpy_float64_reference():
    from tests import numpy_reference as ref

    encoder = BidirectionalRNNEncoder(units=4, merge_mode="concat")
    rng = np.random.default_rng(3)
    x = rng.normal(size=(3, 6, 5)).astype("float32")
    mask = np.ones((3, 6), bool)
    mask[0, 2:] = False
    mask[2, 5:] = False
    memory, (state,) = encoder(x, mask=mask)
    layer = encoder._rnn_layers[0]

    def weights(rnn):
        cell = rnn.cell
        return tuple(
            to_numpy(w).astype("float64")
            for w in (cell.kernel, cell.recurrent_kernel, cell.bias)
        )

    forward, h_f = ref.gru_sequence(x, mask, weights(layer.forward_layer))
    backward, h_b = ref.gru_sequence(
        x, mask, weights(layer.backward_layer), reverse=True
    )
    expected = np.concatenate([forward, backward], -1)
    got = to_numpy(memory)
    np.testing.assert_allclose(got[mask], expected[mask], atol=1e-5)
    np.testing.assert_allclose(
        to_numpy(state), np.concatenate([h_f, h_b], -1), atol=1e-5
    )


@pytest.mark.parametrize("policy", ["mixed_float16", "mixed_bfloat16"])
def test_mixed_precision(policy):
    keras.config.set_dtype_policy(policy)
    encoder = BidirectionalRNNEncoder(units=4, cell_type="lstm", num_layers=2)
    x = np.random.default_rng(0).normal(size=(2, 5, 3)).astype("float32")
    memory, states = encoder(x, mask=np.array([[1, 1, 1, 0, 0], [1] * 5], bool))
    assert keras.backend.standardize_dtype(memory.dtype) == policy.split("_")[1]
    for t in [memory, *states]:
        assert np.isfinite(to_numpy(keras.ops.cast(t, "float32"))).all()
