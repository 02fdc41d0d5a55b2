"""The SavedModel archive every application exports."""

from __future__ import annotations

from pathlib import Path

import keras

from attention_zoo.applications.common.run_folder import output_folder


def export_folder(output) -> Path:
    """`output` as the folder of a SavedModel about to be written.

    Raises:
        ValueError: when the backend is not TensorFlow (a SavedModel is a
            TensorFlow graph), or when `output` is an existing file.
    """
    if keras.backend.backend() != "tensorflow":
        raise ValueError(
            "export writes a TensorFlow SavedModel and needs KERAS_BACKEND=tensorflow. "
            f"Received: {keras.backend.backend()}"
        )
    return output_folder(output)


def write_saved_model(output, serve, input_name: str, tracked) -> Path:
    """Write `serve` as the `serving_default` of a SavedModel in `output`.

    Args:
        output: the folder (from `export_folder`).
        serve: a function of one `tf.string` batch `(None,)` that returns a
            dict of tensors.
        input_name: the name of the signature's input (`text`,
            `image_bytes`).
        tracked: the models and lookup tables `serve` uses; a lookup table is
            saved only if it is tracked.
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
    archive.write_out(str(output), verbose=False)
    return Path(output)
