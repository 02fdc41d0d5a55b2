"""Pieces every application's training shares."""

from __future__ import annotations

import importlib.util
import re
import time
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


def tensorboard_callbacks(log_dir) -> list:
    """`[keras.callbacks.TensorBoard(log_dir)]` where TensorFlow is installed.

    Keras writes TensorBoard logs with `tf.summary` on every backend, so a
    machine without TensorFlow (a JAX GPU machine, say) trains without logs
    instead of failing.
    """
    if importlib.util.find_spec("tensorflow") is None:
        return []
    return [keras.callbacks.TensorBoard(str(log_dir))]


class TimeBudget(keras.callbacks.Callback):
    """Stop training once `seconds` of wall-clock time have passed."""

    def __init__(self, seconds: float):
        super().__init__()
        self.seconds = seconds
        self.stopped = False

    def on_train_begin(self, logs=None):
        self.start = time.perf_counter()

    def on_train_batch_end(self, batch, logs=None):
        if time.perf_counter() - self.start > self.seconds:
            self.model.stop_training = True
            self.stopped = True


def tfds_builder(name: str, data_dir=None, download: bool = False):
    """`tfds.builder(name)`, prepared first when `download` is set.

    Raises:
        ValueError: for a name tfds does not know, with the closest known
            names (tfds lists all of its ~1,300 datasets instead).
        RuntimeError: when `download_and_prepare` fails (network, disk), with
            the cause and the folder.
    """
    import difflib

    import tensorflow_datasets as tfds

    try:
        builder = tfds.builder(name, data_dir=data_dir)
    except tfds.core.registered.DatasetNotFoundError as error:
        # [namespace:]dataset[/config][:version]: the dataset's own name.
        head = [
            p for p in name.split("/")[0].split(":") if not re.fullmatch(r"[\d.*]+", p)
        ]
        dataset = head[-1] if head else name
        close = difflib.get_close_matches(dataset, tfds.list_builders(), n=3)
        hint = f"; closest names: {', '.join(close)}" if close else ""
        raise ValueError(
            f"no tensorflow_datasets dataset is named {name!r}{hint} (see "
            "https://www.tensorflow.org/datasets/catalog)"
        ) from error
    if download:
        try:
            builder.download_and_prepare()
        except Exception as error:  # network and disk errors of any library
            raise RuntimeError(
                f"downloading and preparing {name} into {builder.data_dir} "
                f"failed: {type(error).__name__}: {error}"
            ) from error
    return builder


def tfds_split(builder, split: str, how_to_download: str, **kwargs):
    """`builder.as_dataset(split=split, **kwargs)` of a prepared tfds dataset.

    tfds answers a dataset missing from the builder's `data_dir` with a bare
    AssertionError; this raises a FileNotFoundError naming the folder and
    `how_to_download` instead, which the command lines report (exit 2).
    """
    try:
        return builder.as_dataset(split=split, **kwargs)
    except AssertionError as error:
        raise FileNotFoundError(
            f"{builder.info.full_name.rsplit('/', 1)[0]} is not prepared in "
            f"{builder.data_dir}. {how_to_download}, or point data_dir "
            "(--tfds-data-dir) at the folder that holds it"
        ) from error
