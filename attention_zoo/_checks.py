"""Argument checks shared by the layers, decoders and decoding functions."""

from __future__ import annotations

import math
import numbers

import numpy as np


def is_int(value) -> bool:
    """True for Python and NumPy integers (`np.int64(4)`), False for bools."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def optional_int(value):
    """`int(value)`, or `None` for `None`: configs stay JSON-serialisable."""
    return None if value is None else int(value)


def is_real(value) -> bool:
    """True for finite Python and NumPy reals, False for bools and strings."""
    return (
        isinstance(value, numbers.Real)
        and not isinstance(value, bool)
        and math.isfinite(value)
    )


def is_rate(value) -> bool:
    """True for a real in `[0, 1)`: a dropout rate."""
    return is_real(value) and 0.0 <= value < 1.0


def checked_bool(owner: str, name: str, value) -> bool:
    """`value` as a Python bool; a ValueError naming `name` for anything else.

    `bool(value)` would read the string `"no"` or the number `2` as `True`.
    """
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(
            f"{owner}: `{name}` must be a bool. Received: {name}={value!r}"
        )
    return bool(value)


def checked_seed(owner: str, seed):
    """`seed` as a Python int or `None`; a ValueError naming it otherwise.

    Keras's `SeedGenerator` and `Dropout` refuse NumPy integers, so the
    converted value is the one to pass on.
    """
    if seed is not None and not is_int(seed):
        raise ValueError(
            f"{owner}: `seed` must be an integer or None. Received: seed={seed!r}"
        )
    return optional_int(seed)


def static_shape(x) -> tuple:
    """The shape of a tensor, array or KerasTensor, or of nested lists."""
    return tuple(x.shape) if hasattr(x, "shape") else np.shape(x)


def checked_real(
    owner: str, name: str, value, minimum=None, maximum=None, open_minimum=False
) -> float:
    """`value` as a finite Python float in range; a ValueError naming it.

    Args:
        owner: what errors start with (a function or class name; may be
            empty).
        name: the argument's name.
        value: the argument (NaN, infinities, bools and strings refused).
        minimum: optional lower bound, included unless `open_minimum`.
        maximum: optional upper bound, included.
        open_minimum: exclude `minimum` itself (e.g. a positive temperature).
    """
    prefix = f"{owner}: " if owner else ""
    too_low = (
        minimum is not None
        and is_real(value)
        and (value <= minimum if open_minimum else value < minimum)
    )
    too_high = maximum is not None and is_real(value) and value > maximum
    if not is_real(value) or too_low or too_high:
        low = (
            "" if minimum is None else ("> " if open_minimum else ">= ") + f"{minimum}"
        )
        high = "" if maximum is None else f"<= {maximum}"
        bounds = " and ".join(b for b in (low, high) if b)
        raise ValueError(
            f"{prefix}`{name}` must be a finite real number"
            + (f" {bounds}" if bounds else "")
            + f". Received: {name}={value!r}"
        )
    return float(value)
