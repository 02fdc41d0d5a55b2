"""Show-Attend-Tell captioning: speed of each stage, and the doubly stochastic term.

Two tables, measured in one run:

1. **Speed** on the generated scenes at the encoder's default size (224 px
   for EfficientNet-Lite0): images/s of feature extraction (the frozen
   encoder, a plain graph: `extract_features`); training steps/s of
   the caption model on cached features against the same caption model fed
   by the frozen encoder at every step (`build_end_to_end_model`), batch 64,
   timed after a warm-up `fit` that compiles the step; captions/s of greedy
   and beam-3 decoding from cached features and from images (encoder +
   decoder), after a warm-up call.
2. **Doubly stochastic attention** (Xu et al. 2015, eq. 14): the default
   training (`train`, the CLI's settings) once per `--lambdas` value on
   the same scenes and the same cached features, then BLEU-1..4 on the test
   scenes (greedy and beam 3), attention grounding (does the peak of a
   shape word's attention lie in that object's box), the mean entropy of
   the attention of a step (nats; ln 49 = 3.89 is uniform over a 7 x 7 grid)
   and the mean doubly stochastic penalty of a caption.

Usage:

    python -m benchmarks.captioning                  # both tables
    python -m benchmarks.captioning --quick          # small smoke run
    python -m benchmarks.captioning --only-speed
    python -m benchmarks.captioning --lambdas 0 0.1 1
    KERAS_BACKEND=jax python -m benchmarks.captioning
"""

from __future__ import annotations

import datetime
import os
import tempfile
import time
from dataclasses import replace

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import keras  # noqa: E402
import numpy as np  # noqa: E402

from attention_zoo.applications.captioning import model as models  # noqa: E402
from attention_zoo.applications.captioning.batches import CaptionBatches
from attention_zoo.applications.captioning.config import TrainConfig
from attention_zoo.applications.captioning.features import (
    build_encoder,
    extract_features,
)
from attention_zoo.applications.captioning.scene_generator import (  # noqa: E402
    generate_scenes,
)
from attention_zoo.applications.captioning.training import train
from benchmarks import flops, harness  # noqa: E402


def _rate(count, seconds):
    return count / max(seconds, 1e-9)


def speed(config: TrainConfig, n_images: int, steps: int, repeats: int):
    """Rows of the speed table."""
    encoder = build_encoder(config)
    size = int(encoder.input_shape[1])
    scenes = generate_scenes(n_images, seed=123, image_size=size)
    images = [s.image for s in scenes]
    extract_features(encoder, images[:32], size)  # compile
    start = time.perf_counter()
    features = extract_features(encoder, images, size)
    extraction = _rate(len(images), time.perf_counter() - start)

    vocabulary_size, length, batch = 30, 16, 64
    rng = np.random.default_rng(0)
    pairs = [
        (i % len(images), list(rng.integers(4, vocabulary_size, size=12)))
        for i in range(batch * steps)
    ]
    settings = (
        "units embedding_dim attention_units feature_units dropout "
        "context_dropout gate position_embedding initial_state seed"
    )
    caption_model = models.build_caption_model(  # as train builds it
        tuple(int(d) for d in features.shape[1:]),
        vocabulary_size,
        **{name: getattr(config, name) for name in settings.split()},
    )
    end_to_end = models.build_end_to_end_model(encoder, caption_model)
    stacked = np.stack(images)
    rows = {}
    for name, model, inputs in (
        ("cached features", caption_model, features),
        ("images (frozen encoder every step)", end_to_end, stacked),
    ):
        models.compile_caption_model(model)
        batches = CaptionBatches(inputs, pairs, batch, length, seed=0)
        warm = CaptionBatches(inputs, pairs[: 2 * batch], batch, length)
        model.fit(warm, epochs=1, verbose=0)
        times = harness.sample_times(
            lambda model=model, batches=batches: model.fit(batches, verbose=0),
            repeats,
            warmup=0,
        )
        rows[name] = _rate(len(batches), min(times))
    # The useful work of a training step: each caption's 12 words and <end>
    # through the caption model (forward and backward), and for the
    # end-to-end model each image through the frozen encoder (forward).
    caption_step = batch * flops.TRAINING_FACTOR * flops.caption(caption_model, 13)
    image = flops.layers_forward(encoder)
    work = {
        "cached features": caption_step,
        "images (frozen encoder every step)": caption_step + batch * image,
        "an image through the encoder": image,
    }
    decode = {}
    encode = models.compiled(
        lambda x: encoder(x, training=False), (size, size, 3), jit_compile=False
    )
    for width in (1, 3):
        fn = models.compiled(
            models.make_caption_fn(caption_model, length, width), features.shape[1:]
        )
        for source, run, x in (
            ("features", fn, features[:batch].astype("float32")),
            (
                "images",
                lambda x, fn=fn: fn(encode(x)),
                stacked[:batch].astype("float32"),
            ),
        ):
            times = harness.sample_times(  # the warm-up call compiles
                lambda run=run, x=x: keras.ops.convert_to_numpy(run(x)[0]),
                repeats,
                warmup=1,
            )
            decode[(width, source)] = _rate(batch, min(times))
    return extraction, rows, work, decode


def lambdas(config: TrainConfig, values):
    cache, results = {}, {}
    with tempfile.TemporaryDirectory() as folder:
        for value in values:
            run_config = replace(config, doubly_stochastic=float(value))
            start = time.perf_counter()
            metrics = train(
                os.path.join(folder, f"lambda_{value}"),
                run_config,
                verbose=0,
                feature_cache=cache,
            )
            metrics["wall_seconds"] = time.perf_counter() - start
            results[value] = metrics
    return results


def main(argv=None):
    parser = harness.argument_parser(__doc__)
    parser.add_argument("--quick", action="store_true", help="small smoke run")
    parser.add_argument("--only-speed", action="store_true")
    parser.add_argument("--only-lambdas", action="store_true")
    parser.add_argument("--lambdas", type=float, nargs="+", default=[0.0, 1.0])
    parser.add_argument("--n-train", type=int, default=None)
    parser.add_argument("--epochs", type=int, default=None)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--feature-layer", default=None, help="as the CLI's (e.g. 'last': 7x7)"
    )
    parser.add_argument("--initial-state", default=None, help="zeros or mean_memory")
    args = parser.parse_args(argv)

    config = TrainConfig()
    n_images, steps = 256, 10
    if args.quick:
        config = replace(
            config, n_train=300, n_validation=50, n_test=100, epochs=2, image_size=96
        )
        n_images, steps = 64, 3
    if args.n_train:
        config = replace(config, n_train=args.n_train)
    if args.epochs:
        config = replace(config, epochs=args.epochs)
    if args.feature_layer:
        config = replace(config, feature_layer=args.feature_layer)
    if args.initial_state:
        config = replace(config, initial_state=args.initial_state)

    print(f"# Captioning benchmark, {datetime.datetime.now():%Y-%m-%d %H:%M}")
    print(
        f"versions: {harness.versions_line()}; machine: {harness.machine_line()}; "
        f"load average {harness.load_average()}; backbone "
        f"{config.backbone} ({config.weights}), image size "
        f"{config.image_size or 'default'}, feature layer "
        f"{config.feature_layer or 'default'}, initial state {config.initial_state}\n"
    )
    if not args.only_lambdas:
        limit = harness.matmul_flops()
        extraction, training, work, decode = speed(
            config, n_images, steps, args.repeats
        )
        print(f"## Speed ({n_images} scenes, batch 64, best of {args.repeats})\n")
        image = work["an image through the encoder"]
        print(
            f"feature extraction: {extraction:.1f} images/s (batch 32), "
            f"{image / 1e9:.3f} GFLOP an image, "
            f"{100 * extraction * image / limit:.1f} % of the machine's limit\n"
        )
        cached = training["cached features"]
        harness.print_table(
            [
                "training input",
                "steps/s",
                "vs cached",
                "GFLOP a step",
                "share of the machine's limit",
            ],
            [
                [
                    k,
                    f"{v:.2f}",
                    harness.ratio_text(v, cached, 3),
                    f"{work[k] / 1e9:.2f}",
                    f"{100 * v * work[k] / limit:.1f} %",
                ]
                for k, v in training.items()
            ],
            numeric_columns=True,
        )
        print(
            "share of the machine's limit: the floating-point work of a step "
            "(`benchmarks/flops.py`: 64 captions of 13 steps, 3x the forward "
            "pass; the frozen encoder's forward pass) x steps/s, over "
            f"{limit / 1e9:.1f} GFLOP/s, a 2048 x 2048 float32 matmul measured "
            "in this run\n"
        )
        harness.print_table(
            ["decoding", "from features (captions/s)", "from images (captions/s)"],
            [
                [
                    "greedy" if width == 1 else f"beam {width}",
                    f"{decode[(width, 'features')]:.1f}",
                    f"{decode[(width, 'images')]:.1f}",
                ]
                for width in (1, 3)
            ],
            numeric_columns=True,
        )
    if not args.only_speed:
        results = lambdas(config, args.lambdas)
        print(
            f"## Doubly stochastic attention ({config.n_train} training scenes, "
            f"{config.n_test} test scenes, {config.epochs} epochs)\n"
        )
        rows = []
        for value, metrics in results.items():
            for decoding in ("greedy", f"beam{config.beam_width}"):
                m = metrics["test"][decoding]
                rows.append(
                    [
                        f"{value:g}",
                        decoding,
                        *(f"{m[f'bleu{n}']:.4f}" for n in range(1, 5)),
                        f"{100 * m['grounding']:.2f} %",
                        f"{m['attention_entropy']:.3f}",
                        f"{m['doubly_stochastic_penalty']:.2f}",
                    ]
                )
        harness.print_table(
            [
                "lambda",
                "decoding",
                "BLEU-1",
                "BLEU-2",
                "BLEU-3",
                "BLEU-4",
                "grounding",
                "entropy",
                "penalty",
            ],
            rows,
            numeric_columns=True,
        )
        for value, metrics in results.items():
            t = metrics["training"]
            print(
                f"lambda {value:g}: {t['epochs']} epochs, fit {t['seconds']} s, "
                f"features {t['feature_seconds']} s, whole run "
                f"{metrics['wall_seconds']:.0f} s"
            )


if __name__ == "__main__":
    main()
