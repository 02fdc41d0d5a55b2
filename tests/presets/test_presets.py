"""Presets: a run saved as a preset loads by name or folder and answers alike."""

import json
import shutil

import numpy as np
import pytest

from attention_zoo.applications import from_preset
from attention_zoo.applications.dates.config import TrainConfig
from attention_zoo.applications.dates.predictor import Normalizer
from attention_zoo.applications.dates.training import train
from attention_zoo.presets import (
    list_presets,
    preset_folder,
    read_metadata,
    save_to_preset,
)
from attention_zoo.presets.saving import model_card

pytestmark = pytest.mark.tf_only

TEXTS = ["3 May 1979", "23.09.1987", "jeudi 3 mai 1979"]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    path = tmp_path_factory.mktemp("dates_run")
    config = TrainConfig(
        epochs=1, n_train=512, n_validation=64, n_test=64, units=16, seed=3
    )
    train(path, config, verbose=0)
    return path


@pytest.fixture(scope="module")
def preset(run, tmp_path_factory):
    folder = tmp_path_factory.mktemp("presets") / "tiny_dates"
    save_to_preset(
        Normalizer(run),
        folder,
        description="a tiny test model",
        training_command="attention-zoo dates train --epochs 1",
        seed=3,
        fixed_inputs=TEXTS,
        card={"intended_use": "Tests.", "limitations": "Trained for one epoch."},
        float16=True,
    )
    return folder


def test_a_preset_folder_holds_weights_config_assets_metadata_and_card(preset):
    names = {p.name for p in preset.iterdir()}
    assert {"config.json", "vocabulary.json", "model.json", "model.weights.h5"} <= names
    assert {"metadata.json", "README.md"} <= names
    assert "model.keras" not in names


def test_a_preset_s_metadata_says_how_it_was_made_and_what_it_answers(preset):
    metadata = read_metadata(preset)
    assert metadata["app"] == "dates" and metadata["seed"] == 3
    assert metadata["weights_dtype"] == "float16"
    assert metadata["parameters"] == Normalizer(preset).model.count_params()
    assert metadata["data_signature"].startswith("sha256:")
    assert [o["input"] for o in metadata["fixed_outputs"]] == TEXTS
    assert "exact_match" in metadata["metrics"]


def test_a_preset_s_card_gives_its_intended_use_limitations_and_command(preset):
    card = (preset / "README.md").read_text()
    assert "## Intended use" in card and "Trained for one epoch." in card
    assert "attention-zoo dates train --epochs 1" in card


def test_a_preset_stores_no_optimizer_state_or_compile_settings(run, preset):
    import h5py

    with h5py.File(preset / "model.weights.h5", "r") as weights:
        assert "optimizer" not in weights
    assert "compile_config" not in json.loads((preset / "model.json").read_text())
    # The run's own model is compiled: its optimizer would have been saved.
    assert Normalizer(run).model.optimizer is not None


def test_float16_weights_take_half_the_bytes_of_float32(run, preset, tmp_path):
    import h5py

    save_to_preset(Normalizer(run), tmp_path / "full", seed=3)
    with h5py.File(preset / "model.weights.h5", "r") as weights:
        dtypes = set()
        weights.visititems(
            lambda _, o: dtypes.add(o.dtype) if isinstance(o, h5py.Dataset) else None
        )
    assert np.dtype("float32") not in dtypes
    half = (preset / "model.weights.h5").stat().st_size
    full = (tmp_path / "full" / "model.weights.h5").stat().st_size
    # Two bytes saved per weight: the float32 datasets' space is given
    # back, not left in the file.
    assert full - half >= 0.95 * 2 * Normalizer(run).model.count_params()


def test_from_preset_answers_like_the_run(run, preset):
    expected = Normalizer(run)(TEXTS)
    loaded = Normalizer.from_preset(preset)(TEXTS)
    assert [i["text"] for i in loaded] == [i["text"] for i in expected]
    for a, b in zip(loaded, expected):
        # float16 weights: the attention moves by float16 rounding only.
        np.testing.assert_allclose(a["attention"], b["attention"], atol=2e-2)
    assert [i["text"] for i in from_preset(preset)(TEXTS)] == [
        o["text"] for o in read_metadata(preset)["fixed_outputs"]
    ]


def test_a_single_input_gives_a_list_of_one(preset):
    (item,) = Normalizer.from_preset(preset)("3 May 1979")
    assert set(item) >= {"input", "text", "valid", "attention"}


def test_saving_again_replaces_the_preset_whole(run, preset):
    (preset / "model.json").write_text("from an older preset")
    save_to_preset(Normalizer(run), preset, seed=3)
    assert (preset / "model.json").read_text() != "from an older preset"
    assert not list(preset.parent.glob(".tiny_dates*"))


def test_save_to_preset_never_replaces_files_it_did_not_write(run, preset, tmp_path):
    """save_to_preset replaced any folder, files included (round 3, item 3)."""
    (preset / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match=r"holds 1 file\(s\) .* \(notes.txt\)"):
        save_to_preset(Normalizer(run), preset, seed=3)
    assert (preset / "notes.txt").read_text() == "mine"
    (preset / "notes.txt").unlink()
    project = tmp_path / "project"
    project.mkdir()
    (project / "thesis.tex").write_text("keep")
    with pytest.raises(ValueError, match="attention-zoo did not write"):
        save_to_preset(Normalizer(run), project, seed=3)
    assert [p.name for p in project.iterdir()] == ["thesis.tex"]


def test_unknown_presets_are_refused_by_name(tmp_path):
    with pytest.raises(ValueError, match="Received: preset='no_such_preset'"):
        preset_folder("no_such_preset")
    with pytest.raises(ValueError, match="Received: preset="):
        Normalizer.from_preset(tmp_path)


def test_a_preset_of_another_application_is_refused(preset, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    metadata = read_metadata(preset)
    (other / "metadata.json").write_text(json.dumps({**metadata, "app": "captioning"}))
    with pytest.raises(ValueError, match="a captioning preset"):
        Normalizer.from_preset(other)


def test_save_to_preset_needs_the_predictor_class_for_a_folder(run, tmp_path):
    with pytest.raises(ValueError, match="predictor_class"):
        save_to_preset(run, tmp_path / "p")
    folder = save_to_preset(run, tmp_path / "p", predictor_class=Normalizer)
    assert read_metadata(folder)["weights_dtype"] == "float32"


def test_the_card_is_written_from_the_metadata(preset):
    metadata = read_metadata(preset)
    card = (preset / "README.md").read_text()
    for key, value in metadata["metrics"].items():
        assert f"| {key} | {value:.4g} |" in card
    assert card.splitlines()[0] == f"# {metadata['name']}"
    assert model_card(metadata) == card


def test_list_presets_reads_only_folders_with_metadata(preset, tmp_path):
    root = tmp_path / "presets"
    root.mkdir()
    (root / "no_metadata").mkdir()
    (root / "no_metadata" / "config.json").write_text("{}")
    (root / "a_file.json").write_text("{}")
    (root / "metadata_folder").mkdir()
    (root / "metadata_folder" / "metadata.json").mkdir()  # a folder, not a file
    shutil.copytree(preset, root / "tiny")
    (entry,) = list_presets(root)
    assert entry == {
        "name": "tiny",
        "app": "dates",
        # Other tests save over the shared preset: read what it says now.
        "description": read_metadata(preset)["description"],
        "metrics": read_metadata(preset)["metrics"],
    }
    for entry in list_presets():
        assert set(entry) == {"name", "app", "description", "metrics"}
        assert preset_folder(entry["name"]).name == entry["name"]
