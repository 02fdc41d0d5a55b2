"""The translation application end to end on a small number-words run."""

import json
import shutil

import keras
import numpy as np
import pytest

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
from attention_zoo.cli import main
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


def test_the_run_folder_holds_its_files_plots_and_logs(run):
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


def test_metrics_record_the_training_speed(run):
    metrics = json.loads((run / "metrics.json").read_text())
    assert metrics["training"]["target_tokens_per_second"] > 0


def test_metrics_hold_each_decoding_s_test_scores_by_source_length(run):
    test = json.loads((run / "metrics.json").read_text())["test"]
    assert test["n"] == 200
    for decoding in ("greedy", "beam3"):
        assert 0 <= test[decoding]["bleu"] <= 100
        assert 0 <= test[decoding]["chrf"] <= 100
        assert test[decoding]["bleu_signature"].startswith("nrefs:1|")
        assert "tok:13a" in test[decoding]["bleu_signature"]
        assert "case:mixed" in test[decoding]["bleu_signature"]
        assert 0 <= test[decoding]["bleu_normalized"] <= 100
        assert sum(b["n"] for b in test[decoding]["by_source_length"].values()) == 200


@pytest.fixture(scope="module")
def translator(run):
    return Translator(run)


# Empty, punctuation only, 240 words, unknown words, upper case.
EDGE_TEXTS = [
    "",
    "  ,  ",
    " ".join(["seven hundred and twelve"] * 60),
    "ninety-nine 你好 мир",
    "ONE HUNDRED",
]


@pytest.fixture(scope="module")
def edge_translations(translator):
    """`EDGE_TEXTS` translated greedily and with a beam of 3, by beam width."""
    return {width: translator(EDGE_TEXTS, beam_width=width) for width in (1, 3)}


@pytest.mark.parametrize("width", [1, 3])
def test_translate_answers_an_empty_input_with_empty_text_and_attention(
    edge_translations, width
):
    item = edge_translations[width][0]
    assert item["text"] == "" and item["attention"].shape == (MAX_OUTPUT_TOKENS, 0)


@pytest.mark.parametrize("width", [1, 3])
def test_translate_answers_long_unknown_and_upper_case_inputs_with_text(
    edge_translations, width
):
    out = [item["text"] for item in edge_translations[width]]
    assert isinstance(out[2], str) and isinstance(out[3], str) and out[4]


@pytest.mark.parametrize("width", [1, 3])
def test_translate_reads_a_long_input_up_to_max_source_tokens(edge_translations, width):
    assert edge_translations[width][2]["attention"].shape[1] == MAX_SOURCE_TOKENS


@pytest.mark.parametrize("width", [1, 3])
def test_translate_gives_finite_attention_for_every_input(edge_translations, width):
    for item in edge_translations[width]:
        assert np.isfinite(item["attention"]).all()


@pytest.mark.parametrize("width", [1, 3])
def test_translate_reads_upper_case_as_lower_case(translator, edge_translations, width):
    out = edge_translations[width][4]["text"]
    assert out == translator("one hundred", beam_width=width)[0]["text"]


@pytest.mark.parametrize("width", [1, 3])
def test_the_n_best_list_is_every_hypothesis_best_first(translator, width):
    texts = ["one hundred and twelve", "", "seven"]
    plain = translator(texts, beam_width=width)
    items = translator(texts, beam_width=width, n_best=True)
    for item, expected in zip(items, plain):
        assert len(item["n_best"]) == width
        # The first is the answer itself, with its score.
        assert item["text"] == expected["text"] == item["n_best"][0]["text"]
        assert item["score"] == expected["score"] == item["n_best"][0]["score"]
    if width > 1:
        assert len({h["text"] for h in items[0]["n_best"]}) > 1
    assert [h["score"] for h in items[1]["n_best"]] == [None] * width
    with pytest.raises(TypeError, match="n_best"):
        translator(texts, n_best="all")


@pytest.mark.parametrize("batch_size", [64, 8])
def test_greedy_search_of_many_texts_refills_rows_with_the_same_answers(
    run, batch_size
):
    translator = Translator(run)
    texts = [f"{n} hundred and {m}" for n in ("one", "two", "nine") for m in range(12)]
    # Sources of 4, 32 and 40 words (widths 8, 32 and 64), an empty one, shuffled:
    # the answers come back in the order of the texts.
    texts += [" ".join(["seven hundred and twelve"] * 8), ""]
    texts += [" ".join(["nine hundred and one"] * 10)]
    texts = [texts[i] for i in np.random.default_rng(0).permutation(len(texts))]
    ids, attention, scores = translator.search(texts, 1, batch_size)
    # With 8 rows a step, one call of the 37 texts of width 8 and one of the
    # two longer; with 64 rows, one call of all (the 40 words' width).
    calls = {k for k, _ in translator.compiled_shapes.used}
    slots = (64, 8) if batch_size == 64 else (8,)
    assert calls == {(1, False, "slots", *slots)}
    translator.searches_with_refill = False
    once = translator.search(texts, 1, batch_size)
    np.testing.assert_array_equal(ids, once[0])
    np.testing.assert_allclose(scores, once[2], atol=1e-5)
    for a, b in zip(attention, once[1]):
        np.testing.assert_allclose(a, b, atol=1e-5)
    assert (ids[texts.index("")] == 0).all() and scores[texts.index("")] == -np.inf


def test_check_all_refuses_an_empty_input(translator):
    with pytest.raises(InputError, match="empty input"):
        translator.check_all(["   "])


def test_unknown_words_are_the_words_outside_the_vocabulary(translator):
    assert translator.unknown_words("ninety-nine 你好") == ["你好"]


def test_cli_translate_prints_each_translation(run, capsys):
    assert main(["translation", "translate", "--run", str(run), "forty-two"]) == 0
    assert capsys.readouterr().out.startswith("'forty-two' -> '")


def test_cli_translate_refuses_an_empty_input(run, capsys):
    assert main(["translation", "translate", "--run", str(run), " "]) == 2
    assert "empty input" in capsys.readouterr().err


def test_cli_translate_refuses_a_beam_width_of_zero(run):
    with pytest.raises(SystemExit):
        main(["translation", "translate", "--run", str(run), "--beam-width", "0", "x"])


def test_cli_evaluate_prints_the_scores_and_plots_bleu_by_source_length(
    run, capsys, tmp_path
):
    png = tmp_path / "lengths.png"
    argv = ["translation", "evaluate", "--run", str(run), "--run", str(run)]
    assert main([*argv, "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "| greedy |" in out and "BLEU by source length (greedy)" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_plot_writes_the_attention_as_png(run, tmp_path):
    argv = ["translation", "plot", "--run", str(run), "--output", str(tmp_path)]
    assert main([*argv, "three thousand and one"]) == 0
    assert (tmp_path / "attention_0.png").read_bytes()[:4] == b"\x89PNG"


def test_cli_evaluate_refuses_a_folder_that_is_no_run(tmp_path):
    assert main(["translation", "evaluate", "--run", str(tmp_path / "nothing")]) == 2


def test_cli_refuses_an_output_that_is_a_file(run, capsys, tmp_path):
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


# Empty, blank, over-long, with unknown words, capitalised with punctuation.
SERVED_EDGE = ["", " ", " ".join(["one"] * 200), "ninety-nine 你好 мир", "Forty-Two!"]


@pytest.fixture(scope="module")
def held_out_sources(run):
    return [p.source for p in read_pairs(run / "data" / "test.tsv")]


@pytest.fixture(scope="module")
def served(saved_model, held_out_sources, tmp_path_factory):
    """The test set's sources, then `SERVED_EDGE`, served once in plain TensorFlow."""
    folder = tmp_path_factory.mktemp("translation-served")
    (folder / "texts.json").write_text(json.dumps(held_out_sources + SERVED_EDGE))
    return run_json_script(folder, LOAD, saved_model, "texts.json")


def test_saved_model_loads_without_the_package(served):
    assert served["modules"] == []


def test_saved_model_matches_in_memory_beam_search(run, served, held_out_sources):
    translator = Translator(run)
    # One batch, as the SavedModel receives it.
    expected = [
        i["text"]
        for i in translator(held_out_sources, batch_size=len(held_out_sources))
    ]
    assert len(held_out_sources) == 200
    assert served["text"][:200] == expected


def test_saved_model_answers_empty_inputs_with_empty_text_and_zero_attention(served):
    assert served["text"][200:202] == ["", ""]
    assert (np.array(served["attention"])[200:202] == 0).all()


def test_saved_model_answers_long_and_unknown_inputs_as_in_memory(run, served):
    in_memory = [i["text"] for i in Translator(run)(SERVED_EDGE[2:])]
    assert served["text"][202:] == in_memory


def test_saved_model_answers_without_unk(served):
    # The unknown 你好 is copied through if attended.
    assert all("<unk>" not in t for t in served["text"])


def test_number_words_never_capitalise_a_sentence_start(run, served):
    # The truecaser learned so.
    assert not Truecaser.load(run / TRUECASE_FILE).capitalize_starts
    assert all(t == t.lower() for t in served["text"][:200])


def test_saved_model_attention_is_finite(served):
    assert np.isfinite(np.array(served["attention"])).all()


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


LINES = [
    b"forty-two",
    b"",
    b"   ",
    " ".join(["seven"] * 300).encode(),
    b"\xff\xfe\x00junk\x80",
    "ninety-nine 你好 мир".encode(),
    "one\u2028two\x0bthree".encode(),
    b"ONE HUNDRED\r",
]


@pytest.fixture(scope="module")
def input_file(tmp_path_factory):
    source = tmp_path_factory.mktemp("translation-lines") / "in.txt"
    source.write_bytes(b"\n".join(LINES) + b"\n")
    return source


@pytest.fixture(scope="module")
def translated_file(run, input_file):
    """`translate --input FILE --output FILE` run once: its status, output
    file and standard error."""
    import contextlib
    import io

    out = input_file.parent / "out.txt"
    argv = ["translation", "translate", "--run", str(run), "--input", str(input_file)]
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main([*argv, "--output", str(out)])
    return status, out, err.getvalue()


def test_cli_translates_a_file_line_for_line(translated_file):
    status, out, _ = translated_file
    assert status == 0
    written = out.read_text(encoding="utf-8")
    assert written.endswith("\n") and len(written.splitlines()) == len(LINES)
    translated = written.splitlines()
    assert translated[1] == translated[2] == ""
    assert all("<unk>" not in t for t in translated)


def test_cli_names_each_line_that_drew_a_message(translated_file):
    _, _, err = translated_file
    assert "line 2: empty input" in err and "line 3: empty input" in err
    assert "line 4: 300 words: only the first 128 are read" in err
    assert "line 5: not UTF-8" in err and "line 6: words outside the vocabulary" in err
    assert "line 1:" not in err


def test_cli_translates_stdin_to_jsonl_with_attention(
    run, input_file, translated_file, capsys, monkeypatch
):
    import io
    import sys

    translated = translated_file[1].read_text(encoding="utf-8").splitlines()
    stdin = io.TextIOWrapper(io.BytesIO(input_file.read_bytes()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    argv = ["translation", "translate", "--run", str(run), "-"]
    assert main([*argv, "--format", "jsonl", "--with-attention"]) == 0
    records = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(records) == len(LINES)
    # Text format writes a translation that is not valid as an empty line.
    assert [r["output"] if r["valid"] else "" for r in records] == translated
    first = records[0]
    assert first["input"] == "forty-two" and np.isfinite(first["score"])
    assert first["score"] < 0 and first["notes"] == [] and first["valid"]
    weights = np.array(first["attention"])
    assert weights.shape == (len(first["tokens"]) + 1, 3)
    assert records[1]["attention"] == [] and records[1]["score"] is None
    assert not records[1]["valid"]
    assert all(np.isfinite(r["score"]) for r in records if r["input"].strip())


def test_cli_refuses_arguments_together_with_input(run, input_file):
    argv = ["translation", "translate", "--run", str(run), "--input", str(input_file)]
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
    assert [i["valid"] for i in loaded] == [i["valid"] for i in expected]
    assert loaded[0]["valid"]
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


def test_a_shortlist_of_the_whole_small_vocabulary_answers_as_the_full_search(
    run, tmp_path, capsys
):
    folder = tmp_path / "run"
    _copy_run(run, folder)
    assert main(["translation", "shortlist", "--run", str(folder)]) == 0
    assert "shortlist.json" in capsys.readouterr().out
    learned = json.loads((folder / "shortlist.json").read_text())
    texts = ["three hundred and five", "ninety-nine", "", "ONE HUNDRED"]
    listed, full = Translator(folder), Translator(folder, shortlist=False)
    # 200 frequent ids hold the whole vocabulary of this run: one shortlist.
    vocabulary = len(full.target_vocabulary)
    assert learned["size"] == len(learned["shared"]) == vocabulary < 200
    assert listed.shortlist is not None and full.shortlist is None
    for width in (1, 3):
        got, expected = listed(texts, beam_width=width), full(texts, beam_width=width)
        assert [a["text"] for a in got] == [a["text"] for a in expected]


def test_a_small_learned_shortlist_lists_each_source_words_likely_outputs(
    run, tmp_path
):
    from attention_zoo.applications.translation import shortlist

    folder = tmp_path / "run"
    _copy_run(run, folder)
    translator = Translator(folder, shortlist=False)
    sources = [p.source for p in read_pairs(folder / "data" / "validation.tsv")]
    learned = shortlist.learn(
        translator, sources, MAX_SOURCE_TOKENS, candidates=3, frequent=10, extra=12
    )
    assert learned["shared"] == list(range(10)) and learned["size"] == 22
    rows = learned["candidates"]
    # Words past the 10 frequent ones are learned for several source words.
    assert len(rows) >= 5
    assert all(len(r) <= 3 and min(r) >= 10 for r in rows.values())
    shortlist.save(folder, learned)
    small = Translator(folder)
    ids, _, _ = small.search(sources[:20])
    table, shared, size = small.shortlist
    for source, row in zip(sources[:20], ids):
        allowed = set(shared.tolist())
        for i in small.source_vocabulary.encode(source):
            allowed |= set(table[i][table[i] >= 0].tolist())
        assert set(row.tolist()) <= allowed


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda d: {**d, "format": 2}, "format"),
        (lambda d: {**d, "shared": [0, 1, 2, 3, 10_000]}, "shared"),
        (lambda d: {**d, "size": 1}, "size"),
        (lambda d: {**d, "candidates": {"100000": [4]}}, "source ids"),
        (lambda d: {k: v for k, v in d.items() if k != "shared"}, "shared"),
    ],
)
def test_a_shortlist_file_that_does_not_fit_the_run_is_refused_by_name(
    run, tmp_path, edit, message
):
    from attention_zoo.applications.translation import shortlist

    folder = tmp_path / "run"
    _copy_run(run, folder)
    good = {"format": 1, "size": 8, "shared": [0, 1, 2, 3], "candidates": {"5": [7]}}
    shortlist.save(folder, edit(good))
    with pytest.raises(
        ValueError, match=f"shortlist.json is not a shortlist.*{message}"
    ):
        Translator(folder)
    assert Translator(folder, shortlist=False).shortlist is None
    (folder / "shortlist.json").unlink()
    with pytest.raises(InputError, match="has no shortlist.json"):
        Translator(folder, shortlist=True)
