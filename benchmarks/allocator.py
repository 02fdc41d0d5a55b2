"""How much the C allocator costs attention training on CPU, in one run.

XLA on CPU (the JAX backend) and PyTorch allocate intermediates with `malloc`.
glibc returns blocks above 32 MiB to the kernel when they are freed, so each
call of a compiled step pays the page faults of its large intermediates
again; an allocator that keeps its memory (tcmalloc) does not. This script
times forward + backward of `BahdanauAttention(units)` (the step of
`benchmarks.attention_layers`) in child processes that differ only in the
allocator: glibc's malloc, glibc with transparent huge pages
(`GLIBC_TUNABLES=glibc.malloc.hugetlb=1`), and tcmalloc or another library
given with `--preload` (found with `ldconfig -p` if installed, e.g. Debian's
`libtcmalloc-minimal4`). Each row is labelled with the allocator its child
process found itself running on (`harness.memory_allocator`). It reports the
median time per call, the minor page faults per call (`getrusage`) and the
speed-up over glibc's malloc measured in the same run.

Usage:

    KERAS_BACKEND=jax python -m benchmarks.allocator
    KERAS_BACKEND=jax python -m benchmarks.allocator --preload /path/to/libjemalloc.so.2
    python -m benchmarks.allocator    # TensorFlow: its own pool, no change
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

import keras
import numpy as np

from attention_zoo.layers import BahdanauAttention
from benchmarks import harness
from benchmarks.compiling import compile_step, mean_square

# The children run as `python -m benchmarks.allocator` from here, so that
# they import the same checkout.
REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHAPES = ((10, 30), (30, 100), (100, 300))  # (Tq, Tv)


def find_tcmalloc() -> str | None:
    """Path of an installed tcmalloc from the linker cache, or `None`."""
    for ldconfig in ("ldconfig", "/sbin/ldconfig"):
        try:
            cache = subprocess.run(
                [ldconfig, "-p"], capture_output=True, text=True, check=True
            ).stdout
        except (OSError, subprocess.CalledProcessError):
            continue
        for soname in ("libtcmalloc_minimal.so.4", "libtcmalloc.so.4"):
            for line in cache.splitlines():
                if line.strip().startswith(soname + " ") and "=>" in line:
                    return line.split("=>")[-1].strip()
    return None


def child(args) -> None:
    """Times the step under this process's allocator; prints one JSON line."""
    rng = np.random.default_rng(args.seed)
    query = rng.standard_normal((args.batch, args.tq, args.dim)).astype("float32")
    value = rng.standard_normal((args.batch, args.tv, args.dim)).astype("float32")
    query, value = (
        keras.ops.convert_to_tensor(query),
        keras.ops.convert_to_tensor(value),
    )
    layer = BahdanauAttention(units=args.units)
    layer(query, value)
    step = compile_step(layer, mean_square, jit=args.jit)
    for _ in range(3):
        harness.to_numpy(step(query, value))
    times, faults = [], []
    for _ in range(args.repeats):
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        start = time.perf_counter()
        harness.to_numpy(step(query, value))
        times.append(time.perf_counter() - start)
        faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
    print(
        json.dumps(
            {
                "allocator": harness.memory_allocator(),
                "ms": 1e3 * statistics.median(times),
                "faults": statistics.median(faults),
            }
        )
    )


def run_child(args, tq, tv, env_update) -> dict:
    env = dict(os.environ, **env_update)
    command = [
        sys.executable,
        "-m",
        "benchmarks.allocator",
        "--child",
        f"--tq={tq}",
        f"--tv={tv}",
        f"--batch={args.batch}",
        f"--dim={args.dim}",
        f"--units={args.units}",
        f"--repeats={args.repeats}",
        f"--seed={args.seed}",
    ] + (["--jit"] if args.jit else [])
    done = subprocess.run(
        command, env=env, cwd=REPOSITORY, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"child with {env_update} failed (exit {done.returncode}):\n{done.stderr}"
        )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = harness.argument_parser(__doc__)
    parser.add_argument("--preload", help="allocator library to LD_PRELOAD")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--dim", type=int, default=128)
    parser.add_argument("--units", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jit", action="store_true", help="TensorFlow: XLA")
    parser.add_argument("--quick", action="store_true", help="(Tq, Tv) = (10, 30) only")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tq", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--tv", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args)
        return 0

    if args.preload and not os.path.exists(args.preload):
        parser.error(f"--preload: no such file. Received: {args.preload!r}")
    preload = args.preload or find_tcmalloc()
    # Every variant sets both variables, so that one set in this shell does
    # not leak into the glibc baseline.
    variants = {
        "glibc": {"LD_PRELOAD": "", "GLIBC_TUNABLES": ""},
        "hugetlb": {"LD_PRELOAD": "", "GLIBC_TUNABLES": "glibc.malloc.hugetlb=1"},
    }
    if preload:
        variants["preload"] = {"LD_PRELOAD": preload, "GLIBC_TUNABLES": ""}

    harness.print_header(
        f"BahdanauAttention(units={args.units}) forward + backward, "
        f"{harness.backend_version()}{', XLA' if args.jit else ''}, by allocator"
    )
    print(
        f"- batch {args.batch}, features {args.dim}; "
        f"median of {args.repeats} calls after 3 warm-up calls, each variant "
        "in its own process"
    )
    if not preload:
        print("- no tcmalloc found (Debian: apt-get install libtcmalloc-minimal4)")
    print()
    rows = []
    for tq, tv in SHAPES[:1] if args.quick else SHAPES:
        results = {name: run_child(args, tq, tv, env) for name, env in variants.items()}
        base = results["glibc"]["ms"]
        for result in results.values():
            rows.append(
                [
                    f"({tq}, {tv})",
                    result["allocator"],
                    f"{result['ms']:.1f}",
                    f"{result['faults']:.0f}",
                    harness.ratio_text(base, result["ms"]),
                ]
            )
    harness.print_table(
        ["(Tq, Tv)", "allocator", "ms per call", "page faults per call", "speed-up"],
        rows,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
