"""The variants `benchmarks.attention_layers` times beside attention_zoo's.

- `CourseAttention`: the deeplearning.ai per-step formulation of additive
  attention (baseline (a)), with `course_weights` to give it the weights of
  a `BahdanauAttention`, so that both compute the same function;
- `ListInputs`: Keras's core attention layers, called as ours are;
- `ProjectKey`, `Attend`, `DecodeLoop`: the steps of decoding as layers, so
  that each compiles on its own, and `make_decoders`, the decoding loops
  built from them.

`benchmarks.op_profile` profiles the same layers op by op.
"""

from __future__ import annotations

import keras
import numpy as np
from keras import ops

from attention_zoo.layers import BahdanauAttention
from benchmarks import harness
from benchmarks.compiling import compile_step


class CourseAttention(keras.layers.Layer):
    """Baseline (a): the deeplearning.ai formulation of additive attention.

    The "Neural machine translation with attention" assignment of the
    Sequence Models course computes, for each decoder step `t` (its
    `one_step_attention(a, s_prev)`):
    `RepeatVector(Tx)(s_prev)`, `Concatenate(axis=-1)([a, s_prev])`,
    `Dense(10, "tanh")`, `Dense(1, "relu")`, a softmax over the encoder steps
    and `Dot(axes=1)([alphas, a])`, and calls it in a Python loop over the
    decoder steps. Here the hidden layer has `units` neurons (the course used
    10) and the energy layer is linear (the course used `relu`), so that it
    computes the same function as `BahdanauAttention(units)`:
    `v^T tanh(W [k_j; s] + b)` with `W [k_j; s] = W_2 k_j + W_1 s`.
    """

    def __init__(self, units: int, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self._concatenate = keras.layers.Concatenate(axis=-1)
        self._dense_tanh = keras.layers.Dense(units, activation="tanh")
        self._dense_energy = keras.layers.Dense(1)
        self._softmax = keras.layers.Softmax(axis=1)
        self._dot = keras.layers.Dot(axes=1)

    def build(self, query_shape, value_shape):
        self._repeat = keras.layers.RepeatVector(value_shape[1])
        self._dense_tanh.build((None, None, value_shape[-1] + query_shape[-1]))
        self._dense_energy.build((None, None, self.units))
        self.built = True

    def call(self, query, value):
        contexts = []
        for t in range(query.shape[1]):
            s_prev = self._repeat(query[:, t, :])  # (B, Tv, Dq)
            concat = self._concatenate([value, s_prev])  # (B, Tv, Dv + Dq)
            energies = self._dense_energy(self._dense_tanh(concat))  # (B, Tv, 1)
            alphas = self._softmax(energies)  # (B, Tv, 1)
            contexts.append(self._dot([alphas, value]))  # (B, 1, Dv)
        return ops.concatenate(contexts, axis=1)  # (B, Tq, Dv)


class ListInputs(keras.layers.Layer):
    """Calls a Keras core attention layer, which takes `[query, value]`."""

    def __init__(self, layer: keras.layers.Layer, **kwargs):
        super().__init__(**kwargs)
        self.layer = layer

    def call(self, query, value):
        return self.layer([query, value])


class ProjectKey(keras.layers.Layer):
    """`layer.project_key(value)` as a layer, to compile it on its own."""

    def __init__(self, layer: keras.layers.Layer, **kwargs):
        super().__init__(**kwargs)
        self.layer = layer

    def call(self, value):
        return self.layer.project_key(value)


class Attend(keras.layers.Layer):
    """`layer.attend(query_t, value, projected_key)` as a layer."""

    def __init__(self, layer: keras.layers.Layer, **kwargs):
        super().__init__(**kwargs)
        self.layer = layer

    def call(self, query, value, projected_key):
        return self.layer.attend(query, value, projected_key)


class DecodeLoop(keras.layers.Layer):
    """`steps` attention steps in one compiled loop (`ops.fori_loop`), as
    `attention_zoo.decoding` runs them; the context is fed back as the next
    query. `projected_once` projects the memory before the loop
    (`project_key` + `attend`), otherwise every step calls `layer(q, value)`."""

    def __init__(self, layer, steps: int, projected_once: bool, **kwargs):
        super().__init__(**kwargs)
        self.layer = layer
        self.steps = steps
        self.projected_once = projected_once

    def call(self, query, value):
        if self.projected_once:
            projected_key = self.layer.project_key(value)

            def body(_, q):
                return self.layer.attend(q, value, projected_key)

        else:

            def body(_, q):
                return self.layer(q, value)

        return ops.fori_loop(0, self.steps, body, query)


def bahdanau_weights(layer: BahdanauAttention) -> list:
    """The variables of `layer` that `course_weights` reads, in its order."""
    return [
        layer._query_dense.kernel,  # (Dq, units)
        layer._key_dense.kernel,  # (Dv, units)
        layer._key_dense.bias,
        layer.attention_v,
    ]


def course_weights(w_query, w_key, bias, v) -> list:
    """NumPy weights that make `CourseAttention` compute what a
    `BahdanauAttention` with these weights computes, in the order of
    `CourseAttention.trainable_weights`."""
    # The course concatenates [value, query], so the key rows come first.
    return [
        np.concatenate([w_key, w_query]),
        bias,
        v[:, None],
        np.zeros((1,), "float32"),
    ]


def copy_bahdanau_weights(layer: BahdanauAttention, course: CourseAttention):
    """Give the course formulation the weights of `layer`, so both compute
    the same function and their outputs can be compared."""
    arrays = [ops.convert_to_numpy(w) for w in bahdanau_weights(layer)]
    course.set_weights(course_weights(*arrays))


def make_decoders(layer: BahdanauAttention, query0, value, ty: int, jit: bool):
    """Pairs of callables decoding `ty` steps over `value`, returning the last
    context, by loop kind: "python loop" calls a compiled single step `ty`
    times from Python, "compiled loop" compiles the whole loop.

    In each pair the first projects the memory once (`project_key`, then
    `attend` per step), the second calls `layer(query_t, value)`, projecting
    it every step. A decoder's next query depends on the step before; here
    the context is fed back as the next query (`Dq == Dv`), so the steps are
    serial.
    """
    project, attend = ProjectKey(layer), Attend(layer)
    attend(query0, value, project(value))  # builds the wrappers
    project_step = compile_step(project, jit=jit)
    attend_step = compile_step(attend, jit=jit)
    recompute_step = compile_step(layer, jit=jit)

    def decode_projected_once():
        projected_key = project_step(value)
        query = query0
        for _ in range(ty):
            query = attend_step(query, value, projected_key)
        return harness.to_numpy(query)

    def decode_recompute():
        query = query0
        for _ in range(ty):
            query = recompute_step(query, value)
        return harness.to_numpy(query)

    loops = [DecodeLoop(layer, ty, projected_once=p) for p in (True, False)]
    for loop in loops:
        loop(query0, value)  # builds the wrapper
    loop_once, loop_recompute = (compile_step(loop, jit=jit) for loop in loops)
    return {
        "python loop": (decode_projected_once, decode_recompute),
        "compiled loop": (
            lambda: harness.to_numpy(loop_once(query0, value)),
            lambda: harness.to_numpy(loop_recompute(query0, value)),
        ),
    }
