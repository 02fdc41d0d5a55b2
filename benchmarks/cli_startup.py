"""How long the `attention-zoo` command takes to answer what needs no model.

`--help`, `--version`, each command's and each application task's `--help`
and argument errors, a task's flags' included
(issue 59: "at once", at most 1 s). Runs the installed command (the
`attention-zoo` beside this interpreter, else `python -m attention_zoo`)
for each invocation `--repeats` times, the invocations in turn and in a
rotating order so that a slow phase of the machine hits them alike, and
prints the median seconds (wall clock, and the CPU seconds of the run
itself, about what an idle machine shows) and the ratios to `python -c pass` (the
interpreter's own start) and to `python -c "import tensorflow"` (what every
command cost before), both measured in the same run.

It says whether the bytecode of TensorFlow and of attention_zoo is compiled
(`benchmarks/bytecode.py`) and warns in one line where it is not: each run
then compiles from source, which an installed package does not.

Run: `python -m benchmarks.cli_startup` (`--tensorflow-repeats 1` on a
loaded machine, where `import tensorflow` takes minutes).
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from attention_zoo.applications import registry
from benchmarks import bytecode, harness

# What needs no model: the help pages, the version, argument errors.
INVOCATIONS = (
    ("--help",),
    ("--version",),
    ("demo", "--help"),
    ("dates", "--help"),
    ("translation", "--help"),
    ("captioning", "--help"),
    ("summarization", "--help"),
    ("serve", "--help"),
    ("presets", "--help"),
    ("presets", "list", "--help"),
    ("nosuch",),
    ("--nope",),
    ("dates", "nosuch"),
    ("serve", "--port", "abc"),
    # Each application task's page (built from the listings, without Keras
    # here too) and a bad value of a task's flag.
    *(
        (listing.name, task, "--help")
        for listing in registry.listings()
        for task in listing.tasks
    ),
    ("translation", "translate", "--beam-width", "x"),
    ("dates", "train", "--attention", "nosuch"),
    ("captioning", "predict", "--nope"),
    # The command's own checks after argparse: a value out of range, no input.
    ("translation", "translate", "--beam-width", "0", "hello"),
    ("dates", "predict"),
)
# The target: every one of them in at most this many seconds.
TARGET_S = 1.0


def command() -> list[str]:
    """The installed console script, else `python -m attention_zoo`."""
    script = Path(sys.executable).parent / "attention-zoo"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "attention_zoo"]


def commit() -> str:
    """The commit of the attention_zoo measured, `+ changes` where its
    files differ from it ("unknown" outside a git checkout)."""
    import attention_zoo

    folder = Path(attention_zoo.__file__).parent

    def git(*args):
        return subprocess.run(
            ["git", "-C", str(folder), *args],
            capture_output=True,
            text=True,
            check=False,
        )

    head = git("rev-parse", "--short", "HEAD")
    if head.returncode != 0:
        return "unknown"
    changed = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
    return head.stdout.strip() + (" + changes" if changed else "")


def seconds(argv) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one run of `argv`.

    On a machine other processes load, the wall clock counts their time
    too; the CPU seconds of the run itself are near what the wall clock
    shows on an idle machine.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv=None) -> None:
    parser = harness.argument_parser(__doc__)
    parser.add_argument(
        "--repeats", type=int, default=5, help="runs of each invocation (default 5)"
    )
    parser.add_argument(
        "--tensorflow-repeats",
        type=int,
        default=None,
        help="runs of the `import tensorflow` baseline (default: --repeats)",
    )
    args = parser.parse_args(argv)
    tensorflow_repeats = args.tensorflow_repeats or args.repeats
    start = command()
    # Read before the runs: with PYTHONDONTWRITEBYTECODE unset the first
    # run writes what was missing.
    bytecode_facts, bytecode_warning = bytecode.state()
    runs = {
        "python -c pass": [sys.executable, "-c", "pass"],
        'python -c "import tensorflow"': [sys.executable, "-c", "import tensorflow"],
        **{f"attention-zoo {' '.join(a)}": [*start, *a] for a in INVOCATIONS},
    }
    names = list(runs)
    times = {name: [] for name in names}
    for repeat in range(args.repeats):
        shift = repeat % len(names)
        for name in names[shift:] + names[:shift]:
            if "tensorflow" in name and repeat >= tensorflow_repeats:
                continue
            times[name].append(seconds(runs[name]))
    median = {
        name: statistics.median(wall for wall, _ in samples)
        for name, samples in times.items()
    }
    cpu = {
        name: statistics.median(cpu for _, cpu in samples)
        for name, samples in times.items()
    }
    harness.print_header("attention-zoo: answers that need no model")
    harness.print_facts(
        [
            f"command run: `{' '.join(Path(a).name for a in start[:1])}"
            f"{' ' + ' '.join(start[1:]) if start[1:] else ''} ...`, "
            f"{args.repeats} runs each ({tensorflow_repeats} of import "
            "tensorflow), median",
            f"commit: {commit()}",
            f"load average (1, 5, 15 min) at the end: {harness.load_average()}",
            *bytecode_facts,
        ]
    )
    if bytecode_warning:
        print(f"\n**{bytecode_warning}**")
        print(bytecode_warning, file=sys.stderr)
    print()
    python_s = median["python -c pass"]
    tensorflow_s = median['python -c "import tensorflow"']
    rows = [
        [
            f"`{name}`",
            f"{median[name]:.3f}",
            f"{cpu[name]:.3f}",
            harness.ratio_text(median[name], python_s),
            harness.ratio_text(median[name], tensorflow_s, digits=4),
            ""
            if name.startswith("python")
            else harness.verdict(median[name] <= TARGET_S),
        ]
        for name in names
    ]
    harness.print_table(
        [
            "invocation",
            "median (s)",
            "CPU (s)",
            "vs python -c pass",
            "vs import tensorflow",
            f"<= {TARGET_S:g} s",
        ],
        rows,
        numeric_columns=True,
    )


if __name__ == "__main__":
    main()
