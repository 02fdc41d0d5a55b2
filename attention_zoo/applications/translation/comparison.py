"""Several evaluated runs side by side: BLEU by source length."""

from __future__ import annotations

import os
from pathlib import Path

from attention_zoo.applications.common.search import search_names
from attention_zoo.applications.translation.evaluation import (
    LENGTH_BUCKETS,
    length_bucket,
)


def run_labels(run_dirs) -> list[str]:
    """A distinct short name per run folder, for comparison tables and plots.

    Each is the shortest tail of the folder's absolute path that no other
    folder shares: `["x/cmpA/run", "x/cmpB/run", "y"]` gives `["cmpA/run",
    "cmpB/run", "y"]`. A folder given twice is told apart by " (2)".
    """
    paths = [Path(os.path.abspath(r)).parts for r in run_dirs]
    labels = []
    for path in paths:
        others = [p for p in paths if p != path]
        n = 1
        while n < len(path) and any(p[-n:] == path[-n:] for p in others):
            n += 1
        labels.append(str(Path(*path[-n:])))
    seen = {}
    for i, label in enumerate(labels):
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            labels[i] = f"{label} ({seen[label]})"
    return labels


def _check_decoding(named_metrics: dict, decoding: str):
    missing = [name for name, m in named_metrics.items() if decoding not in m]
    if missing:
        raise ValueError(
            f"runs {missing} were not evaluated with {decoding} decoding. "
            f"Received: decoding={decoding!r}"
        )


def compare_runs(named_metrics: dict) -> str:
    """BLEU by source length of several evaluated runs, one table per decoding.

    A decoding only some runs hold (runs trained with different beam
    widths, evaluated at their own) is named below the tables, not compared.
    """
    held = {name: search_names(m) for name, m in named_metrics.items()}
    shared = [
        d for d in next(iter(held.values())) if all(d in h for h in held.values())
    ]
    parts = [
        f"BLEU by source length ({d})\n\n{compare_lengths(named_metrics, d)}\n"
        for d in shared
    ]
    unshared = {name: [d for d in h if d not in shared] for name, h in held.items()}
    if any(unshared.values()):
        only = "; ".join(f"{name}: {', '.join(d)}" for name, d in unshared.items() if d)
        parts.append(
            f"Not compared, as not every run holds them: {only}. Pass --beam-width "
            "to evaluate every run at the same beam width.\n"
        )
    return "\n".join(parts)


def compare_lengths(named_metrics: dict, decoding: str = "greedy") -> str:
    """Markdown table of BLEU by source length for several evaluated runs."""
    _check_decoding(named_metrics, decoding)
    names = list(named_metrics)
    labels = [length_bucket(low) for low, _ in LENGTH_BUCKETS]
    lines = [
        "| source words | n | " + " | ".join(names) + " |",
        "| --- | ---: |" + " ---: |" * len(names),
    ]
    for label in labels:
        cells = [
            named_metrics[n][decoding]["by_source_length"].get(label) for n in names
        ]
        if not any(cells):
            continue
        # Runs evaluated on different test sets count different sentences
        # here: then each run's count, in the runs' order.
        counts = [c["n"] if c else 0 for c in cells]
        count = counts[0] if len(set(counts)) == 1 else " / ".join(map(str, counts))
        values = [f"{c['bleu']:.2f}" if c else "" for c in cells]
        lines.append(f"| {label} | {count} | " + " | ".join(values) + " |")
    return "\n".join(lines)


def plot_lengths(named_metrics: dict, path, decoding: str = "greedy") -> Path:
    """BLEU by source length, one line per run (Bahdanau et al. 2015, Figure 2)."""
    _check_decoding(named_metrics, decoding)
    from matplotlib.figure import Figure  # no pyplot: see attention_zoo.plotting

    labels = [length_bucket(low) for low, _ in LENGTH_BUCKETS]
    fig = Figure(figsize=(6, 4))
    ax = fig.subplots()
    for name, metrics in named_metrics.items():
        buckets = metrics[decoding]["by_source_length"]
        xs = [i for i, label in enumerate(labels) if label in buckets]
        ax.plot(xs, [buckets[labels[i]]["bleu"] for i in xs], marker="o", label=name)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_xlabel("source sentence length (words)")
    ax.set_ylabel(f"BLEU ({decoding})")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    # savefig adds .png to a name without a suffix: the file it wrote.
    path = Path(path)
    return path if path.suffix else path.with_name(path.name + ".png")
