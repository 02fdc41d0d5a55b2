"""One training of an application into its run folder: the loop every
application's `train` goes through.

    with training_run("dates", output, config, check=_check) as run:
        ...                                 # data, vocabulary, model
        run.write_json("config.json", settings)
        with run.scope():
            model = build_model(...)
        run.fit(model, x, y, validation_data=(xv, yv))
        model.save(run.folder / "model.keras")
        return run.finish(evaluate(...))    # metrics.json

`training_run` checks the config (its fields' checks, then the
application's `check`), selects the `--distribute` engine, checks and locks
the output, trains into a staging folder (resuming a killed training's
backup) and commits it when the block ends (`run_folder.staged_run`).
`TrainingRun.fit` fits with the callbacks every application shares (the
wall-clock budget, the divergence stop, the free-space check, early
stopping, TensorBoard logs, `BackupAndRestore`) and records what
`metrics.json` says of the training; `finish` writes that file in its one
layout, `{"training": {...}, "test": {...}}`.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

import keras

from attention_zoo.applications.common.config import check_config
from attention_zoo.applications.common.distribute import (
    backup_callbacks,
    prepare_training,
)
from attention_zoo.applications.common.run_folder import (
    check_train_output,
    training_backup_dir,
)
from attention_zoo.applications.common.training import (
    DiskSpaceGuard,
    StopOnDivergence,
    fit_verbosity,
    history_lists,
    tensorboard_callbacks,
    time_budget,
)
from attention_zoo.applications.common.training_backup import data_digest


class EpochTimer(keras.callbacks.Callback):
    """Wall-clock seconds of every epoch, validation included."""

    def on_train_begin(self, logs=None):
        self.seconds = []

    def on_epoch_begin(self, epoch, logs=None):
        self._start = time.perf_counter()

    def on_epoch_end(self, epoch, logs=None):
        self.seconds.append(time.perf_counter() - self._start)


class TrainingRun:
    """A training in progress: its staging folder, distribution and record.

    Attributes:
        app: the application's name.
        config: the checked `TrainConfig`.
        folder: the staging folder the training writes into; it becomes the
            run folder when the `training_run` block ends.
        distribution: the `common.distribute.Distribution` of `--distribute`.
        verbose: `fit`'s verbosity.
        training: what `metrics.json` will say of the training (`fit` fills
            it; the application may add its own figures).
    """

    def __init__(self, app, config, folder, distribution, verbose):
        self.app = app
        self.config = config
        self.folder = Path(folder)
        self.distribution = distribution
        self.verbose = verbose
        self.training = {"replicas": distribution.replicas}
        # `fit` starts a new one; this one lets `callbacks` be read before.
        self._timer = EpochTimer()

    def scope(self):
        """The context to build and compile the model in."""
        return self.distribution.scope()

    def write_json(self, name: str, content, indent: int | None = 1) -> Path:
        """`content` as the UTF-8 JSON file `name` of the run."""
        path = self.folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            json.dumps(content, indent=indent, ensure_ascii=False), encoding="utf-8"
        )
        return path

    def callbacks(self, first=(), extra=(), data=None) -> tuple[list, object]:
        """The callbacks of `fit`, in their order, and the budget among them.

        The wall-clock budget (`config.max_minutes`, where the config has
        it), `first`, `StopOnDivergence`, `DiskSpaceGuard` (before any
        callback that saves), early stopping on the validation loss with the
        best weights restored (`config.patience`, where it has one), `extra`,
        the epoch timer, TensorBoard logs in `logs/`, and `BackupAndRestore`
        in the staging folder's backup (a killed run resumes from its last
        epoch, if it had this config, model's weight shapes and `data`, the
        digest of its training arrays).
        """
        budget = time_budget(getattr(self.config, "max_minutes", None))
        callbacks = [
            *([budget] if budget else []),
            *first,
            StopOnDivergence(),
            DiskSpaceGuard(self.folder),
        ]
        patience = getattr(self.config, "patience", None)
        if patience is not None:
            callbacks.append(
                keras.callbacks.EarlyStopping(
                    patience=patience, restore_best_weights=True
                )
            )
        callbacks += [
            *extra,
            self._timer,
            *tensorboard_callbacks(self.folder / "logs"),
            *backup_callbacks(training_backup_dir(self.folder), self.config, data),
        ]
        return callbacks, budget

    def fit(
        self,
        model,
        x,
        y=None,
        validation_data=None,
        batch_size: int | None = None,
        first_callbacks=(),
        extra_callbacks=(),
    ):
        """`model.fit` for `config.epochs`, with the shared callbacks, in the
        distribution's scope; the data are split as the engine needs
        (`Distribution.for_replicas`).

        Args:
            model: the compiled model.
            x: a `keras.utils.PyDataset`, or the input arrays.
            y: the target arrays with input arrays, else None.
            validation_data: as `x` (a dataset) or a tuple `(x, y)`, or None.
            batch_size: the global batch of arrays (None for a dataset).
            first_callbacks: callbacks to run first (a token counter).
            extra_callbacks: callbacks to run after early stopping (a
                checkpoint of the best model).

        Returns:
            The `History`.
        """
        distribution = self.distribution
        if y is None:
            data = (distribution.for_replicas(x),)
        else:
            data = distribution.for_replicas((x, y))
        if validation_data is not None:
            validation_data = distribution.for_replicas(validation_data)
        if batch_size is not None:
            batch_size = distribution.local_batch_size(batch_size)
        self._timer = EpochTimer()
        callbacks, budget = self.callbacks(
            first_callbacks, extra_callbacks, data_digest(x, y)
        )
        start = time.perf_counter()
        with self.scope():
            # Without a distribution, TensorFlow's `fit` builds the optimizer
            # inside its first trace of the train step, and a trace that
            # creates variables is traced again: built here (the variables
            # `fit` would make), the step is traced once (a small model's
            # `fit`: 5.9 -> 3.2 s of CPU). JAX and PyTorch build it first
            # anyway.
            if (
                model.built
                and model.optimizer is not None
                and not model.optimizer.built
            ):
                model.optimizer.build(model.trainable_variables)
            history = model.fit(
                *data,
                validation_data=validation_data,
                batch_size=batch_size,
                epochs=self.config.epochs,
                verbose=self.verbose,
                callbacks=callbacks,
            )
        self.training.update(
            seconds=round(time.perf_counter() - start, 1),
            epochs=len(history.history.get("loss", [])),
            epoch_seconds=[round(t, 2) for t in self._timer.seconds],
            stopped_by_budget=bool(budget and budget.stopped),
            parameters=model.count_params(),
            history=history_lists(history),
        )
        return history

    def finish(self, test: dict, **training) -> dict:
        """Writes `metrics.json`, `{"training": ..., "test": test}` (`training`
        adds the application's own figures to `fit`'s), and returns it."""
        metrics = {"training": {**self.training, **training}, "test": test}
        self.write_json("metrics.json", metrics)
        return metrics


@contextlib.contextmanager
def training_run(app: str, output, config, verbose: int | None = None, check=None):
    """The `TrainingRun` of a training of `app` into the run folder `output`.

    Before anything is read or written: the config's field checks
    (`common.config.check_config`), then `check(config)` (the application's
    rules across fields), the `--distribute` engine and the batch it splits
    (`distribute.prepare_training`), and the output
    (`run_folder.check_train_output`). Then, under the output's lock, the
    seed is set and the block trains into the staging folder; when it ends
    without an exception the staging folder replaces `output` (a worker
    that is not the chief deletes its own instead).

    Args:
        app: the application's name (its runs' marker).
        output: the run folder.
        config: the application's `TrainConfig`.
        verbose: Keras's `fit` verbosity; by default a progress bar on a
            terminal and one line per epoch otherwise.
        check: a function of the config that raises ValueError, or None.
    """
    verbose = fit_verbosity(verbose)
    check_config(config)
    if check is not None:
        check(config)
    # --distribute: fails before anything is written; a worker other than
    # the chief trains into a temporary folder.
    distribution, output = prepare_training(config, output)
    check_train_output(output, app)
    with distribution.staged_run(output, app) as folder:
        keras.utils.set_random_seed(config.seed)
        yield TrainingRun(app, config, folder, distribution, verbose)
