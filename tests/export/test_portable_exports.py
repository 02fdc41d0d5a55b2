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
PRESET = "dates_multilingual"
# Scores and attention of the three runtimes agree to this (float32 sums
# in other orders); texts and validity agree exactly.
TOLERANCE = 1e-4
# The measured loss of exact matches of the int8 LiteRT file on the
# preset's test slice (docs/export.md), with room for a kernel's rounding.
INT8_LOSS = 0.01


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    from attention_zoo.applications.cli import main

    root = tmp_path_factory.mktemp("exports")
    folders = {}
    for fmt in ("saved_model", "litert", "onnx"):
        folders[fmt] = root / fmt
        argv = ["dates", "export", "--preset", PRESET, "--output", str(root / fmt)]
        assert main([*argv, "--format", fmt]) == 0
    return folders


@pytest.fixture(scope="module")
def slice_():
    return json.loads((PRESETS_DIR / PRESET / "test_slice.json").read_text("utf-8"))


def inputs(slice_):
    return [*fixed_inputs(PRESET), *(r["text"] for r in slice_), "", "x" * 300]


def test_the_cli_names_what_it_wrote(exports, tmp_path, capsys):
    from attention_zoo.applications.cli import main

    argv = ["dates", "export", "--preset", PRESET, "--output", str(tmp_path / "o")]
    assert main([*argv, "--format", "onnx"]) == 0
    assert f"ONNX written to {tmp_path / 'o'}" in capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "o").iterdir() if p.name[0] != ".") == [
        "config.json",
        "export.json",
        "model.onnx",
        "vocabulary.json",
    ]


@pytest.mark.parametrize("name", ["model.tflite", "model_int8.tflite"])
def test_the_litert_files_hold_builtin_operators_only(exports, name):
    from ai_edge_litert.interpreter import Interpreter

    interpreter = Interpreter(model_path=str(exports["litert"] / name))
    ops = {op["op_name"] for op in interpreter._get_ops_details()}
    assert "WHILE" in ops  # the decode loop is in the file
    assert not [op for op in ops if op.startswith("Flex") or op == "CUSTOM"], ops
    assert b"Flex" not in (exports["litert"] / name).read_bytes()


@pytest.mark.parametrize("fmt", ["litert", "onnx"])
def test_every_format_answers_as_the_saved_model(exports, slice_, fmt):
    texts = inputs(slice_)
    expected = load_exported(exports["saved_model"])(texts)
    got = load_exported(exports[fmt])(texts)
    assert [i["text"] for i in got] == [i["text"] for i in expected]
    assert [i["valid"] for i in got] == [i["valid"] for i in expected]
    for mine, theirs in zip(got, expected):
        if np.isinf(theirs["score"]):  # unreadable: -inf, no attention
            assert mine["score"] == theirs["score"] and not mine["valid"]
            continue
        assert abs(mine["score"] - theirs["score"]) <= TOLERANCE
        attention = np.asarray(theirs["attention"])
        np.testing.assert_allclose(mine["attention"], attention, atol=TOLERANCE)
    # The exported predictor gives the Python predictor's reasons too.
    assert got[-1]["reason"].startswith("input too long")


def test_the_int8_file_keeps_its_accuracy(exports, slice_):
    texts = [r["text"] for r in slice_]
    truth = [r["iso"] for r in slice_]

    def exact(items):
        return np.mean([i["text"] == t and i["valid"] for i, t in zip(items, truth)])

    full = exact(load_exported(exports["litert"])(texts))
    int8 = exact(load_exported(exports["litert"], "int8")(texts))
    assert full >= 0.99, full
    assert int8 >= full - INT8_LOSS, (full, int8)


def test_a_folder_that_is_no_export_is_refused(exports, tmp_path):
    with pytest.raises(FileNotFoundError, match="no saved_model.pb and no export"):
        load_exported(tmp_path)
    (tmp_path / "export.json").write_text(
        json.dumps({"app": "os", "format": "onnx"}), encoding="utf-8"
    )
    with pytest.raises(MalformedFileError, match="export.json"):
        load_exported(tmp_path)
    with pytest.raises(ValueError, match="precision"):
        load_exported(exports["onnx"], "int8")
    with pytest.raises(ValueError, match="precision"):
        load_exported(exports["onnx"], "float16")


def test_an_application_without_a_portable_core_says_so(tmp_path):
    with pytest.raises(ValueError, match="only format='saved_model'"):
        registry.export("translation", "bible_en_es", tmp_path / "o", "litert")
    with pytest.raises(ValueError, match="format"):
        registry.export("dates", PRESET, tmp_path / "o", "tflite")
    with pytest.raises(ValueError, match="greedily"):
        registry.export("dates", PRESET, tmp_path / "o", "onnx", beam_width=4)


def test_a_missing_runtime_names_the_extra(exports, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    with pytest.raises(ImportError, match=r"attention-zoo\[export\]"):
        load_exported(exports["onnx"])
