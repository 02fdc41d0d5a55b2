"""The date application end to end on a small, briefly trained run."""

import json

import keras
import numpy as np
import pytest

from attention_zoo.applications.dates import data, formats, lexicon
from attention_zoo.applications.dates import model as models
from attention_zoo.applications.dates.config import TrainConfig
from attention_zoo.applications.dates.export import export
from attention_zoo.applications.dates.predictor import Normalizer
from attention_zoo.applications.dates.training import train
from attention_zoo.cli import main
from tests.helpers import assert_cli_refuses_a_file_as_output, run_json_script

pytestmark = pytest.mark.tf_only


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    if keras.backend.backend() != "tensorflow":
        pytest.skip("the application tests run on the TensorFlow backend")
    path = tmp_path_factory.mktemp("dates") / "run"
    # Every language, named: the run holds its lexicon (`--languages`), which
    # the SavedModel's month-word rule then reads.
    config = TrainConfig(
        epochs=1,
        n_train=2000,
        n_validation=200,
        n_test=1000,
        seed=4,
        languages=",".join(formats.LANGUAGES),
    )
    train(path, config, verbose=0)
    return path


def test_classic_has_the_course_parameter_count():
    assert models.build_classic(37, 11).count_params() == 52960


def test_the_attention_flag_names_every_mechanism_of_the_model():
    """`--attention`'s choices are declared without Keras (`model_names`);
    they are the mechanisms the model builds, in its order."""
    from attention_zoo.applications.dates.model_names import ATTENTION_NAMES

    assert tuple(models.ATTENTIONS) == ATTENTION_NAMES


@pytest.mark.parametrize("attention", list(models.ATTENTIONS))
def test_every_attention_builds_and_decodes_compiled(attention):
    """Teacher-forced logits and the compiled greedy decoder agree per mechanism.

    With random weights; stateful mechanisms must run the same state in the
    teacher-forced model and in XLA greedy decoding.
    """
    keras.utils.set_random_seed(0)
    model = models.build_default(40, units=8, embedding_dim=8, attention=attention)
    source = np.random.default_rng(0).integers(1, 40, size=(4, data.TX))
    source[0, 12:] = 0
    ids, attention_weights, scores = models.compiled(
        models.make_predict_fn(model, "default")
    )(source.astype("int32"))
    ids, attention_weights, scores = (
        keras.ops.convert_to_numpy(ids),
        np.asarray(keras.ops.convert_to_numpy(attention_weights)),
        keras.ops.convert_to_numpy(scores),
    )
    assert ids.shape == (4, data.TY)
    assert scores.shape == (4,) and (scores <= 0).all() and np.isfinite(scores).all()
    assert np.isfinite(attention_weights).all()
    assert (attention_weights[0, :, 12:] == 0).all()
    # Feeding the decoded tokens back teacher-forced gives back every decoded
    # token: the state runs the same way in `fit`'s form and in decoding.
    start = np.full((4, 1), data.IsoVocabulary.start_id, "int32")
    decoder_input = np.concatenate([start, ids[:, :-1]], axis=1)
    logits = keras.ops.convert_to_numpy(model([source, decoder_input]))
    logits[..., data.IsoVocabulary.pad_id] = -np.inf  # decoding never emits pad
    # Up to and including the end token (decoding pads after it).
    ended = np.cumsum(ids == data.IsoVocabulary.end_id, axis=1)
    live = (ended == 0) | ((ended == 1) & (ids == data.IsoVocabulary.end_id))
    np.testing.assert_array_equal(ids[live], logits.argmax(-1)[live])
    assert live.sum() >= 4 * 3  # enough steps compared to mean something


@pytest.mark.parametrize(
    "kind, attention, given, expected",
    [
        ("default", "bahdanau", None, 3e-3),
        ("default", "monotonic", None, 1e-2),
        ("default", "mocha", None, 1e-2),
        ("default", "mocha", 2e-3, 2e-3),
        ("default", "location", None, 3e-3),
        ("classic", "bahdanau", None, 5e-3),
    ],
)
def test_learning_rate_by_model_and_mechanism(kind, attention, given, expected):
    if kind == "classic":
        model = models.build_classic(40)
    else:
        model = models.build_default(40, units=8, embedding_dim=8, attention=attention)
    models.compile_model(model, kind, given, total_steps=100, attention=attention)
    rate = keras.ops.convert_to_numpy(model.optimizer.learning_rate)
    np.testing.assert_allclose(rate, expected, rtol=1e-6)


def test_classic_trains_with_the_course_decay():
    """Keras 2's Adam(lr=0.005, decay=0.01): rate / (1 + 0.01 * iterations)."""
    for course_decay, after_100 in ((True, 0.0025), (False, 0.005)):
        model = models.build_classic(40)
        models.compile_model(model, "classic", course_decay=course_decay)
        model.optimizer.iterations.assign(100)
        rate = keras.ops.convert_to_numpy(model.optimizer.learning_rate)
        np.testing.assert_allclose(rate, after_100, rtol=1e-6)


def test_unknown_attention_is_refused(tmp_path):
    with pytest.raises(ValueError, match="`attention` must be one of"):
        models.build_default(40, attention="cosine")
    # train() refuses before anything is written.
    for config in (
        TrainConfig(attention="cosine"),
        TrainConfig(model="classic", attention="coverage"),
    ):
        with pytest.raises(ValueError, match="attention"):
            train(tmp_path / "run", config, verbose=0)
        assert not (tmp_path / "run").exists()


def test_the_run_folder_holds_model_vocabulary_config_metrics_plots_and_logs(run):
    for name in ("model.keras", "vocabulary.json", "config.json", "metrics.json"):
        assert (run / name).exists(), name
    assert list((run / "plots").glob("*.png"))
    assert list((run / "logs").rglob("events.out.tfevents.*"))


def test_metrics_have_every_application_s_layout(run):
    written = json.loads((run / "metrics.json").read_text())
    assert set(written) == {"training", "test"}
    assert written["training"]["epochs"] == 1


def test_the_run_holds_the_lexicon_of_its_languages(run):
    written = lexicon.load(run / lexicon.RUN_FILE)
    assert written == {w: tuple(m) for w, m in lexicon.build().items()}
    # Read from the run (a dict of its own), not the shipped read-only one,
    # which holds the same words.
    read = Normalizer(run).lexicon
    assert read == written and type(read) is dict


def test_test_metrics_break_down_by_language_and_family(run):
    metrics = json.loads((run / "metrics.json").read_text())["test"]
    assert metrics["n"] == 1000
    assert set(metrics["by_language"]) == {*formats.LANGUAGES, "any"}
    assert (
        set(metrics["by_family"])
        == set(formats.FAMILIES)
        >= {
            "babel",
            "pattern",
            "ordinal",
            "abbreviation",
            "numeric",
            "spelled",
        }
    )
    assert 0 <= metrics["valid"] <= 1


def test_config_records_the_input_width_and_the_score_threshold(run):
    config = json.loads((run / "config.json").read_text())
    assert config["tx"] == data.TX == 64
    assert config["score_threshold"] <= 0


def test_the_run_trained_on_non_dates_too(run):
    # The test set is dates only.
    train = data.load_examples(run / "data" / "train.json")
    assert sum(not e.is_date for e in train) == round(0.25 * 2000)


def test_cli_predict_prints_each_answer_and_names_unknown_characters(run, capsys):
    argv = ["dates", "predict", "--run", str(run)]
    assert main([*argv, "3rd of May 1979", "mañana þing"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("'3rd of May 1979' -> ")
    assert "unknown characters read as <unk>: 'ñþ'" in out[1]


def test_cli_predict_refuses_an_empty_input(run, capsys):
    assert main(["dates", "predict", "--run", str(run), "   "]) == 2
    assert "empty input" in capsys.readouterr().err


def test_cli_predict_reads_64_characters_and_refuses_more(run, capsys):
    assert main(["dates", "predict", "--run", str(run), "x" * 64]) == 0
    capsys.readouterr()
    assert main(["dates", "predict", "--run", str(run), "x" * 65]) == 2
    assert "input too long" in capsys.readouterr().err


def test_cli_predict_refuses_a_folder_that_is_no_run(run, capsys):
    assert main(["dates", "predict", "--run", str(run / "missing"), "1 May 1999"]) == 2
    assert "not a run folder" in capsys.readouterr().err


def test_cli_train_refuses_zero_epochs(capsys):
    with pytest.raises(SystemExit):
        main(["dates", "train", "--epochs", "0"])
    assert "Received: --epochs 0" in capsys.readouterr().err


def test_cli_train_stops_at_max_minutes_and_saves_the_run(tmp_path, capsys):
    if keras.backend.backend() != "tensorflow":
        pytest.skip("the application tests run on the TensorFlow backend")
    output = tmp_path / "run"
    sizes = ["--train-size", "300", "--validation-size", "50", "--test-size", "50"]
    argv = ["dates", "train", "--output", str(output), "--epochs", "50", *sizes]
    # 60 ms: the first batch ends the run.
    assert main([*argv, "--max-minutes", "0.001"]) == 0
    assert f"run folder: {output}" in capsys.readouterr().out
    training = json.loads((output / "metrics.json").read_text())["training"]
    assert training["stopped_by_budget"] and training["epochs"] == 1
    assert (output / "model.keras").exists()
    assert json.loads((output / "config.json").read_text())["max_minutes"] == 0.001


def test_cli_evaluate_prints_and_writes_the_run_s_test_scores(run, capsys):
    assert main(["dates", "evaluate", "--run", str(run), "--per-format"]) == 0
    out = capsys.readouterr().out
    written = json.loads((run / "metrics_evaluate.json").read_text())
    # The printed figures are the ones written, which are the run's own.
    assert f"exact match: {100 * written['exact_match']:.2f} %" in out
    assert written == json.loads((run / "metrics.json").read_text())["test"]
    for name, result in written["by_format"].items():
        assert f"| `{name}` | {result['n']} |" in out


def _heatmap(path):
    from PIL import Image

    return np.asarray(Image.open(path).convert("RGB")).astype("int16")


def test_cli_plot_draws_each_input_s_attention(run, tmp_path):
    folder = tmp_path / "plots"
    argv = ["dates", "plot", "--run", str(run), "--output", str(folder)]
    assert main([*argv, "3 Mai 1979", "14.07.2013", "3 Mai 1979"]) == 0
    first, second, again = (_heatmap(folder / f"attention_{i}.png") for i in range(3))
    # A heat map, not a blank canvas: many colours, and what it shows moves
    # with the input (the same input draws the same picture).
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 50
    np.testing.assert_array_equal(first, again)
    assert first.shape != second.shape or np.abs(first - second).max() > 0


def test_cli_refuses_an_output_that_is_a_file(run, capsys, tmp_path):
    assert_cli_refuses_a_file_as_output(
        main,
        capsys,
        tmp_path,
        "dates",
        [
            ["plot", "--run", str(run), "--output", "{file}", "3 Mai 1979"],
            ["export", "--run", str(run), "--output", "{file}"],
            ["train", "--output", "{file}", "--train-size", "10"],
        ],
    )


LOAD = """
import json, sys
import tensorflow as tf
serve = tf.saved_model.load(sys.argv[1]).signatures["serving_default"]
# One request per batch of texts; the answers are concatenated.
outs = [serve(text=tf.constant(texts)) for texts in json.load(open(sys.argv[2]))]
print(json.dumps({
    "text": [t.decode() for out in outs for t in out["text"].numpy()],
    "valid": [v for out in outs for v in out["valid"].numpy().tolist()],
    "score": [str(s) for out in outs for s in out["score"].numpy().tolist()],
    "dtypes": [outs[0]["valid"].dtype.name, outs[0]["score"].dtype.name],
    "attention": [a for out in outs for a in out["attention"].numpy().tolist()],
    "modules": [m for m in sys.modules if m.startswith("attention_zoo") or m.startswith("applications")],
}))
"""


EDGE = [
    "",
    "   ",
    "x" * 65,
    "mañana 3 Mai 1979 über",
    "ÉTÉ 2001",
    "1er août 1999",
    "\xa03 mai 1979\xa0",  # no-break spaces are not stripped, on either side
    # Untaught words before a date and a comma: dropped where the rest is taught.
    "Paris, 3 mai 1979",
    "Київ, 24 серпня 1991 р.",
    "Rua Simões, 7",
]


@pytest.fixture(scope="module")
def saved_model(run, tmp_path_factory):
    """The run exported once for the tests that load it in plain TensorFlow."""
    path = tmp_path_factory.mktemp("dates-export") / "saved"
    export(run, path)
    return path


@pytest.fixture(scope="module")
def held_out_texts(run):
    return [e.text for e in data.load_examples(run / "data" / "test.json")]


@pytest.fixture(scope="module")
def short_texts(held_out_texts):
    return [t for t in held_out_texts if len(t) <= 12][:100]


@pytest.fixture(scope="module")
def served(saved_model, held_out_texts, short_texts, tmp_path_factory):
    """Two requests served once in plain TensorFlow: the test set's texts,
    then `EDGE`; and the short texts alone."""
    folder = tmp_path_factory.mktemp("dates-served")
    requests = [held_out_texts + EDGE, short_texts]
    (folder / "texts.json").write_text(json.dumps(requests))
    return run_json_script(folder, LOAD, saved_model, "texts.json")


@pytest.fixture(scope="module")
def served_full_width(served, held_out_texts):
    """The answers to the first request (the test set, then `EDGE`)."""
    n = len(held_out_texts) + len(EDGE)
    return {
        k: v[:n] if k != "dtypes" and k != "modules" else v for k, v in served.items()
    }


@pytest.fixture(scope="module")
def normalizer(run):
    return Normalizer(run)


@pytest.fixture(scope="module")
def scored_in_memory(normalizer, held_out_texts):
    """The test set's texts scored in memory: texts, validity, scores, attention."""
    return normalizer.scored(held_out_texts)


def _served_scores(got):
    return np.array([float(s) for s in got["score"]], "float32")


def test_saved_model_answers_short_inputs_alone_as_at_full_width(
    served, held_out_texts, short_texts
):
    # A batch of short inputs alone: the SavedModel reads only the longest
    # input's width (rounded up to 8) and must answer as at full width.
    n = len(held_out_texts) + len(EDGE)
    assert len(short_texts) >= 20
    np.testing.assert_allclose(
        np.array(served["attention"][n:]),
        np.array(served["attention"])[[held_out_texts.index(t) for t in short_texts]],
        atol=1e-5,
    )
    assert served["text"][n:] == [
        served["text"][held_out_texts.index(t)] for t in short_texts
    ]


def test_saved_model_loads_without_the_package(served_full_width):
    assert served_full_width["modules"] == []


def test_saved_model_text_matches_in_memory(served_full_width, scored_in_memory):
    expected_text, _, _, _ = scored_in_memory
    assert served_full_width["text"][:1000] == expected_text


def test_saved_model_attention_matches_in_memory(served_full_width, scored_in_memory):
    _, _, _, expected_attention = scored_in_memory
    np.testing.assert_allclose(
        np.array(served_full_width["attention"][:1000]), expected_attention, atol=1e-5
    )


def test_saved_model_validity_is_bool_and_its_score_float32(served_full_width):
    assert served_full_width["dtypes"] == ["bool", "float32"]


def test_saved_model_scores_match_in_memory(served_full_width, scored_in_memory):
    _, _, expected_score, _ = scored_in_memory
    score = _served_scores(served_full_width)
    np.testing.assert_allclose(score[:1000], expected_score, atol=1e-4)


def test_saved_model_validity_matches_in_memory_away_from_the_threshold(
    served_full_width, scored_in_memory, normalizer
):
    _, expected_valid, expected_score, _ = scored_in_memory
    # Validity agrees wherever the score is not within rounding of the threshold.
    clear = np.abs(expected_score - normalizer.threshold) > 1e-3
    valid = np.array(served_full_width["valid"][:1000])
    assert np.array_equal(valid[clear], expected_valid[clear])


def test_saved_model_answers_empty_and_over_long_inputs_with_nothing(
    served_full_width,
):
    # Documented rule: empty or over-long inputs give "" and zero attention.
    got = served_full_width
    served_edge, attention_edge = got["text"][1000:], np.array(got["attention"][1000:])
    assert served_edge[:3] == ["", "", ""]
    assert (attention_edge[:3] == 0).all()
    assert got["valid"][1000:1003] == [False] * 3
    assert (_served_scores(got)[1000:1003] == -np.inf).all()


def test_saved_model_attention_of_the_edge_inputs_is_finite_and_sums_to_one(
    served_full_width,
):
    attention_edge = np.array(served_full_width["attention"][1000:])
    assert np.isfinite(attention_edge).all()
    np.testing.assert_allclose(attention_edge[3:].sum(-1), 1.0, atol=1e-5)


def test_saved_model_reads_unknown_characters_as_unk_as_in_memory(
    served_full_width, normalizer
):
    # Unknown characters are read as <unk> and still give an output.
    in_memory, *_ = normalizer.scored(EDGE[3:])
    assert served_full_width["text"][1003:] == in_memory


def test_reasons_name_why_an_answer_is_not_a_date(run):
    normalizer = Normalizer(run)
    normalizer.threshold = -0.9
    text = "3 February 2001"
    assert normalizer.reason("", -0.1, text) == "the model reads no date in it"
    assert normalizer.reason("2001-02-30", -0.1, text) == (
        "not a real calendar date (2001-02-30)"
    )
    assert normalizer.reason("2001-02-03", -3.2, text) == (
        "low confidence (score -3.20 < -0.90)"
    )
    assert normalizer.reason("2001-02-03", -0.1, text) == ""
    # Every part of the answer is grounded in the input.
    assert normalizer.reason("2001-02-03", -0.1, "3 February") == (
        "it writes no year: neither 2001 nor 01"
    )
    assert "its day 03 is none of its numbers" in normalizer.reason(
        "2001-02-03", -0.1, "February 2001"
    )
    # All-numeric inputs: the numeric rule (readings.py) speaks first.
    assert normalizer.reason("2005-04-03", -0.1, "03/04/05") == (
        "ambiguous: it reads as 2005-03-04 or 2005-04-03"
    )
    assert normalizer.reason("", -0.1, "31/02/2001") == (
        "its numbers make no date (of 1900-2099)"
    )
    assert normalizer.reason("2005-04-03", -0.1, "03.04.05") == ""
    assert normalizer.reason("2005-03-04", -0.1, "03.04.05") == (
        "its numbers read 2005-04-03, not 2005-03-04"
    )
    assert normalizer.reason("", -0.1, "03.04.05") == "the model reads no date in it"


def test_answers_to_numeric_inputs_are_valid_only_as_their_one_reading(run):
    normalizer = Normalizer(run)
    texts = ["03/04/05", "31/02/2001", "3.14159", "23.09.1987", "19870923"]
    isos, valid, _, _ = normalizer.scored(texts)
    assert not valid[:3].any()
    readings = [data.numeric_readings(data.normalize(t)) for t in texts[3:]]
    expected = [{iso} == r for iso, r in zip(isos[3:], readings)]
    assert valid[3:].tolist() == [e and v for e, v in zip(expected, valid[3:])]


def test_the_numeric_rule_decides_validity_whatever_the_model_answers(run, monkeypatch):
    normalizer = Normalizer(run)
    normalizer.threshold = -np.inf
    cases = {  # (input, the model's answer): valid
        ("03/04/05", "2005-04-03"): False,  # two readings
        ("31/02/2001", "2001-02-28"): False,  # no reading
        ("03.04.05", "2005-03-04"): False,  # dots are day-month-year
        ("03.04.05", "2005-04-03"): True,
        ("19870923", "1987-09-23"): True,
        ("3 May 1979", "1979-05-03"): True,  # not all-numeric: the model's word
    }

    def answers(texts, batch_size=1000):
        ids = data.IsoVocabulary().encode([answer for _, answer in cases])
        attention = np.zeros((len(texts), ids.shape[1], normalizer.tx), "float32")
        return ids, attention, np.zeros(len(texts), "float32")

    monkeypatch.setattr(normalizer, "decode", answers)
    isos, valid, _, _ = normalizer.scored([text for text, _ in cases])
    assert isos == [answer for _, answer in cases]
    assert valid.tolist() == list(cases.values())


def test_cli_prints_not_a_date_with_the_reason(run, capsys, monkeypatch):
    # A threshold no answer reaches: every answer is refused, with a reason.
    monkeypatch.setattr(Normalizer, "reason", lambda self, iso, s, text: "why")
    original = Normalizer.written_and_scored

    def refuse_all(self, texts, batch_size=1000):
        written, settled, isos, valid, scores, attention = original(
            self, texts, batch_size
        )
        return written, settled, isos, valid & False, scores, attention

    monkeypatch.setattr(Normalizer, "written_and_scored", refuse_all)
    assert main(["dates", "predict", "--run", str(run), "😀"]) == 0
    # The score only when asked (issue 59: every line ended in one).
    out = capsys.readouterr().out
    assert out.startswith("'😀' -> not a date: why") and "score" not in out, out
    assert main(["dates", "predict", "--run", str(run), "--scores", "😀"]) == 0
    assert capsys.readouterr().out.startswith("'😀' -> not a date: why   [score ")
