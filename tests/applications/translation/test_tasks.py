"""The translation application end to end on a small number-words run."""

import json
import shutil

import keras
import numpy as np
import pytest

from attention_zoo.applications.cli import main
from attention_zoo.applications.common import InputError
from attention_zoo.applications.translation import data
from attention_zoo.applications.translation.batches import BucketedBatches
from attention_zoo.applications.translation.comparison import (
    compare_lengths,
    compare_runs,
    run_labels,
)
from attention_zoo.applications.translation.config import TrainConfig
from attention_zoo.applications.translation.corpus import load_corpus, read_pairs
from attention_zoo.applications.translation.export import export
from attention_zoo.applications.translation.postprocess import Truecaser
from attention_zoo.applications.translation.predictor import (
    MAX_OUTPUT_TOKENS,
    MAX_SOURCE_TOKENS,
    TRUECASE_FILE,
    Translator,
)
from attention_zoo.applications.translation.training import train
from tests.helpers import assert_cli_refuses_a_file_as_output, run_json_script

pytestmark = pytest.mark.tf_only


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    if keras.backend.backend() != "tensorflow":
        pytest.skip("the application tests run on the TensorFlow backend")
    path = tmp_path_factory.mktemp("translation") / "run"
    config = TrainConfig(
        corpus="numbers",
        n_pairs=4000,
        units=16,
        embedding_dim=16,
        output_units=32,
        source_vocab_size=200,
        target_vocab_size=200,
        epochs=2,
        beam_width=3,
    )
    train(path, config, verbose=0)
    return path


@pytest.fixture(scope="module")
def saved_model(run, tmp_path_factory):
    """The run exported once for the tests that load it in plain TensorFlow."""
    path = tmp_path_factory.mktemp("translation-export") / "saved"
    export(run, path)
    return path


def test_bucketed_batches_shapes_and_shift():
    sources = [[5] * n for n in (3, 3, 3, 12, 12, 12, 70)]
    targets = [[6] * n for n in (2, 7, 2, 9, 20, 9, 3)]
    batches = BucketedBatches(sources, targets, batch_size=2, seed=0)
    # (3, 2) and (3, 2) fit bucket 8; (3, 7) needs 8 too; the 12/9 pairs 16;
    # (12, 20) needs 24; the 70-token source fits no bucket and is left out.
    assert sorted(len(v) for v in batches.buckets.values()) == [1, 2, 3]
    assert len(batches) == 2  # one full batch in buckets 8 and 16
    lengths = {batches[i][1].shape[1] for i in range(len(batches))}
    assert lengths == {8, 16}
    (source, decoder_input), labels = batches[0]
    assert source.shape == decoder_input.shape == labels.shape
    assert (decoder_input[:, 0] == 2).all()  # <start>
    for row in range(2):
        n = int((labels[row] != 0).sum())
        assert labels[row, n - 1] == 3  # <end>
        np.testing.assert_array_equal(decoder_input[row, 1:n], labels[row, : n - 1])
    # The first two batches differ in length, so Keras keeps the axis dynamic.
    assert batches[0][1].shape != batches[1][1].shape
    # Validation keeps every pair that fits a bucket.
    everything = BucketedBatches(sources, targets, 2, drop_remainder=False)
    assert sum(len(b) for _, b in everything.batches) == 6


def test_run_folder_and_metrics(run):
    for name in (
        "truecase.json",
        "model.keras",
        "config.json",
        "source_vocabulary.json",
        "target_vocabulary.json",
        "metrics.json",
        "data/test.tsv",
        "checkpoints/best.keras",
    ):
        assert (run / name).exists(), name
    assert list((run / "plots").glob("*.png"))
    assert list((run / "logs").rglob("events.out.tfevents.*"))
    metrics = json.loads((run / "metrics.json").read_text())
    assert metrics["training"]["target_tokens_per_second"] > 0
    test = metrics["test"]
    assert test["n"] == 200
    for decoding in ("greedy", "beam3"):
        assert 0 <= test[decoding]["bleu"] <= 100
        assert 0 <= test[decoding]["chrf"] <= 100
        assert test[decoding]["bleu_signature"].startswith("nrefs:1|")
        assert "tok:13a" in test[decoding]["bleu_signature"]
        assert "case:mixed" in test[decoding]["bleu_signature"]
        assert 0 <= test[decoding]["bleu_normalized"] <= 100
        assert sum(b["n"] for b in test[decoding]["by_source_length"].values()) == 200


def test_translate_edge_cases(run):
    translator = Translator(run)
    long_text = " ".join(["seven hundred and twelve"] * 60)  # 240 words
    texts = ["", "  ,  ", long_text, "ninety-nine 你好 мир", "ONE HUNDRED"]
    for width in (1, 3):
        items = translator(texts, beam_width=width)
        out = [item["text"] for item in items]
        attention = [item["attention"] for item in items]
        assert out[0] == "" and attention[0].shape == (MAX_OUTPUT_TOKENS, 0)
        assert isinstance(out[2], str) and isinstance(out[3], str) and out[4]
        # The long input is read up to MAX_SOURCE_TOKENS.
        assert attention[2].shape[1] == MAX_SOURCE_TOKENS
        for a in attention:
            assert np.isfinite(a).all()
        assert out[4] == translator("one hundred", beam_width=width)[0]["text"]
    with pytest.raises(InputError, match="empty input"):
        translator.check_all(["   "])
    assert translator.unknown_words("ninety-nine 你好") == ["你好"]


def test_cli_translate_evaluate_plot(run, capsys, tmp_path):
    assert main(["translation", "translate", "--run", str(run), "forty-two"]) == 0
    assert capsys.readouterr().out.startswith("'forty-two' -> '")
    assert main(["translation", "translate", "--run", str(run), " "]) == 2
    assert "empty input" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["translation", "translate", "--run", str(run), "--beam-width", "0", "x"])
    png = tmp_path / "lengths.png"
    assert (
        main(
            [
                "translation",
                "evaluate",
                "--run",
                str(run),
                "--run",
                str(run),
                "--plot",
                str(png),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "| greedy |" in out and "BLEU by source length (greedy)" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (
        main(
            [
                "translation",
                "plot",
                "--run",
                str(run),
                "--output",
                str(tmp_path),
                "three thousand and one",
            ]
        )
        == 0
    )
    assert (tmp_path / "attention_0.png").read_bytes()[:4] == b"\x89PNG"
    assert main(["translation", "evaluate", "--run", str(tmp_path / "nothing")]) == 2
    assert_cli_refuses_a_file_as_output(
        main,
        capsys,
        tmp_path,
        "translation",
        [
            ["plot", "--run", str(run), "--output", "{file}", "forty-two"],
            ["export", "--run", str(run), "--output", "{file}"],
            ["train", "--output", "{file}", "--epochs", "1"],
        ],
    )


def _copy_run(run, path, **config):
    """A copy of the run folder with `config` changed (no retraining)."""
    shutil.copytree(run, path, ignore=shutil.ignore_patterns("checkpoints", "logs"))
    saved = json.loads((path / "config.json").read_text())
    (path / "config.json").write_text(json.dumps({**saved, **config}))
    return path


def test_cli_evaluate_compares_runs_of_different_beam_widths(run, capsys, tmp_path):
    # Two folders of one name, as two experiments' runs are often called.
    wide = _copy_run(run, tmp_path / "cmpA" / "run")
    narrow = _copy_run(run, tmp_path / "cmpB" / "run", beam_width=2)
    png = tmp_path / "lengths.png"
    argv = ["translation", "evaluate", "--run", str(wide), "--run", str(narrow)]
    assert main([*argv, "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "BLEU by source length (greedy)" in out
    assert "| source words | n | cmpA/run | cmpB/run |" in out
    assert "(beam3)" not in out and "(beam2)" not in out
    assert "not every run holds them: cmpA/run: beam3; cmpB/run: beam2" in out
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_run_labels_are_the_shortest_distinct_path_tails(tmp_path):
    runs = ["x/cmpA/run", "x/cmpB/run", "y", "y/", "./y", "/a/run", "/b/a/run"]
    assert run_labels(runs) == [
        "cmpA/run",
        "cmpB/run",
        "y",
        "y (2)",
        "y (3)",
        "/a/run",
        "b/a/run",
    ]
    assert run_labels([tmp_path / "run"]) == ["run"]


def test_compare_runs_tables_only_the_decodings_every_run_holds():
    def metrics(*decodings):
        bucket = {"0-9": {"n": 2, "bleu": 50.0, "chrf": 60.0}}
        return {"n": 2, **{d: {"by_source_length": bucket} for d in decodings}}

    named = {"a": metrics("greedy", "beam2"), "b": metrics("greedy", "beam4")}
    text = compare_runs(named)
    assert "(greedy)" in text and "| 0-9 | 2 | 50.00 | 50.00 |" in text
    assert "(beam2)" not in text and "a: beam2; b: beam4" in text
    assert "Not compared" not in compare_runs({"a": named["a"]})
    with pytest.raises(ValueError, match=r"runs \['b'\] were not evaluated with beam2"):
        compare_lengths(named, "beam2")


def test_compare_lengths_gives_each_runs_count_when_the_test_sets_differ():
    def metrics(n, bleu):
        bucket = {"0-9": {"n": n, "bleu": bleu, "chrf": 60.0}}
        return {"n": n, "greedy": {"by_source_length": bucket}}

    same = compare_lengths({"a": metrics(2, 50.0), "b": metrics(2, 40.0)})
    assert "| 0-9 | 2 | 50.00 | 40.00 |" in same
    # It showed the first run's 2 for both before.
    differ = compare_lengths({"a": metrics(2, 50.0), "b": metrics(7, 40.0)})
    assert "| 0-9 | 2 / 7 | 50.00 | 40.00 |" in differ


LOAD = """
import json, sys
import tensorflow as tf
loaded = tf.saved_model.load(sys.argv[1])
serve = loaded.signatures["serving_default"]
texts = json.load(open(sys.argv[2]))
out = serve(text=tf.constant(texts))
print(json.dumps({
    "text": [t.decode() for t in out["text"].numpy()],
    "attention": out["attention"].numpy().tolist(),
    "modules": [m for m in sys.modules if m.startswith(
        ("attention_zoo", "applications", "tensorflow_text", "keras_nlp", "keras_hub")
    )],
}))
"""


def test_saved_model_matches_in_memory_beam_search(run, saved_model, tmp_path):
    texts = [p.source for p in read_pairs(run / "data" / "test.tsv")]
    edge = ["", " ", " ".join(["one"] * 200), "ninety-nine 你好 мир", "Forty-Two!"]
    (tmp_path / "texts.json").write_text(json.dumps(texts + edge))
    got = run_json_script(tmp_path, LOAD, saved_model, "texts.json")
    assert got["modules"] == []
    translator = Translator(run)
    # One batch, as the SavedModel receives it.
    expected = [i["text"] for i in translator(texts, batch_size=len(texts))]
    assert len(texts) == 200
    assert got["text"][:200] == expected
    served_edge = got["text"][200:]
    assert served_edge[:2] == ["", ""]
    in_memory = [i["text"] for i in translator(edge[2:])]
    assert served_edge[2:] == in_memory
    # Readable: no <unk> (the unknown 你好 is copied through if attended);
    # number words never capitalise a sentence start, and the truecaser
    # learned so.
    assert all("<unk>" not in t for t in got["text"])
    assert not Truecaser.load(run / TRUECASE_FILE).capitalize_starts
    assert all(t == t.lower() for t in got["text"][:200])
    attention = np.array(got["attention"])
    assert np.isfinite(attention).all()
    assert (attention[200:202] == 0).all()


def test_tsv_corpus_split_never_shares_a_source(tmp_path):
    pairs = data.number_pairs(300, seed=3)
    lines = [f"{p.source}\t{p.target}\tCC-BY" for p in pairs] + [
        f"{pairs[0].source}\totra traducción"
    ]
    path = tmp_path / "pairs.tsv"
    path.write_text("\n".join(lines), encoding="utf-8")
    train, validation, test = load_corpus(TrainConfig(corpus="tsv", pairs=str(path)))
    assert len(train) + len(validation) + len(test) == 301
    sources = [{p.source for p in split} for split in (train, validation, test)]
    assert not (
        sources[0] & sources[1] or sources[0] & sources[2] or sources[1] & sources[2]
    )


def test_config_errors(tmp_path):
    for kwargs, match in (
        ({"attention": "dot"}, "Received: attention='dot'"),
        ({"decoder": "fast"}, "Received: decoder='fast'"),
        ({"corpus": "wiki"}, "Received: corpus='wiki'"),
        ({"max_minutes": 0}, "`max_minutes` must be a finite positive number"),
        ({"units": 0}, "`units` must be a positive integer"),
    ):
        with pytest.raises(ValueError, match=match):
            config = TrainConfig(**{"corpus": "numbers", **kwargs})
            train(tmp_path / "x", config)


def test_tfds_corpus_uses_the_dataset_splits_offline():
    tfds = pytest.importorskip("tensorflow_datasets")
    with tfds.testing.mock_data(num_examples=4):
        splits = load_corpus(
            TrainConfig(corpus="tfds", tfds_name="wmt14_translate/de-en")
        )
    assert [len(s) for s in splits] == [4, 4, 4]
    with pytest.raises(ValueError, match="needs `tfds_name`"):
        load_corpus(TrainConfig(corpus="tfds"))


def test_time_budget_stops_training_and_keeps_the_best_epoch(tmp_path):
    if keras.backend.backend() != "tensorflow":
        pytest.skip("the application tests run on the TensorFlow backend")
    config = TrainConfig(
        corpus="numbers",
        n_pairs=600,
        units=8,
        embedding_dim=8,
        output_units=8,
        source_vocab_size=100,
        target_vocab_size=100,
        epochs=50,
        max_minutes=0.001,  # 60 ms: the first batch ends the run
        beam_width=2,
    )
    metrics = train(tmp_path / "run", config, verbose=0)
    training = metrics["training"]
    assert training["stopped_by_budget"] and training["epochs"] == 1
    assert 0 < training["target_tokens"] < 600 * 8
    assert (tmp_path / "run" / "model.keras").exists()


def test_cli_translates_files_and_stdin_line_for_line(
    run, capsys, tmp_path, monkeypatch
):
    import io
    import sys

    lines = [
        b"forty-two",
        b"",
        b"   ",
        " ".join(["seven"] * 300).encode(),
        b"\xff\xfe\x00junk\x80",
        "ninety-nine 你好 мир".encode(),
        "one\u2028two\x0bthree".encode(),
        b"ONE HUNDRED\r",
    ]
    source = tmp_path / "in.txt"
    source.write_bytes(b"\n".join(lines) + b"\n")
    out = tmp_path / "out.txt"
    argv = ["translation", "translate", "--run", str(run), "--input", str(source)]
    assert main([*argv, "--output", str(out)]) == 0
    written = out.read_text(encoding="utf-8")
    assert written.endswith("\n") and len(written.splitlines()) == len(lines)
    translated = written.splitlines()
    assert translated[1] == translated[2] == ""
    assert all("<unk>" not in t for t in translated)
    err = capsys.readouterr().err
    assert "line 2: empty input" in err and "line 3: empty input" in err
    assert "line 4: 300 words: only the first 128 are read" in err
    assert "line 5: not UTF-8" in err and "line 6: words outside the vocabulary" in err
    assert "line 1:" not in err

    # Standard input, jsonl with attention.
    stdin = io.TextIOWrapper(io.BytesIO(source.read_bytes()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main([*argv[:4], "-", "--format", "jsonl", "--with-attention"]) == 0
    records = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(records) == len(lines)
    assert [r["translation"] for r in records] == translated
    first = records[0]
    assert first["source"] == "forty-two" and np.isfinite(first["score"])
    assert first["score"] < 0 and first["messages"] == []
    weights = np.array(first["attention"])
    assert weights.shape == (len(first["translation_tokens"]) + 1, 3)
    assert records[1]["attention"] == [] and records[1]["score"] == 0.0
    assert all(np.isfinite(r["score"]) for r in records)
    # Arguments and --input together are refused.
    with pytest.raises(SystemExit):
        main([*argv, "forty-two"])


def test_cli_evaluate_scores_any_file(run, capsys, tmp_path):
    pairs = data.number_pairs(30, seed=11)
    path = tmp_path / "mine.tsv"
    path.write_text("\n".join(f"{p.source}\t{p.target}" for p in pairs), "utf-8")
    argv = ["translation", "evaluate", "--run", str(run), "--test-pairs", str(path)]
    assert main([*argv, "--ablation", "--beam-width", "1"]) == 0
    out = capsys.readouterr().out
    assert "test sentences: 30" in out and "| greedy |" in out
    assert "BLEU (normalized)" in out and "tok:13a" in out
    assert "| model tokens (before) |" in out and "| + all three (default) |" in out


def test_user_splits_replace_only_the_held_out_sets_they_name(tmp_path):
    def tsv(name, pairs):
        path = tmp_path / name
        path.write_text("\n".join(f"{p.source}\t{p.target}" for p in pairs), "utf-8")
        return str(path)

    pairs = data.number_pairs(400, seed=5)
    train_file = tsv("train.tsv", pairs[:300])
    dev, test = tsv("dev.tsv", pairs[300:350]), tsv("test.tsv", pairs[350:])
    config = TrainConfig
    both = load_corpus(
        config(corpus="tsv", pairs=train_file, validation_pairs=dev, test_pairs=test)
    )
    assert [len(s) for s in both] == [300, 50, 50]
    assert both[2][0].source == pairs[350].source
    only_test = load_corpus(config(corpus="tsv", pairs=train_file, test_pairs=test))
    assert len(only_test[1]) == 15 and len(only_test[0]) == 285
    assert len(only_test[2]) == 50
    assert not {p.source for p in only_test[0]} & {p.source for p in only_test[1]}
    # The split drawn without files is unchanged by giving one.
    default = load_corpus(config(corpus="tsv", pairs=train_file))
    assert default[1] == only_test[1]
    bible_like = load_corpus(config(corpus="numbers", n_pairs=200, test_pairs=test))
    assert len(bible_like[2]) == 50


def test_train_flags_include_the_users_splits(capsys):
    with pytest.raises(SystemExit):
        main(["translation", "train", "--help"])
    help_text = capsys.readouterr().out
    assert "--validation-pairs" in help_text and "--test-pairs" in help_text


def test_a_run_saved_as_a_preset_translates_alike(run, tmp_path):
    from attention_zoo.presets import read_metadata, save_to_preset

    texts = ["three hundred and two", "forty one"]
    folder = save_to_preset(Translator(run), tmp_path / "p", fixed_inputs=texts)
    expected = Translator(run)(texts)
    loaded = Translator.from_preset(folder)(texts)
    assert [i["text"] for i in loaded] == [i["text"] for i in expected]
    assert [i["valid"] for i in loaded] == [True, True]
    np.testing.assert_allclose(
        [i["score"] for i in loaded], [i["score"] for i in expected], rtol=1e-5
    )
    assert all(i["score"] <= 0 for i in loaded)
    # The card's metrics are each decoding's test scores, speeds left out.
    metrics = read_metadata(folder)["metrics"]
    assert {"greedy bleu", "greedy chrf"} <= set(metrics)
    assert not any(key.endswith("per_second") for key in metrics)


LOAD_BYTES = """
import json, sys
import tensorflow as tf
loaded = tf.saved_model.load(sys.argv[1])
raw = [bytes.fromhex(h) for h in json.load(open(sys.argv[2]))]
out = loaded.signatures["serving_default"](text=tf.constant(raw))
print(json.dumps({"text": [t.decode() for t in out["text"].numpy()]}))
"""


def test_saved_model_agrees_with_python_on_any_bytes(run, saved_model, tmp_path):
    # NUL, invalid and truncated UTF-8, control characters: the SavedModel
    # reads them as Python reads `raw.decode("utf-8", "replace")`.
    raw = [
        b"forty\x00two",
        b"one \xff hundred",
        b"TWO\x01 three",
        b"\xe2\x82 nine",
        b"\x00",
        b"seven\xc0\xaf",
    ]
    (tmp_path / "raw.json").write_text(json.dumps([r.hex() for r in raw]))
    got = run_json_script(tmp_path, LOAD_BYTES, saved_model, "raw.json")
    texts = [r.decode("utf-8", "replace") for r in raw]
    expected = [i["text"] for i in Translator(run)(texts, batch_size=len(texts))]
    assert got["text"] == expected
