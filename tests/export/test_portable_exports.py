"""LiteRT and ONNX exports of the whole decode loop: builtin ops only, and
the same answers as the SavedModel through one loader (`load_exported`)."""

import json
import sys

import numpy as np
import pytest

from attention_zoo.applications import load_exported, registry
from attention_zoo.applications.common.errors import MalformedFileError
from attention_zoo.presets import PRESETS_DIR, fixed_inputs

pytestmark = pytest.mark.tf_only
# Scores and attention of the three runtimes agree to this (float32 sums
# in other orders); texts and validity agree exactly.
TOLERANCE = 1e-4
# How far the int8 LiteRT file's headline metric on the preset's test
# slice may fall below the float file's: the measured loss (docs/export.md:
# none for dates, 0.25 BLEU for greedy translation, none for summarization
# and captioning under beam search; caption BLEU runs from 0 to 1) with
# room for a kernel's rounding.
INT8_LOSS = {
    "dates": 0.01,
    "translation": 1.0,
    "summarization": 1.5,
    "captioning": 0.02,
}
# (application, preset, test-slice rows compared with the SavedModel).
# The translator's beam search over a GRU decoder is the summarizer's
# with another step function; its case (~100 s of conversions on 2 cores)
# runs with the slow tests, not in CI.
CASES = [
    pytest.param(("dates", "dates_multilingual", 300), id="dates"),
    pytest.param(
        ("translation", "bible_en_es", 12), id="translation", marks=pytest.mark.slow
    ),
    pytest.param(("summarization", "debian_synopsis", 12), id="summarization"),
    pytest.param(("captioning", "shapes", 40), id="captioning"),
]


# The keys of the dicts `load_exported` returns (docs/export.md): the
# SavedModel's are `input` and its signature's outputs; the portable
# formats' are the application's predictor's, the same for every input
# (an input the date normalizer cannot read included, since issue 59).
SAVED_MODEL_KEYS = {
    "dates": {"input", "text", "score", "valid", "attention"},
    "translation": {"input", "text", "score", "valid", "attention"},
    "summarization": {"input", "text", "score", "valid", "attention", "p_gen"},
    "captioning": {"input", "text", "score", "valid", "attention", "distance"},
}
PORTABLE_KEYS = {
    "dates": {"notes", "source_tokens", "tokens"},
    "translation": {"notes", "problems", "source_tokens", "tokens"},
    "summarization": {"notes", "tokens", "copied", "source_tokens", "p_gen"},
    "captioning": {"notes", "tokens", "distance"},
}
PORTABLE_KEYS = {
    app: {"input", "text", "score", "valid", "reason", "attention"} | more
    for app, more in PORTABLE_KEYS.items()
}
PORTABLE_KEYS["captioning"].discard("input")

# Answers that look right but that a validity rule refuses, the
# SavedModel's graph half and the predictor's Python half alike: dates
# before the common era (the preset reads them as our era's), a summary
# that repeats itself (a description that ends mid-list).
REFUSED_BY_RULES = {
    "dates": ["3 May 1979 BC", "3 mai 1979 av. J.-C.", "3 May -1979"],
    "summarization": [
        "This suite includes: suite of, suite of, suite of",
        "https://example.org/a https://example.org/b "
        "http://mirror.example.net/debian/ ftp://ftp.example.com/pub/",
    ],
}


def test_docs_and_docstrings_name_the_keys_the_formats_return():
    """docs/export.md's table and each exported predictor's docstring say
    what `load_exported` returns (issue 59: the SavedModel's lack of a
    reason was said nowhere a user of `load_exported` reads)."""
    import re
    from pathlib import Path

    from attention_zoo.applications import exported_loader
    from attention_zoo.applications.captioning.export import ExportedCaptioner
    from attention_zoo.applications.dates.export import ExportedNormalizer
    from attention_zoo.applications.summarization.export import ExportedSummarizer
    from attention_zoo.applications.translation.export import ExportedTranslator

    docs = Path(__file__).parents[2] / "docs" / "export.md"
    rows = {}
    for line in docs.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 3 and cells[0] in SAVED_MODEL_KEYS:
            keys = [set(re.findall(r"`(\w+)`", c.split("(")[0])) for c in cells[1:]]
            rows[cells[0]] = keys
    assert rows == {
        app: [SAVED_MODEL_KEYS[app], PORTABLE_KEYS[app]] for app in SAVED_MODEL_KEYS
    }
    classes = {
        "dates": ExportedNormalizer,
        "translation": ExportedTranslator,
        "summarization": ExportedSummarizer,
        "captioning": ExportedCaptioner,
    }
    for app, cls in classes.items():
        named = set(re.findall(r"`(\w+)`", cls.__doc__.split("Its answers are")[1]))
        assert PORTABLE_KEYS[app] <= named, (app, PORTABLE_KEYS[app] - named)
    saved = exported_loader.SavedModelAnswers.__doc__
    assert all(f"`{k}`" in saved for k in ("input", "text", "score", "valid"))
    assert "no\n    `reason`" in saved or "no `reason`" in saved


@pytest.fixture(scope="module", params=CASES)
def case(request, exports):
    app, preset, rows = request.param
    folders = exports(app, preset)
    path = PRESETS_DIR / preset / "test_slice.json"
    inputs = registry.get(app).test_slice.inputs(path)[:rows]
    fixed = [
        p.read_bytes() if hasattr(p, "read_bytes") else p for p in fixed_inputs(preset)
    ]
    # Last, one input each predictor refuses with a reason: a text without
    # a word, an image unlike the training images.
    unlike = [noise_png()] if app == "captioning" else ["", "x " * 300]
    inputs = [*fixed, *inputs, *REFUSED_BY_RULES.get(app, []), *unlike]
    return {"app": app, "preset": preset, "folders": folders, "inputs": inputs}


def noise_png() -> bytes:
    from attention_zoo.image_codec import encode_png

    rng = np.random.default_rng(0)
    return encode_png(rng.integers(0, 256, (90, 120, 3), dtype=np.uint8))


def test_the_cli_names_what_it_wrote(tmp_path, capsys):
    from attention_zoo.cli import main

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
    app = case["app"]
    assert all(set(i) == SAVED_MODEL_KEYS[app] for i in expected), set(expected[0])
    assert all(set(i) == PORTABLE_KEYS[app] for i in got), [set(i) for i in got]
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
        # The copy switch and the distance to the training images.
        if "p_gen" in theirs:
            np.testing.assert_allclose(
                mine["p_gen"], theirs["p_gen"][:steps], atol=TOLERANCE
            )
        if "distance" in theirs:
            assert abs(mine["distance"] - theirs["distance"]) <= 1e-3
    n = len(REFUSED_BY_RULES.get(case["app"], []))
    assert [i["valid"] for i in expected[len(texts) - n - 2 : -2]] == [False] * n
    # The exported predictor gives the Python predictor's reasons too.
    refused = got[-1] if case["app"] == "captioning" else got[-2]
    assert refused["reason"] and not refused["valid"]


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
    with pytest.raises(FileNotFoundError, match=r"no export.json"):
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
    import dataclasses

    from attention_zoo.applications.dates.predictor import Normalizer

    class PlainNormalizer(Normalizer):
        app = "plain_dates"

    plain = dataclasses.replace(
        registry.get("dates"),
        name="plain_dates",
        predictor=PlainNormalizer,
        export_core=None,
    )
    registry.register(plain)
    try:
        with pytest.raises(ValueError, match="only format='saved_model'"):
            registry.export("plain_dates", "dates_multilingual", tmp_path, "litert")
    finally:
        registry.unregister("plain_dates")


def test_bad_export_arguments_are_named(tmp_path):
    with pytest.raises(ValueError, match="format"):
        registry.export("dates", "dates_multilingual", tmp_path / "o", "tflite")


def test_a_missing_runtime_names_the_extra(case, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    with pytest.raises(ImportError, match=r"pip install '\.\[export\]'"):
        load_exported(case["folders"]["onnx"])


def test_an_export_searches_with_the_width_it_was_exported_with(case):
    description = json.loads(
        (case["folders"]["onnx"] / "export.json").read_text(encoding="utf-8")
    )
    app = registry.get(case["app"])
    width = 1
    if app.beam_search:
        width = json.loads((PRESETS_DIR / case["preset"] / "config.json").read_text())[
            "beam_width"
        ]
    assert description["beam_width"] == width
    with pytest.raises(ValueError, match=f"beam_width {width}.*beam_width=7"):
        if width == 1:  # the normalizer takes no width when it predicts
            app.exported_predictor(case["folders"]["onnx"], None, beam_width=7)
        load_exported(case["folders"]["onnx"])(case["inputs"][:1], beam_width=7)


def test_an_exported_predictor_refuses_an_n_best_list_naming_it(case):
    """An exported core holds the best hypothesis only: an application
    that gives n-best lists (`Application.n_best`) says so, one that does
    not takes no `n_best` at all."""
    app = registry.get(case["app"])
    predictor = load_exported(case["folders"]["onnx"])
    if not app.n_best:
        with pytest.raises(TypeError, match="n_best"):
            predictor(case["inputs"][:1], n_best=True)
        return
    with pytest.raises(ValueError, match="best hypothesis only.*n_best=True"):
        predictor(case["inputs"][:1], n_best=True)
