"""The smallest models and runs the fault tests need, made once per process."""

from __future__ import annotations

import functools
import shutil
import tempfile
from pathlib import Path

# The folder of the one trained run, removed when the process ends.
_FOLDERS: list[tempfile.TemporaryDirectory] = []


def tiny_dates_model(path) -> Path:
    """An untrained date model saved at `path` (a model of another app)."""
    from attention_zoo.applications.dates import model as models

    models.build_default(12, units=4, embedding_dim=4).save(path)
    return Path(path)


@functools.cache
def _trained() -> Path:
    from attention_zoo.applications.dates.config import TrainConfig
    from attention_zoo.applications.dates.training import train

    _FOLDERS.append(tempfile.TemporaryDirectory(prefix="tiny-dates-"))
    path = Path(_FOLDERS[-1].name) / "run"
    config = TrainConfig(
        epochs=1, n_train=256, n_validation=32, n_test=32, batch_size=64, units=8
    )
    train(path, config, verbose=0)
    return path


def tiny_dates_run(path) -> Path:
    """A dates run trained for one short epoch, copied into `path`: trained
    once per process (the cache had been keyed by `path`, which every test
    gives anew, so each test trained its own), each test moving, breaking
    or reading a copy of its own."""
    return Path(shutil.copytree(_trained(), path, symlinks=True))
