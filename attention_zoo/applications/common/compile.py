"""One compiled predict function per backend."""

from __future__ import annotations

import keras


def compile_function(fn, input_shape, dtype: str = "float32", jit_compile: bool = True):
    """`fn(x)` compiled for the backend: a `tf.function` on TensorFlow (with
    XLA when `jit_compile`), `jax.jit` on JAX, `fn` itself elsewhere.

    Args:
        fn: a function of one batch `x`.
        input_shape: the shape of `x` without the batch axis; `None` for an
            axis of any length. On TensorFlow it makes one trace serve every
            batch size (XLA specializes per shape itself).
        dtype: the dtype of `x`.
        jit_compile: XLA on TensorFlow. Decoding loops gain from it; an image
            encoder can lose (see `captioning.model.compiled`).
    """
    backend = keras.backend.backend()
    if backend == "tensorflow":
        import tensorflow as tf

        signature = [tf.TensorSpec([None, *input_shape], dtype)]
        # No AutoGraph: the functions are keras.ops code that jax.jit traces
        # as it is, and converting them took about a fifth of a small
        # captioning run's time (docs/design.md).
        return tf.function(
            fn, input_signature=signature, jit_compile=jit_compile, autograph=False
        )
    if backend == "jax":
        import jax

        return jax.jit(fn)
    return fn
