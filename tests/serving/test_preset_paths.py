"""A preset's fixed inputs stay in its folder: `metadata.json` naming
`examples/../../secret` or a symbolic link out is refused, naming the file
and the value, before the server's warm-up reads it (reliability round 4,
item 3)."""

import json
import shutil

import pytest

from attention_zoo.applications import registry
from attention_zoo.presets import PRESETS_DIR, fixed_inputs, read_metadata
from attention_zoo.serving.models import ServedModel, _warm_inputs

SECRET = b"not the preset's"


@pytest.fixture
def copy(tmp_path):
    folder = tmp_path / "presets" / "shapes"
    shutil.copytree(PRESETS_DIR / "shapes", folder)
    (tmp_path / "secret.png").write_bytes(SECRET)
    return folder


def _name_input(folder, value):
    path = folder / "metadata.json"
    metadata = json.loads(path.read_text(encoding="utf-8"))
    metadata["fixed_outputs"][0]["input"] = value
    path.write_text(json.dumps(metadata), encoding="utf-8")


def _served(folder):
    metadata = read_metadata(folder)
    return ServedModel(registry.get(metadata["app"]), "preset x", folder, metadata)


@pytest.mark.parametrize(
    "value", ["examples/../../../secret.png", "examples/../../secret.png"]
)
def test_a_path_out_of_the_folder_is_refused_at_warm_up(copy, value):
    _name_input(copy, value)
    for read in (lambda: fixed_inputs(copy), lambda: _warm_inputs(_served(copy))):
        with pytest.raises(ValueError) as error:
            read()
        message = str(error.value)
        assert "metadata.json: fixed_outputs[0].input" in message
        assert repr(value) in message


def test_a_symbolic_link_out_of_the_folder_is_refused(copy, tmp_path):
    (copy / "examples" / "scene_0.png").unlink()
    (copy / "examples" / "scene_0.png").symlink_to(tmp_path / "secret.png")
    with pytest.raises(ValueError, match="inside the preset folder"):
        _warm_inputs(_served(copy))


def test_files_inside_the_folder_still_load(copy):
    # A link that stays inside is the folder's own file.
    (copy / "examples" / "again.png").symlink_to(copy / "examples" / "scene_1.png")
    _name_input(copy, "examples/again.png")
    (image,) = _warm_inputs(_served(copy))
    assert image == (copy / "examples" / "scene_1.png").read_bytes()
    assert [p.name for p in fixed_inputs(copy)] == [
        "again.png",
        "scene_1.png",
        "scene_2.png",
    ]


def test_a_malformed_list_of_fixed_inputs_names_the_file(copy):
    path = copy / "metadata.json"
    metadata = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**metadata, "fixed_outputs": ["x"]}), encoding="utf-8")
    with pytest.raises(ValueError, match="metadata.json is not the metadata"):
        fixed_inputs(copy)
