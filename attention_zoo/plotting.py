"""Attention heatmaps with matplotlib (imported lazily, Agg backend)."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def plot_attention(weights, source_labels, target_labels, title=None, ax=None):
    """Heatmap of one attention matrix: target steps (rows) x source steps (columns).

    Args:
        weights: array-like `(Ty, Tx)`; rows are cut to `len(target_labels)`
            and columns to `len(source_labels)`.
        source_labels: labels of the columns (e.g. input characters).
        target_labels: labels of the rows (e.g. output characters).
        title: optional title.
        ax: optional matplotlib Axes to draw into.

    Returns:
        The matplotlib Figure.
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    weights = np.asarray(weights, dtype="float32")
    if weights.ndim != 2:
        raise ValueError(
            f"`weights` must have shape (Ty, Tx). Received: weights.shape={weights.shape}"
        )
    source_labels, target_labels = list(source_labels), list(target_labels)
    weights = weights[: len(target_labels), : len(source_labels)]
    if ax is None:
        width = max(4.0, 0.32 * len(source_labels) + 1.5)
        height = max(3.0, 0.32 * len(target_labels) + 1.2)
        fig, ax = plt.subplots(figsize=(width, height))
    else:
        fig = ax.figure
    image = ax.imshow(weights, cmap="viridis", vmin=0.0, vmax=1.0, aspect="auto")
    words = any(len(str(c)) > 1 for c in source_labels)
    ax.set_xticks(
        range(len(source_labels)),
        [repr(c)[1:-1] if c == " " else c for c in source_labels],
        rotation=90 if words else 0,  # word labels would overlap
    )
    ax.set_yticks(range(len(target_labels)), target_labels)
    ax.set_xlabel("input")
    ax.set_ylabel("output")
    if title:
        ax.set_title(title)
    fig.colorbar(image, ax=ax, fraction=0.04)
    fig.tight_layout()
    return fig


def save_attention_plot(
    path, weights, source_labels, target_labels, title=None
) -> Path:
    """`plot_attention` written to a PNG file; returns the path."""
    import matplotlib.pyplot as plt

    fig = plot_attention(weights, source_labels, target_labels, title=title)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
