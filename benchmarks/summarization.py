"""Headline summarization of Debian package descriptions: the lead baseline,
attention without copy, the pointer-generator and the pointer-generator
with coverage, trained in one run on the same split with the same budget.

- `lead-N`: the description's first N words, N chosen on the validation
  texts (ROUGE-L), the baseline every summarization paper starts from.
- `attention`: `attention-zoo summarization train --no-copy` (a GRU
  encoder-decoder with Bahdanau attention, the vocabulary softmax alone).
- `pointer-generator`: the default (`PointerGenerator` copy attention).
- `pointer-generator + coverage`: `--coverage` (coverage attention and
  loss, weight 1).

Each model trains with `model.fit` (early stopping on the validation loss,
best weights restored) for at most `--minutes` of wall time; the test texts
are then summarized by greedy and beam search (`--beam-width`). Columns:
ROUGE-1/2/L F1 (Google's `rouge-score`, stemmed), `names` (of the reference
words that are text words outside the vocabulary, the share the summary
has), `copy` (summary words copied), `novel` (summary words not in the
text), `repeat` (summary words repeating an earlier one) and the training
time and epochs.

Usage:

    python -m benchmarks.summarization                  # 3 x 20 min + evaluation
    python -m benchmarks.summarization --minutes 10 --test-size 1000
    python -m benchmarks.summarization --epochs 1 --minutes 60 --test-size 1000
                                                        # the same epochs each
    python -m benchmarks.summarization --quick          # smoke test, ~3 min
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from attention_zoo.applications.common.text import tokenize  # noqa: E402
from attention_zoo.applications.summarization import data  # noqa: E402
from attention_zoo.applications.summarization.config import TrainConfig  # noqa: E402
from attention_zoo.applications.summarization.evaluation import (  # noqa: E402
    lead,
    rouge,
    summary_statistics,
)
from attention_zoo.applications.summarization.predictor import Summarizer  # noqa: E402
from attention_zoo.applications.summarization.training import train  # noqa: E402
from benchmarks import harness  # noqa: E402

MODELS = {
    "attention": {"copy": False},
    "pointer-generator": {},
    "pointer-generator + coverage": {"coverage": True},
}
LEAD_WORDS = range(3, 13)


def best_lead(validation) -> int:
    """The N of `lead-N` with the best validation ROUGE-L."""
    references = [e.summary for e in validation]
    scores = {
        n: rouge([lead(e.text, n) for e in validation], references)["rougeL"]
        for n in LEAD_WORDS
    }
    return max(scores, key=scores.get)


def lead_row(test, vocabulary, words: int) -> dict:
    """The lead baseline's statistics, as a summarizer's are computed."""
    items = []
    for e in test:
        tokens = tokenize(lead(e.text, words))
        items.append(
            {
                "text": lead(e.text, words),
                "tokens": tokens,
                "copied": [True] * len(tokens),
                "valid": True,
            }
        )
    return summary_statistics(test, items, vocabulary)


def main(argv=None) -> int:
    parser = harness.argument_parser(__doc__)
    parser.add_argument("--beam-width", type=int, default=4)
    parser.add_argument("--json", type=Path, default=None, help="also write the rows")
    parser.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="training budget of fit per model (default 20, --quick 0.5)",
    )
    args = harness.parse_quick_args(
        parser,
        argv,
        "a small budget and sample (smoke test)",
        {
            "epochs": (30, 1, "epochs at most per model"),
            "train_size": (None, 2000, "training texts at most (default: all)"),
            "test_size": (None, 200, "test texts scored (default: all)"),
        },
    )
    if args.minutes is None:
        args.minutes = 0.5 if args.quick else 20.0
    harness.print_header("Headline summarization: Debian package descriptions")
    train_set, validation, test = data.split_by_source(data.debian_examples())
    test = test[: args.test_size] if args.test_size else test
    words = best_lead(validation[:2000])
    rows = []
    with tempfile.TemporaryDirectory() as work:
        pairs = {}
        for name, split in (("validation", validation), ("test", test)):
            pairs[name] = Path(work) / f"{name}.tsv"
            data.write_pairs(pairs[name], split)
        vocabulary = None
        for model, flags in MODELS.items():
            config = TrainConfig(
                validation_pairs=str(pairs["validation"]),
                test_pairs=str(pairs["test"]),
                n_train=args.train_size,
                epochs=args.epochs,
                max_minutes=args.minutes,
                beam_width=args.beam_width,
                **flags,
            )
            run = Path(work) / model.replace(" ", "")
            start = time.perf_counter()
            metrics = train(run, config, verbose=2)
            seconds = time.perf_counter() - start
            summarizer = Summarizer(run)
            vocabulary = summarizer.vocabulary
            for search in (k for k in metrics["test"] if k != "n"):
                rows.append(
                    {
                        "model": model,
                        "search": search,
                        **metrics["test"][search],
                        "epochs": metrics["training"]["epochs"],
                        "fit_minutes": round(metrics["training"]["seconds"] / 60, 1),
                        "run_minutes": round(seconds / 60, 1),
                    }
                )
        rows.insert(
            0,
            {
                "model": f"lead-{words}",
                "search": "-",
                **lead_row(test, vocabulary, words),
            },
        )
    if args.json:  # first, so a failure below loses no measurement
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    harness.print_facts(
        [
            *harness.run_facts(),
            f"training texts: {args.train_size or len(train_set):,} of {len(train_set):,}; "
            f"validation {len(validation):,}; test {len(test):,} (split by source package)",
            f"budget per model: {args.minutes} min of fit, {args.epochs} epochs at most",
        ]
    )
    header = ["model", "search", "ROUGE-1", "ROUGE-2", "ROUGE-L", "names", "copy"]
    header += ["novel", "repeat", "epochs", "fit min"]
    harness.print_table(
        header,
        [
            [
                r["model"],
                r["search"],
                f"{r['rouge1']:.2f}",
                f"{r['rouge2']:.2f}",
                f"{r['rougeL']:.2f}",
                "-" if r["names"] is None else f"{100 * r['names']:.1f} %",
                f"{100 * r['copy_rate']:.1f} %",
                f"{100 * r['novel_share']:.1f} %",
                f"{100 * r['repetition']:.1f} %",
                str(r.get("epochs", "-")),
                str(r.get("fit_minutes", "-")),
            ]
            for r in rows
        ],
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
