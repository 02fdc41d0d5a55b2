"""Pretrained models shipped inside the package: list, find, load, make.

A preset is what a run folder becomes when it is shipped, in the keras-hub
spirit: a folder holding

    config.json          the run's configuration (as `train` wrote it)
    *.json               vocabulary and other assets the predictor reads
    MODEL.json           each model's architecture (`model.to_json()`)
    MODEL.weights.h5     its weights
    metadata.json        versions, parameters, training command and seed,
                         data signature, date, test metrics, and the outputs
                         on a few fixed inputs recorded at build time (at a
                         fixed reference date-time where the answers depend
                         on one: `fixed_options`)
    examples/            the fixed inputs that are files (images)
    test_slice.json      the first examples of the run's test split
    README.md            the model card

A model the predictor rebuilds exactly from weights the package ships (the
captioner's frozen EfficientNet-Lite0 encoder) is not stored again.

The presets of the package are the folders beside this file; any folder of
that form (one written by `save_to_preset`) loads the same way, through
`attention_zoo.applications.from_preset` or an application's
`Predictor.from_preset`: `metadata.json` names the application, one of the
registry's, and nothing in a preset folder names code to run. Nothing here
reads the network.

Examples:
    >>> names = [p["name"] for p in list_presets()]
    >>> isinstance(names, list)
    True
"""

from __future__ import annotations

import json
from pathlib import Path

from attention_zoo.presets.saving import reference_options, save_to_preset

PRESETS_DIR = Path(__file__).resolve().parent


def _is_preset(folder: Path) -> bool:
    return (folder / "metadata.json").is_file()


def list_presets(root=PRESETS_DIR) -> list[dict]:
    """The presets in `root` (default: the shipped ones), by name:
    `[{"name", "app", "description", "metrics"}]`.

    Only the folders of `root` that hold a `metadata.json` are presets;
    other folders and files are left out.
    """
    presets = []
    for folder in sorted(Path(root).iterdir()):
        if folder.is_dir() and _is_preset(folder):
            metadata = read_metadata(folder)
            presets.append(
                {
                    "name": folder.name,
                    "app": metadata["app"],
                    "description": metadata.get("description", ""),
                    "metrics": metadata.get("metrics", {}),
                }
            )
    return presets


def preset_folder(name_or_folder) -> Path:
    """The folder of a shipped preset name, or a preset folder on disk.

    Raises:
        ValueError: naming `preset` and the shipped names when it is neither.
    """
    text = str(name_or_folder)
    shipped = PRESETS_DIR / text
    if "/" not in text and "\\" not in text and _is_preset(shipped):
        return shipped
    folder = Path(name_or_folder).expanduser()
    if folder.is_dir() and _is_preset(folder):
        return folder
    names = ", ".join(p["name"] for p in list_presets()) or "none"
    raise ValueError(
        "`preset` must be the name of a shipped preset "
        f"({names}) or a folder written by save_to_preset (with metadata.json). "
        f"Received: preset={text[:200]!r}"
    )


def read_metadata(name_or_folder) -> dict:
    """The `metadata.json` of a preset, as a dict.

    Raises:
        ValueError: naming the file when it is not a JSON object with an
            `app` string (the application that loads it), or is nested
            deeper than any metadata this package writes.
    """
    folder = Path(name_or_folder)
    if not folder.is_dir():
        folder = preset_folder(name_or_folder)
    path = folder / "metadata.json"
    try:
        metadata = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, RecursionError) as error:
        raise ValueError(
            f"{path} is not the metadata of a preset (not JSON: "
            f"{type(error).__name__}: {str(error)[:200]})"
        ) from error
    if not isinstance(metadata, dict) or not isinstance(metadata.get("app"), str):
        raise ValueError(
            f"{path} is not the metadata of a preset (a JSON object with an "
            '"app" string is expected)'
        )
    return metadata


def fixed_inputs(name_or_folder) -> list:
    """The inputs whose outputs the preset's metadata records, files
    (`examples/...`) as paths in the preset folder.

    Raises:
        ValueError: naming `metadata.json` and the value, for a file input
            that leads out of the folder (`..`, a symbolic link out, an
            absolute path): a folder names only its own files, so a
            copied or downloaded preset cannot make its reader open
            another file of the machine.
    """
    folder = preset_folder(name_or_folder)
    path = folder / "metadata.json"
    fixed = read_metadata(folder).get("fixed_outputs", [])
    if not isinstance(fixed, list) or not all(
        isinstance(item, dict) and "input" in item for item in fixed
    ):
        raise ValueError(
            f"{path} is not the metadata of a preset (`fixed_outputs` must be a "
            'list of objects with an "input")'
        )
    return [
        inside(folder, item["input"], f"{path}: fixed_outputs[{i}].input")
        if isinstance(item["input"], str) and item["input"].startswith("examples/")
        else item["input"]
        for i, item in enumerate(fixed)
    ]


def fixed_options(name_or_folder) -> dict:
    """The keyword arguments the preset's fixed outputs were recorded with:
    `{"reference": ...}` where `metadata.json` has a `fixed_reference` (a
    forms run's answers depend on it), else `{}`.

    Raises:
        ValueError: naming `metadata.json` and the value, for a
            `fixed_reference` that is not a string.
    """
    folder = preset_folder(name_or_folder)
    reference = read_metadata(folder).get("fixed_reference")
    if reference is not None and not isinstance(reference, str):
        raise ValueError(
            f"{folder / 'metadata.json'} is not the metadata of a preset "
            "(`fixed_reference` must be an ISO 8601 string). Received: "
            f"fixed_reference={str(reference)[:80]!r}"
        )
    return reference_options(reference)


def inside(folder, name: str, what: str) -> Path:
    """`folder / name`, a path that stays inside `folder` once resolved
    (symbolic links followed).

    Raises:
        ValueError: saying `what` named which value, when it leads out.
    """
    root = Path(folder).resolve()
    path = (root / name).resolve()
    if root not in path.parents:
        raise ValueError(
            f"{what} must name a file inside the preset folder {root}. "
            f"Received: {name[:80]!r}, which leads to {str(path)[:120]}"
        )
    return Path(folder) / name


__all__ = [
    "PRESETS_DIR",
    "fixed_inputs",
    "fixed_options",
    "list_presets",
    "preset_folder",
    "read_metadata",
    "save_to_preset",
]
