"""Sequences per second of greedy and beam decoding on a dates-sized model.

One run measures, on the backend named by `KERAS_BACKEND` (default
TensorFlow), a whole encode + decode function on a batch of source strings:

- a baseline: a plain Python loop calling the step function eagerly `Ty`
  times, with an argmax between steps (no `while_loop`);
- `greedy_search`, and `beam_search` with beam widths 1, 4 and 8;

each compiled (TensorFlow: `tf.function(jit_compile=True)`, i.e. XLA; JAX:
`jax.jit`; PyTorch: not measured) and not compiled (eager; on TensorFlow also
`tf.function` without XLA). It prints a table of sequences per second and
checks the targets of the issue: compiled greedy search decodes >= 20,000
sequences/s on 2 CPU cores, and compiled beam search with width 4 costs at
most 4 times as much as compiled greedy search.

The model has the sizes of the dates exercise (human-readable dates to
YYYY-MM-DD): source vocabulary 40 (padding + 39 characters), source length
Tx 30, target vocabulary 13 ('0'-'9', '-', start, end), Ty 10;
`Embedding(40, 32)` + `BidirectionalRNNEncoder(32, "lstm")` (memory 64
features, final states `[h, c]` of 64) + `Embedding(13, 16)` +
`AttentionRNNDecoder(LSTMCell(64), BahdanauAttention(64))` started from the
encoder states + `Dense(13)` (`--cell gru`: GRU and `GRUCell` instead).
The weights are random (seeded), not trained: speed does not depend on them,
except through the length of the decoded sequences, so the output layer's
bias of the end token is set to -100. No sequence ever ends (checked), every
variant runs all `Ty` steps and the numbers are comparable. Source lengths are drawn uniformly in [12, 30] and
padded with 0 to Tx; the padding mask reaches the encoder and the attention.

Usage:

    python -m benchmarks.decoding            # full run, batch 1,000
    python -m benchmarks.decoding --quick    # smoke test, < 60 s
    KERAS_BACKEND=jax python -m benchmarks.decoding
    KERAS_BACKEND=torch python -m benchmarks.decoding --quick  # eager only
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import keras  # noqa: E402
import numpy as np  # noqa: E402
from keras import ops  # noqa: E402

from benchmarks import harness  # noqa: E402
from benchmarks.compiling import compile_fn  # noqa: E402
from benchmarks.decoding_model import (  # noqa: E402
    END,
    TY,
    DatesModel,
    describe_model,
    make_functions,
    random_sources,
)

# Options whose defaults depend on --quick: (full, --quick, help).
QUICK_OPTIONS = {
    "batch": (1000, 100, "sequences per call"),
    "repeats": (7, 5, "timed samples per variant, median reported"),
}

# Targets stated in the issue.
TARGET_GREEDY_SEQ_PER_S = 20_000.0
TARGET_BEAM4_COST = 4.0

MODES = ("jit", "graph", "eager")
MODE_NAMES = {
    "jit": "compiled",
    "graph": "tf.function (no XLA)",
    "eager": "eager",
}


# ------------------------------------------------------- compile variants


def available_modes() -> tuple:
    backend = keras.backend.backend()
    if backend == "tensorflow":
        return MODES
    if backend == "jax":
        return ("jit", "eager")
    return ("eager",)


def compile_mode_description() -> str:
    return {
        "tensorflow": "compiled = `tf.function(jit_compile=True)` (XLA); "
        "tf.function (no XLA) = `tf.function(jit_compile=False)`; "
        "eager = plain TensorFlow eager execution",
        "jax": "compiled = `jax.jit` of the function run in a "
        "`keras.StatelessScope` (weights are arguments, not constants); eager "
        "= called without `jax.jit` (Keras ops dispatch one by one, but "
        "`ops.while_loop` and the encoder's `lax.scan` are still traced and "
        "compiled by JAX at every call)",
        "torch": "compiled = n/a; eager = PyTorch eager under `torch.no_grad()`",
    }.get(keras.backend.backend(), "?")


# ----------------------------------------------------------------- report


def fmt_rate(rate: float) -> str:
    return f"{rate:,.0f}"


def check_outputs(results: dict) -> list:
    """Lines stating that no sequence ended early and that the variants agree."""
    lines = []
    for key, (tokens, scores) in results.items():
        if tokens.shape[1:] != (TY,) or (tokens == END).any():
            raise AssertionError(
                f"{key}: decoding did not run all {TY} steps for every sequence "
                f"(tokens.shape={tokens.shape}, end tokens={(tokens == END).sum()})"
            )
        if not np.isfinite(scores).all():
            raise AssertionError(f"{key}: non-finite scores")
    lines.append(
        f"every variant emitted {TY} tokens per sequence and no end token, so "
        f"every decoding ran all {TY} steps"
    )
    reference_key = next(k for k in results if k[0] == "greedy")
    reference = results[reference_key][0]
    for key in results:
        if key[0] in ("python loop", "greedy", "beam 1") and key != reference_key:
            same = (results[key][0] == reference).all(axis=1).mean()
            lines.append(
                f"{key[0]} ({MODE_NAMES[key[1]]}): {100 * same:.1f}% of the "
                f"sequences identical to greedy ({MODE_NAMES[reference_key[1]]})"
            )
    return lines


def parse_args(argv=None):
    parser = harness.argument_parser(__doc__)
    parser.add_argument(
        "--cell",
        choices=("lstm", "gru"),
        default="lstm",
        help="RNN of the encoder and the decoder (default lstm)",
    )
    args = harness.parse_quick_args(
        parser,
        argv,
        "batch 100, greedy and beam 4 only: a smoke test, < 60 s",
        QUICK_OPTIONS,
    )
    if args.repeats < 5:
        print(
            f"note: --repeats {args.repeats} < 5; the issue asks for medians "
            "of at least 5 repeats",
            file=sys.stderr,
        )
    return args


def measure(args, modes):
    """Runs every variant: `(functions, stats, first_call, checks)`."""
    model = DatesModel(args.seed, args.cell)
    source_np = random_sources(np.random.default_rng(args.seed), args.batch)
    source = ops.convert_to_tensor(source_np)
    functions = make_functions(model)
    if args.quick:
        for name in ("beam 1", "beam 8"):
            functions.pop(name)

    # One callable per (function, mode); the Python loop is eager by definition.
    variants, first_call, outputs = {}, {}, {}
    for name, fn in functions.items():
        for mode in modes:
            if name == "python loop" and mode != "eager":
                continue
            compiled = compile_fn(fn, model.variables, mode)
            key = (name, mode)
            variants[key] = lambda compiled=compiled: harness.to_numpy(compiled(source))
            start = time.perf_counter()
            outputs[key] = variants[key]()  # traces and compiles
            first_call[key] = time.perf_counter() - start
            print(
                f"  first call {name} / {mode}: {first_call[key]:.2f} s",
                file=sys.stderr,
                flush=True,
            )
    checks = check_outputs(outputs)
    # The first call compiled; the call that sizes the samples warms up.
    stats = harness.time_interleaved(
        variants, args.repeats, warmup=0, min_sample_s=0.1, progress=True
    )
    return functions, stats, first_call, checks


def main(argv=None):
    args = parse_args(argv)
    harness.quiet_tensorflow()
    modes = available_modes()
    started = time.perf_counter()
    load_before = harness.load_average()
    functions, stats, first_call, checks = measure(args, modes)
    load_after = harness.load_average()

    def rate(key):
        return args.batch / stats[key].median if key in stats else None

    reference_key = ("greedy", "jit") if "jit" in modes else ("greedy", "eager")
    reference = rate(reference_key)

    # ------------------------------------------------------------- output
    sizes = "--quick" if args.quick else "full"
    harness.print_header(f"{harness.backend_version()}, batch {args.batch} ({sizes})")
    print(f"- load average (1, 5, 15 min): {load_before} before, {load_after} after")
    print(f"- model: {describe_model(args.cell, args.seed)}")
    print(
        "- measured: one call = encode + decode a batch, results `(tokens, "
        "scores)` of the best hypothesis converted to NumPy; beam search "
        "without length or coverage penalty"
    )
    print(f"- modes: {compile_mode_description()}")
    print(
        f"- timing: first call (tracing + compilation + one run) timed "
        f"separately; then 1 warm-up call and {args.repeats} samples per "
        "variant, all variants interleaved in rotating order; a sample "
        "averages back-to-back calls up to >= 0.1 s; median reported, "
        "spread = half the interquartile range"
    )
    for line in checks:
        print(f"- checked: {line}")
    print()

    header = ["decoding"]
    for mode in modes:
        header += [f"{MODE_NAMES[mode]} seq/s", "÷ greedy compiled"]
    header += [f"cost ÷ greedy cost, {MODE_NAMES[m]}" for m in modes]
    header += [f"first call s, {MODE_NAMES[m]}" for m in modes if m != "eager"]
    rows = []
    for name in functions:
        row = [name if name != "python loop" else "python loop (baseline)"]
        for mode in modes:
            key = (name, mode)
            if key not in stats:
                row += ["—", "—"]
                continue
            ratio = rate(key) / reference
            row += [
                f"{fmt_rate(rate(key))} ±{harness.spread_percent(stats[key]):.0f}%",
                f"{ratio:.3f}" if reference_key[1] == "jit" else "—",
            ]
        for mode in modes:
            r = rate((name, mode))
            row.append("—" if r is None else f"{rate(('greedy', mode)) / r:.2f}")
        for mode in modes:
            if mode != "eager":
                key = (name, mode)
                row.append(f"{first_call[key]:.2f}" if key in first_call else "—")
        rows.append(row)
    if "jit" not in modes:
        # Say that the compiled column does not exist rather than drop it.
        header[1:1] = ["compiled seq/s", "÷ greedy compiled"]
        for row in rows:
            row[1:1] = ["n/a", "n/a"]
    harness.print_table(header, rows)
    print(
        "seq/s = batch / median seconds per call (± half the interquartile "
        "range); ÷ greedy compiled = seq/s over compiled greedy seq/s; cost ÷ "
        "greedy cost = seconds per sequence over greedy's in the same mode; "
        "first call = tracing + compilation + one run, excluded from seq/s.\n"
    )

    print("Milliseconds per call (one batch), to judge the noise:\n")
    detail_rows = []
    for name in functions:
        for mode in modes:
            key = (name, mode)
            if key in stats:
                median, q1, q3, minimum = stats[key]
                detail_rows.append(
                    [
                        name,
                        MODE_NAMES[mode],
                        f"{1e3 * median:.1f}",
                        f"{1e3 * q1:.1f}–{1e3 * q3:.1f}",
                        f"{1e3 * minimum:.1f}",
                    ]
                )
    harness.print_table(
        ["decoding", "mode", "median ms", "quartiles ms", "min ms"], detail_rows
    )

    print("Targets (issue):\n")
    target_rows = []
    if "jit" in modes:
        greedy_rate = rate(("greedy", "jit"))
        beam_cost = greedy_rate / rate(("beam 4", "jit"))
        target_rows.append(
            [
                "compiled greedy >= 20,000 seq/s",
                fmt_rate(greedy_rate),
                harness.verdict(greedy_rate >= TARGET_GREEDY_SEQ_PER_S),
            ]
        )
        target_rows.append(
            [
                "compiled beam 4 cost <= 4x compiled greedy",
                f"{beam_cost:.2f}x",
                harness.verdict(beam_cost <= TARGET_BEAM4_COST),
            ]
        )
    else:
        target_rows.append(["compiled targets", "n/a (no compiled mode)", "—"])
    harness.print_table(["target", "measured", "result"], target_rows)
    print(f"Total time {time.perf_counter() - started:.0f} s.")


if __name__ == "__main__":
    main()
