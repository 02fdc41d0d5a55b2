"""The summarization application on a tiny run: the run folder, the one
prediction path with its score and validity, the command line, the plot,
the SavedModel against Python, and a preset made from the run."""

import json
from pathlib import Path

import numpy as np
import pytest

from attention_zoo.applications import from_preset
from attention_zoo.applications.summarization import preset
from attention_zoo.applications.summarization.config import (
    MAX_SOURCE_TOKENS,
    MAX_SUMMARY_TOKENS,
    TrainConfig,
)
from attention_zoo.applications.summarization.evaluation import evaluate
from attention_zoo.applications.summarization.predictor import Summarizer
from attention_zoo.applications.summarization.training import train
from attention_zoo.cli import main
from attention_zoo.presets import save_to_preset
from tests.helpers import run_json_script

pytestmark = pytest.mark.tf_only
PAIRS = Path(__file__).parent / "data" / "debian_sample.tsv"
TEXTS = [
    "Scala is a Java-compatible programming language with many modern "
    "language features.",
    "This package contains the header files needed to compile applications "
    "that use libzork.",
]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    path = tmp_path_factory.mktemp("summarization") / "run"
    config = TrainConfig(
        corpus="tsv",
        pairs=str(PAIRS),
        epochs=2,
        units=16,
        embedding_dim=16,
        attention_units=16,
        vocab_size=400,
        batch_size=32,
        beam_width=2,
    )
    train(path, config, verbose=0)
    return path


@pytest.fixture(scope="module")
def summarizer(run):
    return Summarizer(run)


def test_the_run_folder_and_its_metrics(run):
    for name in ("model.keras", "config.json", "vocabulary.json", "metrics.json"):
        assert (run / name).is_file(), name
    assert (run / "data" / "test.tsv").is_file()
    assert len(list((run / "plots").glob("*.png"))) == 3
    metrics = json.loads((run / "metrics.json").read_text())
    assert set(metrics) == {"training", "test"}
    assert set(metrics["test"]) == {"n", "greedy", "beam2"}
    for search in ("greedy", "beam2"):
        row = metrics["test"][search]
        assert 0 <= row["rougeL"] <= 100 and 0 <= row["copy_rate"] <= 1
    config = json.loads((run / "config.json").read_text())
    assert (
        np.isfinite(config["score_threshold"]) and 0 <= config["max_unknown_share"] <= 1
    )


def test_the_test_metrics_are_those_of_the_run_as_saved(run):
    """Training evaluates with the summarizer that chose the thresholds,
    given them in place: its figures are those of a summarizer reading the
    saved config.json."""
    written = json.loads((run / "metrics.json").read_text())["test"]
    again = json.loads(json.dumps(evaluate(run)))
    assert again.keys() == written.keys()
    for search in ("greedy", "beam2"):
        assert written[search]["valid"] < 1  # the thresholds refuse some
        assert again[search] == pytest.approx(written[search], abs=1e-9), search


def test_every_answer_has_a_score_validity_reason_attention_and_p_gen(summarizer):
    items = summarizer([*TEXTS, "", "zork " * 30])
    for item in items[:2]:
        steps = len(item["tokens"]) + 1
        assert item["attention"].shape == (steps, len(item["source_tokens"]))
        np.testing.assert_allclose(item["attention"].sum(-1), 1.0, atol=1e-4)
        assert item["p_gen"].shape == (steps,)
        assert ((item["p_gen"] >= 0) & (item["p_gen"] <= 1)).all()
        assert np.isfinite(item["score"]) and len(item["copied"]) == len(item["tokens"])
    empty, unknown = items[2:]
    assert (empty["text"], empty["valid"]) == ("", False) and "empty" in empty["reason"]
    assert not unknown["valid"] and "outside the vocabulary" in unknown["reason"]


def test_copied_words_are_written_as_the_text_writes_them(summarizer):
    (item,) = summarizer(["Zorkmid ZORKMID zorkmid is a Zorkmid"], beam_width=1)
    for word, copied in zip(item["tokens"], item["copied"]):
        if copied:
            assert word in ("Zorkmid", "ZORKMID", "zorkmid", "is", "a")


def test_cli_predict_answers_each_line_of_a_file_and_stdin(run, tmp_path, capsys):
    path = tmp_path / "in.txt"
    path.write_bytes(TEXTS[0].encode() + b"\n\n\xff" + TEXTS[1].encode() + b"\n")
    argv = ["summarization", "predict", "--run", str(run), "--input", str(path)]
    assert main([*argv, "--format", "jsonl", "--with-attention"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["input"] for r in records][:2] == [TEXTS[0], ""]
    assert records[1]["valid"] is False and records[1]["score"] is None
    assert "not UTF-8" in records[2]["notes"][0]
    assert len(records[0]["attention"]) == len(records[0]["tokens"]) + 1
    assert main(["summarization", "predict", "--run", str(run), TEXTS[0]]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1


def test_cli_evaluate_and_plot(run, tmp_path, capsys):
    assert (
        main(["summarization", "evaluate", "--run", str(run), "--beam-width", "1"]) == 0
    )
    out = capsys.readouterr().out
    assert "| greedy |" in out and "rougeL" in out
    folder = tmp_path / "plots"
    argv = ["summarization", "plot", "--run", str(run), "--output", str(folder)]
    assert main([*argv, TEXTS[0]]) == 0
    assert (folder / "attention_0.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow  # a training of its own, about a minute on 2 cores
def test_cli_train_stops_at_max_minutes_and_saves_the_run(tmp_path, capsys):
    output = tmp_path / "run"
    argv = ["summarization", "train", "--output", str(output), "--pairs", str(PAIRS)]
    small = ["--units", "8", "--embedding-dim", "8", "--attention-units", "8"]
    small += ["--vocab-size", "200", "--beam-width", "2", "--epochs", "50"]
    # 60 ms: the first batch ends the run.
    assert main([*argv, *small, "--max-minutes", "0.001"]) == 0
    assert f"run folder: {output}" in capsys.readouterr().out
    training = json.loads((output / "metrics.json").read_text())["training"]
    assert training["stopped_by_budget"] and training["epochs"] == 1
    assert (output / "model.keras").exists()


LOAD = """
import json, sys
import tensorflow as tf
texts = json.load(open(sys.argv[2]))
serve = tf.saved_model.load(sys.argv[1]).signatures["serving_default"]
out = serve(text=tf.constant(texts))
print(json.dumps({
    "text": [t.decode() for t in out["text"].numpy()],
    "valid": out["valid"].numpy().tolist(),
    "score": [float(s) for s in out["score"].numpy()],
    "shapes": [list(out["attention"].shape), list(out["p_gen"].shape)],
}))
"""


def test_the_saved_model_answers_as_python(run, summarizer, tmp_path):
    assert (
        main(
            [
                "summarization",
                "export",
                "--run",
                str(run),
                "--output",
                str(tmp_path / "sm"),
            ]
        )
        == 0
    )
    texts = [*TEXTS, "", "Zorkmid ZORKMID zorkmid is a Zorkmid", "x " * 200]
    (tmp_path / "texts.json").write_text(json.dumps(texts))
    got = run_json_script(tmp_path, LOAD, tmp_path / "sm", "texts.json")
    expected = summarizer(texts)
    assert got["text"] == [i["text"] for i in expected]
    assert got["valid"] == [i["valid"] for i in expected]
    finite = [np.isfinite(i["score"]) for i in expected]
    np.testing.assert_allclose(
        np.array(got["score"])[finite],
        np.array([i["score"] for i in expected])[finite],
        atol=1e-3,
    )
    assert got["shapes"] == [
        [len(texts), MAX_SUMMARY_TOKENS, MAX_SOURCE_TOKENS],
        [len(texts), MAX_SUMMARY_TOKENS],
    ]


def test_a_preset_of_the_run_answers_alike(run, summarizer, tmp_path):
    folder = save_to_preset(
        summarizer, tmp_path / "tiny", seed=0, fixed_inputs=TEXTS, float16=False
    )
    loaded = from_preset(folder)
    assert isinstance(loaded, Summarizer)
    assert [i["text"] for i in loaded(TEXTS)] == [i["text"] for i in summarizer(TEXTS)]


def test_the_test_slice_is_json_data_scored_with_rouge(run, summarizer, tmp_path):
    path = tmp_path / "test_slice.json"
    preset.write_slice(run, path, 5)
    rows = json.loads(path.read_text(encoding="utf-8"))
    assert len(rows) == 5 and set(rows[0]) == {"text", "summary"}
    scores = preset.score_slice(summarizer, path)
    assert scores["n"] == 5
    assert all(0 <= scores[k] <= 100 for k in ("rouge1", "rouge2", "rougeL"))
    path.write_text('{"text": "not a list"}', encoding="utf-8")
    with pytest.raises(ValueError, match="test_slice.json"):
        preset.score_slice(summarizer, path)
