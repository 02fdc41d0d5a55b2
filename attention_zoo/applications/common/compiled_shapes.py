"""The input shapes a predictor's compiled searches have been compiled
for, and a call's way through them.

Each new input shape of a compiled search is a compilation (seconds on a
CPU: docs/benchmarks.md). A predictor records here each shape its
functions have run at. By default a call runs at its own shape, compiling
it when new, as a one-off command wants. A server turns `routing` on once
each search has run at one shape wide enough for any input: from then on a
call at a shape not compiled yet runs through the smallest compiled one
that holds it (rows repeated, variable axes padded with 0, the padding id
of every text application), or in chunks of the largest compiled batch,
and compiles nothing; `compiling()` lets the server's background warm-up
compile the shapes that requests are then routed to.
"""

from __future__ import annotations

import contextlib
import threading

import numpy as np


class CompiledShapes:
    """The shapes each compiled function (by key) has run at.

    Attributes:
        routing: whether a call at a new shape goes through a compiled one
            (True: a server after its warm-up) or compiles its own.
        compiles: shapes compiled so far, every function together.
        unplanned: shapes compiled by a call outside `compiling()` while
            `routing` was on: a request that waited for a compilation (the
            server's tests expect none).
        used: `{(key, shape): calls}` of the shapes calls ran at.
    """

    def __init__(self):
        self.routing = False
        self.compiles = 0
        self.unplanned = 0
        self.used: dict = {}
        self._shapes: dict = {}  # key -> set of shapes
        self._variable: dict = {}  # key -> axes (after the batch) of any length
        self._lock = threading.Lock()
        self._local = threading.local()

    def register(self, key, input_shape) -> None:
        """Declares the function `key`, of inputs `(batch, *input_shape)`
        (None for an axis of any length)."""
        with self._lock:
            self._shapes.setdefault(key, set())
            self._variable[key] = tuple(
                i + 1 for i, n in enumerate(input_shape) if n is None
            )

    def shapes(self, key) -> set:
        """The input shapes `key` has been compiled for."""
        with self._lock:
            return set(self._shapes.get(key, ()))

    @contextlib.contextmanager
    def compiling(self):
        """Calls in this thread compile their own shape, routing or not."""
        self._local.compiling = True
        try:
            yield
        finally:
            self._local.compiling = False

    def call(self, key, fn, x):
        """`fn(x)`, or `fn` at a compiled shape holding `x` (see the module
        docstring); outputs have `x`'s rows and, on a padded axis, the
        compiled shape's length (callers cut attention to each source)."""
        shape = tuple(x.shape)
        known = self.shapes(key)
        if (
            shape in known
            or not self.routing
            or getattr(self._local, "compiling", False)
        ):
            return self._run(key, fn, x, shape, known)
        holders = [s for s in known if self._holds(key, s, shape)]
        if not holders:
            return self._run(key, fn, x, shape, known)
        fits = [s for s in holders if s[0] >= shape[0]]
        if fits:
            target = min(fits, key=lambda s: (int(np.prod(s)), s))
            return self._padded(key, fn, np.asarray(x), target)
        rows = max(s[0] for s in holders)
        x = np.asarray(x)
        parts = [self.call(key, fn, x[i : i + rows]) for i in range(0, len(x), rows)]
        return tuple(np.concatenate(p) for p in zip(*parts))

    def _holds(self, key, compiled, shape) -> bool:
        """Whether `compiled` can take an input of `shape` padded: the same
        fixed axes, variable ones at least as long (any batch)."""
        if len(compiled) != len(shape):
            return False
        variable = self._variable.get(key, ())
        return all(
            c >= s if axis in variable else c == s
            for axis, (c, s) in enumerate(zip(compiled, shape))
            if axis > 0
        )

    def _padded(self, key, fn, x, target):
        n = len(x)
        x = np.concatenate([x, np.repeat(x[-1:], target[0] - n, 0)])
        widths = [(0, t - s) for t, s in zip(target, x.shape)]
        x = np.pad(x, widths)  # variable axes only: fixed ones are equal
        outputs = self._run(key, fn, x, target, {target})
        return tuple(np.asarray(o)[:n] for o in outputs)

    def _run(self, key, fn, x, shape, known):
        outputs = fn(x)
        with self._lock:
            self.used[(key, shape)] = self.used.get((key, shape), 0) + 1
            if shape not in known and shape not in self._shapes.setdefault(key, set()):
                self._shapes[key].add(shape)
                self.compiles += 1
                if self.routing and not getattr(self._local, "compiling", False):
                    self.unplanned += 1
        return outputs
