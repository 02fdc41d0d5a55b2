"""What the benchmark scripts share: timing, tables and the facts of a run.

- timing: `time_interleaved` samples the compared variants in turn, in a
  rotating order, so that a slow phase of the machine hits them alike;
  `sample_times` samples one callable;
- tables: `print_table` prints markdown, `ratio_text` a ratio against a
  baseline measured in the same run;
- facts: `run_facts` (date, command, versions, machine) for the lines above
  a table, `machine_line`, `load_average`;
- command lines: `argument_parser`, and `parse_quick_args` for the
  options whose defaults depend on `--quick`.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import math
import os
import platform
import statistics
import sys
import time
from typing import NamedTuple

import keras
import numpy as np
from keras import ops

# ------------------------------------------------------------------ timing


class Timing(NamedTuple):
    """Seconds per call: median, quartiles and the fastest sample."""

    median: float
    q1: float
    q3: float
    minimum: float


def time_interleaved(
    fns: dict,
    repeats: int,
    warmup: int = 2,
    min_sample_s: float = 0.02,
    progress: bool = False,
) -> dict:
    """A `Timing` of each zero-argument callable, by name.

    Every callable must return host (NumPy) values, so that its time includes
    the work it waits for. Each is called `warmup` times (compilation, caches,
    kernel selection) and once more to see how long a call takes, then
    sampled `repeats` times with the garbage collector off. As in `timeit`, a
    sample of a fast callable averages as many back-to-back calls as fill
    `min_sample_s`, so that timer resolution and dispatch jitter do not
    dominate small cases. The variants run in turn in each repeat, so that a
    slow phase of the machine (another process) hits them alike, and the
    order rotates from one repeat to the next, so that no variant always
    follows the same one (a large variant leaves memory to free and caches
    cold). Only variants that are compared belong in one call.

    Args:
        fns: name -> zero-argument callable.
        repeats: timed samples per callable.
        warmup: untimed calls of each callable before it is timed.
        min_sample_s: the shortest time a sample lasts.
        progress: print a line to stderr after each repeat.

    Returns:
        name -> `Timing`, in seconds per call.
    """
    calls = {}
    for name, fn in fns.items():
        for _ in range(warmup):
            fn()
        start = time.perf_counter()
        fn()
        once = time.perf_counter() - start
        calls[name] = max(1, math.ceil(min_sample_s / max(once, 1e-9)))
    times = {name: [] for name in fns}
    names = list(fns)
    gc.collect()
    gc.disable()
    try:
        for repeat in range(repeats):
            shift = repeat % len(names)
            for name in names[shift:] + names[:shift]:
                fn = fns[name]
                start = time.perf_counter()
                for _ in range(calls[name]):
                    fn()
                times[name].append((time.perf_counter() - start) / calls[name])
            if progress:
                print(f"  repeat {repeat + 1}/{repeats}", file=sys.stderr, flush=True)
    finally:
        gc.enable()
    stats = {}
    for name, ts in times.items():
        q1, median, q3 = statistics.quantiles(ts, n=4) if len(ts) > 1 else ts * 3
        stats[name] = Timing(median, q1, q3, min(ts))
    return stats


def sample_times(
    fn, repeats: int, warmup: int = 1, min_sample_s: float = 0.0
) -> list[float]:
    """Seconds per call of `fn`: `repeats` samples after `warmup` calls.

    A sample calls `fn` back to back until `min_sample_s` has passed (at
    least once) and averages those calls. `fn` must wait for its results.
    """
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeats):
        calls, start = 0, time.perf_counter()
        while True:
            fn()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_sample_s:
                break
        samples.append(elapsed / calls)
    return samples


def matmul_flops(n: int = 2048, repeats: int = 7, dtype: str = "float32") -> float:
    """The FLOP/s this backend reaches on this machine for an `(n, n) @ (n,
    n)` matmul in `dtype` (2 n^3 operations; the median of `repeats`): the
    measured limit that the benchmarks' "share of the machine's limit"
    divides by.

    One element of the product is fetched, which waits for all of it: the
    copy of the whole product to the host is no part of the limit (on a GPU
    it would take longer than the product)."""
    rng = np.random.default_rng(0)
    a, b = (
        keras.ops.convert_to_tensor(rng.standard_normal((n, n)), dtype)
        for _ in range(2)
    )
    seconds = statistics.median(
        sample_times(lambda: to_numpy(keras.ops.matmul(a, b)[0, 0]), repeats, warmup=2)
    )
    return 2 * n**3 / seconds


def to_numpy(structure):
    """Wait for the results and bring them to the host."""
    return keras.tree.map_structure(ops.convert_to_numpy, structure)


# ------------------------------------------------------------------ tables


def fmt_ms(timing: Timing) -> str:
    """`median ±spread%` in milliseconds, the spread being half the IQR."""
    return f"{1e3 * timing.median:.1f} ±{spread_percent(timing):.0f}%"


def spread_percent(timing: Timing) -> float:
    """Half the interquartile range, in percent of the median."""
    return 50.0 * (timing.q3 - timing.q1) / timing.median


def ratio_text(value: float, baseline: float, digits: int = 2, suffix="x") -> str:
    """`value / baseline` as a table cell; both measured in the same run."""
    return f"{value / baseline:.{digits}f}{suffix}"


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


# ------------------------------------------------------------------- facts


def load_average() -> str:
    """1, 5 and 15 minute load averages: other processes on the machine slow
    every variant, and the timings cannot tell."""
    try:
        return "{:.2f}, {:.2f}, {:.2f}".format(*os.getloadavg())
    except OSError:
        return "unknown"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def usable_cpus() -> int:
    """The CPUs this process may run on (a container may allow fewer)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count()


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
        # Paths are bytes; one that is not UTF-8 must not end the report.
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
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


def machine_line() -> str:
    """CPU model and count, system and C allocator."""
    return (
        f"{cpu_model()}, os.cpu_count()={os.cpu_count()}, "
        f"usable CPUs={usable_cpus()}, {platform.system()} {platform.machine()}, "
        f"allocator {memory_allocator()}"
    )


def versions_line() -> str:
    import attention_zoo

    return (
        f"{backend_version()}, keras {keras.__version__}, "
        f"attention_zoo {attention_zoo.__version__}, numpy {np.__version__}, "
        f"python {platform.python_version()}"
    )


def command_line() -> str:
    """The command that started this run, as one would type it again."""
    spec = getattr(sys.modules["__main__"], "__spec__", None)
    program = ["-m", spec.name] if spec is not None else [sys.argv[0]]
    command = " ".join(["python", *program, *sys.argv[1:]])
    if "KERAS_BACKEND" in os.environ:
        command = f"KERAS_BACKEND={os.environ['KERAS_BACKEND']} {command}"
    return command


def run_facts() -> list[str]:
    """Date, command, versions and machine: the first lines of a report."""
    now = datetime.datetime.now().astimezone()
    return [
        f"date: {now.isoformat(timespec='seconds')}",
        f"command: `{command_line()}`",
        f"versions: {versions_line()}",
        f"machine: {machine_line()}",
    ]


def print_header(title: str) -> None:
    """A report's title, then the facts of the run as a markdown list."""
    print(f"### {title}\n")
    print_facts(run_facts())


def print_facts(lines) -> None:
    """Prints `lines` as a markdown list."""
    for line in lines:
        print(f"- {line}")


def quiet_tensorflow() -> None:
    """Silences TensorFlow's warnings about retracing: every variant is its
    own `tf.function`, traced once on purpose."""
    if keras.backend.backend() == "tensorflow":
        import tensorflow as tf

        tf.get_logger().setLevel("ERROR")


# ----------------------------------------------------------- command lines


def argument_parser(doc: str) -> argparse.ArgumentParser:
    """A parser described by the first paragraph of a script's docstring."""
    return argparse.ArgumentParser(description=doc.split("\n\n")[0])


def parse_quick_args(parser, argv, quick_help: str, options: dict):
    """Adds `--seed`, `--quick` and the integer options whose defaults depend
    on `--quick`, and parses the command line.

    Args:
        parser: the script's other options.
        argv: the command line, `None` for `sys.argv[1:]`.
        quick_help: what `--quick` does.
        options: `dest -> (full, quick, help)`: `--dest` (underscores become
            dashes) defaults to `full`, or to `quick` with `--quick`.

    Returns:
        The parsed arguments, with every option of `options` filled in.
    """
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help=quick_help)
    for dest, (full, quick, text) in options.items():
        parser.add_argument(
            "--" + dest.replace("_", "-"),
            type=int,
            default=None,
            help=f"{text} (default {full}, --quick {quick})",
        )
    args = parser.parse_args(argv)
    for dest, (full, quick, _) in options.items():
        if getattr(args, dest) is None:
            setattr(args, dest, quick if args.quick else full)
    return args
