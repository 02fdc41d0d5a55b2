"""The backup of an unfinished training, resumed only by the same training.

`keras.callbacks.BackupAndRestore` loads whatever backup its folder holds:
a training started again after its data grew a token fails deep in Keras
("variable.assign(value) must match"), half the weights assigned, and one
started again with other settings (fewer epochs, another learning rate)
silently resumes a different training, as does one whose data changed
under the same settings (the dates generator edited between a kill and
the restart). `TrainingBackup` writes, in the backup folder, a record of
what it is a backup of (the training's config, the model's weight shapes
and a digest of its training arrays, `data_digest`) when training starts;
a training resumes only from a backup whose record is its own, and
discards any other before a weight is loaded, saying so on stderr in one
line. Data given as a `keras.utils.PyDataset` have no digest: only their
settings and shapes are compared.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
import sys
from pathlib import Path

import keras
import numpy as np

from attention_zoo.applications.common.errors import MalformedFileError, one_line

# The record, inside the backup folder: Keras's own files there are
# `latest.weights.h5` and `training_metadata.json`, and the whole folder
# goes when training ends (`BackupAndRestore.on_train_end`, `commit_run`).
RECORD = "record.json"
# The settings a discard message names at most, before "...".
MAX_NAMED = 3


def config_record(config) -> dict:
    """`config` (a dataclass, a dict or None) as plain JSON values, so that
    the config of this training compares equal to the one read back from a
    record (tuples become lists, a path its text)."""
    if config is None:
        return {}
    if dataclasses.is_dataclass(config):
        config = dataclasses.asdict(config)
    return json.loads(json.dumps(config, default=str))


def data_digest(*data) -> str | None:
    """The SHA-256 of the arrays of `data` (nested lists, tuples and dicts of
    NumPy arrays, None for no targets: their dtypes, shapes and bytes, in
    order), or None where a leaf is no array (a `keras.utils.PyDataset`)."""
    digest = hashlib.sha256()
    for leaf in keras.tree.flatten(data):
        if leaf is None:  # no targets
            continue
        if not isinstance(leaf, np.ndarray):
            return None
        leaf = np.ascontiguousarray(leaf)
        digest.update(f"{leaf.dtype.str}{leaf.shape}".encode())
        digest.update(leaf.tobytes())
    return digest.hexdigest()


def weight_record(model) -> list:
    """`[[path, shape], ...]` of the model's weights, in their order."""
    return [[v.path, list(v.shape)] for v in model.weights]


def _weight_key(weights: list) -> list:
    # Keras loads a backup's weights by their order in the model, and a
    # layer's automatic name takes a number from a per-process counter
    # ("dense_3" in a process that built three models before): the order
    # and each variable's own name ("kernel") and shape tell whether the
    # backup fits, the layer's number does not.
    return [(path.rsplit("/", 1)[-1], shape) for path, shape in weights]


def record_difference(old: dict | None, new: dict) -> str | None:
    """What tells the backup of record `old` from this training's (record
    `new`), as the end of "a backup left by a killed training ...": "with
    other settings (epochs 20 -> 10)"; None when the backup is of this
    training."""
    if not isinstance(old, dict):
        # A backup without a record, from a version that wrote none (or one
        # cut by a kill): nothing says it is of this training, and resuming
        # the wrong one is worse than training the epochs again.
        return "with no record of its settings (an earlier version)"
    old_config, new_config = old.get("config"), new["config"]
    if old_config != new_config:
        if not isinstance(old_config, dict):
            return "with other settings"
        names = sorted(
            name
            for name in old_config.keys() | new_config.keys()
            if old_config.get(name, "?") != new_config.get(name, "?")
        )
        changes = [
            f"{name} {old_config.get(name, '?')} -> {new_config.get(name, '?')}"
            for name in names[:MAX_NAMED]
        ]
        more = ", ..." if len(names) > MAX_NAMED else ""
        return f"with other settings ({', '.join(changes)}{more})"
    if old.get("data") != new.get("data"):
        return "with other training data"
    old_weights, new_weights = old.get("weights"), new["weights"]
    try:
        if _weight_key(old_weights) == _weight_key(new_weights):
            return None
    except (TypeError, ValueError, AttributeError):
        return "of another model"
    for (old_path, old_shape), (_, new_shape) in zip(old_weights, new_weights):
        if old_shape != new_shape:
            return (
                f"with weights of another shape ({old_path} {tuple(old_shape)} -> "
                f"{tuple(new_shape)})"
            )
    return f"of another model ({len(old_weights)} -> {len(new_weights)} weights)"


class TrainingBackup(keras.callbacks.BackupAndRestore):
    """`keras.callbacks.BackupAndRestore` that resumes only its own training.

    Args:
        backup_dir: the backup folder (`run_folder.training_backup_dir`).
        config: the training's config (a dataclass or dict), or None.
        data: the digest of its training data (`data_digest`), or None.

    At the start of training, the record of the backup found in `backup_dir`
    is compared with this training's (`config`, `data`, the model's weight
    names and shapes): a backup of another training, or one with no record, is
    deleted before any weight is loaded, with one line on stderr; then this
    training's record is written and a matching backup is resumed.

    Raises:
        MalformedFileError: a ValueError naming `backup_dir`, when a backup
            of this very training cannot be loaded (a file cut by the kill).
    """

    def __init__(self, backup_dir, config=None, data=None):
        super().__init__(str(backup_dir))
        self.config = config_record(config)
        self.data = data

    def on_train_begin(self, logs=None):
        if not self.model.built:
            # Keras's own error (build the model before `fit`): an unbuilt
            # model has no weights to record, and its backup is not at fault.
            return super().on_train_begin(logs)
        folder = Path(self.backup_dir)
        record = {
            "config": self.config,
            "data": self.data,
            "weights": weight_record(self.model),
        }
        left = (
            [p for p in folder.iterdir() if p.name != RECORD] if folder.is_dir() else []
        )
        if left:
            difference = record_difference(_read_record(folder / RECORD), record)
            if difference is not None:
                shutil.rmtree(folder)
                print(
                    f"a backup left by a killed training {difference} was "
                    f"discarded; training starts afresh ({folder})",
                    file=sys.stderr,
                )
        folder.mkdir(parents=True, exist_ok=True)
        (folder / RECORD).write_text(json.dumps(record), encoding="utf-8")
        try:
            super().on_train_begin(logs)
        except Exception as error:
            # Whatever Keras or h5py raise for a backup file it cannot read.
            raise MalformedFileError(
                f"the backup of a killed training in {folder} cannot be loaded "
                f"({type(error).__name__}: {one_line(error)[:200]}); delete that "
                "folder to train afresh"
            ) from error


def _read_record(path: Path) -> dict | None:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None
