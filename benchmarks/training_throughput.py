"""Training throughput of translation, captioning and summarization with
their default recipes, float32 and mixed bfloat16, on the device Keras
runs on: the same stored batches on every machine, so that a GPU's figure
and the 2-core CPU's compare.

Two steps. `--prepare` reads each application's default data the way its
`train` does (the Bible corpus, the generated scenes through the frozen
EfficientNet-Lite0, the Debian package descriptions: `TrainConfig()`'s
defaults) and stores the first `--batches` training batches of an epoch,
exactly as `fit` gets them, with the vocabulary sizes the models are built
with. The GPU machines we are lent have none of that data (nor TensorFlow),
hence the file:

    python -m benchmarks.training_throughput --prepare throughput.npz
    KERAS_BACKEND=jax python -m benchmarks.training_throughput \\
        --inputs throughput.npz --json cpu.json
    # on the GPU, the CPU's figures beside:
    KERAS_BACKEND=jax python -m benchmarks.training_throughput \\
        --inputs throughput.npz --against cpu.json --matmul-size 8192

For each application and dtype policy the model is built and compiled by
the application's own functions under `keras.config.set_dtype_policy`, a
warm-up `fit` runs one batch of every shape (the compilations: translation's
length buckets are several), then `fit` runs whole passes over the stored batches,
`--steps` steps at least, timed. Columns: examples/s (captioning: captions, each of one
image), target tokens/s (real tokens with `<end>`), the model's useful
GFLOP/s (`benchmarks/flops.py`: each sequence at its own length, 3x the
forward pass) and its share of a large matmul of the same dtype timed in
the same run, and with `--against` the ratio to the other run's row.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import keras  # noqa: E402

from benchmarks import flops, harness  # noqa: E402
from benchmarks.training_batches import load, prepare  # noqa: E402

APPS = ("translation", "captioning", "summarization")
POLICIES = ("float32", "mixed_bfloat16")


class StoredBatches(keras.utils.PyDataset):
    """`fit`'s input: a list of `(x, y)` batches, in order."""

    def __init__(self, batches):
        super().__init__()
        self.batches = batches

    def __len__(self):
        return len(self.batches)

    def __getitem__(self, index):
        return self.batches[index]


# ------------------------------------------------------------------ models


def _sequence_work(model):
    """The forward FLOPs of a batch of a source-to-target model: each pair
    at its own source length (the first input's non-padding ids) and target
    steps (the labels' real tokens, `<end>` included)."""

    def work(x, labels):
        lengths = zip((x[0] != 0).sum(1), (labels != 0).sum(1))
        return sum(
            flops.sequence_to_sequence(model, int(s), int(t)) for s, t in lengths
        )

    return work


def _translation_model(build):
    from attention_zoo.applications.translation.config import TrainConfig
    from attention_zoo.applications.translation.training import build_model

    model = build_model(TrainConfig(), **build)
    return model, (lambda x, y: (tuple(x), y)), _sequence_work(model)


def _captioning_model(build):
    from attention_zoo.applications.captioning import model as models
    from attention_zoo.applications.captioning.config import TrainConfig
    from attention_zoo.applications.common.training import config_arguments

    config = TrainConfig()
    model = models.build_caption_model(
        **config_arguments(
            config,
            models.build_caption_model,
            feature_shape=tuple(build["feature_shape"]),
            vocab_size=build["vocab_size"],
        )
    )
    # The recipe's schedule (warm-up, cosine decay) changes the rate, not
    # the work of a step.
    models.compile_caption_model(model, config.learning_rate, config.doubly_stochastic)

    def work(x, labels):
        return sum(flops.caption(model, int(t)) for t in (labels != 0).sum(1))

    def batch(x, labels):
        return (x[0].astype("float32"), x[1]), {"logits": labels, "attention": labels}

    return model, batch, work


def _summarization_model(build):
    from attention_zoo.applications.common.training import config_arguments
    from attention_zoo.applications.summarization import model as models
    from attention_zoo.applications.summarization.config import TrainConfig

    config = TrainConfig()
    model = models.build_model(
        **config_arguments(config, models.build_model, vocab_size=build["vocab_size"])
    )
    models.compile_model(
        model, config.learning_rate, config.coverage_weight if config.coverage else 0.0
    )
    head = "probabilities" if config.copy else "logits"

    def batch(x, labels):
        targets = {head: labels, **({"attention": labels} if config.coverage else {})}
        return tuple(x), targets

    return model, batch, _sequence_work(model)


MODELS = {
    "translation": _translation_model,
    "captioning": _captioning_model,
    "summarization": _summarization_model,
}


def measure(app, policy, build, stored, steps):
    """One row: the model of `app` under `policy`, warmed up, then timed
    over whole passes of `stored`, `steps` steps at least."""
    epochs = -(-steps // len(stored))
    keras.utils.clear_session()
    keras.utils.set_random_seed(0)
    keras.config.set_dtype_policy(policy)
    try:
        model, batch, work = MODELS[app](build)
    finally:
        keras.config.set_dtype_policy("float32")
    batches = [batch(x, y) for x, y in stored]
    first_of_shape = {}
    for b in batches:
        first_of_shape.setdefault(
            tuple(part.shape for part in keras.tree.flatten(b)), b
        )
    start = time.perf_counter()
    model.fit(StoredBatches(list(first_of_shape.values())), verbose=0, shuffle=False)
    compile_seconds = time.perf_counter() - start
    start = time.perf_counter()
    history = model.fit(StoredBatches(batches), epochs=epochs, verbose=0, shuffle=False)
    seconds = time.perf_counter() - start
    loss = history.history["loss"][-1]
    if not math.isfinite(loss):
        raise RuntimeError(f"{app} {policy}: the training loss is {loss}")
    try:
        useful = flops.TRAINING_FACTOR * sum(work(x, y) for x, y in stored)
    except ValueError:  # a model outside `flops`'s layout
        useful = None
    examples = sum(len(y) for _, y in stored)
    tokens = sum(int((y != 0).sum()) for _, y in stored)
    return {
        "app": app,
        "policy": policy,
        "batch_size": len(stored[0][1]),
        "steps": epochs * len(stored),
        "shapes": len(first_of_shape),
        "compile_s": round(compile_seconds, 1),
        "seconds": round(seconds, 2),
        "examples_per_s": epochs * examples / seconds,
        "tokens_per_s": epochs * tokens / seconds,
        "gflops": None if useful is None else epochs * useful / seconds / 1e9,
        "loss": loss,
    }


def _limits(n):
    return {p: harness.matmul_flops(n, dtype=p.split("_")[-1]) for p in POLICIES}


def main(argv=None) -> int:
    parser = harness.argument_parser(__doc__)
    parser.add_argument("--prepare", metavar="FILE", help="store the batches and stop")
    parser.add_argument("--inputs", metavar="FILE", help="a --prepare file to train on")
    parser.add_argument("--apps", nargs="+", choices=APPS, default=list(APPS))
    parser.add_argument(
        "--policies", nargs="+", choices=POLICIES, default=list(POLICIES)
    )
    parser.add_argument(
        "--batches", type=int, default=24, help="batches stored per app"
    )
    parser.add_argument(
        "--image-batches",
        type=int,
        default=3,
        help="captioning's batches (2.8 MB of features each; one shape)",
    )
    parser.add_argument(
        "--steps",
        type=int,
        default=48,
        help="timed steps at least (whole passes over an app's batches)",
    )
    parser.add_argument("--matmul-size", type=int, default=2048)
    parser.add_argument("--json", metavar="FILE", help="write the rows")
    parser.add_argument("--against", metavar="FILE", help="a --json of another run")
    args = parser.parse_args(argv)
    if args.prepare:
        prepare(args.prepare, args.apps, args.batches, args.image_batches)
        return 0
    if not args.inputs:
        parser.error("give --prepare FILE or --inputs FILE")
    stored = load(args.inputs)
    missing = [app for app in args.apps if app not in stored]
    if missing:
        parser.error(f"--inputs {args.inputs} holds no batches of {missing}")
    harness.print_header("Training throughput, default recipes")
    limits = _limits(args.matmul_size)
    harness.print_facts(
        [
            f"{p.split('_')[-1]} matmul {args.matmul_size}: {v / 1e9:,.0f} GFLOP/s"
            for p, v in limits.items()
        ]
        + [f"devices: {[str(d) for d in _devices()]}"]
    )
    other = {}
    if args.against:
        with open(args.against, encoding="utf-8") as f:
            other = {(r["app"], r["policy"]): r for r in json.load(f)["rows"]}
    rows = []
    for app in args.apps:
        for policy in args.policies:
            rows.append(measure(app, policy, *stored[app], args.steps))
            print(
                f"{app} {policy}: {rows[-1]['tokens_per_s']:,.0f} tokens/s",
                file=sys.stderr,
                flush=True,
            )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(
                {"facts": harness.run_facts(), "limits": limits, "rows": rows},
                f,
                indent=1,
            )
    header = [
        "app",
        "policy",
        "batch",
        "steps (shapes)",
        "compile s",
        "examples/s",
        "target tokens/s",
        "GFLOP/s",
        "share of matmul",
    ]
    if other:
        header.append("tokens/s vs --against")
    table = []
    for r in rows:
        share = (
            "-"
            if r["gflops"] is None
            else (f"{100 * r['gflops'] * 1e9 / limits[r['policy']]:.1f} %")
        )
        line = [
            r["app"],
            r["policy"],
            str(r["batch_size"]),
            f"{r['steps']} ({r['shapes']})",
            f"{r['compile_s']:.1f}",
            f"{r['examples_per_s']:,.0f}",
            f"{r['tokens_per_s']:,.0f}",
            "-" if r["gflops"] is None else f"{r['gflops']:,.1f}",
            share,
        ]
        if other:
            base = other.get((r["app"], r["policy"]))
            line.append(
                "-"
                if base is None
                else harness.ratio_text(r["tokens_per_s"], base["tokens_per_s"], 1)
            )
        table.append(line)
    print()
    harness.print_table(header, table)
    return 0


def _devices():
    if keras.backend.backend() == "jax":
        import jax

        return jax.devices()
    return ["(see the backend)"]


if __name__ == "__main__":
    sys.exit(main())
