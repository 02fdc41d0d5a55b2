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
