"""The `--distribute` option: training on several devices and machines.

Each value names an existing engine; nothing here splits batches or sums
gradients itself:

    mirrored       tf.distribute.MirroredStrategy over every local device
                   (TensorFlow backend)
    multi-worker   tf.distribute.MultiWorkerMirroredStrategy, the cluster
                   read from TF_CONFIG (TensorFlow backend)
    data-parallel  keras.distribution.DataParallel over every device (JAX
                   backend); several processes when KERAS_DISTRIBUTION_*
                   describe the cluster (`keras.distribution.initialize`)

The rules every application follows (docs/scaling.md):

- `--batch-size` is the global batch: each of the N replicas computes
  `batch_size / N` examples per step, and a batch size N does not divide is
  refused. Keras averages the loss over the global batch, so a step on N
  replicas is the step one device takes on the same batch.
- The learning rate is not scaled: the same flags give the same updates.
- Under `tf.distribute`, Keras splits every batch of the NumPy arrays or
  `PyDataset` across the replicas (and workers). Under `data-parallel`, a
  batch must split evenly over the devices: `for_replicas` cuts arrays to a
  multiple of the device count and wraps a `PyDataset` in
  `ReplicaBatches`, which cuts each batch likewise; across processes each
  process feeds its own share of every batch.
- Every worker runs the whole training; only the chief writes the run
  folder, the others write into a temporary folder that is deleted when
  they finish (the usual Keras multi-worker pattern).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import keras
import numpy as np

# The flag (`config.distribute_field`) is declared without Keras, for the
# command's help pages; this module is what it runs.
from attention_zoo.applications.common.config import DISTRIBUTIONS
from attention_zoo.applications.common.run_folder import staged_run
from attention_zoo.applications.common.training_backup import TrainingBackup

BACKENDS = {
    "mirrored": "tensorflow",
    "multi-worker": "tensorflow",
    "data-parallel": "jax",
}
ENGINES = {
    "tensorflow": "TensorFlow backend (tf.distribute)",
    "jax": "JAX backend (keras.distribution)",
}
# Set by a JAX launcher on each process of a multi-process run.
JAX_CLUSTER_VARIABLES = (
    "KERAS_DISTRIBUTION_JOB_ADDRESSES",
    "KERAS_DISTRIBUTION_NUM_PROCESSES",
    "KERAS_DISTRIBUTION_PROCESS_ID",
)


@dataclass
class Distribution:
    """What an application's training needs to know of its distribution.

    Attributes:
        name: the `--distribute` value, or None for one device.
        replicas: the number of model copies a global batch is split over.
        is_chief: whether this process writes the run folder.
        task: this worker's name in a cluster ("worker-1"), or None.
        strategy: the `tf.distribute` strategy, or None.
        distribution: the `keras.distribution.DataParallel`, or None.
        process_index: this process's index among `process_count` (JAX).
    """

    name: str | None = None
    replicas: int = 1
    is_chief: bool = True
    task: str | None = None
    strategy: object = None
    distribution: object = None
    process_index: int = 0
    process_count: int = 1

    def scope(self):
        """The context to build, compile and fit the model in."""
        if self.strategy is not None:
            return self.strategy.scope()
        if self.distribution is not None:
            return self.distribution.scope()
        return contextlib.nullcontext()

    def check_batch_size(self, batch_size: int) -> None:
        """Raise ValueError unless the global batch splits over the replicas."""
        if batch_size % self.replicas:
            raise ValueError(
                f"--batch-size is the global batch and must be a multiple of the "
                f"{self.replicas} replicas of --distribute {self.name}. "
                f"Received: batch_size={batch_size}"
            )

    def worker_output(self, output) -> Path:
        """The folder this process writes its run into.

        The chief's is `output`. Another worker's is a temporary folder
        named after `output` and the worker, so that a worker restarted
        with the same command finds its backup there.
        """
        if self.is_chief:
            return Path(output)
        key = hashlib.sha256(str(Path(output).resolve()).encode()).hexdigest()[:12]
        return Path(tempfile.gettempdir()) / f"attention-zoo-{self.task}-{key}"

    def staged_run(self, output, app: str):
        """The staging folder this process trains `app` into
        (`run_folder.staged_run`): when the training ends, the chief's
        replaces the run folder `output`; another worker's (in its
        `worker_output`) is deleted."""
        return staged_run(output, app, commit=self.is_chief)

    def for_replicas(self, data):
        """`data` as the engine can split it: unchanged under tf.distribute.

        Under `data-parallel`, a `PyDataset` becomes `ReplicaBatches`, and a
        tuple of arrays (nested lists and tuples allowed) keeps the first
        multiple of `replicas` rows, then this process's share of them
        (use `local_batch_size` as its batch size).
        """
        if self.distribution is None:
            return data
        if isinstance(data, keras.utils.PyDataset):
            return ReplicaBatches(data, self.replicas, *self._process())
        rows = len(keras.tree.flatten(data)[0])
        rows -= rows % self.replicas
        return keras.tree.map_structure(
            lambda a: _process_share(a[:rows], *self._process()), data
        )

    def local_batch_size(self, batch_size: int) -> int:
        """The rows of a global batch this process feeds to `fit`."""
        return batch_size // self.process_count

    def _process(self):
        return self.process_index, self.process_count


def _process_share(rows, index, count):
    # Contiguous blocks, in the order of the devices of the batch axis.
    size = len(rows) // count
    return rows[index * size : (index + 1) * size]


class ReplicaBatches(keras.utils.PyDataset):
    """The batches of a `PyDataset`, each cut to split evenly over replicas.

    A batch keeps its first multiple of `replicas` rows (so at most
    `replicas - 1` examples of a batch are left out); a batch of fewer
    rows repeats them up to `replicas`. With several processes, each gets
    its contiguous share of every batch. Batch `i` is the source's batch
    `i`, so callbacks that read the source by index still match.
    """

    def __init__(self, source, replicas: int, process_index=0, process_count=1):
        super().__init__()
        self.source = source
        self.replicas = replicas
        self.process_index, self.process_count = process_index, process_count

    def __len__(self):
        return len(self.source)

    def __getitem__(self, index):
        batch = self.source[index]
        rows = len(keras.tree.flatten(batch)[0])
        keep = rows - rows % self.replicas
        take = (
            np.arange(keep) if keep else np.arange(self.replicas) % rows
        )  # (replicas multiple,)
        return keras.tree.map_structure(
            lambda a: _process_share(
                np.asarray(a)[take], self.process_index, self.process_count
            ),
            batch,
        )

    def on_epoch_end(self):
        self.source.on_epoch_end()


def check_backend(name: str | None, backend: str | None = None) -> None:
    """Raise ValueError unless `--distribute name` runs on `backend`."""
    if name is None:
        return
    if name not in DISTRIBUTIONS:
        raise ValueError(
            f"`distribute` must be one of {DISTRIBUTIONS} or None. Received: "
            f"distribute={name!r}"
        )
    backend = backend or keras.backend.backend()
    if BACKENDS[name] != backend:
        right = [n for n, b in BACKENDS.items() if b == backend]
        hint = (
            f"use --distribute {' or '.join(right)} on {backend}"
            if right
            else f"no --distribute value runs on {backend}"
        )
        raise ValueError(
            f"--distribute {name} needs the {ENGINES[BACKENDS[name]]}; {hint}. "
            f"Received: KERAS_BACKEND={backend}"
        )


def prepare_training(config, output) -> tuple[Distribution, Path]:
    """The distribution of `config.distribute` and the folder this process
    trains into (`Distribution.worker_output`), checked before anything is
    written: an unfit backend or a batch the replicas do not divide fails
    here."""
    distribution = select_distribution(config.distribute)
    distribution.check_batch_size(config.batch_size)
    return distribution, distribution.worker_output(output)


def select_distribution(name: str | None) -> Distribution:
    """The `Distribution` of `--distribute name`, created before any model.

    Raises:
        ValueError: for an unknown name or one the backend cannot run.
    """
    check_backend(name)
    if name is None:
        return Distribution()
    if name == "data-parallel":
        return _data_parallel()
    import tensorflow as tf

    if name == "mirrored":
        strategy = tf.distribute.MirroredStrategy()
        return Distribution(name, strategy.num_replicas_in_sync, strategy=strategy)
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    _build_from_local_batches()
    resolver = strategy.cluster_resolver
    return Distribution(
        name,
        strategy.num_replicas_in_sync,
        is_chief=is_chief(resolver.task_type, resolver.task_id, _cluster()),
        task=f"{resolver.task_type}-{resolver.task_id}",
        strategy=strategy,
    )


def _build_from_local_batches() -> None:
    """Work around two failures of Keras 3.15 under several workers.

    Keras learns the shapes of the first batch by reducing it across the
    replicas (`strategy.reduce("MEAN", batch)`), which
    `MultiWorkerMirroredStrategy` refuses for a nested batch ("Attempt to
    convert a value (PerReplica...)"): this process's own part of the batch
    has the shapes it needs. Keras then reduces each step's scalar logs
    with `axis=0` ("Invalid reduction dimension 0"): the logs are averaged
    over this worker's replicas instead (the weights are all-reduced by the
    optimizer either way).
    """
    import tensorflow as tf

    from attention_zoo._keras_compat import tensorflow_trainer_module

    trainer = tensorflow_trainer_module()

    trainer._collective_all_reduce_multi_worker = lambda strategy: False

    def build(self, iterator=None, data_batch=None):
        if iterator is not None:
            for _, _, batches in iterator:
                data_batch = keras.tree.map_structure(
                    lambda v: (
                        self.distribute_strategy.experimental_local_results(v)[0]
                        if isinstance(v, tf.distribute.DistributedValues)
                        else v
                    ),
                    next(batches),
                )
                break
        with self.distribute_strategy.scope():
            self._symbolic_build(data_batch=data_batch)

    trainer.TensorFlowTrainer._maybe_symbolic_build = build


def _cluster() -> dict:
    return json.loads(os.environ.get("TF_CONFIG", "{}")).get("cluster", {})


def is_chief(task_type: str | None, task_id: int | None, cluster: dict) -> bool:
    """Whether a `tf.distribute` task writes the run folder.

    The chief is the task of type "chief", or worker 0 in a cluster that
    names no chief; a process outside any cluster is its own chief.
    """
    if task_type is None or task_type == "chief":
        return True
    return task_type == "worker" and task_id == 0 and "chief" not in cluster


_jax_initialized = False


def _data_parallel() -> Distribution:
    global _jax_initialized
    if not _jax_initialized and any(v in os.environ for v in JAX_CLUSTER_VARIABLES):
        # Reads the KERAS_DISTRIBUTION_* variables; before any JAX computation.
        keras.distribution.initialize()
        _jax_initialized = True
    import jax

    devices = keras.distribution.list_devices()
    index, count = jax.process_index(), jax.process_count()
    return Distribution(
        "data-parallel",
        len(devices),
        is_chief=index == 0,
        task=f"process-{index}",
        distribution=keras.distribution.DataParallel(devices=devices),
        process_index=index,
        process_count=count,
    )


def backup_callbacks(backup_dir, config=None, data=None) -> list:
    """`[training_backup.TrainingBackup(backup_dir, config, data)]`, a
    `keras.callbacks.BackupAndRestore` that resumes only its own training.

    The training state (weights, optimizer, epoch) is saved at the end of
    every epoch; a training started again with the same `backup_dir` and
    the same `config`, data digest (`training_backup.data_digest`) and
    weight shapes resumes after the last saved epoch,
    so a kill loses at most the epoch it interrupts; a backup of another
    training is discarded. The folder is deleted when training finishes.
    """
    return [TrainingBackup(backup_dir, config, data)]
