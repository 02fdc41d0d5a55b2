"""A toy encoder-decoder with greedy and beam endpoints survives SavedModel export."""

import json
import subprocess
import sys

import keras
import numpy as np
import pytest

from attention_zoo.decoders import AttentionRNNDecoder
from attention_zoo.decoding import beam_search, greedy_search, make_step_fn
from attention_zoo.encoders import BidirectionalRNNEncoder
from attention_zoo.layers import LuongAttention

pytestmark = pytest.mark.tf_only
V, START, END = 9, 1, 2


def toy_model():
    keras.utils.set_random_seed(0)
    source = keras.Input((None,), dtype="int32")
    target = keras.Input((None,), dtype="int32")
    memory, states = BidirectionalRNNEncoder(8, merge_mode="concat", name="encoder")(
        keras.layers.Embedding(V, 6, mask_zero=True)(source)
    )
    target_embedding = keras.layers.Embedding(V, 6, name="target_embedding")
    decoder = AttentionRNNDecoder(
        keras.layers.GRUCell(16),
        LuongAttention("general"),
        style="luong",
        input_feeding=True,
        name="decoder",
    )
    outputs, _, _ = decoder(target_embedding(target), memory, initial_state=states)
    logits = keras.layers.Dense(V, name="logits")(outputs)
    encoder_model = keras.Model(source, [memory, *states])
    return keras.Model([source, target], logits), encoder_model


def decode_functions(model, encoder_model):
    decoder = model.get_layer("decoder")
    step_fn = make_step_fn(
        decoder, model.get_layer("target_embedding"), model.get_layer("logits")
    )

    def prepare(source):
        memory, *states = encoder_model(source)
        mask = keras.ops.not_equal(source, 0)
        constants = decoder.get_constants(memory, mask)
        state = decoder.get_initial_state(memory, mask, initial_state=states)
        start = keras.ops.full((keras.ops.shape(source)[0],), START, "int32")
        return state, constants, start, mask

    def greedy(source):
        state, constants, start, _ = prepare(source)
        out = greedy_search(step_fn, state, start, END, 6, constants=constants)
        return {"tokens": out["tokens"], "attention": out["attention"]}

    def beam(source):
        state, constants, start, mask = prepare(source)
        out = beam_search(
            step_fn,
            state,
            start,
            END,
            6,
            beam_width=3,
            constants=constants,
            alpha=0.6,
            beta=0.1,
            memory_mask=mask,
        )
        return {
            "tokens": out["tokens"],
            "scores": out["scores"],
            "attention": out["attention"],
        }

    return greedy, beam


LOAD_SCRIPT = """
import json, sys
import numpy as np
import tensorflow as tf
loaded = tf.saved_model.load(sys.argv[1])
source = tf.constant(np.load(sys.argv[2]))
out = {}
for name in ("greedy", "beam"):
    result = getattr(loaded, name)(source)
    out[name] = {k: v.numpy().tolist() for k, v in result.items()}
out["modules"] = sorted(m for m in sys.modules if m.startswith("attention_zoo"))
print(json.dumps(out))
"""


def test_greedy_and_beam_endpoints_reload_without_attention_zoo(tmp_path):
    import tensorflow as tf

    if keras.backend.backend() != "tensorflow":
        pytest.skip("SavedModel export needs the TensorFlow backend")
    model, encoder_model = toy_model()
    rng = np.random.default_rng(0)
    model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(
        [rng.integers(1, V, (16, 7)), rng.integers(1, V, (16, 5))],
        rng.integers(1, V, (16, 5)),
        epochs=1,
        verbose=0,
    )
    greedy, beam = decode_functions(model, encoder_model)
    source = rng.integers(3, V, (4, 7)).astype("int32")
    source[1, 4:] = 0
    expected = {"greedy": greedy(source), "beam": beam(source)}

    archive = keras.export.ExportArchive()
    archive.track(model)
    signature = [tf.TensorSpec([None, None], tf.int32, name="source")]
    archive.add_endpoint("greedy", greedy, input_signature=signature)
    archive.add_endpoint("beam", beam, input_signature=signature)
    archive.write_out(str(tmp_path / "saved"), verbose=False)

    np.save(tmp_path / "source.npy", source)
    script = tmp_path / "load.py"
    script.write_text(LOAD_SCRIPT)
    run = subprocess.run(
        [
            sys.executable,
            str(script),
            str(tmp_path / "saved"),
            str(tmp_path / "source.npy"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    got = json.loads(run.stdout.strip().splitlines()[-1])
    assert got["modules"] == []
    for name in ("greedy", "beam"):
        for key, value in expected[name].items():
            np.testing.assert_allclose(
                np.array(got[name][key]), keras.ops.convert_to_numpy(value), atol=1e-5
            )
    assert (np.array(got["beam"]["attention"])[1, :, :, 4:] == 0).all()
