"""Each export format of a preset side by side, in one run: file size,
load time, single-input latency, batch throughput and exact matches on the
preset's test slice, for the SavedModel (TensorFlow), LiteRT float32 and
int8 (the LiteRT interpreter) and ONNX (ONNX Runtime), all through
`attention_zoo.export.load_exported`.

Usage (needs `pip install 'attention-zoo[export]'`):

    python -m benchmarks.export                    # every preset with a LiteRT/ONNX core
    python -m benchmarks.export --repeats 200 --batch 2000

The LiteRT files hold a batch of 1 (docs/export.md), so their batch
throughput is one input at a time; SavedModel and ONNX take the whole
batch at once.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from attention_zoo.applications import registry  # noqa: E402
from attention_zoo.export import load_exported  # noqa: E402
from attention_zoo.presets import PRESETS_DIR  # noqa: E402

VARIANTS = (
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


def size_mb(folder: Path, fmt: str, precision: str) -> float:
    if fmt == "saved_model":
        files = [p for p in folder.rglob("*") if p.is_file()]
    else:
        files = [folder / name for name in MODEL_FILES[(fmt, precision)]]
    return sum(p.stat().st_size for p in files) / 1e6


def test_slice(preset: str):
    rows = json.loads((PRESETS_DIR / preset / "test_slice.json").read_text("utf-8"))
    return [r["text"] for r in rows], [r["iso"] for r in rows]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repeats", type=int, default=100, help="single-input calls (default 100)"
    )
    parser.add_argument(
        "--batch", type=int, default=1000, help="inputs of the batch (default 1000)"
    )
    args = parser.parse_args(argv)
    print(
        "| preset | format | size (MB) | load (s) | single p50 (ms) | "
        "batch (inputs/s) | exact on test slice |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for app in registry.applications():
        if app.export_core is None:
            continue
        preset = app.command.default_preset
        texts, truth = test_slice(preset)
        batch = (texts * (args.batch // len(texts) + 1))[: args.batch]
        with tempfile.TemporaryDirectory() as root:
            for fmt in ("saved_model", "litert", "onnx"):
                registry.export(app.name, preset, Path(root) / fmt, fmt)
            for label, fmt, precision in VARIANTS:
                folder = Path(root) / fmt
                start = time.perf_counter()
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
                items = predictor(texts)
                exact = sum(
                    i["text"] == t and i["valid"] for i, t in zip(items, truth)
                ) / len(truth)
                print(
                    f"| {preset} | {label} | {size_mb(folder, fmt, precision):.2f} | "
                    f"{load:.2f} | {1000 * statistics.median(times):.2f} | "
                    f"{rate:,.0f} | {100 * exact:.1f} % |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
