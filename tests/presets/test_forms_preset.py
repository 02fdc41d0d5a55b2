"""A preset of a forms run (`dates_expressions`): its fixed outputs are
recorded and checked at the recipe's fixed reference, and its test slice
holds each example's reference and is scored at it, so neither depends on
the day the tests run.

The run is a tiny untrained model; what it writes is set by `READS` (the
form each text is read into), so the answers are those of a trained run
whatever the weights. The shipped preset, once its folder is built, is
checked by test_shipped_presets.py as every other."""

import dataclasses
import json

import keras
import numpy as np
import pytest

from attention_zoo.applications import registry
from attention_zoo.applications.common import preset_build
from attention_zoo.applications.common.preset_listing import preset_card, preset_table
from attention_zoo.applications.dates import data, forms_data
from attention_zoo.applications.dates import model as models
from attention_zoo.applications.dates.predictor import Normalizer
from attention_zoo.applications.dates.preset import FORMS_REFERENCE
from attention_zoo.presets import fixed_inputs, fixed_options, read_metadata

pytestmark = pytest.mark.tf_only

NAME = "dates_expressions"
# The test split of the run: a relative day whose value at its own
# reference (2020-03-01) is not its value at FORMS_REFERENCE or today, an
# absolute day, a month and a non-date; the absolute days first, as
# `forms_data.make_splits` lists them.
TEST = [
    forms_data.FormExample(
        "3 May 1979", "date 1979-05-03", "en", "absolute", "2026-01-01", "1979-05-03"
    ),
    forms_data.FormExample("not a date", "", "en", "non_date", "2026-01-01", ""),
    forms_data.FormExample(
        "yesterday", "shift day -1", "en", "relative", "2020-03-01T12:00", "2020-02-29"
    ),
    forms_data.FormExample(
        "March 2015", "month 2015-03", "en", "month", "2026-01-01", "2015-03"
    ),
]
# What the run "reads" each text into: the recipe's fixed inputs and the
# test split's texts; any other text gets "" (no time expression).
READS = {
    "3rd of May 1979": "date 1979-05-03",
    "yesterday": "shift day -1",
    "in 3 days": "shift day +3",
    "hace 3 días": "shift day -3",
    "March 2015": "month 2015-03",
    "8:25 AM": "time 08:25",
    "13 - 15 de julio de 2013": "date 2013-07-13 / date 2013-07-15",
    "3 May 1979": "date 1979-05-03",
}


def _reads(self, texts, batch_size=1000):
    texts = list(texts)
    forms = [READS.get(t, "") for t in texts]
    return (
        forms,
        [()] * len(forms),
        forms,
        np.array([bool(f) for f in forms]),
        np.zeros(len(texts), "float32"),
        np.zeros((len(texts), self.ty, self.tx), "float32"),
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if keras.backend.backend() != "tensorflow":
        pytest.skip("the application tests run on the TensorFlow backend")
    work = tmp_path_factory.mktemp("work")
    run = work / NAME
    (run / "data").mkdir(parents=True)
    vocabulary = data.CharVocabulary.from_texts([*READS, "not a date"])
    keras.utils.set_random_seed(0)
    models.build_default(
        len(vocabulary),
        units=4,
        embedding_dim=4,
        target_vocab_size=len(forms_data.FormVocabulary()),
    ).save(run / "model.keras")
    config = {
        "model": "default",
        "tx": data.TX,
        "ty": forms_data.TY_FORMS,
        "target": "forms",
        "score_threshold": -1.0,
    }
    (run / "config.json").write_text(json.dumps(config))
    (run / "vocabulary.json").write_text(json.dumps(vocabulary.to_json()))
    forms_data.save_examples(run / "data" / "test.json", TEST)
    metrics = {"test": {"n": 4, "exact_match": 0.5, "value_exact": 0.75}}
    (run / "metrics.json").write_text(json.dumps(metrics))
    app, recipe = registry.recipe(NAME)
    root = tmp_path_factory.mktemp("presets")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Normalizer, "written_and_scored", _reads)
        folder = preset_build.build(app, recipe, work, command=None, root=root)
    return {"app": app, "recipe": recipe, "folder": folder, "root": root}


@pytest.fixture
def reads(monkeypatch):
    monkeypatch.setattr(Normalizer, "written_and_scored", _reads)


def test_the_recipe_is_the_forms_training_at_a_fixed_reference():
    _, recipe = registry.recipe(NAME)
    assert recipe.train[:4] == ("dates", "train", "--target", "forms")
    assert recipe.fixed_reference == FORMS_REFERENCE
    assert recipe.headline_metric == "value_exact"
    # No preset of ISO dates, translations, captions or summaries records a
    # reference: their metadata stays as it was.
    others = [r for n, (_, r) in registry.recipes().items() if n != NAME]
    assert others and all(r.fixed_reference is None for r in others)


def test_fixed_outputs_are_recorded_at_the_recipe_s_reference(built):
    metadata = read_metadata(built["folder"])
    assert metadata["fixed_reference"] == FORMS_REFERENCE
    outputs = {o["input"]: o for o in metadata["fixed_outputs"]}
    assert list(outputs) == list(built["recipe"].fixed_inputs)
    # 2026-01-15 09:00 (a Thursday) is the reference of every answer.
    assert outputs["yesterday"]["text"] == "2026-01-14"
    assert outputs["in 3 days"]["text"] == "2026-01-18"
    assert outputs["hace 3 días"]["text"] == "2026-01-12"
    assert outputs["8:25 AM"]["text"] == "2026-01-16T08:25"
    assert outputs["13 - 15 de julio de 2013"]["text"] == "2013-07-13/2013-07-15"
    assert outputs["March 2015"]["text"] == "2015-03"
    assert not outputs["the meeting is in room 4"]["valid"]
    assert {o["reference"] for o in outputs.values()} == {"2026-01-15T09:00:00+00:00"}


def test_the_check_answers_at_the_recorded_reference_not_today(built, reads):
    folder = built["folder"]
    predictor = Normalizer.from_preset(folder)
    recorded = [o["text"] for o in read_metadata(folder)["fixed_outputs"]]
    assert fixed_options(folder) == {"reference": FORMS_REFERENCE}
    again = predictor(fixed_inputs(folder), **fixed_options(folder))
    assert [o["text"] for o in again] == recorded
    # Without it, "yesterday" is today's yesterday: the check would fail
    # on any other day.
    today = predictor(fixed_inputs(folder))
    assert [o["text"] for o in today] != recorded


def test_an_answer_says_what_code_set_in_the_form_the_model_wrote(built, monkeypatch):
    # form_settling: the model wrote 20:25 for "8:25 AM"; the period sets
    # 08:25, the answer is valid, and its notes name the pass and what the
    # model wrote. A form no pass changes has no such note.
    predictor = Normalizer.from_preset(built["folder"])
    written = {"8:25 AM": "time 20:25", "yesterday": "shift day -1"}

    def decode(self, texts, batch_size=1000):
        n = len(texts)
        return (
            np.zeros((n, self.ty), "int32"),
            np.zeros((n, self.ty, self.tx), "float32"),
            np.zeros(n, "float32"),
        )

    monkeypatch.setattr(Normalizer, "decode", decode)
    texts = list(written)
    monkeypatch.setattr(
        predictor.iso, "decode", lambda ids: [written[t] for t in texts]
    )
    settled, plain = predictor(texts, reference=FORMS_REFERENCE)
    assert (settled["form"], settled["text"], settled["valid"]) == (
        "time 08:25",
        "2026-01-16T08:25",
        True,
    )
    assert settled["notes"] == [
        "its period set by the text (form_settling); the model wrote "
        "'time 20:25'"
    ]
    assert plain["notes"] == [] and plain["form"] == "shift day -1"


def test_the_slice_holds_each_reference_and_is_scored_at_it(built, reads):
    folder = built["folder"]
    held = json.loads((folder / preset_build.SLICE_FILE).read_text(encoding="utf-8"))
    assert [e["reference"] for e in held] == [e.reference for e in TEST]
    assert [e["value"] for e in held] == [e.value for e in TEST]
    expected = {"n": 4, "value_exact": 1.0, "exact_match": 1.0}
    assert read_metadata(folder)["slice_metrics"] == expected
    predictor = Normalizer.from_preset(folder)
    assert preset_build.score_slice(built["app"], predictor, folder) == expected
    assert built["app"].test_slice.inputs(folder / preset_build.SLICE_FILE) == [
        e.text for e in TEST
    ]


def test_the_slice_of_a_forms_run_takes_every_kind(tmp_path):
    # The test split lists its absolute days first: the first examples
    # would be absolute days alone.
    (tmp_path / "data").mkdir()
    (tmp_path / "config.json").write_text(json.dumps({"target": "forms"}))
    examples = [TEST[0]] * 6 + [TEST[2]] * 7
    forms_data.save_examples(tmp_path / "data" / "test.json", examples)
    app = registry.get("dates")
    app.test_slice.write(tmp_path, tmp_path / "slice.json", 4)
    kinds = [e.kind for e in forms_data.load_examples(tmp_path / "slice.json")]
    assert kinds == ["absolute", "absolute", "relative", "relative"]
    # Spread to the end of the split: every 5th of 23 would stop at the 15th.
    numbered = [dataclasses.replace(TEST[2], text=str(i)) for i in range(23)]
    forms_data.save_examples(tmp_path / "data" / "test.json", numbered)
    app.test_slice.write(tmp_path, tmp_path / "slice.json", 4)
    taken = forms_data.load_examples(tmp_path / "slice.json")
    assert [e.text for e in taken] == ["0", "5", "11", "17"]
    # A split smaller than the slice is held whole, once.
    app.test_slice.write(tmp_path, tmp_path / "slice.json", 30)
    assert len(forms_data.load_examples(tmp_path / "slice.json")) == 23


def test_list_and_show_name_its_metric_and_reference(built):
    registry_recipes = registry.recipes()
    _, row = preset_table(registry_recipes, built["root"]).splitlines()
    assert row.split()[:4] == [NAME, "dates", "value_exact", "0.7500"]
    card = preset_card(built["folder"])
    assert f"recorded on its fixed inputs at the reference {FORMS_REFERENCE}:" in card
    assert "yesterday" in card and "2026-01-14" in card
    assert "## Known limitations" in card


def test_a_fixed_reference_that_is_not_a_string_is_refused(built, tmp_path):
    import shutil

    copy = tmp_path / NAME
    shutil.copytree(built["folder"], copy)
    metadata = read_metadata(copy)
    metadata["fixed_reference"] = 20260115
    (copy / "metadata.json").write_text(json.dumps(metadata))
    with pytest.raises(ValueError, match="fixed_reference=.20260115"):
        fixed_options(copy)


def test_refresh_records_the_outputs_at_the_reference_again(
    built, reads, tmp_path, monkeypatch
):
    import shutil

    import attention_zoo.presets

    shutil.copytree(built["folder"], tmp_path / NAME)
    monkeypatch.setattr(attention_zoo.presets, "PRESETS_DIR", tmp_path)
    monkeypatch.setattr(preset_build, "PRESETS_DIR", tmp_path)
    metadata = read_metadata(tmp_path / NAME)
    for item in metadata["fixed_outputs"]:
        item["text"] = "stale"
    (tmp_path / NAME / "metadata.json").write_text(json.dumps(metadata))
    preset_build.refresh(built["app"], built["recipe"])
    outputs = {o["input"]: o for o in read_metadata(tmp_path / NAME)["fixed_outputs"]}
    assert outputs["yesterday"]["text"] == "2026-01-14"
    assert read_metadata(tmp_path / NAME)["fixed_reference"] == FORMS_REFERENCE
