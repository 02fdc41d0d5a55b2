"""`TrainingBackup`: a killed training's backup resumes only that training.

Tiny models, two or three epochs of one batch: what is tested is which
epochs the second `fit` trains, what it says, and what it raises.
"""

from __future__ import annotations

import dataclasses

import keras
import numpy as np
import pytest

from attention_zoo.applications.common.errors import MalformedFileError
from attention_zoo.applications.common.training_backup import (
    RECORD,
    TrainingBackup,
    config_record,
    data_digest,
    record_difference,
)

X = np.ones((4, 2), "float32")
Y = np.zeros((4, 3), "float32")


class _Interrupted(Exception):
    pass


class _Epochs(keras.callbacks.Callback):
    """Records the epochs `fit` trains; raises in epoch `stop` if given."""

    def __init__(self, stop=None):
        super().__init__()
        self.stop, self.epochs = stop, []

    def on_epoch_begin(self, epoch, logs=None):
        self.epochs.append(epoch)
        if epoch == self.stop:
            raise _Interrupted


def _model(units=3):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(units)])
    model.compile("sgd", "mse")
    return model


def _fit(model, backup, stop=None):
    """The epochs a 3-epoch `fit` of `model` with `backup` trains."""
    probe = _Epochs(stop)
    y = np.zeros((4, model.output_shape[-1]), "float32")
    model.fit(X, y, epochs=3, verbose=0, callbacks=[backup, probe])
    return probe.epochs


def _interrupted(folder, config, units=3, backup=None):
    """A backup in `folder` of a training stopped in its third epoch (by
    `backup`, a `TrainingBackup` of `config` unless given)."""
    with pytest.raises(_Interrupted):
        _fit(_model(units), backup or TrainingBackup(folder, config), stop=2)
    assert any(p.name != RECORD for p in folder.iterdir())


def test_the_same_training_resumes(tmp_path):
    folder = tmp_path / "backup"
    _interrupted(folder, {"epochs": 3})
    assert _fit(_model(), TrainingBackup(folder, {"epochs": 3})) == [2]
    assert not folder.exists()


def test_a_changed_weight_shape_discards_the_backup_before_loading(tmp_path, capsys):
    """Keras would fail assigning a (2, 3) kernel to a (2, 4) one."""
    folder = tmp_path / "backup"
    _interrupted(folder, {"epochs": 3}, units=3)
    capsys.readouterr()
    assert _fit(_model(units=4), TrainingBackup(folder, {"epochs": 3})) == [0, 1, 2]
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(
        "a backup left by a killed training with weights of another shape ("
    )
    assert "(2, 3) -> (2, 4)" in line and "training starts afresh" in line


def test_a_changed_config_discards_the_backup(tmp_path, capsys):
    folder = tmp_path / "backup"
    _interrupted(folder, {"epochs": 3, "learning_rate": 0.01})
    capsys.readouterr()
    backup = TrainingBackup(folder, {"epochs": 3, "learning_rate": 0.1})
    assert _fit(_model(), backup) == [0, 1, 2]
    assert "with other settings (learning_rate 0.01 -> 0.1)" in (
        capsys.readouterr().err
    )


def test_changed_training_data_discard_the_backup(tmp_path, capsys):
    # The same settings and shapes: only the data's digest tells a
    # training on data a generator now writes otherwise from the old one.
    folder = tmp_path / "backup"
    other = data_digest(X + 1, Y)
    _interrupted(folder, None, backup=TrainingBackup(folder, {"epochs": 3}, other))
    capsys.readouterr()
    backup = TrainingBackup(folder, {"epochs": 3}, data_digest(X, Y))
    assert _fit(_model(), backup) == [0, 1, 2]
    assert "with other training data" in capsys.readouterr().err
    # The same data: resumed.
    _interrupted(folder, None, backup=TrainingBackup(folder, {"epochs": 3}, other))
    assert _fit(_model(), TrainingBackup(folder, {"epochs": 3}, other)) == [2]


def test_a_data_digest_reads_every_array_and_none_of_a_dataset():
    digest = data_digest(X, Y)
    assert digest == data_digest(X.copy(), {"y": Y}["y"])
    assert digest != data_digest(X.astype("float64"), Y)  # the dtype
    assert digest != data_digest(X.reshape(2, 4), Y)  # the shape
    assert digest != data_digest(Y, X)  # the order
    changed = X.copy()
    changed[3, 1] = 2
    assert digest != data_digest(changed, Y)
    assert data_digest(X[:, ::-1]) == data_digest(np.ascontiguousarray(X[:, ::-1]))
    assert data_digest(X, None) == data_digest(X) != data_digest(X, X)
    assert data_digest(keras.utils.PyDataset(), None) is None


def test_a_backup_without_record_is_discarded(tmp_path, capsys):
    """One left by a version that wrote no record: nothing says it is of
    this training."""
    folder = tmp_path / "backup"
    _interrupted(folder, None, backup=keras.callbacks.BackupAndRestore(folder))
    assert not (folder / RECORD).exists()
    capsys.readouterr()
    assert _fit(_model(), TrainingBackup(folder, {"epochs": 3})) == [0, 1, 2]
    assert "with no record of its settings" in capsys.readouterr().err


def test_a_matching_backup_that_cannot_be_loaded_names_its_folder(tmp_path):
    folder = tmp_path / "backup"
    _interrupted(folder, {"epochs": 3})
    for path in folder.glob("*.h5"):
        path.write_bytes(b"cut by the kill")
    with pytest.raises(MalformedFileError, match="delete that folder") as caught:
        _fit(_model(), TrainingBackup(folder, {"epochs": 3}))
    assert str(folder) in str(caught.value)


def test_layer_numbers_do_not_tell_backups_apart():
    """A process that built other models first numbers its layers on."""
    first, second = _model(), _model()
    assert first.weights[0].path != second.weights[0].path
    old = {"config": {}, "weights": [[w.path, list(w.shape)] for w in first.weights]}
    new = {"config": {}, "weights": [[w.path, list(w.shape)] for w in second.weights]}
    assert record_difference(old, new) is None


def test_a_config_record_is_plain_json():
    @dataclasses.dataclass
    class Config:
        sizes: tuple = (1, 2)
        name: str | None = None

    assert config_record(Config()) == {"sizes": [1, 2], "name": None}
    assert config_record(None) == {}


def test_a_long_difference_names_three_settings():
    old = {"config": {k: 1 for k in "abcde"}, "weights": []}
    new = {"config": {k: 2 for k in "abcde"}, "weights": []}
    assert record_difference(old, new) == (
        "with other settings (a 1 -> 2, b 1 -> 2, c 1 -> 2, ...)"
    )
