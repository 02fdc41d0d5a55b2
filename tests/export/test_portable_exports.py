"""LiteRT and ONNX exports of the whole decode loop: builtin ops only, and
the same answers as the SavedModel through one loader (`load_exported`)."""

import json
import sys

import numpy as np
import pytest

from attention_zoo.applications import registry
from attention_zoo.applications.common.errors import MalformedFileError
from attention_zoo.export import load_exported
from attention_zoo.presets import PRESETS_DIR, fixed_inputs

pytestmark = pytest.mark.tf_only
# Scores and attention of the three runtimes agree to this (float32 sums
# in other orders); texts and validity agree exactly.
TOLERANCE = 1e-4
# How far the int8 LiteRT file's headline metric on the preset's test
# slice may fall below the float file's: the measured loss (docs/export.md:
# none for dates, 0.25 BLEU for translation) with room for a kernel's
# rounding.
INT8_LOSS = {"dates": 0.01, "translation": 1.0}
# (application, preset, test-slice rows compared with the SavedModel)
CASES = [("dates", "dates_multilingual", 300), ("translation", "bible_en_es", 20)]


@pytest.fixture(scope="module", params=CASES, ids=[c[0] for c in CASES])
def case(request, tmp_path_factory):
    from attention_zoo.applications.cli import main

    app, preset, rows = request.param
    root = tmp_path_factory.mktemp(app)
    greedy = ["--beam-width", "1"] if registry.get(app).command.beam_width else []
    folders = {}
    for fmt in ("saved_model", "litert", "onnx"):
        folders[fmt] = root / fmt
        argv = [app, "export", "--preset", preset, "--output", str(folders[fmt])]
        assert main([*argv, "--format", fmt, *greedy]) == 0
    slice_ = json.loads((PRESETS_DIR / preset / "test_slice.json").read_text("utf-8"))
    texts = [r.get("text", r.get("source")) for r in slice_][:rows]
    inputs = [*fixed_inputs(preset), *texts, "", "x " * 300]
    return {"app": app, "preset": preset, "folders": folders, "inputs": inputs}


def test_the_cli_names_what_it_wrote(tmp_path, capsys):
    from attention_zoo.applications.cli import main

    output = tmp_path / "o"
    argv = [
        "dates",
        "export",
        "--preset",
        "dates_multilingual",
        "--output",
        str(output),
    ]
    assert main([*argv, "--format", "onnx"]) == 0
    assert f"ONNX written to {output}" in capsys.readouterr().out
    assert sorted(p.name for p in output.iterdir() if p.name[0] != ".") == [
        "config.json",
        "export.json",
        "model.onnx",
        "vocabulary.json",
    ]


@pytest.mark.parametrize("name", ["model.tflite", "model_int8.tflite"])
def test_the_litert_files_hold_builtin_operators_only(case, name):
    from ai_edge_litert.interpreter import Interpreter

    path = case["folders"]["litert"] / name
    interpreter = Interpreter(model_path=str(path))
    ops = {op["op_name"] for op in interpreter._get_ops_details()}
    assert "WHILE" in ops  # the decode loop is in the file
    assert not [op for op in ops if op.startswith("Flex") or op == "CUSTOM"], ops
    assert b"Flex" not in path.read_bytes()


@pytest.mark.parametrize("fmt", ["litert", "onnx"])
def test_every_format_answers_as_the_saved_model(case, fmt):
    texts = case["inputs"]
    expected = load_exported(case["folders"]["saved_model"])(texts)
    got = load_exported(case["folders"][fmt])(texts)
    assert [i["text"] for i in got] == [i["text"] for i in expected]
    assert [i["valid"] for i in got] == [i["valid"] for i in expected]
    for mine, theirs in zip(got, expected):
        if np.isinf(theirs["score"]):  # unreadable: -inf (None in Python)
            assert mine["score"] in (None, -np.inf) and not mine["valid"]
            continue
        assert abs(mine["score"] - theirs["score"]) <= TOLERANCE
        attention = np.asarray(theirs["attention"])
        mine_attention = np.asarray(mine["attention"])
        # The predictor keeps the attention over the input's own tokens;
        # the SavedModel's is padded to its width.
        steps, width = mine_attention.shape
        np.testing.assert_allclose(
            mine_attention, attention[:steps, :width], atol=TOLERANCE
        )
    # The exported predictor gives the Python predictor's reasons too.
    assert got[-2]["reason"] and not got[-2]["valid"]


def test_the_int8_file_keeps_its_metric(case):
    app = registry.get(case["app"])
    path = PRESETS_DIR / case["preset"] / "test_slice.json"
    folder = case["folders"]["litert"]

    def metric(precision):
        scores = app.test_slice.score(load_exported(folder, precision), path)
        return next(v for k, v in scores.items() if k != "n")

    full, int8 = metric("float32"), metric("int8")
    assert int8 >= full - INT8_LOSS[case["app"]], (full, int8)


def test_a_folder_that_is_no_export_is_refused(case, tmp_path):
    with pytest.raises(FileNotFoundError, match="no saved_model.pb and no export"):
        load_exported(tmp_path)
    (tmp_path / "export.json").write_text(
        json.dumps({"app": "os", "format": "onnx"}), encoding="utf-8"
    )
    with pytest.raises(MalformedFileError, match="export.json"):
        load_exported(tmp_path)
    with pytest.raises(ValueError, match="precision"):
        load_exported(case["folders"]["onnx"], "int8")
    with pytest.raises(ValueError, match="precision"):
        load_exported(case["folders"]["onnx"], "float16")


def test_an_application_without_a_portable_core_says_so(tmp_path):
    with pytest.raises(ValueError, match="only format='saved_model'"):
        registry.export("captioning", "shapes", tmp_path / "o", "litert")
    with pytest.raises(ValueError, match="format"):
        registry.export("dates", "dates_multilingual", tmp_path / "o", "tflite")
    with pytest.raises(ValueError, match="greedily"):
        registry.export(
            "translation", "bible_en_es", tmp_path / "o", "onnx", beam_width=4
        )


def test_a_missing_runtime_names_the_extra(case, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    with pytest.raises(ImportError, match=r"attention-zoo\[export\]"):
        load_exported(case["folders"]["onnx"])
