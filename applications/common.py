"""Pieces every application's training shares."""

from __future__ import annotations

import importlib.util
import time

import keras


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
