"""The slice of test data a preset ships with, and its score.

A preset carries a few hundred of its run's test examples (`test_slice.json`)
and the metrics it reached on them at build time; the preset tests re-score
the slice on every backend and compare, so a preset whose weights, assets or
card disagree fails.
"""

from __future__ import annotations

from pathlib import Path

SLICE_FILE = "test_slice.json"
SLICE_SIZE = 300


def write_slice(app: str, run_dir, path, size: int = SLICE_SIZE) -> None:
    """Copies the first `size` test examples of `run_dir` to `path`."""
    run_dir, path = Path(run_dir), Path(path)
    if app == "dates":
        from attention_zoo.applications.dates import data

        examples = data.load_examples(run_dir / "data" / "test.json")
        data.save_examples(path, examples[:size])
        return
    raise ValueError(f"no test slice is defined for the {app} application")


def score_slice(predictor, folder) -> dict:
    """The metrics of `predictor` on the slice in `folder`."""
    path = Path(folder) / SLICE_FILE
    if predictor.app == "dates":
        from attention_zoo.applications.dates import data
        from attention_zoo.applications.dates.evaluation import evaluate_examples

        metrics = evaluate_examples(predictor, data.load_examples(path))
        return {"n": metrics["n"], "exact_match": metrics["exact_match"]}
    raise ValueError(f"no test slice is defined for the {predictor.app} application")
