"""Every shipped preset loads on this backend and answers as when it was built."""

import pytest

from attention_zoo.applications import from_preset, registry
from attention_zoo.applications.common.preset_build import score_slice
from attention_zoo.presets import (
    PRESETS_DIR,
    fixed_inputs,
    fixed_options,
    list_presets,
    read_metadata,
)
from attention_zoo.presets.saving import model_card

SHIPPED = [p["name"] for p in list_presets()]
# Float16 storage and another backend's kernels move scores by rounding only.
SLICE_TOLERANCE = 0.01


def test_the_package_ships_presets():
    assert SHIPPED, f"no preset folder with metadata.json in {PRESETS_DIR}"


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_preset_matches_its_build(name):
    metadata = read_metadata(name)
    predictor = from_preset(name)
    assert predictor.app == metadata["app"]
    fixed = metadata["fixed_outputs"]
    # At the reference they were recorded at, where the answers depend on
    # one (a forms run's "yesterday"), not at today's.
    outputs = predictor(fixed_inputs(name), **fixed_options(name))
    assert [o["text"] for o in outputs] == [item["text"] for item in fixed]
    assert [o["valid"] for o in outputs] == [item["valid"] for item in fixed]
    models = [
        m
        for m in (
            getattr(predictor, "model", None),
            getattr(predictor, "encoder", None),
        )
        if m is not None
    ]
    assert sum(m.count_params() for m in models) == metadata["parameters"]
    app = registry.get(metadata["app"])
    scores = score_slice(app, predictor, PRESETS_DIR / name)
    for key, value in metadata["slice_metrics"].items():
        assert abs(scores[key] - value) <= SLICE_TOLERANCE * max(1.0, abs(value)), key


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_card_agrees_with_the_metadata(name):
    metadata = read_metadata(name)
    assert (PRESETS_DIR / name / "README.md").read_text() == model_card(metadata)
    assert metadata["training_command"] and metadata["seed"] is not None
    assert (
        metadata["card"].get("reproduce", "").startswith("attention-zoo presets build ")
    )


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_card_prose_is_its_recipes(name):
    """The card is built from the recipe (`preset_build.refresh`): prose
    changed in a card alone, or in the recipe alone, would tell two stories
    (issue 59: the captioner's card said a photograph gets a caption about
    shapes while README and Python answer it not valid)."""
    _, recipe = registry.recipe(name)
    card = read_metadata(name)["card"]
    assert {k: card.get(k) for k in recipe.card} == recipe.card


def test_the_command_uses_the_default_preset_without_run(capsys):
    from attention_zoo.cli import main

    assert main(["dates", "predict", "3rd of May 1979", "31 February 2001"]) == 0
    out = capsys.readouterr()
    assert out.err.count("using the shipped preset dates_multilingual") == 1
    lines = out.out.splitlines()
    assert lines[0].startswith("'3rd of May 1979' -> 1979-05-03")
    assert lines[1].startswith("'31 February 2001' -> not a date")


def test_translation_and_captioning_commands_use_their_default_presets(capsys):
    from attention_zoo.cli import main

    # A valid fixed output prints its translation ("Jesus wept." is too
    # short to be valid: its line is the reason).
    outputs = read_metadata("bible_en_es")["fixed_outputs"]
    expected = next(o for o in outputs if o["valid"])
    assert main(["translation", "translate", expected["input"]]) == 0
    out = capsys.readouterr()
    assert out.err.count("using the shipped preset bible_en_es") == 1
    assert out.out.startswith(f"{expected['input']!r} -> {expected['text']!r}")
    image, *_ = fixed_inputs("shapes")
    assert main(["captioning", "predict", str(image)]) == 0
    out = capsys.readouterr()
    assert out.err.count("using the shipped preset shapes") == 1
    caption = read_metadata("shapes")["fixed_outputs"][0]["text"]
    assert out.out == f"{image}: {caption}\n"


@pytest.mark.tf_only
def test_export_writes_the_savedmodel_of_a_preset(tmp_path, capsys):
    import tensorflow as tf

    from attention_zoo.cli import main

    output = tmp_path / "saved_model"
    assert (
        main(
            [
                "dates",
                "export",
                "--preset",
                "dates_multilingual",
                "--output",
                str(output),
            ]
        )
        == 0
    )
    serve = tf.saved_model.load(str(output)).signatures["serving_default"]
    out = serve(text=tf.constant(["3rd of May 1979", "31 February 2001"]))
    assert [t.decode() for t in out["text"].numpy()][0] == "1979-05-03"
    assert out["valid"].numpy().tolist() == [True, False]
    # The SavedModel judges the fixed inputs as the Python predictor did at
    # build time; "03/04/05" is a calendar date scored above the threshold,
    # refused only by the numeric rule that the graph must apply too.
    fixed = read_metadata("dates_multilingual")["fixed_outputs"]
    out = serve(text=tf.constant([item["input"] for item in fixed]))
    assert [t.decode() for t in out["text"].numpy()] == [i["text"] for i in fixed]
    assert out["valid"].numpy().tolist() == [i["valid"] for i in fixed]
    (ambiguous,) = [i for i in fixed if i["input"] == "03/04/05"]
    threshold = from_preset("dates_multilingual").threshold
    assert ambiguous["text"] == "2005-04-03" and ambiguous["score"] > threshold


def test_the_command_lists_the_presets(capsys):
    from attention_zoo.cli import main

    assert main(["presets", "list"]) == 0
    out = capsys.readouterr().out
    for name in SHIPPED:
        assert name in out
