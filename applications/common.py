"""Pieces every application's training shares."""

from __future__ import annotations

import importlib.util

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
