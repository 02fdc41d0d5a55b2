"""Speed of attention_zoo's attention layers against baselines, in one run.

Measures, on the backend named by `KERAS_BACKEND` (default TensorFlow):

1. forward + backward (gradients w.r.t. the layer weights and the inputs) of
   `BahdanauAttention(units)` against
   (a) the deeplearning.ai "one_step_attention" formulation: for each decoder
       step, `RepeatVector(Tv)` + `Concatenate` + `Dense(units, tanh)` +
       `Dense(1)` + softmax over `Tv` + `Dot`, in a Python loop over `Tq`;
   (b) `keras.layers.AdditiveAttention` (no projections);
2. forward + backward of `LuongAttention(score_mode="dot")` against
   `keras.layers.Attention()`;
3. step decoding with `BahdanauAttention`: `Ty` single-step calls over a memory
   projected once (`project_key` + `attend`) against `layer(query_t, value)`,
   which projects the memory again at every step; both from a Python loop of
   compiled steps and as one compiled loop (`ops.fori_loop`, the way
   `attention_zoo.decoding` decodes; XLA may hoist the projection out of it).

Every variant is compiled the same way (see `compile_step`), warmed up, then
timed `--repeats` times with the variants interleaved; the tables report
medians and the ratios the targets are stated in.

Usage:

    python benchmarks/attention_layers.py            # full run
    python benchmarks/attention_layers.py --quick    # smoke test, < 60 s
    python benchmarks/attention_layers.py --jit      # TensorFlow with XLA
    KERAS_BACKEND=jax python benchmarks/attention_layers.py --quick
"""

from __future__ import annotations

import argparse
import datetime
import gc
import hashlib
import math
import os
import platform
import statistics
import sys
import time

import keras
import numpy as np
from keras import ops

# Benchmark the checkout this script lives in, installed or not.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from _common import (
    backend_version,
    cpu_model,
    load_average,
    memory_allocator,
    print_table,
    to_numpy,
    verdict,
)  # noqa: E402

import attention_zoo  # noqa: E402
from attention_zoo.layers import BahdanauAttention, LuongAttention  # noqa: E402

FULL_SHAPES = ((10, 30), (30, 100), (100, 300))  # (Tq, Tv)
QUICK_SHAPES = ((5, 10), (10, 30))
FULL_DECODE = (30, (100, 300))  # (Ty, Tv values)
QUICK_DECODE = (10, (30,))

# Targets stated in the issue, on ratios of median times.
TARGET_VS_COURSE = 5.0  # t_course / t_ours >= 5
TARGET_VS_ADDITIVE = 1.5  # t_ours / t_additive <= 1.5
TARGET_DECODE = 2.0  # t_recompute / t_projected_once >= 2


# --------------------------------------------------------------- baselines


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


# -------------------------------------------------------- compiled steps


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

        # Every variant is its own tf.function, traced once: not a retracing
        # problem, so silence the warning about it.
        tf.get_logger().setLevel("ERROR")
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


# ----------------------------------------------------------------- timing


def time_interleaved(
    fns: dict, repeats: int, warmup: int = 2, min_sample_s: float = 0.02
) -> dict:
    """Median and quartiles, in seconds, of each zero-argument callable.

    Every callable must return host (NumPy) values, so its time includes the
    work it waits for. Each is called `warmup` times (compilation, caches,
    kernel selection), then timed `repeats` times with the garbage collector
    off. As in `timeit`, a sample of a fast callable averages as many
    back-to-back calls as fill `min_sample_s`, so that timer resolution and
    dispatch jitter do not dominate small cases. Variants run in turn in each
    repeat, so a slow phase of the machine hits them alike, and the order
    rotates from one repeat to the next, so that no variant always follows
    the same one (a large variant leaves memory to free and caches cold).
    """
    calls = {}
    for name, fn in fns.items():
        for _ in range(warmup):
            fn()  # compiles (tracing, XLA), warms caches and kernel selection
        start = time.perf_counter()
        fn()
        once = time.perf_counter() - start
        calls[name] = max(1, math.ceil(min_sample_s / max(once, 1e-9)))
    times = {name: [] for name in fns}
    gc.collect()
    gc.disable()
    names = list(fns)
    try:
        for repeat in range(repeats):
            shift = repeat % len(names)
            for name in names[shift:] + names[:shift]:
                fn = fns[name]
                start = time.perf_counter()
                for _ in range(calls[name]):
                    fn()
                times[name].append((time.perf_counter() - start) / calls[name])
    finally:
        gc.enable()
    stats = {}
    for name, ts in times.items():
        q1, median, q3 = statistics.quantiles(ts, n=4) if len(ts) > 1 else ts * 3
        stats[name] = (median, q1, q3)
    return stats


def fmt_ms(stats) -> str:
    """`median ±spread%`, the spread being half the interquartile range."""
    median, q1, q3 = stats
    return f"{1e3 * median:.1f} ±{50.0 * (q3 - q1) / median:.0f}%"


# ------------------------------------------------------------- benchmarks


def random_inputs(rng, *shapes):
    return [
        ops.convert_to_tensor(rng.standard_normal(shape).astype("float32"))
        for shape in shapes
    ]


def check_close(name, a, b, rtol=1e-4, atol=1e-5):
    np.testing.assert_allclose(
        ops.convert_to_numpy(a),
        ops.convert_to_numpy(b),
        rtol=rtol,
        atol=atol,
        err_msg=f"{name}: the compared implementations disagree",
    )


def bench_training(args, shapes, rng, results):
    """Sections 1 and 2: forward + backward."""
    bahdanau_rows, luong_rows = [], []
    for tq, tv in shapes:
        query, value = random_inputs(
            rng, (args.batch, tq, args.dim), (args.batch, tv, args.dim)
        )
        models = {
            "bahdanau": BahdanauAttention(units=args.units),
            "course": CourseAttention(units=args.units),
            "additive": ListInputs(keras.layers.AdditiveAttention()),
            "luong": LuongAttention(score_mode="dot"),
            "keras_dot": ListInputs(keras.layers.Attention()),
        }
        outputs = {name: model(query, value) for name, model in models.items()}
        copy_bahdanau_weights(models["bahdanau"], models["course"])
        check_close(
            "BahdanauAttention vs course formulation",
            models["bahdanau"](query, value),
            models["course"](query, value),
        )
        check_close(
            "LuongAttention(dot) vs keras.layers.Attention",
            outputs["luong"],
            outputs["keras_dot"],
        )
        steps = {
            name: compile_step(model, mean_square, jit=args.jit)
            for name, model in models.items()
        }
        fns = {
            name: (lambda step=step, x=(query, value): to_numpy(step(*x)))
            for name, step in steps.items()
        }
        # Only variants that are compared are timed together.
        t = time_interleaved(
            {name: fns[name] for name in ("bahdanau", "course", "additive")},
            args.repeats,
        )
        t.update(
            time_interleaved(
                {name: fns[name] for name in ("luong", "keras_dot")}, args.repeats
            )
        )
        speedup = t["course"][0] / t["bahdanau"][0]
        vs_additive = t["bahdanau"][0] / t["additive"][0]
        vs_keras_dot = t["luong"][0] / t["keras_dot"][0]
        results.append(
            (
                "Bahdanau >= 5x faster than (a)",
                f"({tq}, {tv})",
                speedup,
                speedup >= TARGET_VS_COURSE,
            )
        )
        results.append(
            (
                "Bahdanau within 1.5x of (b)",
                f"({tq}, {tv})",
                vs_additive,
                vs_additive <= TARGET_VS_ADDITIVE,
            )
        )
        bahdanau_rows.append(
            [
                f"({tq}, {tv})",
                fmt_ms(t["bahdanau"]),
                fmt_ms(t["course"]),
                f"{speedup:.2f}x",
                verdict(speedup >= TARGET_VS_COURSE),
                fmt_ms(t["additive"]),
                f"{vs_additive:.2f}",
                verdict(vs_additive <= TARGET_VS_ADDITIVE),
            ]
        )
        luong_rows.append(
            [
                f"({tq}, {tv})",
                fmt_ms(t["luong"]),
                fmt_ms(t["keras_dot"]),
                f"{vs_keras_dot:.2f}",
            ]
        )
        print(f"  measured (Tq, Tv) = ({tq}, {tv})", file=sys.stderr, flush=True)

    print(f"#### 1. BahdanauAttention(units={args.units}), forward + backward\n")
    print(
        f"Batch {args.batch}, query and value features {args.dim}, loss "
        "`mean(context**2)`, gradients w.r.t. all weights, query and value. "
        "Times in ms: median ± half the interquartile range. "
        f"(a) = deeplearning.ai per-step formulation with Dense({args.units}) "
        "(the course used Dense(10)); (b) = `keras.layers.AdditiveAttention()`.\n"
    )
    print_table(
        [
            "(Tq, Tv)",
            "ours ms",
            "(a) ms",
            "(a)/ours",
            "target >= 5x",
            "(b) ms",
            "ours/(b)",
            "target <= 1.5",
        ],
        bahdanau_rows,
    )
    print('#### 2. LuongAttention(score_mode="dot"), forward + backward\n')
    print(
        "Same inputs; baseline `keras.layers.Attention()` (dot score, no "
        "scale). No target stated; ratio = ours / keras.\n"
    )
    print_table(["(Tq, Tv)", "ours ms", "keras ms", "ours/keras"], luong_rows)


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
        return to_numpy(query)

    def decode_recompute():
        query = query0
        for _ in range(ty):
            query = recompute_step(query, value)
        return to_numpy(query)

    loops = [DecodeLoop(layer, ty, projected_once=p) for p in (True, False)]
    for loop in loops:
        loop(query0, value)  # builds the wrapper
    loop_once, loop_recompute = (compile_step(loop, jit=jit) for loop in loops)
    return {
        "python loop": (decode_projected_once, decode_recompute),
        "compiled loop": (
            lambda: to_numpy(loop_once(query0, value)),
            lambda: to_numpy(loop_recompute(query0, value)),
        ),
    }


def bench_decoding(args, ty, tvs, rng, results):
    """Section 3: step decoding, memory projected once vs every step."""
    rows = []
    for tv in tvs:
        query0, value = random_inputs(
            rng, (args.batch, args.dim), (args.batch, tv, args.dim)
        )
        layer = BahdanauAttention(units=args.units)
        layer(query0, value)
        decoders = make_decoders(layer, query0, value, ty, args.jit)
        for loop, (decode_projected_once, decode_recompute) in decoders.items():
            check_close(
                f"projected-once vs recompute decoding ({loop})",
                decode_projected_once(),
                decode_recompute(),
            )
            t = time_interleaved(
                {"once": decode_projected_once, "recompute": decode_recompute},
                args.repeats,
            )
            speedup = t["recompute"][0] / t["once"][0]
            results.append(
                (
                    "projected-once >= 2x faster than recompute",
                    f"{loop}, Ty={ty}, Tv={tv}",
                    speedup,
                    speedup >= TARGET_DECODE,
                )
            )
            rows.append(
                [
                    loop,
                    str(ty),
                    str(tv),
                    fmt_ms(t["once"]),
                    fmt_ms(t["recompute"]),
                    f"{speedup:.2f}x",
                    verdict(speedup >= TARGET_DECODE),
                ]
            )
        print(f"  measured decoding Tv = {tv}", file=sys.stderr, flush=True)

    print(f"#### 3. BahdanauAttention(units={args.units}), step decoding (inference)\n")
    print(
        f"Batch {args.batch}, features {args.dim}, query (B, Dq) per step. "
        "Python loop: Ty calls of a compiled single-step function; compiled "
        "loop: the Ty steps in one compiled `ops.fori_loop`, as "
        "`attention_zoo.decoding` decodes. "
        "Projected once: `project_key(value)` once, then `attend(q_t, value, pk)`; "
        "recompute: `layer(q_t, value)`. Times in ms for the whole sequence.\n"
    )
    print_table(
        [
            "loop",
            "Ty",
            "Tv",
            "projected once ms",
            "recompute ms",
            "recompute/once",
            "target >= 2x",
        ],
        rows,
    )


def zoo_version() -> str:
    """Version and a digest of the measured sources (`ops.py`, `layers/`): the
    repository may have no commit that identifies the code measured."""
    root = os.path.dirname(attention_zoo.__file__)
    paths = [os.path.join(root, "ops.py")]
    layers_dir = os.path.join(root, "layers")
    paths += [
        os.path.join(layers_dir, name)
        for name in sorted(os.listdir(layers_dir))
        if name.endswith(".py")
    ]
    digest = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as f:
            digest.update(f.read())
    return (
        f"{attention_zoo.__version__} (sha256 of ops.py + layers/*.py: "
        f"{digest.hexdigest()[:12]})"
    )


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--repeats",
        type=int,
        default=None,
        help="timed samples per variant (default 7, --quick 5)",
    )
    parser.add_argument(
        "--batch", type=int, default=None, help="batch size (default 64, --quick 16)"
    )
    parser.add_argument(
        "--units",
        type=int,
        default=128,
        help="units of BahdanauAttention and of baseline (a)",
    )
    parser.add_argument(
        "--dim", type=int, default=128, help="feature size of query and value"
    )
    parser.add_argument(
        "--jit",
        action="store_true",
        help="TensorFlow: tf.function(jit_compile=True) (XLA)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="small sizes, a smoke test that runs in < 60 s",
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.repeats is None:
        args.repeats = 5 if args.quick else 7
    if args.batch is None:
        args.batch = 16 if args.quick else 64
    return args


def main(argv=None):
    args = parse_args(argv)
    keras.utils.set_random_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    shapes = QUICK_SHAPES if args.quick else FULL_SHAPES
    ty, tvs = QUICK_DECODE if args.quick else FULL_DECODE
    try:
        usable_cpus = len(os.sched_getaffinity(0))
    except AttributeError:
        usable_cpus = os.cpu_count()
    compile_mode = {
        "tensorflow": f"tf.function(jit_compile={args.jit})",
        "jax": "jax.jit(stateless_call), jax.value_and_grad",
        "torch": "eager, torch.autograd.grad",
    }.get(keras.backend.backend(), "?")
    if args.jit and keras.backend.backend() != "tensorflow":
        compile_mode += " (--jit only applies to tensorflow)"
    command = " ".join(["python", *sys.argv])
    if "KERAS_BACKEND" in os.environ:
        command = f"KERAS_BACKEND={os.environ['KERAS_BACKEND']} {command}"

    start = time.perf_counter()
    sizes = "--quick sizes" if args.quick else "full sizes"
    print(f"### {backend_version()}, {compile_mode}, {sizes}\n")
    now = datetime.datetime.now().astimezone()
    print(f"- date: {now.isoformat(timespec='seconds')}")
    print(f"- command: `{command}`")
    print(
        f"- backend: {backend_version()}, keras {keras.__version__}, "
        f"numpy {np.__version__}, python {platform.python_version()}"
    )
    print(f"- attention_zoo: {zoo_version()}")
    print(f"- compiled as: {compile_mode}")
    print(
        f"- machine: {cpu_model()}, os.cpu_count()={os.cpu_count()}, "
        f"usable CPUs={usable_cpus}, {platform.system()} {platform.machine()}, "
        f"allocator {memory_allocator()}"
    )
    print(
        f"- timing: 2 warm-up calls, then {args.repeats} samples per variant, "
        "compared variants interleaved in rotating order; a sample averages back-to-back calls up to "
        f">= 20 ms; float32; seed {args.seed}"
    )
    print(f"- load average at start: {load_average()}")
    print(
        "- checked before timing: (a) with our weights copied in gives our "
        "output; Luong dot gives keras Attention's output; both decoding "
        "variants give the same final context.\n"
    )

    results = []
    bench_training(args, shapes, rng, results)
    bench_decoding(args, ty, tvs, rng, results)

    print("#### Targets\n")
    print_table(
        ["target", "case", "measured", "result"],
        [[name, case, f"{r:.2f}", verdict(ok)] for name, case, r, ok in results],
    )
    met = sum(ok for *_, ok in results)
    print(
        f"{met} of {len(results)} target checks met; total time "
        f"{time.perf_counter() - start:.0f} s; load average at end: "
        f"{load_average()}."
    )


if __name__ == "__main__":
    main()
