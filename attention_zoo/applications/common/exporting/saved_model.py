"""The SavedModel archive every application's `export` hook writes."""

from __future__ import annotations

import shutil
from pathlib import Path

import keras

from attention_zoo import owned_folders
from attention_zoo.applications.common.exporting.files import write_description
from attention_zoo.applications.common.run_folder import output_folder

SAVED_MODEL_KIND = "saved_model"
# The signature of a SavedModel's tensor core (ids to ids), beside
# `serving_default`, for an application whose answers need Python rules
# the graph cannot hold: `load_exported` runs it under the application's
# predictor, as it runs a LiteRT or ONNX core.
CORE = "core"


def export_folder(output, app: str) -> Path:
    """`output` as the folder of a SavedModel about to be written.

    Raises:
        ValueError: when the backend is not TensorFlow (a SavedModel is a
            TensorFlow graph), when `output` is an existing file, or a
            folder with files that is not a SavedModel of `app` (only a
            previous export of `app` holding nothing else is replaced:
            `owned_folders.check_replaceable`).
    """
    if keras.backend.backend() != "tensorflow":
        raise ValueError(
            "export writes a TensorFlow SavedModel and needs KERAS_BACKEND=tensorflow. "
            f"Received: {keras.backend.backend()}"
        )
    output = output_folder(output)
    owned_folders.check_replaceable(output, SAVED_MODEL_KIND, app)
    return output


def write_saved_model(
    output, serve, input_name: str, tracked, app: str, core=None, run_dir=None
) -> Path:
    """Write `serve` as the `serving_default` of a SavedModel in `output`.

    Args:
        output: the folder (from `export_folder`).
        serve: a function of one `tf.string` batch `(None,)` that returns a
            dict of tensors.
        input_name: the name of the signature's input (`text`,
            `image_bytes`).
        tracked: the models and lookup tables `serve` uses; a lookup table is
            saved only if it is tracked.
        app: the application, recorded in the folder's marker and in its
            `export.json` (format `saved_model`, the input, and every file
            with its size and SHA-256 digest: `exporting.files`).
        core: a `portable.CoreFunction` written as the signature `CORE`,
            its data files copied from `run_dir` beside the SavedModel, and
            its input and outputs recorded in `export.json` under `core`:
            `load_exported` then answers through the application's
            predictor around it.
        run_dir: the run folder `core.data_files` are copied from.
    """
    import tensorflow as tf

    archive = keras.export.ExportArchive()
    for resource in tracked:
        archive.track(resource)
    archive.add_endpoint(
        "serving_default",
        serve,
        input_signature=[tf.TensorSpec([None], tf.string, name=input_name)],
    )
    description = {
        "app": app,
        "format": SAVED_MODEL_KIND,
        "input": {"name": input_name, "shape": [None], "dtype": "string"},
    }
    if core is not None:
        spec = tf.TensorSpec((None, *core.shape), core.dtype, name=core.input_name)
        archive.add_endpoint(CORE, core.fn, input_signature=[spec])
        description["core"] = {
            "signature": CORE,
            "input": {"name": core.input_name, "dtype": core.dtype},
            "outputs": sorted(core.outputs),
            "beam_width": core.beam_width,
        }

    def write(staging) -> None:
        archive.write_out(str(staging), verbose=False)
        for name in core.data_files if core is not None else ():
            shutil.copyfile(Path(run_dir) / name, Path(staging) / name)
        write_description(staging, description)

    # Into a staging sibling, then swapped in: a failed write (a full disk)
    # leaves no partial SavedModel, and a previous one is replaced whole.
    return owned_folders.replace_folder(output, write, SAVED_MODEL_KIND, app)
