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

    python benchmarks/decoding.py            # full run, batch 1,000
    python benchmarks/decoding.py --quick    # smoke test, < 60 s
    KERAS_BACKEND=jax python benchmarks/decoding.py
    KERAS_BACKEND=torch python benchmarks/decoding.py --quick  # eager only
"""

from __future__ import annotations

import argparse
import datetime
import gc
import math
import os
import platform
import statistics
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import keras  # noqa: E402
import numpy as np  # noqa: E402
from keras import ops  # noqa: E402

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
from attention_zoo.decoders import AttentionRNNDecoder  # noqa: E402
from attention_zoo.decoding import beam_search, greedy_search, make_step_fn  # noqa: E402
from attention_zoo.encoders import BidirectionalRNNEncoder  # noqa: E402
from attention_zoo.layers import BahdanauAttention  # noqa: E402

# Dates-sized model.
TX, TY = 30, 10
SOURCE_VOCAB = 40  # 0 = padding
TARGET_VOCAB = 13  # '0'-'9' = 0-9, '-' = 10, start, end
START, END = 11, 12
MIN_SOURCE_LENGTH = 12
SOURCE_EMBEDDING, TARGET_EMBEDDING = 32, 16
ENCODER_UNITS = 32  # per direction; concat gives the decoder's 64
DECODER_UNITS = ATTENTION_UNITS = 2 * ENCODER_UNITS
END_BIAS = -100.0  # random weights give logits of order 1: END is never chosen

BEAM_WIDTHS = (1, 4, 8)

# Targets stated in the issue.
TARGET_GREEDY_SEQ_PER_S = 20_000.0
TARGET_BEAM4_COST = 4.0

MODES = ("jit", "graph", "eager")
MODE_NAMES = {
    "jit": "compiled",
    "graph": "tf.function (no XLA)",
    "eager": "eager",
}


# ------------------------------------------------------------------ model


class DatesModel:
    """The layers of the encoder-decoder, built, with random weights."""

    def __init__(self, seed: int, cell_type: str = "lstm"):
        keras.utils.set_random_seed(seed)
        self.cell_type = cell_type
        cell = keras.layers.LSTMCell if cell_type == "lstm" else keras.layers.GRUCell
        self.source_embedding = keras.layers.Embedding(
            SOURCE_VOCAB, SOURCE_EMBEDDING, name="source_embedding"
        )
        self.encoder = BidirectionalRNNEncoder(
            ENCODER_UNITS, cell_type=cell_type, merge_mode="concat", name="encoder"
        )
        self.target_embedding = keras.layers.Embedding(
            TARGET_VOCAB, TARGET_EMBEDDING, name="target_embedding"
        )
        self.decoder = AttentionRNNDecoder(
            cell(DECODER_UNITS),
            BahdanauAttention(ATTENTION_UNITS),
            name="decoder",
        )
        self.output_layer = keras.layers.Dense(TARGET_VOCAB, name="logits")
        # Build everything with one teacher-forced call.
        source = np.ones((2, TX), "int32")
        target = np.ones((2, TY), "int32")
        memory, states = self.encoder(self.source_embedding(source))
        outputs, _, _ = self.decoder(
            self.target_embedding(target), memory, initial_state=states
        )
        self.output_layer(outputs)
        kernel, bias = self.output_layer.get_weights()
        bias[END] = END_BIAS
        self.output_layer.set_weights([kernel, bias])
        self.step_fn = make_step_fn(
            self.decoder, self.target_embedding, self.output_layer
        )

    @property
    def layers(self):
        return [
            self.source_embedding,
            self.encoder,
            self.target_embedding,
            self.decoder,
            self.output_layer,
        ]

    @property
    def variables(self):
        return [v for layer in self.layers for v in layer.variables]

    def prepare(self, source):
        """Encode: `(state, constants, start_tokens)` for the search functions."""
        mask = ops.not_equal(source, 0)  # (B, Tx)
        memory, states = self.encoder(self.source_embedding(source), mask=mask)
        constants = self.decoder.get_constants(memory, mask)
        state = self.decoder.get_initial_state(memory, mask, initial_state=states)
        start = ops.full((ops.shape(source)[0],), START, "int32")
        return state, constants, start


def make_functions(model: DatesModel) -> dict:
    """`name -> fn(source)`, each encoding and decoding a batch of sources.

    Every function returns `(tokens, scores)`: greedy `(B, Ty)`, `(B,)`; beam
    search the best hypothesis of each sequence, `(B, Ty)`, `(B,)`; the
    Python loop `(B, Ty)` and no scores (zeros).
    """

    def python_loop(source):
        state, constants, tokens = model.prepare(source)
        emitted = []
        for _ in range(TY):
            logits, state, _ = model.step_fn(tokens, state, constants)
            tokens = ops.cast(ops.argmax(logits, axis=-1), "int32")
            emitted.append(tokens)
        return ops.stack(emitted, axis=1), ops.zeros((ops.shape(source)[0],))

    def greedy(source):
        state, constants, start = model.prepare(source)
        out = greedy_search(
            model.step_fn, state, start, END, TY, constants=constants, pad_token=END
        )
        return out["tokens"], out["scores"]

    def make_beam(width):
        def beam(source):
            state, constants, start = model.prepare(source)
            out = beam_search(
                model.step_fn,
                state,
                start,
                END,
                TY,
                beam_width=width,
                constants=constants,
                pad_token=END,
            )
            return out["tokens"][:, 0], out["scores"][:, 0]

        return beam

    functions = {"python loop": python_loop, "greedy": greedy}
    for width in BEAM_WIDTHS:
        functions[f"beam {width}"] = make_beam(width)
    return functions


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


def compile_fn(fn, model: DatesModel, mode: str):
    """`fn(source)` run as `mode` ("jit", "graph" or "eager")."""
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

        variables = model.variables

        def stateless(values, source):
            mapping = list(zip(variables, values))
            with keras.StatelessScope(state_mapping=mapping):
                return fn(source)

        jitted = jax.jit(stateless)
        values = [v.value for v in variables]
        return lambda source: jitted(values, source)
    raise ValueError(f"Unsupported mode on {backend}. Received: mode={mode!r}")


# ----------------------------------------------------------------- timing


def time_interleaved(fns: dict, repeats: int, min_sample_s: float) -> dict:
    """Median, quartiles and minimum, in seconds per call, of callables.

    Each callable returns NumPy values, so its time includes the work it
    waits for. They have been called once already (compilation). Each is
    called once more (warm-up), then sampled `repeats` times with the garbage
    collector off; a sample of a fast callable averages as many back-to-back
    calls as fill `min_sample_s`. The variants run in turn in each repeat, in
    an order that rotates from one repeat to the next, so that a slow phase
    of the machine (another process) hits them alike.
    """
    calls = {}
    for name, fn in fns.items():
        start = time.perf_counter()
        fn()
        once = time.perf_counter() - start
        calls[name] = max(1, math.ceil(min_sample_s / max(once, 1e-9)))
    times = {name: [] for name in fns}
    names = list(fns)
    gc.collect()
    gc.disable()
    try:
        for repeat in range(repeats):
            shift = repeat % len(names)
            for name in names[shift:] + names[:shift]:
                fn = fns[name]
                start = time.perf_counter()
                for _ in range(calls[name]):
                    fn()
                times[name].append((time.perf_counter() - start) / calls[name])
            print(f"  repeat {repeat + 1}/{repeats}", file=sys.stderr, flush=True)
    finally:
        gc.enable()
    stats = {}
    for name, ts in times.items():
        q1, median, q3 = statistics.quantiles(ts, n=4) if len(ts) > 1 else ts * 3
        stats[name] = (median, q1, q3, min(ts))
    return stats


# ----------------------------------------------------------------- report


def fmt_rate(rate: float) -> str:
    return f"{rate:,.0f}"


def random_sources(rng, batch: int) -> np.ndarray:
    """`(batch, Tx)` int32: characters 1..39, then padding 0."""
    source = rng.integers(1, SOURCE_VOCAB, (batch, TX)).astype("int32")
    lengths = rng.integers(MIN_SOURCE_LENGTH, TX + 1, batch)
    source[np.arange(TX)[None, :] >= lengths[:, None]] = 0
    return source


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
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--batch",
        type=int,
        default=None,
        help="sequences per call (default 1000, --quick 100)",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=None,
        help="timed samples per variant, median reported (default 7, --quick 5)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="batch 100, greedy and beam 4 only: a smoke test, < 60 s",
    )
    parser.add_argument(
        "--cell",
        choices=("lstm", "gru"),
        default="lstm",
        help="RNN of the encoder and the decoder (default lstm)",
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.repeats is None:
        args.repeats = 5 if args.quick else 7
    if args.batch is None:
        args.batch = 100 if args.quick else 1000
    if args.repeats < 5:
        print(
            f"note: --repeats {args.repeats} < 5; the issue asks for medians "
            "of at least 5 repeats",
            file=sys.stderr,
        )
    return args


def main(argv=None):
    args = parse_args(argv)
    backend = keras.backend.backend()
    if backend == "tensorflow":
        import tensorflow as tf

        # Each variant is its own tf.function, traced once.
        tf.get_logger().setLevel("ERROR")
    modes = available_modes()
    try:
        usable_cpus = len(os.sched_getaffinity(0))
    except AttributeError:
        usable_cpus = os.cpu_count()
    command = " ".join(["python", *sys.argv])
    if "KERAS_BACKEND" in os.environ:
        command = f"KERAS_BACKEND={os.environ['KERAS_BACKEND']} {command}"
    started = time.perf_counter()
    load_before = load_average()

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
            compiled = compile_fn(fn, model, mode)
            key = (name, mode)
            variants[key] = lambda compiled=compiled: to_numpy(compiled(source))
            start = time.perf_counter()
            outputs[key] = variants[key]()  # traces and compiles
            first_call[key] = time.perf_counter() - start
            print(
                f"  first call {name} / {mode}: {first_call[key]:.2f} s",
                file=sys.stderr,
                flush=True,
            )
    checks = check_outputs(outputs)
    stats = time_interleaved(variants, args.repeats, min_sample_s=0.1)
    minimum = {key: value[3] for key, value in stats.items()}
    load_after = load_average()

    def rate(key):
        return args.batch / stats[key][0] if key in stats else None

    reference_key = ("greedy", "jit") if "jit" in modes else ("greedy", "eager")
    reference = rate(reference_key)

    # ------------------------------------------------------------- output
    now = datetime.datetime.now().astimezone()
    sizes = "--quick" if args.quick else "full"
    print(f"### {backend_version()}, batch {args.batch} ({sizes})\n")
    print(f"- date: {now.isoformat(timespec='seconds')}")
    print(f"- command: `{command}`")
    print(
        f"- versions: {backend_version()}, keras {keras.__version__}, "
        f"attention_zoo {attention_zoo.__version__}, numpy {np.__version__}, "
        f"python {platform.python_version()}"
    )
    print(
        f"- machine: {cpu_model()}, usable CPUs={usable_cpus}, "
        f"{platform.system()} {platform.machine()}, allocator {memory_allocator()}; "
        "load average (1, 5, 15 min) "
        f"{load_before} before, {load_after} after"
    )
    print(
        f"- model: Embedding({SOURCE_VOCAB}, {SOURCE_EMBEDDING}) + "
        f'BidirectionalRNNEncoder({ENCODER_UNITS}, "{args.cell}", concat) + '
        f"Embedding({TARGET_VOCAB}, {TARGET_EMBEDDING}) + AttentionRNNDecoder("
        f"{args.cell.upper()}Cell({DECODER_UNITS}), "
        f"BahdanauAttention({ATTENTION_UNITS})) + "
        f"Dense({TARGET_VOCAB}); Tx {TX} (lengths {MIN_SOURCE_LENGTH}-{TX}, "
        f"padded, masked), Ty {TY}; random weights (seed {args.seed}), "
        f"end-token bias {END_BIAS:g} so that all {TY} steps always run"
    )
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
            median, q1, q3, _ = stats[key]
            spread = 50.0 * (q3 - q1) / median
            ratio = rate(key) / reference
            row += [
                f"{fmt_rate(rate(key))} ±{spread:.0f}%",
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
    print_table(header, rows)
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
                median, q1, q3, _ = stats[key]
                detail_rows.append(
                    [
                        name,
                        MODE_NAMES[mode],
                        f"{1e3 * median:.1f}",
                        f"{1e3 * q1:.1f}–{1e3 * q3:.1f}",
                        f"{1e3 * minimum[key]:.1f}",
                    ]
                )
    print_table(
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
                verdict(greedy_rate >= TARGET_GREEDY_SEQ_PER_S),
            ]
        )
        target_rows.append(
            [
                "compiled beam 4 cost <= 4x compiled greedy",
                f"{beam_cost:.2f}x",
                verdict(beam_cost <= TARGET_BEAM4_COST),
            ]
        )
    else:
        target_rows.append(["compiled targets", "n/a (no compiled mode)", "—"])
    print_table(["target", "measured", "result"], target_rows)
    print(f"Total time {time.perf_counter() - started:.0f} s.")


if __name__ == "__main__":
    main()
