"""Compiling a benchmarked callable the way each backend compiles it.

`compile_step` compiles a layer's call, or its forward + backward
(`benchmarks.attention_layers`, `benchmarks.allocator`); `compile_fn` a
function of one batch in a mode: XLA, a graph without XLA, or eager
(`benchmarks.decoding`). The rest of a benchmark is backend-neutral.
"""

from __future__ import annotations

import keras
from keras import ops

from benchmarks import harness


def compile_step(model: keras.layers.Layer, loss_fn=None, jit: bool = False):
    """A compiled callable `step(*inputs)` running `model(*inputs)`.

    Without `loss_fn`, `step` returns the outputs (inference). With it,
    `step` returns `(loss, (weight_grads, input_grads))`, the gradients of
    `loss_fn(outputs)` w.r.t. `model.trainable_variables` and every input.
    `model` must be built. This is the only backend-specific code:

    - tensorflow: `tf.function` (XLA with `jit=True`), `tf.GradientTape`;
    - jax: `jax.jit` of `model.stateless_call`, `jax.value_and_grad`;
    - torch: eager, `torch.autograd.grad` (`jit` is ignored).
    """
    backend = keras.backend.backend()
    if backend == "tensorflow":
        import tensorflow as tf

        harness.quiet_tensorflow()
        if loss_fn is None:
            return tf.function(model.__call__, jit_compile=jit)

        @tf.function(jit_compile=jit)
        def train_step(*inputs):
            with tf.GradientTape() as tape:
                tape.watch(inputs)
                loss = loss_fn(model(*inputs))
            grads = tape.gradient(loss, [model.trainable_variables, list(inputs)])
            return loss, grads

        return train_step

    if backend == "jax":
        import jax

        def forward(trainable, non_trainable, inputs):
            outputs, _ = model.stateless_call(trainable, non_trainable, *inputs)
            return outputs

        trainable = [v.value for v in model.trainable_variables]
        non_trainable = [v.value for v in model.non_trainable_variables]
        if loss_fn is None:
            jitted = jax.jit(forward)
            return lambda *inputs: jitted(trainable, non_trainable, inputs)

        def loss_of(trainable, inputs):
            return loss_fn(forward(trainable, non_trainable, inputs))

        jitted = jax.jit(jax.value_and_grad(loss_of, argnums=(0, 1)))
        return lambda *inputs: jitted(trainable, inputs)

    if backend == "torch":
        import torch

        if loss_fn is None:

            def infer(*inputs):
                with torch.no_grad():
                    return model(*inputs)

            return infer

        weights = [v.value for v in model.trainable_variables]

        def torch_train_step(*inputs):
            inputs = [x.detach().requires_grad_(True) for x in inputs]
            loss = loss_fn(model(*inputs))
            grads = torch.autograd.grad(loss, weights + inputs)
            return loss, (grads[: len(weights)], grads[len(weights) :])

        return torch_train_step

    raise ValueError(f"Unsupported backend. Received: backend={backend!r}")


def mean_square(outputs):
    return ops.mean(ops.square(outputs))


def compile_fn(fn, variables: list, mode: str):
    """`fn(source)` run as `mode`: "jit" (XLA), "graph" or "eager".

    Args:
        fn: a function of one batch.
        variables: the Keras variables `fn` reads; under `jax.jit` they are
            arguments, not constants baked into the compiled function.
        mode: "jit" (TensorFlow and JAX), "graph" (TensorFlow: `tf.function`
            without XLA) or "eager" (every backend; PyTorch without autograd).
    """
    backend = keras.backend.backend()
    if mode == "eager":
        if backend == "torch":
            import torch

            def no_grad(source):
                with torch.no_grad():
                    return fn(source)

            return no_grad
        return fn
    if backend == "tensorflow":
        import tensorflow as tf

        return tf.function(fn, jit_compile=(mode == "jit"))
    if backend == "jax" and mode == "jit":
        import jax

        def stateless(values, source):
            mapping = list(zip(variables, values))
            with keras.StatelessScope(state_mapping=mapping):
                return fn(source)

        jitted = jax.jit(stateless)
        values = [v.value for v in variables]
        return lambda source: jitted(values, source)
    raise ValueError(f"Unsupported mode on {backend}. Received: mode={mode!r}")
