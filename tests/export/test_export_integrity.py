"""`load_exported` runs only what the export wrote: the format its
`export.json` declares, from files of the sizes and SHA-256 digests listed
there, regular files inside the folder; anything else is refused naming
the file, before a runtime opens it (docs/export.md)."""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading

import pytest

from attention_zoo.applications import load_exported
from attention_zoo.applications.common.errors import MalformedFileError

pytestmark = pytest.mark.tf_only
MODEL_FILES = {
    "saved_model": "saved_model.pb",
    "litert": "model.tflite",
    "onnx": "model.onnx",
}
FORMATS = tuple(MODEL_FILES)
# After 30 s, a writer's open and close of the FIFO argv[1]: exit status 0
# when a reader was blocked on it (else ENXIO, no reader).
UNBLOCK = """
import os, sys, time
time.sleep(30)
os.close(os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK))
"""


@pytest.fixture(scope="module")
def folders(exports):
    return exports("dates", "dates_multilingual")


def copy(folders, fmt, tmp_path):
    """A copy of the `fmt` export to tamper with."""
    return shutil.copytree(folders[fmt], tmp_path / fmt, symlinks=True)


def listed(folder) -> dict:
    return json.loads((folder / "export.json").read_text(encoding="utf-8"))


def record_again(folder, name) -> None:
    """`name`'s size and digest written into `export.json` again, as a
    tool that rewrote the file and its description would."""
    description = listed(folder)
    content = (folder / name).read_bytes()
    description["files"][name] = {
        "size": len(content),
        "sha256": hashlib.sha256(content).hexdigest(),
    }
    (folder / "export.json").write_text(json.dumps(description), encoding="utf-8")


def edit_json(path, change) -> None:
    content = json.loads(path.read_text(encoding="utf-8"))
    change(content)
    path.write_text(json.dumps(content), encoding="utf-8")


def cjk(vocabulary, n):
    have = set(vocabulary["chars"])
    return [c for c in map(chr, range(0x4E00, 0x9FFF)) if c not in have][:n]


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_export_lists_its_files_with_digests(folders, fmt):
    description = listed(folders[fmt])
    assert description["format"] == fmt and description["app"] == "dates"
    on_disk = sorted(
        p.relative_to(folders[fmt]).as_posix()
        for p in folders[fmt].rglob("*")
        if p.is_file() and p.name not in ("export.json", ".attention-zoo.json")
    )
    assert sorted(description["files"]) == on_disk
    assert MODEL_FILES[fmt] in on_disk
    for name, entry in description["files"].items():
        content = (folders[fmt] / name).read_bytes()
        assert entry == {
            "size": len(content),
            "sha256": hashlib.sha256(content).hexdigest(),
        }


@pytest.mark.parametrize("fmt", ["litert", "onnx"])
def test_a_saved_model_smuggled_into_a_portable_folder_is_not_run(
    folders, fmt, tmp_path
):
    # The loader once looked for saved_model.pb first, whatever the folder
    # said it was: a graph added to a LiteRT or ONNX folder ran.
    folder = copy(folders, fmt, tmp_path)
    shutil.copyfile(
        folders["saved_model"] / "saved_model.pb", folder / "saved_model.pb"
    )
    shutil.copytree(folders["saved_model"] / "variables", folder / "variables")
    with pytest.raises(MalformedFileError, match="does not list: saved_model.pb"):
        load_exported(folder)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_file_the_description_does_not_list_is_refused(folders, fmt, tmp_path):
    folder = copy(folders, fmt, tmp_path)
    other = {
        "saved_model": "model.onnx",
        "litert": "model.onnx",
        "onnx": "model.tflite",
    }
    (folder / other[fmt]).write_bytes(b"another model")
    with pytest.raises(MalformedFileError, match=f"does not list: {other[fmt]}"):
        load_exported(folder)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize(
    "fmt,name",
    [
        ("saved_model", "saved_model.pb"),
        ("litert", "model.tflite"),
        ("onnx", "model.onnx"),
        ("litert", "vocabulary.json"),
        ("onnx", "export.json"),
    ],
)
def test_a_fifo_in_place_of_a_file_is_refused_without_blocking(
    folders, fmt, name, tmp_path
):
    folder = copy(folders, fmt, tmp_path)
    (folder / name).unlink()
    os.mkfifo(folder / name)
    outcome = {}

    def load():
        try:
            load_exported(folder)
        except Exception as error:  # noqa: BLE001 - checked below
            outcome["error"] = error

    # A reader blocked on the FIFO may hold the GIL (a runtime's open), so
    # another process ends the wait: it opens the FIFO for writing and
    # closes it, and the reader sees an empty file.
    watchdog = subprocess.Popen([sys.executable, "-c", UNBLOCK, str(folder / name)])
    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(120)
    unblocked = watchdog.poll() == 0
    watchdog.kill()
    watchdog.wait()
    assert not unblocked, f"load_exported blocked reading the FIFO {name}"
    error = outcome.get("error")
    assert isinstance(error, MalformedFileError), repr(error)
    assert f"{name} is not a regular file" in str(error)


def add_three_symbols(vocabulary):
    vocabulary["chars"] += ["ᚠ", "ᚢ", "ᚦ"]


def add_cjk_symbols(vocabulary):
    vocabulary["chars"] += cjk(vocabulary, 500)


def tx_8(config):
    config["tx"] = 8


@pytest.mark.parametrize(
    "fmt,name,change",
    [
        ("litert", "vocabulary.json", add_three_symbols),
        ("onnx", "vocabulary.json", add_three_symbols),
        ("litert", "vocabulary.json", add_cjk_symbols),
        ("onnx", "config.json", tx_8),
        ("litert", "config.json", tx_8),
    ],
)
def test_a_changed_data_file_is_refused_naming_it(folders, fmt, name, change, tmp_path):
    folder = copy(folders, fmt, tmp_path)
    edit_json(folder / name, change)
    pattern = rf"\({re.escape(name)} (holds \d+ bytes|differs)"
    with pytest.raises(MalformedFileError, match=pattern):
        load_exported(folder)


@pytest.mark.parametrize(
    "fmt,name",
    [
        ("saved_model", "saved_model.pb"),
        ("saved_model", "variables/variables.data-00000-of-00001"),
        ("litert", "model.tflite"),
        ("litert", "model_int8.tflite"),
        ("onnx", "model.onnx"),
    ],
)
def test_a_model_file_changed_in_place_is_refused(folders, fmt, name, tmp_path):
    folder = copy(folders, fmt, tmp_path)
    content = bytearray((folder / name).read_bytes())
    content[len(content) // 2] ^= 0xFF  # same size, one byte flipped
    (folder / name).write_bytes(bytes(content))
    with pytest.raises(
        MalformedFileError, match=f"{name} differs from the file written"
    ):
        load_exported(folder)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_truncated_model_file_is_refused(folders, fmt, tmp_path):
    folder = copy(folders, fmt, tmp_path)
    name = MODEL_FILES[fmt]
    content = (folder / name).read_bytes()
    (folder / name).write_bytes(content[: len(content) // 2])
    with pytest.raises(
        MalformedFileError,
        match=f"{name} holds {len(content) // 2} bytes where it was written with "
        f"{len(content)}",
    ):
        load_exported(folder)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_link_out_of_the_folder_is_refused(folders, fmt, tmp_path):
    folder = copy(folders, fmt, tmp_path)
    name = MODEL_FILES[fmt]
    # The very file the export wrote, but outside the folder.
    outside = tmp_path / "outside"
    (folder / name).rename(outside)
    (folder / name).symlink_to(outside)
    with pytest.raises(MalformedFileError, match=f"{name} is a link leading out"):
        load_exported(folder)


def test_an_export_from_before_the_digests_is_refused_naming_the_remedy(
    folders, tmp_path
):
    # A SavedModel had no export.json at all, the portable formats one
    # without `files`: neither can be checked, so neither is run.
    saved_model = copy(folders, "saved_model", tmp_path)
    (saved_model / "export.json").unlink()
    with pytest.raises(
        MalformedFileError, match="SavedModel without export.json.*export it again"
    ):
        load_exported(saved_model)
    for fmt in ("litert", "onnx"):
        folder = copy(folders, fmt, tmp_path)
        edit_json(folder / "export.json", lambda d: d.pop("files"))
        with pytest.raises(MalformedFileError, match="lists no files.*export it again"):
            load_exported(folder)


@pytest.mark.parametrize("fmt", ["litert", "onnx"])
def test_a_vocabulary_larger_than_the_model_is_refused_at_load(folders, fmt, tmp_path):
    # Even recorded again in export.json, a vocabulary the model's embedding
    # cannot read is refused naming it, not by a runtime's "gather index
    # out of bounds" at the first date that holds one of its characters.
    folder = copy(folders, fmt, tmp_path)
    edit_json(folder / "vocabulary.json", add_cjk_symbols)
    record_again(folder, "vocabulary.json")
    with pytest.raises(
        MalformedFileError, match=r"vocabulary.json holds \d+ symbols, more"
    ):
        load_exported(folder)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_checked_folder_still_answers(folders, fmt):
    assert load_exported(folders[fmt])(["3 May 1979"])[0]["text"] == "1979-05-03"


def test_the_old_import_names_the_loaders_new_home():
    """`load_exported` moved up to the application layer, beside
    `from_preset`: `attention_zoo.export` imports no application, and its
    old name says where the loader went instead of a bare ImportError."""
    import attention_zoo.export
    from attention_zoo.applications import exported_loader

    assert load_exported is exported_loader.load_exported
    home = "from attention_zoo.applications import load_exported"
    with pytest.raises(ImportError, match=re.escape(home)):
        from attention_zoo.export import load_exported as old  # noqa: F401
    with pytest.raises(ImportError, match=re.escape(home)):
        attention_zoo.export.load_exported  # noqa: B018
    with pytest.raises(AttributeError, match="no attribute 'load_everything'"):
        attention_zoo.export.load_everything  # noqa: B018
    assert "load_exported" not in attention_zoo.export.__all__
