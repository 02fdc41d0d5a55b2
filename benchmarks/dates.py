"""Time to 99.5 % validation exact match: the course's `classic` dates model
against attention_zoo's `default`, trained in one run on the same data.

Both models come from `attention_zoo/applications/dates/model.py` and are
compiled with `compile_model` (classic: the course's Adam(lr=0.005,
decay=0.01), i.e. the rate divided by `1 + 0.01 * iterations`,
per-character softmax, non-autoregressive; default: Adam 3e-3 with cosine decay, Embedding +
bidirectional GRU encoder + `ParallelAttentionDecoder` with Bahdanau
attention, teacher-forced in `fit`). The target compares default with the
course's model as the course trains it. A third run, `classic_constant`,
trains the classic model at a constant 0.005 (no decay): a stronger
baseline than the course's, reported beside it. The data is one call to
`data.make_splits(n_train, n_val, 0, seed=seed)`, encoded with one character
vocabulary built from the training texts and shared by both models.

Each model is trained with `model.fit` until its validation exact match (the
`SequenceExactMatch` metric that `compile_model` attaches: `val_exact_match`
for default, `val_probabilities_exact_match` for classic) reaches 99.5 % at
the end of an epoch, or until its epoch cap. A Keras callback checks the
metric after every epoch and stops training. Times are wall clock from the
line before `model.fit` to the end of the epoch that crossed the threshold:
tracing, compilation and the slow first epoch are included, as is the
validation pass of every epoch.

After training, the decoding function of each model
(`compiled(make_predict_fn(model, kind))`: XLA on TensorFlow, `jax.jit` on
JAX) is called once on the validation set as a warm-up, then timed; its
exact match on the validation set is reported too. For `default` that is
free-running greedy decoding, which the teacher-forced `val_exact_match` of
`fit` does not measure; for `classic` the two are the same computation.

Usage:

    python -m benchmarks.dates                    # full run: ~11 min on 2 cores
                                                  # (classic with the course's decay:
                                                  # 39 epochs), ~25 min if all hit caps
    python -m benchmarks.dates --quick            # smoke test, < 90 s
    python -m benchmarks.dates --classic-epochs 30 --train-size 20000
    KERAS_BACKEND=jax python -m benchmarks.dates --quick

The normalizer as a user meets it (`benchmarks/dates_normalizer.py`:
non-dates flagged, hand-written real dates, leave-one-family-out, serving
speed of the SavedModel against the in-process predictor):

    python -m benchmarks.dates --normalizer --run runs/dates --serving
    python -m benchmarks.dates --normalizer --run runs/dates --lofo
    python -m benchmarks.dates --normalizer --run NEW --baseline OLD   # A/B serving
    python -m benchmarks.dates --normalizer --quick --lofo --serving   # trains tiny runs

The normalizer against dateparser and dateutil on the same hand-written
inputs, accuracy and speed (`benchmarks/dates_anchors.py`; the anchors are
in the `bench` extra):

    python -m benchmarks.dates --anchors                 # the shipped preset
    python -m benchmarks.dates --anchors --quick         # capped inputs, < 60 s
    python -m benchmarks.dates --anchors --run runs/dates
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402

from attention_zoo.applications.dates import data  # noqa: E402
from benchmarks import dates_training as training  # noqa: E402
from benchmarks import harness  # noqa: E402

# Options whose defaults depend on --quick: (full, --quick, help).
QUICK_OPTIONS = {
    "train_size": (30000, 1000, "training dates"),
    "val_size": (2000, 200, "validation dates"),
    "classic_epochs": (40, 2, "epoch cap of classic"),
    "default_epochs": (20, 2, "epoch cap of default"),
    "epochs": (
        10,
        1,
        "--normalizer: epochs of the run trained when --run is not given",
    ),
    "lofo_train_size": (10000, 1500, "--lofo: training dates per family left out"),
    "lofo_epochs": (3, 1, "--lofo: epochs per family left out"),
    "lofo_test_size": (500, 200, "--lofo: test dates of the family left out"),
    "anchor_inputs": (
        0,
        100,
        "--anchors: real dates and non-dates each, evenly spaced (0: all)",
    ),
    "anchor_batch": (1000, 200, "--anchors: inputs of the throughput batch"),
    "anchor_calls": (200, 50, "--anchors: one-input calls of the latency p50"),
}

# ----------------------------------------------------------------- report


def time_to_accuracy(result) -> tuple[float, bool]:
    """(seconds, reached): seconds to threshold, or whole fit time if not reached."""
    callback = result["callback"]
    if callback.reached_s is not None:
        return callback.reached_s, True
    return result["fit_s"], False


def ratio_and_verdict(classic, default) -> tuple[str, str]:
    c_s, c_ok = time_to_accuracy(classic)
    d_s, d_ok = time_to_accuracy(default)
    ratio = c_s / d_s
    if c_ok and d_ok:
        return f"{ratio:.1f}x", harness.verdict(ratio >= training.TARGET_RATIO)
    if d_ok:  # classic never reached the threshold: c_s is a lower bound
        text = f"> {ratio:.1f}x (lower bound: classic did not reach 99.5 %)"
        if ratio >= training.TARGET_RATIO:
            return text, "PASS (even the lower bound is >= 10x)"
        return text, (
            f"**NOT SHOWN**: the lower bound {ratio:.1f}x is < {training.TARGET_RATIO:g}x; "
            "a longer classic run would be needed to decide"
        )
    if c_ok:
        return f"< {ratio:.1f}x (upper bound: default did not reach 99.5 %)", "**FAIL**"
    return "n/a (neither model reached 99.5 %)", "**FAIL**"


def report(args, results, decoding, header_lines):
    classic, default = results["classic"], results["default"]
    constant = results["classic_constant"]
    print(
        f"### Date normalization, {harness.backend_version()} ({header_lines['mode']})\n"
    )
    harness.print_facts(header_lines["lines"])
    print()

    def epochs_cell(r):
        cb = r["callback"]
        if cb.reached_epoch is not None:
            return str(cb.reached_epoch)
        return f"not reached in {r['epoch_cap']}"

    def time_cell(r):
        seconds, reached = time_to_accuracy(r)
        return f"{seconds:.0f}" if reached else f"> {seconds:.0f} (cap)"

    def mean_epoch(r):
        return r["fit_s"] / r["epochs_run"]

    def first_epoch(r):
        return r["callback"].epoch_end_s[0]

    def rest_epochs(r):
        ends = r["callback"].epoch_end_s
        if len(ends) < 2:
            return float("nan")
        return statistics.median(np.diff(ends).tolist())

    def best(r):
        scores = r["callback"].scores
        i = int(np.argmax(scores))
        return f"{100 * scores[i]:.2f} (epoch {i + 1})"

    rows = []

    def row(name, fn, ratio=None):
        """`ratio(baseline, default) -> str`, shown against both classics."""
        cells = [name] + [fn(results[k]) for k in training.KINDS]
        for baseline in (classic, constant):
            cells.append("" if ratio is None else ratio(baseline, default))
        rows.append(cells)

    ratio_text, target_result = ratio_and_verdict(classic, default)
    row(
        "batch size / epoch cap",
        lambda r: f"{training.BATCH_SIZE[r['kind']]} / {r['epoch_cap']}",
    )
    row("epochs to 99.5 % val exact match", epochs_cell)
    row(
        "time to 99.5 %, s (from fit start)",
        time_cell,
        lambda c, d: ratio_and_verdict(c, d)[0],
    )
    row(
        "mean epoch time, s (fit time / epochs run)",
        lambda r: f"{mean_epoch(r):.1f}",
        lambda c, d: f"{mean_epoch(c) / mean_epoch(d):.2f}x",
    )
    row(
        "first epoch, s / median later epoch, s",
        lambda r: f"{first_epoch(r):.1f} / {rest_epochs(r):.1f}",
    )
    row("epochs run / fit time, s", lambda r: f"{r['epochs_run']} / {r['fit_s']:.0f}")
    row(
        "final val exact match, % (fit metric)",
        lambda r: f"{100 * r['callback'].scores[-1]:.2f}",
    )
    row("best val exact match, % (fit metric)", best)
    row(
        "val exact match, % (compiled decoding)",
        lambda r: f"{100 * decoding[r['variant']]['exact']:.2f}",
    )
    row(
        "decode throughput, seq/s (compiled, batch = val set)",
        lambda r: (
            f"{decoding[r['variant']]['seq_per_s']:,.0f} "
            f"±{decoding[r['variant']]['spread']:,.0f}"
        ),
        lambda c, d: (
            f"{decoding['default']['seq_per_s'] / decoding[c['variant']]['seq_per_s']:.2f}x"
        ),
    )
    row(
        "decode first call (trace + XLA compile), s",
        lambda r: f"{decoding[r['variant']]['first_call_s']:.1f}",
    )
    row(
        "parameters",
        lambda r: f"{r['model'].count_params():,}",
        lambda c, d: f"{d['model'].count_params() / c['model'].count_params():.2f}x",
    )
    row(
        "process CPU time / wall time during fit",
        lambda r: f"{r['cpu_s'] / r['fit_s']:.2f}",
    )
    harness.print_table(
        [
            "",
            "classic (course: decay)",
            "classic, constant rate",
            "default",
            "default vs classic",
            "default vs classic, constant rate",
        ],
        rows,
        numeric_columns=True,
    )
    print(
        "Ratios, against each classic: time to 99.5 % = classic / default (how many times sooner "
        "default gets there); mean epoch time = classic / default; decode "
        "throughput and parameters = default / classic. Decode throughput: "
        f"median of {training.DECODE_REPEATS} samples, each >= {training.DECODE_MIN_SAMPLE_S} s of "
        "back-to-back calls on the whole validation set, after one warm-up "
        "call; ± half the range. CPU time / wall time: 2.00 would be both "
        "cores busy with this process alone.\n"
    )
    for kind in training.KINDS:
        scores = " ".join(f"{100 * s:.1f}" for s in results[kind]["callback"].scores)
        print(f"- {kind} val exact match by epoch, %: {scores}")
    print()
    harness.print_table(
        ["target", "measured", "result"],
        [
            [
                "default reaches 99.5 % >= 10x sooner than classic (as the course "
                "trains it)",
                ratio_text,
                target_result,
            ]
        ],
        numeric_columns=True,
    )


def parse_args(argv=None):
    parser = harness.argument_parser(__doc__)
    parser.add_argument(
        "--normalizer",
        action="store_true",
        help="the normalizer's tables (non-dates, real dates) instead of the race",
    )
    parser.add_argument(
        "--anchors",
        action="store_true",
        help="the normalizer against dateparser and dateutil instead of the race",
    )
    parser.add_argument(
        "--run",
        default=None,
        help="--normalizer, --anchors: a trained run or preset folder "
        "(--anchors: default the shipped preset dates_multilingual)",
    )
    parser.add_argument(
        "--lofo", action="store_true", help="--normalizer: leave one family out"
    )
    parser.add_argument(
        "--baseline",
        default=None,
        help="--normalizer: a second run or preset folder, or a SavedModel "
        "folder, whose SavedModel is timed in turn with --run's on the same "
        "inputs (an A/B)",
    )
    parser.add_argument(
        "--serving", action="store_true", help="--normalizer: serving speed"
    )
    return harness.parse_quick_args(
        parser, argv, "tiny sizes: a smoke test, < 90 s", QUICK_OPTIONS
    )


def main(argv=None):
    args = parse_args(argv)
    harness.quiet_tensorflow()
    if args.normalizer:
        from benchmarks.dates_normalizer import run_normalizer

        started = time.perf_counter()
        run_normalizer(args)
        print(f"Total time {time.perf_counter() - started:.0f} s.")
        return
    if args.anchors:
        from benchmarks.dates_anchors import run_anchors

        started = time.perf_counter()
        run_anchors(args)
        print(f"Total time {time.perf_counter() - started:.0f} s.")
        return
    started = time.perf_counter()
    load_before = harness.load_average()
    print(f"backend {harness.backend_version()}", file=sys.stderr)

    start = time.perf_counter()
    # Dates short enough for the classic model's Tx of 30, no non-dates.
    train_set, val_set, _ = data.make_splits(
        args.train_size, args.val_size, 0, seed=args.seed, max_length=data.TX_CLASSIC
    )
    data_s = time.perf_counter() - start
    vocabulary = data.CharVocabulary.from_texts([e.text for e in train_set])

    results, decoding = {}, {}
    # default first: it is the short one, so a run cut short still has it.
    for variant in ("default", "classic_constant", "classic"):
        epochs = args.default_epochs if variant == "default" else args.classic_epochs
        print(f"training {variant} (cap {epochs} epochs)", file=sys.stderr, flush=True)
        result = training.train(
            variant, vocabulary, train_set, val_set, epochs, args.seed
        )
        results[variant] = result
        print(f"  {variant} history keys: {result['history_keys']}", file=sys.stderr)
        decoding[variant] = training.measure_decoding(
            result["model"], result["kind"], vocabulary, val_set
        )
    load_after = harness.load_average()

    monitors = ", ".join(
        f"{k}: `{results[k]['callback'].monitor}`" for k in training.KINDS
    )
    lines = harness.run_facts() + [
        f"load average (1, 5, 15 min): {load_before} at start, {load_after} at end; "
        "during fit: "
        + ", ".join(
            f"{k} {results[k]['load'][0]} -> {results[k]['load'][1]}"
            for k in training.KINDS
        ),
        f"data: `make_splits({args.train_size}, {args.val_size}, 0, seed={args.seed}, "
        f"max_length={data.TX_CLASSIC})`"
        f" in {data_s:.1f} s; input vocabulary {len(vocabulary)} (with pad, unk); "
        f"Tx {data.TX_CLASSIC} (classic) / {data.TX} (default), Ty {data.TY}; `keras.utils.set_random_seed({args.seed})` "
        "before building each model",
        f"threshold: validation exact match >= {100 * training.THRESHOLD:g} % at an epoch end "
        f"({monitors})",
    ]
    mode = "--quick" if args.quick else f"{args.train_size:,} training dates"
    report(args, results, decoding, {"mode": mode, "lines": lines})
    print(f"Total time {time.perf_counter() - started:.0f} s.")


if __name__ == "__main__":
    main()
