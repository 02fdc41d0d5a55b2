"""A predictor's answers as JSON: the output, score, validity and reason
of each input and, on request, its attention with the tokens on each axis."""

from __future__ import annotations

import math

import numpy as np

from attention_zoo.applications.common.predictor_protocol import DETAILS

# Attention weights are sent to this many decimals: enough for a heat map,
# a third of the bytes of full floats.
DECIMALS = 4
# Per-application extras a predictor returns that the API passes on.
EXTRAS = ("notes", "p_gen", "copied", "distance", "n_best", *DETAILS)


def _number(value):
    """A finite float, else None (JSON has no -inf or NaN)."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _plain(value):
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, np.generic):
        return _plain(value.item())
    return value


def answer(item: dict, with_attention: bool, grid_shape=None) -> dict:
    """One input's JSON answer from a predictor's item."""
    out = {
        "output": item.get("text", ""),
        "score": _number(item.get("score")),
        "valid": bool(item.get("valid")),
        "reason": item.get("reason", ""),
    }
    for key in EXTRAS:
        if key in item:
            out[key] = _plain(item[key])
    if with_attention:
        weights = np.asarray(item.get("attention", np.zeros((0, 0))), "float64")
        if weights.ndim != 2:
            weights = weights.reshape(len(weights), -1)
        tokens = list(item.get("tokens", []))
        # The last row is the <end> step when there is one more row than words.
        rows = [*tokens, "<end>"][: len(weights)]
        if grid_shape:
            cells = int(np.prod(grid_shape))
            source = [
                f"cell {i // grid_shape[1]},{i % grid_shape[1]}" for i in range(cells)
            ]
        else:
            source = list(item.get("source_tokens", []))
        weights = weights[:, : len(source)]
        out["attention"] = {
            "weights": np.round(np.nan_to_num(weights), DECIMALS).tolist(),
            "output_tokens": rows,
            "source_tokens": source,
            **({"grid_shape": list(grid_shape)} if grid_shape else {}),
        }
    return out
