"""The run folder: where a training writes and what the other tasks read."""

from __future__ import annotations

import zipfile
from pathlib import Path

import keras


def output_folder(path, flag: str = "--output") -> Path:
    """`path` as a folder to write into (created later by the caller).

    Raises:
        ValueError: naming `flag` when `path` exists as something other than
            a folder (a file would otherwise fail deep inside a save with an
            OS or TensorFlow error).
    """
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(
            f"{flag} must be a folder to write into. Received: {flag} {path}, "
            "an existing file"
        )
    return path


def check_run_folder(run_dir, app: str, files) -> Path:
    """`run_dir` as the folder of a finished `attention-zoo APP train` run.

    Raises:
        FileNotFoundError: naming the folder and the `files` it lacks.
    """
    run = Path(run_dir)
    missing = [name for name in files if not (run / name).is_file()]
    if missing:
        raise FileNotFoundError(
            f"{run} is not a run folder of `attention-zoo {app} train` "
            f"(no {', '.join(missing)})"
        )
    return run


def load_run_model(path):
    """`keras.saving.load_model(path)` for a model file of a run folder.

    Raises:
        ValueError: when the file is not a `.keras` archive (an empty file
            from a training killed while saving, say), which Keras reports
            as "File not found" although the file is there.
    """
    if not zipfile.is_zipfile(path):
        raise ValueError(
            f"{path} is not a .keras model file (not a zip archive: a "
            "training interrupted while saving, or another file); train the "
            "run again"
        )
    return keras.saving.load_model(path)


def start_run_folder(output, artifacts) -> Path:
    """The folder of a new training run, with the last run's artifacts removed.

    Training into the folder of an earlier run rewrites its vocabulary and
    configuration before the new model exists; removing the earlier run's
    trained `artifacts` (model files, metrics) first means that a training
    that fails or is interrupted leaves a folder the other tasks refuse as
    incomplete ("no model.keras"), never the old model beside a new
    vocabulary.

    Args:
        output: the run folder (`--output`).
        artifacts: file names inside it that a finished training writes.
    """
    run = output_folder(output)
    run.mkdir(parents=True, exist_ok=True)
    for name in artifacts:
        (run / name).unlink(missing_ok=True)
    return run
