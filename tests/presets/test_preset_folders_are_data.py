"""A preset folder is data: loading one never imports, runs or deletes anything
it names (reliability round 3, item 1)."""

import json
import shutil
import sys

import pytest

from attention_zoo.applications import from_preset
from attention_zoo.applications.dates.predictor import Normalizer
from attention_zoo.presets import PRESETS_DIR, read_metadata

pytestmark = pytest.mark.tf_only


@pytest.fixture
def copy(tmp_path):
    folder = tmp_path / "evil"
    shutil.copytree(PRESETS_DIR / "dates_multilingual", folder)
    return folder


def _edit(folder, **changes):
    path = folder / "metadata.json"
    metadata = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**metadata, **changes}), encoding="utf-8")


@pytest.mark.parametrize(
    "named", ["site.addsitedir", "os.system", "shutil.rmtree", "builtins.exec"]
)
def test_a_predictor_named_in_the_metadata_is_never_called(copy, tmp_path, named):
    # site.addsitedir would run the .pth file's line; os.system the folder's
    # name; shutil.rmtree would delete the folder.
    marker = tmp_path / "PWNED"
    (copy / "x.pth").write_text(
        f"import pathlib; pathlib.Path({str(marker)!r}).touch()"
    )
    _edit(copy, predictor=named)
    for load in (from_preset, Normalizer.from_preset):
        (item,) = load(copy)("3 May 1979")
        assert item["text"] == "1979-05-03"
    assert not marker.exists()
    assert (copy / "metadata.json").is_file()


@pytest.mark.parametrize(
    "app", ["os.system", "shutil.rmtree", "evil_module_of_the_folder", "", "dates.."]
)
def test_an_application_outside_the_registry_is_refused(copy, app):
    (copy / "evil_module_of_the_folder.py").write_text("raise SystemExit(3)")
    sys.path.insert(0, str(copy))
    try:
        _edit(copy, app=app)
        with pytest.raises(ValueError, match="no application is called"):
            from_preset(copy)
    finally:
        sys.path.remove(str(copy))
    assert "evil_module_of_the_folder" not in sys.modules
    assert (copy / "metadata.json").is_file()


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "[1, 2]",
        '{"app": 3}',
        '{"name": "x"}',
        "[" * 100_000 + "]" * 100_000,
    ],
    ids=["not-json", "a-list", "app-not-a-string", "no-app", "nested-deeply"],
)
def test_malformed_metadata_is_one_error_naming_the_file(copy, content):
    (copy / "metadata.json").write_text(content, encoding="utf-8")
    with pytest.raises(
        ValueError, match="metadata.json is not the metadata of a preset"
    ):
        read_metadata(copy)
    with pytest.raises(ValueError, match="metadata.json"):
        from_preset(copy)


def test_no_shipped_metadata_names_code():
    for folder in PRESETS_DIR.iterdir():
        if (folder / "metadata.json").is_file():
            assert "predictor" not in read_metadata(folder)


def test_a_vocabulary_that_does_not_fit_the_model_is_refused(copy):
    """500 characters more than the embedding has rows answered a valid
    wrong date on TensorFlow and a NaN score on JAX (round 3, item 8)."""
    path = copy / "vocabulary.json"
    vocabulary = json.loads(path.read_text(encoding="utf-8"))
    vocabulary["chars"] += [chr(0x4E00 + i) for i in range(500)]
    path.write_text(json.dumps(vocabulary), encoding="utf-8")
    with pytest.raises(ValueError, match=r"vocabulary.json does not fit the model"):
        from_preset(copy)
    vocabulary["chars"] = vocabulary["chars"][:10]
    path.write_text(json.dumps(vocabulary), encoding="utf-8")
    with pytest.raises(ValueError, match=r"vocabulary.json does not fit the model"):
        from_preset(copy)


def test_a_translation_vocabulary_that_does_not_fit_is_refused(tmp_path):
    folder = tmp_path / "bible"
    shutil.copytree(PRESETS_DIR / "bible_en_es", folder)
    source = folder / "source_vocabulary.json"
    target = folder / "target_vocabulary.json"
    # The target vocabulary in place of the source one fits; one word less not.
    words = json.loads(target.read_text(encoding="utf-8"))
    shorter = words[:-1] if isinstance(words, list) else words
    if isinstance(words, dict):
        key = next(k for k, v in words.items() if isinstance(v, list))
        shorter = {**words, key: words[key][:-1]}
    source.write_text(json.dumps(shorter), encoding="utf-8")
    with pytest.raises(ValueError, match="source_vocabulary.json does not fit"):
        from_preset(folder)


@pytest.mark.parametrize("threshold", ["NaN", "-Infinity", "Infinity", '"abc"', "true"])
def test_a_threshold_that_is_not_a_finite_number_is_refused(copy, threshold):
    path = copy / "config.json"
    text = path.read_text(encoding="utf-8")
    config = json.loads(text)
    assert "score_threshold" in config
    del config["score_threshold"]
    path.write_text(
        json.dumps(config)[:-1] + f', "score_threshold": {threshold}}}',
        encoding="utf-8",
    )
    with pytest.raises(
        ValueError, match=r"config.json .*'score_threshold' must be a finite"
    ):
        from_preset(copy)
