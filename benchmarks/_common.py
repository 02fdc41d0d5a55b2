"""Helpers the benchmark scripts share: machine facts, tables, host transfer.

The scripts run as `python benchmarks/NAME.py`, which puts this folder on
`sys.path`, so they import it as `_common`.
"""

from __future__ import annotations

import os
import platform

import keras
from keras import ops


def to_numpy(structure):
    """Wait for the results and bring them to the host."""
    return keras.tree.map_structure(ops.convert_to_numpy, structure)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "**FAIL**"


def print_table(header, rows, numeric_columns: bool = False):
    """A markdown table; `numeric_columns` right-aligns all but the first column."""
    align = ["---"] + [("---:" if numeric_columns else "---")] * (len(header) - 1)
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(align) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


def load_average() -> str:
    """1, 5 and 15 minute load averages: other processes on the machine slow
    every variant, and the timings cannot tell."""
    try:
        return "{:.2f}, {:.2f}, {:.2f}".format(*os.getloadavg())
    except OSError:
        return "unknown"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def memory_allocator() -> str:
    """The C allocator serving this process, and glibc's malloc tunables.

    On CPU, XLA (JAX) and PyTorch allocate intermediates with `malloc`; glibc
    serves blocks above 32 MiB with a fresh `mmap` each time, so each large
    intermediate costs its page faults on every call, and an allocator that
    keeps memory (tcmalloc) or huge pages change the timings 2-4x
    (docs/benchmarks.md). Reported so that a run can be reproduced.
    """
    preloaded = []
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                name = os.path.basename(line.split()[-1]) if "/" in line else ""
                for lib in ("tcmalloc", "jemalloc", "mimalloc"):
                    if lib in name and name not in preloaded:
                        preloaded.append(name)
    except OSError:
        return "unknown"
    allocator = ", ".join(preloaded) if preloaded else "glibc malloc"
    tunables = os.environ.get("GLIBC_TUNABLES")
    return f"{allocator} (GLIBC_TUNABLES={tunables})" if tunables else allocator


def backend_version() -> str:
    backend = keras.backend.backend()
    module = {"tensorflow": "tensorflow", "jax": "jax", "torch": "torch"}.get(backend)
    if module is None:
        return backend
    return f"{backend} {__import__(module).__version__}"
