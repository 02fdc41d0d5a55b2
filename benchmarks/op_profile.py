"""Where a TensorFlow attention step spends its time, op by op (no XLA).

TensorFlow only. Builds each step as a graph, runs it in a
`tf.compat.v1.Session` with full tracing and sums the per-op times of
`RunMetadata.step_stats` over `--calls` calls. Explains the ratios of
`benchmarks.attention_layers` without XLA:

1. forward + backward of `BahdanauAttention(units)` at (Tq, Tv) and of the
   deeplearning.ai per-step formulation with the same weights (baseline (a)
   of `benchmarks.attention_layers`);
2. one decoding step over a memory projected once (`attend`) and with the
   memory projected again (`layer(query_t, value)`).

For each: op time per call by op type, its share of the summed op time,
and the throughput of the large elementwise ops (million output elements
per ms) beside that of the key projection's MatMul (million
multiply-adds per ms). The summed op time exceeds the wall time when ops
run in parallel; the wall time of untraced calls is printed too.

Usage:

    python -m benchmarks.op_profile                  # (Tq, Tv) = (10, 30), Tv 100
    python -m benchmarks.op_profile --tq 30 --tv 100 --decode-tv 300
"""

from __future__ import annotations

import collections
import os
import time

os.environ.setdefault("KERAS_BACKEND", "tensorflow")

import numpy as np  # noqa: E402

from benchmarks import harness  # noqa: E402

# Elementwise ops whose throughput is reported (output elements per ms).
ELEMENTWISE = ("Tanh", "TanhGrad", "AddV2", "BiasAdd", "Mul")


def op_type(node_stats) -> str:
    """`"Tanh"` from a timeline label like `"name = Tanh(input)"`."""
    label = node_stats.timeline_label
    if "=" not in label:
        return node_stats.node_name
    return label.split("=", 1)[1].split("(", 1)[0].strip()


def output_elements(node_stats) -> int:
    total = 0
    for output in node_stats.output:
        dims = [d.size for d in output.tensor_description.shape.dim]
        if dims and all(d > 0 for d in dims):
            total += int(np.prod(dims))
    return total


def profile(tf, session, fetches, calls: int, key_macs: int | None):
    """Wall time per untraced call and per-op-type rows of the traced calls."""
    for _ in range(5):
        session.run(fetches)
    start = time.perf_counter()
    for _ in range(calls):
        session.run(fetches)
    wall_us = 1e6 * (time.perf_counter() - start) / calls
    micros = collections.Counter()
    nodes = collections.Counter()
    elements = collections.Counter()
    projection_us = 0.0
    options = tf.compat.v1.RunOptions(trace_level=tf.compat.v1.RunOptions.FULL_TRACE)
    for _ in range(calls):
        metadata = tf.compat.v1.RunMetadata()
        session.run(fetches, options=options, run_metadata=metadata)
        for device in metadata.step_stats.dev_stats:
            for node in device.node_stats:
                kind = op_type(node)
                if kind in ("_SOURCE", "NoOp", "Const", "_Retval", "_Arg"):
                    continue
                micros[kind] += node.all_end_rel_micros / calls
                nodes[kind] += 1 / calls
                elements[kind] += output_elements(node) / calls
                name = node.node_name
                if "key_dense" in name and "MatMul" in kind and "gradients" not in name:
                    projection_us += node.all_end_rel_micros / calls
    total = sum(micros.values())
    rows = []
    for kind, us in micros.most_common():
        if us < 0.005 * total:
            continue
        rate = ""
        if kind in ELEMENTWISE and us > 0:
            rate = f"{elements[kind] / us / 1e3:.1f} M elements/ms"
        if kind.endswith("MatMul") and key_macs and projection_us > 0:
            rate = f"key projection: {key_macs / projection_us / 1e3:.0f} M MACs/ms"
        rows.append(
            [kind, f"{nodes[kind]:.0f}", f"{us:.0f}", f"{100 * us / total:.0f} %", rate]
        )
    return wall_us, total, rows


def variable(tf, rng, shape):
    """Inputs as variables: constants would be folded away, feeds copied."""
    return tf.Variable(rng.standard_normal(shape).astype("float32"))


def main(argv=None):
    parser = harness.argument_parser(__doc__)
    parser.add_argument("--tq", type=int, default=10)
    parser.add_argument("--tv", type=int, default=30)
    parser.add_argument("--decode-tv", type=int, default=100)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--units", type=int, default=128)
    parser.add_argument("--dim", type=int, default=128)
    parser.add_argument("--calls", type=int, default=50)
    args = parser.parse_args(argv)

    import keras

    if keras.backend.backend() != "tensorflow":
        raise SystemExit(
            "benchmarks.op_profile reads TensorFlow's step stats: run it with "
            f"KERAS_BACKEND=tensorflow. Received: {keras.backend.backend()!r}"
        )
    import tensorflow as tf

    tf.get_logger().setLevel("ERROR")
    tf.compat.v1.disable_eager_execution()
    from attention_zoo.layers import BahdanauAttention
    from benchmarks.attention_variants import (
        CourseAttention,
        bahdanau_weights,
        course_weights,
    )

    rng = np.random.default_rng(0)
    b, d, u = args.batch, args.dim, args.units
    harness.print_header(f"tensorflow {tf.__version__}, graph mode, no XLA: op profile")
    print(
        f"- {args.calls} traced calls per step; load average {harness.load_average()}"
    )
    print("- checked before timing: (a) with our weights copied in gives our output\n")

    query = variable(tf, rng, (b, args.tq, d))
    value = variable(tf, rng, (b, args.tv, d))
    layer = BahdanauAttention(units=u)
    course = CourseAttention(units=u)
    graphs, outputs = {}, {}
    for name, model in (("BahdanauAttention", layer), ("(a) per-step form", course)):
        output = outputs[name] = model(query, value)
        loss = tf.reduce_mean(tf.square(output))
        weights = [w.value for w in model.trainable_weights]
        graphs[name] = tf.gradients(loss, weights + [query, value])

    step_query = variable(tf, rng, (b, d))
    memory = variable(tf, rng, (b, args.decode_tv, d))
    decoder = BahdanauAttention(units=u)
    decoder(step_query, memory)
    projected = tf.Variable(tf.zeros((b, args.decode_tv, u)))
    assign = projected.assign(decoder.project_key(memory))
    graphs["step, memory projected once"] = decoder.attend(
        step_query, memory, projected
    )
    graphs["step, memory projected again"] = decoder(step_query, memory)

    session = tf.compat.v1.Session()
    session.run(tf.compat.v1.global_variables_initializer())
    session.run(assign)
    arrays = session.run([w.value for w in bahdanau_weights(layer)])
    session.run(
        [
            w.value.assign(array)
            for w, array in zip(course.trainable_weights, course_weights(*arrays))
        ]
    )
    ours, theirs = session.run(list(outputs.values()))
    np.testing.assert_allclose(
        theirs, ours, rtol=1e-4, atol=1e-5, err_msg="(a) with our weights differs"
    )

    walls = {}
    for name, fetches in graphs.items():
        training = "projected" not in name
        tv = args.tv if training else args.decode_tv
        key_macs = b * tv * d * u
        wall_us, total, rows = profile(tf, session, fetches, args.calls, key_macs)
        walls[name] = wall_us
        shape = (
            f"(Tq, Tv) = ({args.tq}, {args.tv}), forward + backward"
            if training
            else f"query (B, Dq), Tv = {args.decode_tv}, inference"
        )
        print(f"#### {name}: {shape}\n")
        print(
            f"Wall time per untraced call {wall_us:.0f} µs; summed op time "
            f"{total:.0f} µs. Batch {b}, features {d}, units {u}.\n"
        )
        harness.print_table(
            ["op type", "ops", "µs per call", "share", "throughput"], rows
        )
    ratio = walls["(a) per-step form"] / walls["BahdanauAttention"]
    once = walls["step, memory projected again"] / walls["step, memory projected once"]
    print(
        f"Wall-time ratios: (a) / BahdanauAttention {ratio:.2f}x; projected again / "
        f"projected once {once:.2f}x."
    )


if __name__ == "__main__":
    main()
