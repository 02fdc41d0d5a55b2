"""Callbacks and settings every application's training shares
(`common.training_loop` puts them together)."""

from __future__ import annotations

import dataclasses
import errno
import importlib.util
import inspect
import math
import shutil
import sys
import time

import keras


def fit_verbosity(verbose: int | None) -> int:
    """`verbose` for `fit`: by default a progress bar on a terminal, one line
    per epoch otherwise (a log file would fill with progress-bar redraws)."""
    if verbose is None:
        return 1 if sys.stdout.isatty() else 2
    return verbose


def history_lists(history) -> dict:
    """`history.history` as plain floats, for `metrics.json`."""
    return {k: [float(v) for v in vals] for k, vals in history.history.items()}


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


def time_budget(max_minutes: float | None) -> TimeBudget | None:
    """The `TimeBudget` callback of `max_minutes`, or None without a budget."""
    return TimeBudget(60 * max_minutes) if max_minutes else None


def config_arguments(config, function, **arguments) -> dict:
    """Keyword arguments of `function` taken from the dataclass `config`.

    Every field of `config` whose name is a parameter of `function` that
    can be passed by keyword, then `arguments`, which win (values the
    application computes, such as a vocabulary's real size).

    Example: `build_model(**config_arguments(config, build_model,
    vocab_size=len(vocabulary)))`.
    """
    parameters = {
        name
        for name, parameter in inspect.signature(function).parameters.items()
        if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)
    }
    fields = {
        field.name: getattr(config, field.name)
        for field in dataclasses.fields(config)
        if field.name in parameters
    }
    return {**fields, **arguments}


class TrainingDiverged(ValueError):
    """The training loss became NaN or infinite."""


class StopOnDivergence(keras.callbacks.Callback):
    """Stop training with `TrainingDiverged` once the loss is not finite.

    Like `keras.callbacks.TerminateOnNaN`, but the training fails instead of
    ending normally: the caller then never saves or commits a model whose
    weights are NaN (one that would answer every input with garbage).
    """

    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and not math.isfinite(float(loss)):
            raise TrainingDiverged(
                f"training diverged: the loss became {float(loss)} at epoch "
                f"{getattr(self, 'epoch', 0) + 1} batch {batch + 1}; try a lower "
                "--learning-rate"
            )


class DiskSpaceGuard(keras.callbacks.Callback):
    """Stop training with `OSError(ENOSPC)` before a save would fill the disk.

    A save that runs out of space inside HDF5 leaves h5py objects that
    report errors while Python shuts down and can crash it (a segmentation
    fault after the error line). So at the start of training and at the end
    of every epoch, before `BackupAndRestore` and the checkpoints write,
    the free space of `folder`'s disk is checked against what the next
    saves need: `bytes_per_parameter` times the model's parameters (its
    weights, Adam's two slots, in the backup and the saved model), plus
    `margin` bytes for logs and plots.
    """

    def __init__(self, folder, bytes_per_parameter: int = 32, margin: int = 2**20):
        super().__init__()
        self.folder = folder
        self.bytes_per_parameter = bytes_per_parameter
        self.margin = margin

    def check(self) -> None:
        need = self.bytes_per_parameter * self.model.count_params() + self.margin
        free = shutil.disk_usage(self.folder).free
        if free < need:
            raise OSError(
                errno.ENOSPC,
                f"No space left on device for this training: {free / 1e6:.1f} MB "
                f"free in {self.folder}, {need / 1e6:.1f} MB needed to save the "
                "model and its training state; free some space and run the "
                "same command again",
            )

    def on_train_begin(self, logs=None):
        self.check()

    def on_epoch_end(self, epoch, logs=None):
        self.check()
