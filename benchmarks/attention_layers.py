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

    python -m benchmarks.attention_layers            # full run
    python -m benchmarks.attention_layers --quick    # smoke test, < 60 s
    python -m benchmarks.attention_layers --jit      # TensorFlow with XLA
    KERAS_BACKEND=jax python -m benchmarks.attention_layers --quick
"""

from __future__ import annotations

import hashlib
import os
import sys
import time

import keras
import numpy as np
from keras import ops

import attention_zoo
from attention_zoo.layers import BahdanauAttention, LuongAttention
from benchmarks import harness
from benchmarks.attention_variants import (
    CourseAttention,
    ListInputs,
    copy_bahdanau_weights,
    make_decoders,
)
from benchmarks.compiling import compile_step, mean_square

FULL_SHAPES = ((10, 30), (30, 100), (100, 300))  # (Tq, Tv)
QUICK_SHAPES = ((5, 10), (10, 30))
FULL_DECODE = (30, (100, 300))  # (Ty, Tv values)
QUICK_DECODE = (10, (30,))

# Options whose defaults depend on --quick: (full, --quick, help).
QUICK_OPTIONS = {
    "repeats": (7, 5, "timed samples per variant"),
    "batch": (64, 16, "batch size"),
}

# Targets stated in the issue, on ratios of median times.
TARGET_VS_COURSE = 5.0  # t_course / t_ours >= 5
TARGET_VS_ADDITIVE = 1.5  # t_ours / t_additive <= 1.5
TARGET_DECODE = 2.0  # t_recompute / t_projected_once >= 2


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
        # Both sum `dim` float32 products in their own order (XLA on JAX
        # fuses them differently from Keras's layer), and the softmax carries
        # a score's rounding into every weight: the outputs agree to float32
        # noise at the scores' scale, not to the 1e-5 of a single product.
        check_close(
            "LuongAttention(dot) vs keras.layers.Attention",
            outputs["luong"],
            outputs["keras_dot"],
            atol=1e-4,
        )
        steps = {
            name: compile_step(model, mean_square, jit=args.jit)
            for name, model in models.items()
        }
        fns = {
            name: (lambda step=step, x=(query, value): harness.to_numpy(step(*x)))
            for name, step in steps.items()
        }
        # Only variants that are compared are timed together.
        t = harness.time_interleaved(
            {name: fns[name] for name in ("bahdanau", "course", "additive")},
            args.repeats,
        )
        t.update(
            harness.time_interleaved(
                {name: fns[name] for name in ("luong", "keras_dot")}, args.repeats
            )
        )
        speedup = t["course"].median / t["bahdanau"].median
        vs_additive = t["bahdanau"].median / t["additive"].median
        vs_keras_dot = t["luong"].median / t["keras_dot"].median
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
                harness.fmt_ms(t["bahdanau"]),
                harness.fmt_ms(t["course"]),
                f"{speedup:.2f}x",
                harness.verdict(speedup >= TARGET_VS_COURSE),
                harness.fmt_ms(t["additive"]),
                f"{vs_additive:.2f}",
                harness.verdict(vs_additive <= TARGET_VS_ADDITIVE),
            ]
        )
        luong_rows.append(
            [
                f"({tq}, {tv})",
                harness.fmt_ms(t["luong"]),
                harness.fmt_ms(t["keras_dot"]),
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
    harness.print_table(
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
    harness.print_table(["(Tq, Tv)", "ours ms", "keras ms", "ours/keras"], luong_rows)


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
            t = harness.time_interleaved(
                {"once": decode_projected_once, "recompute": decode_recompute},
                args.repeats,
            )
            speedup = t["recompute"].median / t["once"].median
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
                    harness.fmt_ms(t["once"]),
                    harness.fmt_ms(t["recompute"]),
                    f"{speedup:.2f}x",
                    harness.verdict(speedup >= TARGET_DECODE),
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
    harness.print_table(
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
    parser = harness.argument_parser(__doc__)
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
    return harness.parse_quick_args(
        parser, argv, "small sizes, a smoke test that runs in < 60 s", QUICK_OPTIONS
    )


def main(argv=None):
    args = parse_args(argv)
    keras.utils.set_random_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    shapes = QUICK_SHAPES if args.quick else FULL_SHAPES
    ty, tvs = QUICK_DECODE if args.quick else FULL_DECODE
    compile_mode = {
        "tensorflow": f"tf.function(jit_compile={args.jit})",
        "jax": "jax.jit(stateless_call), jax.value_and_grad",
        "torch": "eager, torch.autograd.grad",
    }.get(keras.backend.backend(), "?")
    if args.jit and keras.backend.backend() != "tensorflow":
        compile_mode += " (--jit only applies to tensorflow)"

    start = time.perf_counter()
    sizes = "--quick sizes" if args.quick else "full sizes"
    harness.print_header(f"{harness.backend_version()}, {compile_mode}, {sizes}")
    print(f"- attention_zoo: {zoo_version()}")
    print(f"- compiled as: {compile_mode}")
    print(
        f"- timing: 2 warm-up calls, then {args.repeats} samples per variant, "
        "compared variants interleaved in rotating order; a sample averages back-to-back calls up to "
        f">= 20 ms; float32; seed {args.seed}"
    )
    print(f"- load average at start: {harness.load_average()}")
    print(
        "- checked before timing: (a) with our weights copied in gives our "
        "output; Luong dot gives keras Attention's output; both decoding "
        "variants give the same final context.\n"
    )

    results = []
    bench_training(args, shapes, rng, results)
    bench_decoding(args, ty, tvs, rng, results)

    print("#### Targets\n")
    harness.print_table(
        ["target", "case", "measured", "result"],
        [
            [name, case, f"{r:.2f}", harness.verdict(ok)]
            for name, case, r, ok in results
        ],
    )
    met = sum(ok for *_, ok in results)
    print(
        f"{met} of {len(results)} target checks met; total time "
        f"{time.perf_counter() - start:.0f} s; load average at end: "
        f"{harness.load_average()}."
    )


if __name__ == "__main__":
    main()
