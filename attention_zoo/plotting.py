"""Attention heatmaps with matplotlib (imported lazily).

The figures are `matplotlib.figure.Figure` objects made without pyplot:
nothing here selects a backend or registers a figure with pyplot, so a
notebook's or GUI's backend is left alone and a figure is freed with its
last reference. Return one from a notebook cell, or `fig.savefig(path)`.
"""

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
    from matplotlib.figure import Figure

    weights = np.asarray(weights, dtype="float32")
    if weights.ndim != 2:
        raise ValueError(
            f"`weights` must have shape (Ty, Tx). Received: weights.shape={weights.shape}"
        )
    source_labels, target_labels = list(source_labels), list(target_labels)
    if weights.shape[0] < len(target_labels) or weights.shape[1] < len(source_labels):
        raise ValueError(
            f"`weights` must have a row per target label and a column per source "
            f"label, ({len(target_labels)}, {len(source_labels)}) at least. "
            f"Received: weights.shape={weights.shape}"
        )
    weights = weights[: len(target_labels), : len(source_labels)]
    if ax is None:
        width = max(4.0, 0.32 * len(source_labels) + 1.5)
        height = max(3.0, 0.32 * len(target_labels) + 1.2)
        fig = Figure(figsize=(width, height))
        ax = fig.subplots()
    else:
        fig = ax.figure
    image = ax.imshow(weights, cmap="viridis", vmin=0.0, vmax=1.0, aspect="auto")
    words = any(len(str(c)) > 1 for c in source_labels)
    ax.set_xticks(
        range(len(source_labels)),
        [repr(c) if c == " " else c for c in source_labels],  # ' ' visible
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
    fig = plot_attention(weights, source_labels, target_labels, title=title)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    return path


def plot_image_attention(image, words, weights, grid_shape, columns: int = 5):
    """The figure of Show, Attend and Tell: the image, then one panel per word.

    Each word's attention over the `H x W` grid is upsampled bilinearly to
    the image and blended over it (white where the decoder looked).

    Args:
        image: `(S, S, 3)` uint8 RGB array.
        words: the generated words (e.g. with a final `<end>`).
        weights: array-like `(T, H * W)`; row `t` is the attention of
            `words[t]` (rows past `len(words)` are ignored).
        grid_shape: `(H, W)` of the encoder's feature grid.
        columns: panels per row.

    Returns:
        The matplotlib Figure.
    """
    from matplotlib.figure import Figure

    image = np.asarray(image)
    weights = np.asarray(weights, dtype="float32")
    height, width = (int(d) for d in grid_shape)
    words = list(words)
    if image.ndim != 3 or image.shape[-1] != 3:
        raise ValueError(
            f"`image` must have shape (S, S, 3). Received: image.shape={image.shape}"
        )
    if weights.ndim != 2 or weights.shape[1] != height * width:
        raise ValueError(
            "`weights` must have shape (T, H * W) for grid_shape="
            f"{(height, width)}. Received: weights.shape={weights.shape}"
        )
    if weights.shape[0] < len(words):
        raise ValueError(
            f"`weights` has {weights.shape[0]} rows for {len(words)} words. "
            f"Received: words={words}"
        )
    panels = len(words) + 1
    rows = -(-panels // columns)
    fig = Figure(figsize=(2.2 * columns, 2.4 * rows))
    axes = fig.subplots(rows, columns, squeeze=False)
    extent = (0, image.shape[1], image.shape[0], 0)
    for ax in axes.flat:
        ax.axis("off")
    axes.flat[0].imshow(image)
    axes.flat[0].set_title("input", fontsize=9)
    for ax, word, row in zip(axes.flat[1:], words, weights):
        grid = row.reshape(height, width)
        ax.imshow(image)
        ax.imshow(
            grid / max(float(grid.max()), 1e-12),
            cmap="gray",
            alpha=0.65,
            extent=extent,
            interpolation="bilinear",
            vmin=0.0,
            vmax=1.0,
        )
        ax.set_title(word, fontsize=9)
    fig.tight_layout()
    return fig


def save_image_attention_plot(path, image, words, weights, grid_shape) -> Path:
    """`plot_image_attention` written to a PNG file; returns the path."""
    fig = plot_image_attention(image, words, weights, grid_shape)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    return path
