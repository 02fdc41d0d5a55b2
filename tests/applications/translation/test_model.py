"""Translation models: one set of weights teacher-forced and step by step."""

import keras
import numpy as np
import pytest

from attention_zoo.applications.common.text import END_ID, START_ID
from attention_zoo.applications.translation import model as models
from attention_zoo.decoding import make_step_fn

VARIANTS = [
    ("bahdanau", "parallel"),
    ("luong", "parallel"),
    ("bahdanau", "recurrent"),
    ("luong", "recurrent"),
    ("none", "parallel"),
]


def _batch(rng, b=3, tx=7, ty=5, vocab=20):
    source = rng.integers(4, vocab, size=(b, tx)).astype("int32")
    source[0, 4:] = 0  # padded source
    decoder_input = rng.integers(4, vocab, size=(b, ty)).astype("int32")
    decoder_input[:, 0] = START_ID
    return source, decoder_input


@pytest.mark.parametrize("attention,decoder", VARIANTS)
def test_teacher_forcing_equals_step_decoding(attention, decoder):
    keras.utils.set_random_seed(0)
    model = models.build_model(
        20, 20, attention=attention, decoder=decoder, units=8, embedding_dim=6
    )
    source, decoder_input = _batch(np.random.default_rng(0))
    logits = keras.ops.convert_to_numpy(model([source, decoder_input]))
    norm, dense = model.get_layer("output_norm"), model.get_layer("logits")
    step_fn = make_step_fn(
        model.get_layer("decoder"),
        model.get_layer("target_embedding"),
        lambda x: dense(norm(x)),
    )
    mask = source != 0
    memory, states = model.get_layer("encoder")(
        model.get_layer("source_embedding")(source), mask=mask
    )
    dec = model.get_layer("decoder")
    constants = dec.get_constants(memory, mask)
    state = dec.get_initial_state(memory, mask, initial_state=states)
    for t in range(decoder_input.shape[1]):
        step_logits, state, attention_t = step_fn(decoder_input[:, t], state, constants)
        np.testing.assert_allclose(
            keras.ops.convert_to_numpy(step_logits), logits[:, t], atol=2e-5
        )
        weights = keras.ops.convert_to_numpy(attention_t)
        assert (weights[0, 4:] == 0).all()  # padded source positions get nothing
        expected = 0.0 if attention == "none" else 1.0
        np.testing.assert_allclose(weights.sum(-1), expected, atol=1e-5)


@pytest.mark.parametrize(
    "attention,decoder", [("none", "parallel"), ("luong", "recurrent")]
)
def test_keras_round_trip_and_beam_decoding(attention, decoder, tmp_path):
    keras.utils.set_random_seed(1)
    model = models.build_model(
        20, 20, attention=attention, decoder=decoder, units=8, embedding_dim=6
    )
    source, decoder_input = _batch(np.random.default_rng(1))
    path = tmp_path / "model.keras"
    model.save(path)
    loaded = keras.saving.load_model(path)
    np.testing.assert_array_equal(
        keras.ops.convert_to_numpy(loaded([source, decoder_input])),
        keras.ops.convert_to_numpy(model([source, decoder_input])),
    )
    for width in (1, 3):
        tokens, attention_weights, _ = models.make_translate_fn(
            model, 6, beam_width=width
        )(source)
        again, _, _ = models.make_translate_fn(loaded, 6, beam_width=width)(source)
        tokens = keras.ops.convert_to_numpy(tokens)
        assert tokens.shape == (3, 6)
        np.testing.assert_array_equal(tokens, keras.ops.convert_to_numpy(again))
        assert np.isfinite(keras.ops.convert_to_numpy(attention_weights)).all()


def test_build_model_rejects_unknown_options():
    with pytest.raises(ValueError, match="Received: attention='dot'"):
        models.build_model(10, 10, attention="dot")
    with pytest.raises(ValueError, match="Received: decoder='fast'"):
        models.build_model(10, 10, decoder="fast")


@pytest.mark.parametrize("width", [1, 3])
def test_wrap_step_changes_what_the_search_sees(width):
    keras.utils.set_random_seed(3)
    model = models.build_model(20, 20, units=8, embedding_dim=6)
    source, _ = _batch(np.random.default_rng(3))
    favourite = keras.ops.one_hot(7, 20) * 1e9

    def wrap_step(step):
        def step_fn(tokens, state, constants):
            logits, state, attention = step(tokens, state, constants)
            return logits + favourite, state, attention

        return step.with_fn(step_fn)

    tokens, _, _ = models.make_translate_fn(
        model, 5, beam_width=width, wrap_step=wrap_step
    )(source)
    assert (keras.ops.convert_to_numpy(tokens) == 7).all()


@pytest.mark.parametrize("copy", [False, True], ids=["plain", "copy"])
@pytest.mark.parametrize("width", [1, 3])
def test_must_copy_keeps_each_placeholder_exactly(width, copy):
    # Target ids 4, 5, 6 are placeholders, source ids 10, 11, 12 the same
    # tokens. The step prefers 5 (in no source) and <end> above all: the
    # search must still emit 4 twice and 6 once, then end.
    keras.utils.set_random_seed(4)
    model = models.build_model(20, 20, units=8, embedding_dim=6, copy=copy)
    source = np.array([[10, 3, 10, 12, 7, 0, 0]], "int32")
    source_groups = np.full((20, 1), -1, "int32")
    source_groups[[10, 11, 12], 0] = [0, 1, 2]
    target_groups = np.full((20, 1), -1, "int32")
    target_groups[[4, 5, 6], 0] = [0, 1, 2]
    bias = np.zeros((20 + (source.shape[1] if copy else 0),), "float32")
    bias[[END_ID, 5]], bias[[4, 6]] = 60.0, 30.0

    def wrap_step(step):
        def step_fn(tokens, state, constants):
            logits, state, attention = step(tokens, state, constants)
            return logits + bias, state, attention

        return step.with_fn(step_fn)

    inputs = np.stack([source, source], axis=1) if copy else source
    plain, _, _ = models.make_translate_fn(
        model, 8, beam_width=width, wrap_step=wrap_step
    )(inputs)
    assert keras.ops.convert_to_numpy(plain)[0, 0] != 4  # unconstrained: lost
    tokens, _, _ = models.make_translate_fn(
        model,
        8,
        beam_width=width,
        wrap_step=wrap_step,
        must_copy=(source_groups, target_groups),
    )(inputs)
    out = keras.ops.convert_to_numpy(tokens)[0].tolist()
    assert sorted(out[:3]) == [4, 4, 6] and out[3] == END_ID, out


@pytest.mark.parametrize("width", [1, 3])
def test_a_shortlist_of_every_id_translates_as_the_whole_vocabulary(width):
    keras.utils.set_random_seed(4)
    model = models.build_model(20, 20, units=8, embedding_dim=6)
    source, _ = _batch(np.random.default_rng(4))
    candidates = np.tile(np.arange(6, 20), (20, 1))
    listed = (candidates, list(range(6)), 20)
    full = models.make_translate_fn(model, 6, beam_width=width)(source)
    short = models.make_translate_fn(model, 6, beam_width=width, shortlist=listed)(
        source
    )
    np.testing.assert_array_equal(
        *(keras.ops.convert_to_numpy(o[0]) for o in (short, full))
    )
    np.testing.assert_allclose(
        *(keras.ops.convert_to_numpy(o[2]) for o in (short, full)), atol=1e-4
    )


def test_a_shortlist_given_with_the_input_translates_as_one_made_in_the_search():
    from attention_zoo.decoding.shortlist import packed, shortlist

    keras.utils.set_random_seed(4)
    model = models.build_model(20, 20, units=8, embedding_dim=6)
    source, _ = _batch(np.random.default_rng(4))
    candidates = np.random.default_rng(5).integers(-1, 20, size=(20, 3))
    candidates[0] = -1
    listed = (candidates, list(range(6)), 12)
    made = models.make_translate_fn(model, 6, shortlist=listed)(source)
    on_host = packed(*shortlist(source, *listed, 20, on_host=True))
    given = models.make_translate_fn(model, 6, shortlist=listed, shortlist_input=True)(
        np.concatenate([source, on_host], axis=1)
    )
    for a, b in zip(made, given):
        np.testing.assert_allclose(*(keras.ops.convert_to_numpy(o) for o in (a, b)))
    with pytest.raises(ValueError, match="`shortlist_input`.*needs a `shortlist`"):
        models.make_translate_fn(model, 6, shortlist_input=True)


def test_a_shortlist_is_refused_where_its_positions_cannot_be_read():
    model = models.build_model(20, 20, units=8, embedding_dim=6)
    listed = (np.full((20, 1), -1), list(range(6)), 8)
    with pytest.raises(ValueError, match="wrap_step"):
        models.make_translate_fn(model, 5, shortlist=listed, wrap_step=lambda s: s)
    groups = np.full((20, 1), -1)
    groups[9] = 0  # a placeholder word outside the shared ids
    with pytest.raises(ValueError, match="must hold every id that counts"):
        models.make_translate_fn(
            model, 5, shortlist=listed, must_copy=(np.full((20, 1), -1), groups)
        )
