"""The captioning application end to end on a tiny generated-scenes run."""

import json
import re
from pathlib import Path

import keras
import numpy as np
import pytest

from attention_zoo.applications.captioning import model as models
from attention_zoo.applications.captioning import training
from attention_zoo.applications.captioning.batches import CaptionBatches
from attention_zoo.applications.captioning.config import TrainConfig
from attention_zoo.applications.captioning.dataset import load_dataset
from attention_zoo.applications.captioning.dataset import test_items as held_out_items
from attention_zoo.applications.captioning.evaluation import (
    attention_spread,
    bleu_scores,
    grounding,
)
from attention_zoo.applications.captioning.export import export
from attention_zoo.applications.captioning.features import build_encoder
from attention_zoo.applications.captioning.predictor import Captioner
from attention_zoo.applications.captioning.scene_generator import (
    generate_scenes,
    scene_splits,
)
from attention_zoo.applications.captioning.scenes import Scene, SceneObject
from attention_zoo.applications.captioning.training import train
from attention_zoo.applications.common.text import detokenize
from attention_zoo.cli import build_parser, main
from attention_zoo.image_codec import encode_png
from tests.helpers import assert_cli_refuses_a_file_as_output, run_json_script

pytestmark = pytest.mark.tf_only

# `dataset.test_items` is imported as `held_out_items`: under its own name
# pytest collects it as a test (and fails it for want of a `run_dir` fixture).


def tiny_config(**overrides):
    config = dict(
        n_train=96,
        n_validation=16,
        n_test=24,
        weights=None,
        image_size=64,  # a 4 x 4 grid (stride 16)
        units=16,
        embedding_dim=8,
        attention_units=8,
        feature_units=8,
        epochs=2,
        batch_size=16,
        beam_width=2,
    )
    config.update(overrides)
    return TrainConfig(**config)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    if keras.backend.backend() != "tensorflow":
        pytest.skip("the application tests run on the TensorFlow backend")
    path = tmp_path_factory.mktemp("captioning") / "run"
    train(path, tiny_config(), verbose=0)
    return path


def test_cli_train_defaults_are_the_train_config_defaults():
    args = vars(build_parser().parse_args(["captioning", "train"]))
    config = TrainConfig()
    flags = {"length_penalty": "alpha", "no_gate": "gate"}
    flags["no_position_embedding"] = "position_embedding"
    compared = 0
    for flag, value in args.items():
        field = flags.get(flag, flag)
        if not hasattr(config, field):
            continue
        expected = getattr(config, field)
        if flag.startswith("no_"):
            expected = not expected
        assert value == expected, (
            f"--{flag.replace('_', '-')}: {value!r} != {expected!r}"
        )
        compared += 1
    assert compared >= 20


@pytest.mark.parametrize(
    "decay_steps, warmup_steps, expected",
    [
        # step: 0, 5, 10, 55, 100 of a 10-step warm-up then cosine to step 100
        (100, 10, [0.0, 1e-3, 2e-3, 1e-3, 0.0]),
        (None, 10, [0.0, 1e-3, 2e-3, 2e-3, 2e-3]),
        (
            100,
            0,
            [2e-3 * (1 + np.cos(np.pi * s / 100)) / 2 for s in (0, 5, 10, 55, 100)],
        ),
    ],
)
def test_learning_rate_warms_up_then_decays(decay_steps, warmup_steps, expected):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    models.compile_caption_model(model, 2e-3, 0.0, decay_steps, warmup_steps)
    rates = []
    for step in (0, 5, 10, 55, 100):
        model.optimizer.iterations.assign(step)
        rates.append(float(model.optimizer.learning_rate))
    np.testing.assert_allclose(rates, expected, atol=1e-7)


def test_the_caption_model_takes_the_encoder_output_shape():
    model = models.build_caption_model((4, 3), 9, units=8, embedding_dim=4)
    assert tuple(model.inputs[0].shape) == (None, 4, 3)
    for shape in [(4,), (4, 0), (4.0, 3), None]:
        with pytest.raises(
            ValueError, match=f"`feature_shape` .* {re.escape(repr(shape))}"
        ):
            models.build_caption_model(shape, 9)


def test_bad_warmup_is_refused(capsys):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    with pytest.raises(ValueError, match="Received: warmup_steps=100, decay_steps=100"):
        models.compile_caption_model(model, 2e-3, 0.0, 100, 100)
    with pytest.raises(ValueError, match="Received: warmup_steps=-1, decay_steps=None"):
        models.compile_caption_model(model, 2e-3, 0.0, None, -1)
    with pytest.raises(SystemExit):
        main(["captioning", "train", "--warmup-epochs", "-1"])
    assert "Received: --warmup-epochs -1.0" in capsys.readouterr().err


@pytest.mark.parametrize(
    "flag, value, message",
    [
        ("--n-test", "0", "--n-test must be a positive integer. Received: --n-test 0"),
        ("--n-validation", "-1", "Received: --n-validation -1"),
        ("--n-train", "0", "Received: --n-train 0"),
        ("--dropout", "1.0", "--dropout must be in [0, 1). Received: --dropout 1.0"),
        ("--context-dropout", "-0.1", "Received: --context-dropout -0.1"),
        ("--context-dropout", "nan", "Received: --context-dropout nan"),
    ],
)
def test_bad_counts_and_rates_are_refused_before_any_data(
    flag, value, message, capsys, monkeypatch
):
    def no_data(config):
        raise AssertionError("the data was loaded")

    monkeypatch.setattr(training, "load_dataset", no_data)
    with pytest.raises(SystemExit) as error:
        main(["captioning", "train", "--weights", "none", flag, value])
    assert error.value.code == 2
    assert message in capsys.readouterr().err
    with pytest.raises(ValueError, match="n_test"):
        train("unused", tiny_config(n_test=0))


def test_caption_batches_shift_and_pad():
    inputs = np.arange(3 * 2 * 1, dtype="float16").reshape(3, 2, 1)
    pairs = [(0, [5, 6, 7]), (2, [8]), (1, [9, 9])]
    batches = CaptionBatches(inputs, pairs, batch_size=2, length=5, shuffle=False)
    assert len(batches) == 2
    (x, words), y = batches[0]
    assert x.dtype == np.float32 and x.shape == (2, 2, 1)
    np.testing.assert_array_equal(x[1], inputs[2])  # one row per image
    np.testing.assert_array_equal(words[0], [2, 5, 6, 7, 0])  # <start> first
    np.testing.assert_array_equal(y["logits"][0], [5, 6, 7, 3, 0])  # then <end>
    np.testing.assert_array_equal(y["logits"], y["attention"])
    (_, words), y = batches[1]
    assert words.shape == (1, 5)


def test_bleu_scores_by_hand():
    refs = [["a red circle", "a red circle above a blue square"], ["a blue star"]]
    perfect = bleu_scores(["a red circle", "a blue star"], refs)
    assert all(perfect[f"bleu{n}"] == pytest.approx(1.0) for n in (1, 2, 3))
    # "a blue circle" vs "a red circle": 2 of 3 unigrams, 0 of 2 bigrams.
    partial = bleu_scores(["a blue circle"], [["a red circle"]], max_order=2)
    assert partial["bleu1"] == pytest.approx(2 / 3)
    assert partial["bleu2"] == 0.0


def test_grounding_counts_peaks_inside_boxes():
    circle = SceneObject("circle", "red", "large", (0.0, 0.0, 0.45, 0.45))
    square = SceneObject("square", "blue", "small", (0.55, 0.55, 1.0, 1.0))
    scene = Scene(np.zeros((8, 8, 3), "uint8"), "", [], [circle, square])
    caption = "a large red circle above a small blue square"
    attention = np.full((10, 4), 0.25, "float32")
    attention[3] = [0.7, 0.1, 0.1, 0.1]  # "circle": top-left cell, inside
    attention[8] = [0.7, 0.1, 0.1, 0.1]  # "square": top-left cell, outside
    out = grounding([scene], [caption], [attention], (2, 2))
    assert out["grounding"] == 0.5 and out["object_words"] == 2
    # The size and colour words peak on the uniform rows' first cell (0, 0):
    # inside the circle, outside the square; with the nouns, 3 of 6.
    assert out["phrase_grounding"] == 0.5
    attention[8] = [0.1, 0.1, 0.1, 0.7]
    assert grounding([scene], [caption], [attention], (2, 2))["grounding"] == 1.0
    out = grounding([scene], ["a small green star"], [attention], (2, 2))
    assert out["hallucinated_object_words"] == 1 and out["object_words"] == 0


def test_attention_spread_entropy_and_penalty():
    uniform = np.full((2, 4), 0.25)
    peaked = np.array([[1.0, 0, 0, 0], [0, 1.0, 0, 0]])
    spread = attention_spread([uniform, peaked], [2, 2])
    np.testing.assert_allclose(spread["attention_entropy"], np.log(4) / 2)
    # uniform: 4 * (1 - 0.5)^2 = 1; peaked: 0 + 0 + 1 + 1 = 2
    np.testing.assert_allclose(spread["doubly_stochastic_penalty"], 1.5)


def test_the_run_folder_holds_the_models_config_vocabulary_plots_and_logs(run):
    for name in ("model.keras", "encoder.keras", "config.json", "vocabulary.json"):
        assert (run / name).exists(), name
    assert len(list((run / "plots").glob("*.png"))) == 3
    assert list((run / "logs").rglob("events.out.tfevents.*"))


def test_metrics_record_the_training_speed_epochs_and_warmup(run):
    metrics = json.loads((run / "metrics.json").read_text())
    assert metrics["training"]["steps_per_second"] > 0
    assert metrics["training"]["epochs"] == 2
    assert metrics["training"]["warmup_steps"] == 96 // 16  # one epoch


def test_metrics_hold_each_decoding_s_test_scores(run):
    test = json.loads((run / "metrics.json").read_text())["test"]
    assert test["n"] == 24
    for decoding in ("greedy", "beam2"):
        for n in (1, 2, 3, 4):
            assert 0.0 <= test[decoding][f"bleu{n}"] <= 1.0
        assert 0.0 <= test[decoding]["grounding"] <= 1.0
        assert test[decoding]["captions_per_second"] > 0


def test_config_records_the_grid_shape_and_the_resolved_image_size(run):
    config = json.loads((run / "config.json").read_text())
    assert config["grid_shape"] == [4, 4] and config["resolved_image_size"] == 64


def test_the_test_split_s_scenes_are_regenerated_identically(run):
    items = held_out_items(run)
    assert [i.scene.caption for i in items] == [
        s.caption for s in scene_splits(96, 16, 24, 0, 64)[2]
    ]


def test_images_from_arrays_files_and_bytes_agree(run, tmp_path):
    captioner = Captioner(run)
    scene = generate_scenes(1, seed=5, image_size=64)[0]
    path = tmp_path / "scene.png"
    path.write_bytes(encode_png(scene.image))
    rgba = np.concatenate([scene.image, np.full((64, 64, 1), 9, "uint8")], -1)
    from_array, att, _ = captioner.caption_images([scene.image])
    assert captioner.caption_images([str(path)])[0] == from_array
    assert captioner.caption_images([path.read_bytes()])[0] == from_array
    assert captioner.caption_images([encode_png(rgba)])[0] == from_array
    assert att[0].shape[1] == 16 and np.isfinite(att[0]).all()
    # Other sizes are resized to the encoder's input.
    big = np.kron(scene.image, np.ones((3, 3, 1), "uint8"))  # 192 x 192
    gray = encode_png(scene.image.mean(-1).astype("uint8"))
    tiny = encode_png(scene.image[:1, :1])
    captions, attention, _ = captioner.caption_images([big, gray, tiny])
    assert all(isinstance(c, str) for c in captions)
    assert all(np.isfinite(a).all() for a in attention)


@pytest.fixture
def good_image(tmp_path):
    scene = generate_scenes(1, seed=3, image_size=64)[0]
    path = tmp_path / "good.png"
    path.write_bytes(encode_png(scene.image))
    return path


@pytest.fixture
def bad_image(tmp_path):
    path = tmp_path / "bad.jpg"
    path.write_bytes(b"this is not an image")
    return path


@pytest.fixture
def empty_image(tmp_path):
    path = tmp_path / "empty.png"
    path.write_bytes(b"")
    return path


def test_cli_predict_captions_a_good_image(run, good_image, capsys):
    assert main(["captioning", "predict", "--run", str(run), str(good_image)]) == 0
    assert capsys.readouterr().out.startswith(f"{good_image}: ")


def test_cli_predict_names_each_unreadable_image(
    run, bad_image, empty_image, capsys, tmp_path
):
    for path, message in [
        (bad_image, "cannot decode"),
        (empty_image, "empty"),
        (tmp_path / "missing.png", "not found"),
        (tmp_path, "is a folder, not an image file"),
    ]:
        assert main(["captioning", "predict", "--run", str(run), str(path)]) == 2
        err = capsys.readouterr().err
        # The path quoted at most 80 characters, its end (the file name) kept.
        assert str(path)[-80:] in err and message in err, err
        # Round 4: one line (it was the reason, then `error:`), no object
        # address from PIL.
        assert err.count("\n") == 1 and err.startswith("attention-zoo "), err
        assert "object at 0x" not in err, err


def test_cli_predict_one_bad_image_costs_only_its_own_caption(
    run, good_image, bad_image, capsys
):
    # Round 3, item 12: every input gets its line, in order, and the status
    # says 2.
    good, bad = good_image, bad_image
    argv = ["captioning", "predict", "--run", str(run), str(good), str(bad), str(good)]
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert [line.split(": ")[0] for line in lines] == [str(good), str(bad), str(good)]
    assert lines[0] == lines[2] != f"{good}: "
    # The refusal shown in its place (issue 59: it was an empty caption).
    assert lines[1].startswith(f"{bad}: not valid: ") and "cannot decode" in lines[1]
    (error,) = captured.err.splitlines()
    assert ": error: " in error and str(bad) in error and "cannot decode" in error
    argv = ["captioning", "predict", "--run", str(run), str(bad), str(good), str(bad)]
    assert main(argv) == 2
    (error,) = capsys.readouterr().err.splitlines()
    assert "2 of 3 image(s) could not be read" in error and str(bad) in error


def test_cli_plot_writes_the_attention_overlay_as_png(run, good_image, tmp_path):
    out = tmp_path / "plots"
    argv = ["captioning", "plot", "--run", str(run), "--output", str(out)]
    assert main([*argv, str(good_image)]) == 0
    assert (out / "attention_0.png").read_bytes()[:4] == b"\x89PNG"


def test_cli_evaluate_prints_bleu_of_the_beam_asked(run, capsys):
    assert main(["captioning", "evaluate", "--run", str(run), "--beam-width", "3"]) == 0
    assert "| beam3 |" in capsys.readouterr().out


def test_cli_evaluate_refuses_a_folder_that_is_no_run(tmp_path):
    assert main(["captioning", "evaluate", "--run", str(tmp_path / "nothing")]) == 2


def test_cli_predict_refuses_a_beam_width_of_zero(run, good_image):
    argv = ["captioning", "predict", "--run", str(run), "--beam-width", "0"]
    with pytest.raises(SystemExit):
        main([*argv, str(good_image)])


def test_cli_refuses_an_output_that_is_a_file(run, good_image, capsys, tmp_path):
    assert_cli_refuses_a_file_as_output(
        main,
        capsys,
        tmp_path,
        "captioning",
        [
            ["plot", "--run", str(run), "--output", "{file}", str(good_image)],
            ["export", "--run", str(run), "--output", "{file}"],
            ["train", "--output", "{file}", "--n-train", "2"],
        ],
    )


# A second training (~100 s on 2 cores): test_sources.py reads the same
# files without training; this proves the whole path end to end.
@pytest.mark.slow
def test_user_data_run_evaluates_from_another_directory(tmp_path, monkeypatch, capsys):
    if keras.backend.backend() != "tensorflow":
        pytest.skip("the application tests run on the TensorFlow backend")
    (tmp_path / "data" / "images").mkdir(parents=True)
    lines = []
    for i, scene in enumerate(generate_scenes(20, seed=7, image_size=64)):
        (tmp_path / "data" / "images" / f"{i}.png").write_bytes(encode_png(scene.image))
        lines.append(f"{i}.png#0\t{scene.caption}")
        lines.append(f"{i}.png#1\tA “R&B” {scene.caption}")  # as written
    (tmp_path / "data" / "tokens.txt").write_text("\n".join(lines))
    monkeypatch.chdir(tmp_path / "data")
    config = tiny_config(
        dataset="flickr8k",
        images_dir="images",  # relative to the training directory
        captions_file="tokens.txt",
        epochs=1,
    )
    train(tmp_path / "run", config, verbose=0)
    # The vocabulary has the words of normalised captions, as BLEU's
    # references do: "r & b", not "r&b".
    words = json.loads((tmp_path / "run" / "vocabulary.json").read_text())
    assert {"r", "&", "b", "“"} <= set(words) and "r&b" not in words
    rows = json.loads((tmp_path / "run" / "data" / "test.json").read_text())
    assert rows and all(Path(r["image"]).is_absolute() for r in rows)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    capsys.readouterr()
    assert main(["captioning", "evaluate", "--run", str(tmp_path / "run")]) == 0
    assert "| beam2 |" in capsys.readouterr().out


@pytest.mark.slow  # a training of its own (~80 s on 2 cores)
def test_fine_tuning_trains_the_last_encoder_blocks(tmp_path):
    if keras.backend.backend() != "tensorflow":
        pytest.skip("the application tests run on the TensorFlow backend")
    # Greedy only: the beam search does not change with fine-tuning.
    config = tiny_config(
        n_train=32, n_validation=8, n_test=8, epochs=1, fine_tune_blocks=1, beam_width=1
    )
    metrics = train(tmp_path / "ft", config, verbose=0)
    assert metrics["training"]["warmup_steps"] == 1  # capped at half of 2 steps
    keras.utils.set_random_seed(config.seed)  # as train() does before building it
    untrained = build_encoder(config)
    trained = keras.saving.load_model(tmp_path / "ft" / "encoder.keras")
    changed = [
        not np.array_equal(a, b)
        for a, b in zip(untrained.get_weights(), trained.get_weights())
    ]
    assert any(changed) and not all(changed)  # the last block only


LOAD = """
import json, sys
import tensorflow as tf
loaded = tf.saved_model.load(sys.argv[1])
serve = loaded.signatures["serving_default"]
blobs = [open(p, "rb").read() for p in json.load(open(sys.argv[2]))]
out = serve(image_bytes=tf.constant(blobs))
empty = serve(image_bytes=tf.constant([], tf.string))
print(json.dumps({
    "empty": {k: [v.shape.as_list(), v.dtype.name] for k, v in empty.items()},
    "text": [t.decode() for t in out["text"].numpy()],
    "valid": out["valid"].numpy().tolist(),
    "attention": out["attention"].numpy().tolist(),
    "score": out["score"].numpy().tolist(),
    "distance": out["distance"].numpy().tolist(),
    "modules": [m for m in sys.modules if m.startswith(("attention_zoo", "applications"))],
}))
"""


@pytest.fixture(scope="module")
def image_bytes():
    """Nine readable images (three of another size or channel count), then
    three that are not."""
    scenes = generate_scenes(6, seed=11, image_size=64)
    blobs = [encode_png(s.image) for s in scenes]
    blobs += [
        encode_png(scenes[0].image.mean(-1).astype("uint8")),  # grayscale
        encode_png(np.concatenate([scenes[1].image, scenes[1].image[..., :1]], -1)),
        encode_png(np.kron(scenes[2].image, np.ones((4, 4, 1), "uint8"))),
        b"",
        b"garbage bytes",
        encode_png(scenes[3].image)[:100],  # truncated
    ]
    return blobs


@pytest.fixture(scope="module")
def exported(run, tmp_path_factory):
    """The folder holding the run exported once, as `saved`."""
    folder = tmp_path_factory.mktemp("captioning-export")
    export(run, folder / "saved")
    return folder


def serve_in_tensorflow(folder, blobs, name="paths.json"):
    """`LOAD`'s answers to `blobs` from the SavedModel `folder/saved`."""
    paths = []
    for i, blob in enumerate(blobs):
        paths.append(str(folder / f"{name}-{i}.bin"))
        (folder / f"{name}-{i}.bin").write_bytes(blob)
    (folder / name).write_text(json.dumps(paths))
    return run_json_script(folder, LOAD, folder / "saved", name)


@pytest.fixture(scope="module")
def served(exported, image_bytes):
    """`image_bytes` served once in plain TensorFlow."""
    return serve_in_tensorflow(exported, image_bytes)


def test_odd_images_get_one_answer_from_python_and_the_saved_model(run, exported):
    """A 1 x 1 PNG and an animated GIF were valid in `Captioner` and not in
    the SavedModel: transparent GIF pixels were their palette colour in PIL
    and black in TensorFlow, and TensorFlow's canvas is the largest frame.
    Every odd image now gets the same caption, distance and validity; the
    ones the two decoders would read differently are refused by both."""
    from attention_zoo.applications.common import InputError
    from tests.applications.captioning.odd_images import odd_images, refused_images

    scenes = generate_scenes(2, seed=7, image_size=64)
    odd = odd_images(scenes[0].image, scenes[1].image)
    refused = refused_images(scenes[0].image)
    served = serve_in_tensorflow(exported, [*odd.values(), *refused.values()], "odd")
    captioner = Captioner(run)
    in_python = captioner(list(odd.values()))
    for i, (name, item) in enumerate(zip(odd, in_python)):
        assert served["valid"][i] == item["valid"], name
        assert served["text"][i] == item["text"], name
        np.testing.assert_allclose(served["distance"][i], item["distance"], rtol=1e-4)
    for i, (name, data) in enumerate(refused.items(), len(odd)):
        assert served["valid"][i] is False, name
        with pytest.raises(InputError):
            captioner.check(data)


@pytest.fixture(scope="module")
def captioned_in_memory(run, image_bytes):
    """The nine readable images captioned in memory, in one batch: the
    captions as `Captioner` writes them (detokenised), the attention."""
    captions, attention, _ = Captioner(run).caption_images(
        image_bytes[:9], batch_size=9
    )
    return [detokenize(c.split()) for c in captions], attention


def test_saved_model_loads_without_the_package(served):
    assert served["modules"] == []


def test_saved_model_answers_an_empty_batch_with_empty_outputs(run, served):
    assert served["empty"] == {
        "text": [[0], "string"],
        "attention": [[0, Captioner(run).max_length, 16], "float32"],
        "valid": [[0], "bool"],
        "score": [[0], "float32"],
        "distance": [[0], "float32"],
    }


def test_saved_model_marks_only_the_readable_images_valid(run, served, image_bytes):
    # Readable images are valid as `Captioner` says (the tiny run's image
    # domain may refuse some); the three unreadable ones never are.
    in_memory = Captioner(run)(image_bytes[:9])
    assert served["valid"] == [i["valid"] for i in in_memory] + [False] * 3
    np.testing.assert_allclose(
        served["score"][:9], [i["score"] for i in in_memory], atol=1e-4
    )
    np.testing.assert_allclose(
        served["distance"][:9], [i["distance"] for i in in_memory], rtol=1e-4
    )


def test_saved_model_captions_as_in_memory(served, captioned_in_memory):
    expected, _ = captioned_in_memory
    assert served["text"][:9] == expected


def test_saved_model_attention_matches_in_memory(run, served, captioned_in_memory):
    _, attention = captioned_in_memory
    weights = np.array(served["attention"], "float32")
    assert weights.shape == (12, Captioner(run).max_length, 16)
    for i, a in enumerate(attention):
        np.testing.assert_allclose(weights[i, : len(a)], a, atol=1e-5)


def test_saved_model_answers_unreadable_bytes_with_empty_text_and_zero_attention(
    served,
):
    assert served["text"][9:] == ["", "", ""]
    assert (np.array(served["attention"], "float32")[9:] == 0).all()


def test_tfds_dataset_and_its_test_split_offline(tmp_path):
    tfds = pytest.importorskip("tensorflow_datasets")
    config = TrainConfig(dataset="tfds", n_train=3, n_validation=2, n_test=2)
    with tfds.testing.mock_data(num_examples=5):
        splits = load_dataset(config)
        (tmp_path / "config.json").write_text(
            json.dumps({"dataset": "tfds", "tfds_data_dir": None, "n_test": 2})
        )
        held_out = held_out_items(tmp_path)
    assert [len(s) for s in splits] == [3, 2, 2] and len(held_out) == 2
    for item in [*splits[0], *held_out]:
        assert item.image.ndim == 3 and item.image.shape[-1] == 3
        assert item.captions and all(isinstance(c, str) for c in item.captions)


def test_a_run_saved_as_a_preset_captions_alike(run, tmp_path):
    from attention_zoo.presets import save_to_preset

    scene = generate_scenes(1, seed=7, image_size=64)[0]
    folder = save_to_preset(Captioner(run), tmp_path / "p")
    assert {"model.json", "encoder.json", "encoder.weights.h5"} <= {
        p.name for p in folder.iterdir()
    }
    expected = Captioner(run)(scene.image)
    (loaded,) = Captioner.from_preset(folder)(scene.image)
    assert loaded["text"] == expected[0]["text"]
    assert loaded["valid"] == expected[0]["valid"] and loaded["score"] <= 0
    np.testing.assert_allclose(loaded["score"], expected[0]["score"], rtol=1e-5)


def test_a_preset_rebuilds_the_frozen_imagenet_encoder_instead_of_storing_it(
    run, tmp_path
):
    import shutil

    from attention_zoo.applications.captioning.features import build_encoder
    from attention_zoo.presets import read_metadata, save_to_preset

    # The run with the frozen ImageNet encoder instead of its random one: no
    # training needed to check that a preset rebuilds that encoder exactly.
    imagenet = tmp_path / "run"
    shutil.copytree(run, imagenet)
    config = json.loads((imagenet / "config.json").read_text())
    config["weights"] = "imagenet"
    (imagenet / "config.json").write_text(json.dumps(config))
    build_encoder(tiny_config(weights="imagenet")).save(imagenet / "encoder.keras")
    folder = tmp_path / "p"
    save_to_preset(Captioner(imagenet), folder)
    names = {p.name for p in folder.iterdir()}
    assert "model.weights.h5" in names and not names & {
        "encoder.json",
        "encoder.weights.h5",
        "encoder.keras",
    }
    assert read_metadata(folder)["rebuilt_models"] == ["encoder.keras"]
    scene = generate_scenes(1, seed=7, image_size=64)[0]
    expected = Captioner(imagenet)(scene.image)[0]
    loaded = Captioner.from_preset(folder)
    assert loaded.encoder.count_params() == Captioner(run).encoder.count_params()
    (item,) = loaded(scene.image)
    assert item["text"] == expected["text"]
    np.testing.assert_allclose(item["score"], expected["score"], rtol=1e-6)
    np.testing.assert_allclose(item["attention"], expected["attention"], atol=1e-6)
