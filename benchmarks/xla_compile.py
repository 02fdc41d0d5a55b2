"""How long XLA takes to compile small programs on the CPU, by `XLA_FLAGS`.

Most of the JAX test leg's time is XLA compiling small programs: JAX
compiles each eager operation once per shape and dtype (docs/design.md).
This script measures what the flags in `tests/conftest.py` buy. Each set of
flags runs in a fresh process (XLA reads `XLA_FLAGS` once, at start-up),
which times:

- `jit`: `jax.jit` compiling a masked-softmax attention program at 40
  shapes;
- `eager`: a `BahdanauAttention` layer called eagerly at 30 memory lengths,
  each length a new set of primitives to compile.

Run: `KERAS_BACKEND=jax python -m benchmarks.xla_compile`. The ratio is
against XLA's defaults, measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

from benchmarks import harness

TESTS_BEFORE = (
    "--xla_backend_optimization_level=0 --xla_llvm_disable_expensive_passes=true"
)
VARIANTS = {
    "XLA defaults": "",
    "LLVM -O0, no expensive passes": TESTS_BEFORE,
    "+ older fusion emitters (tests/conftest.py)": TESTS_BEFORE
    + " --xla_cpu_use_fusion_emitters=false",
}


def measure() -> dict:
    """The two timings in this process, whose `XLA_FLAGS` were set before."""
    import jax
    import jax.numpy as jnp
    import keras
    import numpy as np

    import attention_zoo

    def attend(query, key):
        scores = jnp.einsum("btd,bsd->bts", query, key)
        weights = jax.nn.softmax(jnp.where(scores > 0, scores, -1e9), axis=-1)
        return jnp.tanh(weights @ key).sum(-1)

    start = time.perf_counter()
    for batch in (2, 3):
        for length in range(1, 21):
            query = np.ones((batch, length, 8), "float32")
            key = np.ones((batch, length + 2, 8), "float32")
            jax.jit(attend).lower(query, key).compile()
    jit_s = time.perf_counter() - start

    layer = attention_zoo.BahdanauAttention(units=8)
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for length in range(1, 31):
        query = rng.normal(size=(3, 2, 8)).astype("float32")
        value = rng.normal(size=(3, length, 8)).astype("float32")
        keras.ops.convert_to_numpy(layer(query, value))
    eager_s = time.perf_counter() - start
    return {"jit": jit_s, "eager": eager_s}


def main(argv=None) -> None:
    parser = harness.argument_parser(__doc__)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure()))
        return
    if harness.backend_version().split()[0] != "jax":
        sys.exit("run with KERAS_BACKEND=jax")
    harness.print_header("XLA compile time on the CPU by XLA_FLAGS")
    print()
    results = {}
    for name, flags in VARIANTS.items():
        env = {**os.environ, "XLA_FLAGS": flags, "TF_CPP_MIN_LOG_LEVEL": "3"}
        out = subprocess.run(
            [sys.executable, "-m", "benchmarks.xla_compile", "--child"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        results[name] = json.loads(out.stdout.strip().splitlines()[-1])
    base = results["XLA defaults"]
    rows = [
        [
            name,
            f"{r['jit']:.2f}",
            harness.ratio_text(r["jit"], base["jit"]),
            f"{r['eager']:.2f}",
            harness.ratio_text(r["eager"], base["eager"]),
        ]
        for name, r in results.items()
    ]
    harness.print_table(
        ["XLA_FLAGS", "jit: 40 shapes (s)", "ratio", "eager: 30 lengths (s)", "ratio"],
        rows,
        numeric_columns=True,
    )


if __name__ == "__main__":
    main()
