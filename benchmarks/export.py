"""Each export format of a preset side by side, in one run: file size,
load time, single-input latency, batch throughput, agreement with the
Keras predictor and the preset's headline metric on its test slice, for
the SavedModel (TensorFlow), LiteRT float32 and int8 (the LiteRT
interpreter) and ONNX (ONNX Runtime), all through
`attention_zoo.applications.load_exported`, beside the Keras predictor itself
(each preset's own search: greedy for dates, beam search for the others).

Usage (needs `pip install ".[export]"`):

    python -m benchmarks.export                  # every preset with a LiteRT/ONNX core
    python -m benchmarks.export --apps dates --repeats 200

The LiteRT files hold a batch of 1 (docs/export.md), so their batch
throughput is one input at a time; the others take the whole batch.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from attention_zoo.applications import load_exported, registry  # noqa: E402
from attention_zoo.presets import PRESETS_DIR  # noqa: E402

VARIANTS = (
    ("Keras predictor", None, "float32"),
    ("SavedModel (TensorFlow)", "saved_model", "float32"),
    ("LiteRT float32", "litert", "float32"),
    ("LiteRT int8", "litert", "int8"),
    ("ONNX Runtime", "onnx", "float32"),
)
MODEL_FILES = {
    ("litert", "float32"): ["model.tflite"],
    ("litert", "int8"): ["model_int8.tflite"],
    ("onnx", "float32"): ["model.onnx"],
}
# Inputs per batch: an image costs its encoder about 100 times what a
# date costs the normalizer.
DEFAULT_BATCH = {"captioning": 100}


def size_mb(folder: Path, fmt: str, precision: str) -> float:
    if fmt == "saved_model":
        files = [p for p in folder.rglob("*") if p.is_file()]
    else:
        files = [folder / name for name in MODEL_FILES[(fmt, precision)]]
    return sum(p.stat().st_size for p in files) / 1e6


def headline(app, predictor, path: Path) -> str:
    """The first metric of the test slice's score, for a predictor."""
    if not hasattr(predictor, "predict_items"):
        return "n/a"
    metrics = app.test_slice.score(predictor, path)
    name, value = next((k, v) for k, v in metrics.items() if k != "n")
    return f"{name} {value:.4g}"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--apps",
        nargs="*",
        default=None,
        help="applications (default: every one with a LiteRT/ONNX core)",
    )
    parser.add_argument(
        "--repeats", type=int, default=100, help="single-input calls (default 100)"
    )
    parser.add_argument(
        "--batch",
        type=int,
        default=None,
        help="inputs of the batch (default 1000; 100 images for captioning)",
    )
    parser.add_argument(
        "--variants",
        nargs="*",
        default=None,
        help="rows to measure, by label (default: all; the first one measured "
        "is the reference of 'same text as Keras'): "
        + ", ".join(repr(v[0]) for v in VARIANTS),
    )
    args = parser.parse_args(argv)
    print(
        "| preset | format | size (MB) | load (s) | single p50 (ms) | "
        "batch (inputs/s) | same text as Keras | test slice |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for app in registry.applications():
        if app.export_core is None or (args.apps and app.name not in args.apps):
            continue
        preset = app.command.default_preset
        path = PRESETS_DIR / preset / "test_slice.json"
        texts = app.test_slice.inputs(path)
        size = args.batch or DEFAULT_BATCH.get(app.name, 1000)
        batch = (texts * (size // len(texts) + 1))[:size]
        reference = None
        with tempfile.TemporaryDirectory() as root:
            # One process per export, as a user runs it (tf2onnx slows down
            # converting a model after others in one process).
            wanted = [v for v in VARIANTS if not args.variants or v[0] in args.variants]
            for fmt in dict.fromkeys(f for _, f, _ in wanted if f):
                out = Path(root) / fmt
                subprocess.run(
                    [sys.executable, "-m", "attention_zoo", app.name, "export"]
                    + ["--preset", preset, "--output", str(out), "--format", fmt],
                    check=True,
                    capture_output=True,
                )
            for label, fmt, precision in wanted:
                folder = Path(root) / (fmt or "")
                start = time.perf_counter()
                if fmt is None:
                    predictor = app.predictor(PRESETS_DIR / preset)
                else:
                    predictor = load_exported(folder, precision)
                predictor(texts[:1])  # the first call compiles or allocates
                load = time.perf_counter() - start
                times = []
                for i in range(args.repeats):
                    start = time.perf_counter()
                    predictor([texts[i % len(texts)]])
                    times.append(time.perf_counter() - start)
                predictor(batch)  # a new batch size compiles again (XLA)
                start = time.perf_counter()
                predictor(batch)
                rate = len(batch) / (time.perf_counter() - start)
                outputs = [i["text"] for i in predictor(texts)]
                reference = reference or outputs
                same = sum(a == b for a, b in zip(outputs, reference)) / len(texts)
                size = "" if fmt is None else f"{size_mb(folder, fmt, precision):.2f}"
                print(
                    f"| {preset} | {label} | {size} | {load:.2f} | "
                    f"{1000 * statistics.median(times):.2f} | {rate:,.0f} | "
                    f"{100 * same:.1f} % | {headline(app, predictor, path)} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
