"""`--distribute`: selection, batch rules, chief, and distributed training.

The trainings run in subprocesses (see `distribute_helpers`): two logical
CPUs for `mirrored`, two worker processes on 127.0.0.1 for `multi-worker`,
two XLA host devices for `data-parallel`, and a killed and resumed run for
`BackupAndRestore` (slow; its in-process twin, a run stopped by an error,
runs in CI).
"""

from __future__ import annotations

import json
import os
import time

import keras
import numpy as np
import pytest

from attention_zoo.applications.common import distribute
from attention_zoo.applications.common.distribute import (
    Distribution,
    ReplicaBatches,
    backup_callbacks,
    check_backend,
    is_chief,
    select_distribution,
)
from tests.applications.common.distribute_helpers import (
    TWO_LOGICAL_CPUS,
    free_ports,
    last_json,
    run_script,
    script_env,
    start_script,
    stop,
)


def test_no_distribution_is_one_chief_replica():
    distribution = select_distribution(None)
    assert (distribution.replicas, distribution.is_chief) == (1, True)
    with distribution.scope():
        pass
    data = (np.zeros((5, 2)), np.zeros(5))
    assert distribution.for_replicas(data) is data
    assert distribution.local_batch_size(64) == 64


def test_unknown_value_and_wrong_backend_are_refused():
    with pytest.raises(ValueError, match="must be one of .* Received: distribute='x'"):
        check_backend("x")
    with pytest.raises(
        ValueError,
        match="mirrored needs the TensorFlow backend .*use --distribute "
        "data-parallel on jax. Received: KERAS_BACKEND=jax",
    ):
        check_backend("mirrored", "jax")
    with pytest.raises(
        ValueError,
        match="data-parallel needs the JAX backend .*use --distribute mirrored "
        "or multi-worker on tensorflow. Received: KERAS_BACKEND=tensorflow",
    ):
        check_backend("data-parallel", "tensorflow")
    with pytest.raises(ValueError, match="no --distribute value runs on torch"):
        check_backend("mirrored", "torch")


def test_global_batch_must_split_over_the_replicas():
    distribution = Distribution("mirrored", replicas=2)
    distribution.check_batch_size(64)
    with pytest.raises(ValueError, match="multiple of the 2 replicas .* batch_size=63"):
        distribution.check_batch_size(63)


@pytest.mark.parametrize(
    "task_type, task_id, cluster, chief",
    [
        (None, None, {}, True),
        ("worker", 0, {"worker": ["a", "b"]}, True),
        ("worker", 1, {"worker": ["a", "b"]}, False),
        ("chief", 0, {"chief": ["a"], "worker": ["b"]}, True),
        ("worker", 0, {"chief": ["a"], "worker": ["b"]}, False),
    ],
)
def test_is_chief(task_type, task_id, cluster, chief):
    assert is_chief(task_type, task_id, cluster) is chief


def test_worker_output_is_a_deterministic_temporary_folder(tmp_path):
    chief = Distribution("multi-worker", 2, is_chief=True, task="worker-0")
    other = Distribution("multi-worker", 2, is_chief=False, task="worker-1")
    assert chief.worker_output(tmp_path / "run") == tmp_path / "run"
    folder = other.worker_output(tmp_path / "run")
    assert folder == other.worker_output(tmp_path / "run")
    assert "worker-1" in folder.name and tmp_path not in folder.parents
    with other.staged_run(folder, "dates") as staging:
        (staging / "model.keras").write_text("trained")
    # A worker's training is deleted when it ends; only the chief commits.
    assert not staging.exists() and not folder.exists()
    with chief.staged_run(tmp_path / "run", "dates") as staging:
        (staging / "model.keras").write_text("trained")
    assert (tmp_path / "run" / "model.keras").read_text() == "trained"


class Batches(keras.utils.PyDataset):
    def __init__(self, sizes):
        super().__init__()
        self.sizes, self.epochs = sizes, 0

    def __len__(self):
        return len(self.sizes)

    def __getitem__(self, index):
        rows = np.arange(self.sizes[index])
        return (rows, rows * 10), rows

    def on_epoch_end(self):
        self.epochs += 1


def test_replica_batches_split_evenly():
    source = Batches([4, 5, 1])
    batches = ReplicaBatches(source, replicas=2)
    assert len(batches) == 3
    (x, x10), y = batches[1]
    np.testing.assert_array_equal(x, [0, 1, 2, 3])  # the fifth row is left out
    np.testing.assert_array_equal(x10, [0, 10, 20, 30])
    np.testing.assert_array_equal(batches[2][1], [0, 0])  # repeated up to 2
    batches.on_epoch_end()
    assert source.epochs == 1
    # Process 1 of 2 feeds the second half of every (even) batch.
    np.testing.assert_array_equal(ReplicaBatches(source, 2, 1, 2)[0][1], [2, 3])


def test_data_parallel_cuts_arrays_to_a_multiple_of_the_devices():
    distribution = Distribution("data-parallel", 2, distribution=object())
    x, y = distribution.for_replicas(([np.arange(7), np.arange(7)], np.arange(7)))
    assert [len(x[0]), len(x[1]), len(y)] == [6, 6, 6]
    assert isinstance(distribution.for_replicas(Batches([3])), ReplicaBatches)
    shared = Distribution(
        "data-parallel", 4, distribution=object(), process_index=1, process_count=2
    )
    np.testing.assert_array_equal(shared.for_replicas(np.arange(9)), [4, 5, 6, 7])
    assert shared.local_batch_size(64) == 32


def test_backup_callbacks():
    (callback,) = backup_callbacks("folder")
    assert isinstance(callback, keras.callbacks.BackupAndRestore)


def test_data_parallel_initializes_a_cluster_given_by_the_environment(monkeypatch):
    calls = []
    monkeypatch.setattr(distribute, "_jax_initialized", False)
    monkeypatch.setattr(keras.distribution, "initialize", lambda: calls.append(1))
    monkeypatch.setenv("KERAS_DISTRIBUTION_NUM_PROCESSES", "1")
    if keras.backend.backend() != "jax":
        pytest.skip("keras.distribution.DataParallel is the JAX backend's")
    distribution = distribute._data_parallel()
    assert calls == [1] and distribution.is_chief


DATES = """
import contextlib, json, sys
import keras
import numpy as np
from attention_zoo.applications.common import distribute
from attention_zoo.applications.dates.config import TrainConfig
from attention_zoo.applications.dates.training import train

# Every worker reports the weights it trained: a worker other than the chief
# from its own run folder before it deletes it, the chief from the run folder
# it committed.
weights = []
staged_run = distribute.Distribution.staged_run
@contextlib.contextmanager
def record(self, output, app):
    with staged_run(self, output, app) as run:
        yield run
        if not self.is_chief:
            model = keras.saving.load_model(f"{run}/model.keras")
            weights.extend(float(np.abs(w).sum()) for w in model.get_weights())
distribute.Distribution.staged_run = record

config = TrainConfig(epochs=1, n_train=256, n_validation=32, n_test=8,
                           batch_size=64, distribute=sys.argv[2])
metrics = train(sys.argv[1], config, verbose=0)
if not weights:
    model = keras.saving.load_model(f"{sys.argv[1]}/model.keras")
    weights.extend(float(np.abs(w).sum()) for w in model.get_weights())
print(json.dumps({"val_loss": metrics["training"]["history"]["val_loss"],
                  "replicas": metrics["training"]["replicas"], "weights": weights}))
"""


# Two TensorFlow processes training together (~95 s on 2 cores); the
# mirrored and data-parallel tests prove the shared path in CI.
@pytest.mark.slow
@pytest.mark.tf_only
def test_multi_worker_two_processes_train_the_same_weights(tmp_path):
    """Two workers on 127.0.0.1 train one model: the same weights on both,
    the run folder written by the chief alone, the other's folder gone."""
    ports = free_ports(2)
    cluster = {"worker": [f"127.0.0.1:{p}" for p in ports]}
    scratch = tmp_path / "tmp"  # each worker's tempfile.gettempdir()
    scratch.mkdir()
    processes, logs = [], []
    try:
        for index in range(2):
            task = {"cluster": cluster, "task": {"type": "worker", "index": index}}
            env = script_env(TF_CONFIG=json.dumps(task), TMPDIR=str(scratch))
            folder = tmp_path / f"worker{index}"
            folder.mkdir()
            logs.append(open(folder / "stderr.txt", "w"))
            processes.append(
                start_script(
                    folder,
                    DATES,
                    tmp_path / "run",
                    "multi-worker",
                    env=env,
                    log=logs[-1],
                )
            )
        results = []
        for index, process in enumerate(processes):
            stdout, _ = process.communicate(timeout=420)
            log = (tmp_path / f"worker{index}" / "stderr.txt").read_text()
            assert process.returncode == 0, log[-3000:]
            results.append(last_json(stdout))
    finally:
        for process in processes:
            stop(process)
        for log in logs:
            log.close()
    assert [r["replicas"] for r in results] == [2, 2]
    np.testing.assert_allclose(results[0]["weights"], results[1]["weights"], rtol=1e-5)
    np.testing.assert_allclose(
        results[0]["val_loss"], results[1]["val_loss"], rtol=1e-5
    )
    run = tmp_path / "run"
    assert (run / "model.keras").is_file() and (run / "metrics.json").is_file()
    assert not list(scratch.iterdir())  # worker 1's folder was deleted
    assert not (run / "backup").exists()


DATA_PARALLEL = """
import json, sys
from attention_zoo.applications.dates.config import TrainConfig
from attention_zoo.applications.dates.training import train
results = {}
for distribute in (None, "data-parallel"):
    config = TrainConfig(epochs=1, n_train=256, n_validation=32, n_test=8,
                               batch_size=64, distribute=distribute)
    metrics = train(f"{sys.argv[1]}/{distribute}", config, verbose=0)
    results[str(distribute)] = {
        "val_loss": metrics["training"]["history"]["val_loss"][-1],
        "replicas": metrics["training"]["replicas"],
    }
print(json.dumps(results))
"""


def test_data_parallel_on_two_virtual_cpus_matches_one(tmp_path):
    """JAX DataParallel on 2 XLA host devices: the validation loss of one
    epoch is that of the same training without distribution (one device of
    the same process) within 1e-3 (relative)."""
    # JAX is an extra (`pip install ".[jax]"`); README's test command
    # installs only `.[test]`.
    pytest.importorskip("jax")
    # The test session's XLA flags (tests/conftest.py: compile at -O0)
    # with the device count.
    flags = os.environ.get("XLA_FLAGS", "")
    env = script_env(
        KERAS_BACKEND="jax",
        XLA_FLAGS=f"{flags} --xla_force_host_platform_device_count=2",
    )
    results = run_script(tmp_path, DATA_PARALLEL, tmp_path, env=env)
    one, two = results["None"], results["data-parallel"]
    assert (one["replicas"], two["replicas"]) == (1, 2)
    assert two["val_loss"] == pytest.approx(one["val_loss"], rel=1e-3)
    assert (tmp_path / "data-parallel" / "model.keras").is_file()


RESUMABLE = """
import json, sys, time
from pathlib import Path
import keras
from attention_zoo.applications.common import training_loop
from attention_zoo.applications.dates.config import TrainConfig
from attention_zoo.applications.dates.training import train

# Record the epochs this process trains; with "slow", stall in the second
# epoch once the first one is backed up, for the test to kill the process.
epochs = []
class Probe(keras.callbacks.Callback):
    def on_epoch_begin(self, epoch, logs=None):
        epochs.append(epoch)
    def on_epoch_end(self, epoch, logs=None):
        Path(sys.argv[1] + f".epoch{epoch}").touch()
    def on_train_batch_end(self, batch, logs=None):
        if sys.argv[3] == "slow" and epochs[-1] >= 1:
            time.sleep(600)

backup = training_loop.backup_callbacks
training_loop.backup_callbacks = lambda folder, *config: [
    *backup(folder, *config), Probe()]
config = TrainConfig(epochs=3, n_train=256, n_validation=32, n_test=8,
                           batch_size=64, distribute=sys.argv[2] or None)
metrics = train(sys.argv[1], config, verbose=0)
print(json.dumps({"epochs": epochs, "replicas": metrics["training"]["replicas"]}))
"""


def _kill_and_resume(tmp_path, distribute, prelude=""):
    run = tmp_path / "run"
    env = script_env()
    process = start_script(
        tmp_path, prelude + RESUMABLE, run, distribute, "slow", env=env
    )
    try:
        deadline = time.monotonic() + 400
        marker = tmp_path / "run.epoch0"
        while not marker.exists():
            assert process.poll() is None, process.communicate()[1][-3000:]
            assert time.monotonic() < deadline, "no epoch within 400 s"
            time.sleep(1)
        time.sleep(2)  # into the second epoch, which stalls
        assert process.poll() is None
    finally:
        stop(process)  # SIGKILL mid-epoch
    assert not (run / "model.keras").exists()
    return run_script(tmp_path, prelude + RESUMABLE, run, distribute, "fast", env=env)


class _Interrupted(Exception):
    pass


def _interrupted_dates_run(tmp_path, monkeypatch, config):
    """A dates training of `config` into `tmp_path/run`, stopped by an error
    in its second epoch; returns the run folder, its staging folder, and
    the list of the epochs the next training of it trains (filled by it)."""
    from attention_zoo.applications.common import training_loop
    from attention_zoo.applications.common.run_folder import training_backup_dir
    from attention_zoo.applications.dates.training import train
    from attention_zoo.owned_folders import stagings

    epochs, fail = [], [True]

    class Probe(keras.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            epochs.append(epoch)

        def on_train_batch_end(self, batch, logs=None):
            if fail[0] and epochs[-1] >= 1:
                raise _Interrupted

    backup = training_loop.backup_callbacks
    monkeypatch.setattr(
        training_loop,
        "backup_callbacks",
        lambda folder, *config: [*backup(folder, *config), Probe()],
    )
    run = tmp_path / "run"
    with pytest.raises(_Interrupted):
        train(run, config, verbose=0)
    assert epochs == [0, 1] and not (run / "model.keras").exists()
    (staging,) = stagings(run)
    assert training_backup_dir(staging).is_dir()
    epochs.clear()
    fail[0] = False
    return run, staging, epochs


def _small_dates_config(**changes):
    from attention_zoo.applications.dates.config import TrainConfig

    return TrainConfig(
        **{
            "epochs": 3,
            "n_train": 256,
            "n_validation": 32,
            "n_test": 8,
            "batch_size": 64,
            **changes,
        }
    )


@pytest.mark.tf_only
def test_an_interrupted_run_resumes_from_its_last_epoch(tmp_path, monkeypatch):
    """In process (the fast twin of the killed run below): stopped by an
    error in epoch 2 of 3, the same training trains epochs 2 and 3 only, and
    its backup is gone once it finishes."""
    from attention_zoo.applications.common.run_folder import training_backup_dir
    from attention_zoo.applications.dates.training import train
    from attention_zoo.owned_folders import stagings

    config = _small_dates_config()
    run, staging, epochs = _interrupted_dates_run(tmp_path, monkeypatch, config)
    metrics = train(run, config, verbose=0)
    assert epochs == [1, 2] and (run / "model.keras").is_file()
    assert len(metrics["training"]["history"]["loss"]) == 2
    assert not stagings(run) and not staging.exists()
    assert not training_backup_dir(run).exists()


# Slow: a whole dates training twice (about 40 s in CI); the mechanism is
# tested on tiny models in test_training_backup.py.
@pytest.mark.slow
@pytest.mark.tf_only
def test_an_interrupted_run_started_again_with_other_settings_starts_afresh(
    tmp_path, monkeypatch, capsys
):
    """The backup of a training of 3 epochs is not resumed by one of 4 (nor
    by one of other data sizes): it is discarded, with one line saying so,
    and the new training trains all its epochs."""
    from attention_zoo.applications.dates.training import train

    run, _, epochs = _interrupted_dates_run(
        tmp_path, monkeypatch, _small_dates_config()
    )
    capsys.readouterr()
    metrics = train(run, _small_dates_config(epochs=4, n_test=16), verbose=0)
    assert epochs == [0, 1, 2, 3] and (run / "model.keras").is_file()
    assert len(metrics["training"]["history"]["loss"]) == 4
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(
        "a backup left by a killed training with other settings "
        "(epochs 3 -> 4, n_test 8 -> 16) was discarded; training starts afresh"
    )


@pytest.mark.slow
@pytest.mark.tf_only
def test_a_killed_run_resumes_from_its_last_epoch(tmp_path):
    """Killed (SIGKILL) in epoch 2 of 3, the same command trains epochs 2
    and 3 only. Slow: two processes; the in-process twin above runs in CI."""
    result = _kill_and_resume(tmp_path, "")
    assert result["epochs"] == [1, 2]
    assert (tmp_path / "run" / "model.keras").is_file()


@pytest.mark.slow
@pytest.mark.tf_only
def test_a_killed_mirrored_run_resumes_from_its_last_epoch(tmp_path):
    result = _kill_and_resume(tmp_path, "mirrored", TWO_LOGICAL_CPUS)
    assert result == {"epochs": [1, 2], "replicas": 2}
    assert (tmp_path / "run" / "model.keras").is_file()
