"""Every attention mechanism on the dates task, side by side.

Each mechanism of `attention_zoo.applications.dates.model.ATTENTIONS` replaces the
Bahdanau scores of the default date model (Embedding + bidirectional GRU
encoder + `ParallelAttentionDecoder`) and trains with
`attention_zoo.applications.dates.training.train` under the default configuration: the same
data (one seed), the same epoch budget as the core Bahdanau model (6 epochs
of 30,000 dates, batch 128), the same optimizer and schedule (Adam,
cosine decay to 0) from each mechanism's initial learning rate
(`attention_zoo.applications.dates.model.default_learning_rate`: 3e-3, 1e-2 for
monotonic attention and MoChA). Stateful mechanisms
(local-m, location-sensitive, coverage, monotonic, MoChA) run their state from step
to step inside the decoder; the others attend to all target steps at once.

Reported per mechanism:

- test exact match on 5,000 test dates (free-running greedy decoding,
  compiled: XLA on TensorFlow, `jax.jit` on JAX) and the validation exact
  match `fit` measured after each epoch (teacher-forced);
- epoch time: the median of epochs 2.. (epoch 1 also traces and compiles),
  validation included, and the first epoch;
- step-decode time: one greedy decoding of 1,000 test dates (11 decoder
  steps), median of 5 timed calls after a warm-up call, divided by the 11
  steps: milliseconds per decoder step for a batch of 1,000;
- the target: test exact match >= 99 %.

Usage:

    python -m benchmarks.mechanisms                       # all mechanisms
    python -m benchmarks.mechanisms --only bahdanau local-p
    python -m benchmarks.mechanisms --quick               # smoke run, tiny data
    KERAS_BACKEND=jax python -m benchmarks.mechanisms     # e.g. on a GPU
"""

from __future__ import annotations

import datetime
import json
import os
import statistics
import sys
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import keras  # noqa: E402

from attention_zoo.applications.dates import data
from attention_zoo.applications.dates.config import TrainConfig
from attention_zoo.applications.dates.model import (  # noqa: E402
    ATTENTIONS,
    default_learning_rate,
)
from attention_zoo.applications.dates.predictor import Normalizer
from attention_zoo.applications.dates.training import train
from benchmarks import harness  # noqa: E402

TARGET = 0.99
DECODE_BATCH = 1000
DECODE_REPEATS = 5


def decode_step_ms(normalizer, texts) -> float:
    """Milliseconds per greedy decoder step for a batch of `DECODE_BATCH`."""
    source = normalizer.vocabulary.encode(texts[:DECODE_BATCH])
    samples = harness.sample_times(
        lambda: keras.ops.convert_to_numpy(normalizer.search_function()(source)[0]),
        DECODE_REPEATS,
        warmup=1,
    )
    return 1000 * statistics.median(samples) / (data.TY + 1)


def run_one(name: str, config: TrainConfig) -> dict:
    with tempfile.TemporaryDirectory() as run:
        start = time.perf_counter()
        metrics = train(run, config, verbose=0)
        wall = time.perf_counter() - start
        normalizer = Normalizer(run)
        test = [e.text for e in data.load_examples(f"{run}/data/test.json")]
        step_ms = decode_step_ms(normalizer, test)
        parameters = normalizer.model.count_params()
    training = metrics["training"]
    epochs = training["epoch_seconds"]
    return {
        "attention": name,
        "learning_rate": default_learning_rate("default", name),
        "test_exact_match": metrics["test"]["exact_match"],
        "val_exact_match_by_epoch": training["history"].get("val_exact_match", []),
        "first_epoch_s": epochs[0],
        "epoch_s": statistics.median(epochs[1:]) if len(epochs) > 1 else epochs[0],
        "step_ms": step_ms,
        "parameters": parameters,
        "wall_s": wall,
    }


def main(argv=None) -> int:
    parser = harness.argument_parser(__doc__)
    parser.add_argument("--only", nargs="+", choices=list(ATTENTIONS), default=None)
    parser.add_argument("--epochs", type=int, default=TrainConfig.epochs)
    parser.add_argument("--train-size", type=int, default=TrainConfig.n_train)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="smoke run, tiny data")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    names = args.only or list(ATTENTIONS)
    config = dict(epochs=args.epochs, n_train=args.train_size, seed=args.seed)
    if args.quick:
        config.update(epochs=1, n_train=1000, n_validation=200, n_test=1000)

    print(f"# Attention mechanisms on the dates task ({datetime.date.today()})")
    print(
        f"\nVersions: {harness.versions_line()}; machine: {harness.machine_line()}; "
        f"load average before: {harness.load_average()}"
    )
    print(f"Configuration: {json.dumps(config)}\n")
    results = []
    for name in names:
        result = run_one(name, TrainConfig(attention=name, **config))
        results.append(result)
        print(
            f"{name}: test exact match {100 * result['test_exact_match']:.2f} %, "
            f"{result['wall_s']:.0f} s",
            flush=True,
        )
    print()
    rows = []
    for r in results:
        by_epoch = " ".join(f"{100 * v:.1f}" for v in r["val_exact_match_by_epoch"])
        rows.append(
            [
                r["attention"],
                f"{r['learning_rate']:g}",
                f"{100 * r['test_exact_match']:.2f}",
                "yes" if r["test_exact_match"] >= TARGET else "**no**",
                by_epoch,
                f"{r['epoch_s']:.1f} ({r['first_epoch_s']:.1f})",
                f"{r['step_ms']:.3f}",
                f"{r['parameters']:,}",
            ]
        )
    harness.print_table(
        [
            "attention",
            "learning rate",
            "test exact match, %",
            f">= {100 * TARGET:.0f} %",
            "val exact match by epoch, % (fit)",
            "epoch, s (first)",
            f"greedy step, ms (batch {DECODE_BATCH})",
            "parameters",
        ],
        rows,
    )
    print(f"Load average after: {harness.load_average()}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    return 0 if all(r["test_exact_match"] >= TARGET for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
