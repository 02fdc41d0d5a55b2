"""The SavedModel, LiteRT and ONNX exports of a run of the forms target
(`dates_expressions`): the preset's answers, grounded and resolved against
the caller's reference by the same Python around the exported core (the
SavedModel's signature `core`); the SavedModel's `serving_default` answers
the forms the model writes (docs/dates.md, "The reference in each entry
point")."""

import datetime as dt
import json
import subprocess
import sys

import pytest

from attention_zoo.applications import load_exported
from attention_zoo.applications.dates.predictor import Normalizer
from attention_zoo.applications.dates.preset import FORMS_REFERENCE, score_slice
from attention_zoo.presets import PRESETS_DIR, fixed_inputs

pytestmark = pytest.mark.tf_only

PRESET = "dates_expressions"
FORMATS = ("saved_model", "litert", "onnx")
# In a process of its own, as tests/export/conftest.py exports: tf2onnx
# slows down converting after another model in one process.
EXPORT = f"""
import sys
from attention_zoo.applications import registry
for fmt in {FORMATS!r}:
    registry.export("dates", {PRESET!r}, sys.argv[1] + "/" + fmt, fmt)
"""
# Every kind, an answer the grounding refuses, a non-date, and two inputs
# the model cannot read (empty, too long).
TEXTS = [
    *fixed_inputs(PRESET),
    "next Friday",
    "3 May",
    "third Tuesday of September 2014",
    "Christmas 2015",
    "from 10pm to 6am",
    "2014-12-12T08:25:00Z",
    "vor zwei Wochen",
    "room 1204, second floor",
    "",
    "x " * 300,
]
# What the answers of a forms run hold besides the score and attention,
# compared exactly.
KEYS = (
    "input", "text", "valid", "reason", "notes", "source_tokens", "tokens",
    "kind", "grain", "form", "parts", "reference", "prefer",
)  # fmt: skip


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("form-exports")
    subprocess.run([sys.executable, "-c", EXPORT, str(root)], check=True)
    return {fmt: root / fmt for fmt in FORMATS}


@pytest.fixture(scope="module")
def preset():
    return Normalizer.from_preset(PRESET)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("prefer", ["future", "past"])
def test_an_export_answers_as_the_preset_at_a_reference(folders, preset, fmt, prefer):
    reference = "2026-03-01T22:30:00+01:00" if prefer == "past" else FORMS_REFERENCE
    want = preset(TEXTS, reference=reference, prefer=prefer)
    got = load_exported(folders[fmt])(TEXTS, reference=reference, prefer=prefer)
    assert [set(a) for a in got] == [set(a) for a in want]
    for mine, theirs in zip(got, want):
        assert {k: mine[k] for k in KEYS} == {k: theirs[k] for k in KEYS}
        assert mine["score"] == pytest.approx(theirs["score"], abs=1e-4)
    # The answers are the resolver's at this reference, not one fixed day's.
    answers = {a["input"]: a for a in got}
    assert answers["yesterday"]["valid"]
    yesterday = {"future": "2026-01-14", "past": "2026-02-28"}[prefer]
    assert answers["yesterday"]["text"] == yesterday
    assert answers["3 May"]["parts"] == {"year": "reference"}
    assert not answers["room 1204, second floor"]["valid"]
    assert not answers[""]["valid"] and answers[""]["reason"]


def test_without_a_reference_an_export_answers_against_now_in_utc(folders):
    before = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    (answer,) = load_exported(folders["onnx"])(["yesterday"])
    after = dt.datetime.now(dt.timezone.utc)
    used = dt.datetime.fromisoformat(answer["reference"])
    assert before <= used <= after
    assert answer["text"] == (used.date() - dt.timedelta(days=1)).isoformat()


def test_the_files_score_the_test_slice_as_the_preset_recorded(folders):
    path = PRESETS_DIR / PRESET / "test_slice.json"
    recorded = json.loads((PRESETS_DIR / PRESET / "metadata.json").read_text())
    for fmt in FORMATS[1:]:  # the SavedModel: the first test, exactly as the preset
        scores = score_slice(load_exported(folders[fmt]), path)
        assert scores == recorded["slice_metrics"], fmt
    # The int8 file within a point of it (it kept all of it when measured:
    # docs/dates.md).
    int8 = score_slice(load_exported(folders["litert"], "int8"), path)
    assert int8["value_exact"] >= recorded["slice_metrics"]["value_exact"] - 0.01


def test_a_bad_reference_is_refused_by_the_export_naming_it(folders):
    with pytest.raises(ValueError, match="reference"):
        load_exported(folders["litert"])(["yesterday"], reference="not a day")
    with pytest.raises(ValueError, match="prefer"):
        load_exported(folders["litert"])(["yesterday"], prefer="soon")


def test_the_saved_models_serving_signature_answers_the_models_forms(folders, preset):
    import tensorflow as tf

    serve = tf.saved_model.load(str(folders["saved_model"])).signatures[
        "serving_default"
    ]
    out = serve(text=tf.constant(TEXTS))
    want = preset(TEXTS, reference=FORMS_REFERENCE)
    forms = [f.decode("utf-8") for f in out["form"].numpy()]
    # The model's form as it wrote it, before `form_settling` and whether or
    # not the grounding keeps it ("from 10pm to 6am" may be written at 10:00
    # and answered at 22:00); "" where the model wrote `<invalid>` or cannot
    # read the input (the last two).
    written = preset.written_and_scored(TEXTS[:-2])[0]
    assert forms == [*written, "", ""]
    assert [a["form"] for a in want[-2:]] == ["", ""]
    scores = out["score"].numpy()
    assert scores[-2:].tolist() == [float("-inf")] * 2
    assert scores[:-2] == pytest.approx([a["score"] for a in want[:-2]], abs=1e-4)
    assert out["attention"].shape == (len(TEXTS), preset.ty, preset.tx)


def test_the_saved_model_lists_its_core_and_the_data_files_beside_it(folders):
    description = json.loads((folders["saved_model"] / "export.json").read_text())
    assert description["core"]["signature"] == "core"
    assert {"config.json", "vocabulary.json"} <= set(description["files"])


def test_a_saved_model_whose_core_is_misdescribed_is_refused(folders, tmp_path):
    import shutil

    from attention_zoo.applications.common.errors import MalformedFileError

    copy = tmp_path / "saved"
    shutil.copytree(folders["saved_model"], copy)
    path = copy / "export.json"
    description = json.loads(path.read_text())
    description["core"]["signature"] = "serving_default"
    path.write_text(json.dumps(description))
    with pytest.raises(MalformedFileError, match="export.json"):
        load_exported(copy)
