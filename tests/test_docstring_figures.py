"""No docstring of the package carries a measured figure.

A time, a speed-up, a size or a percentage measured once goes stale in a
docstring, far from the command that measured it: figures live in
docs/benchmarks.md (or the application's page) with their command, and a
docstring states the claim and names the page. The check is a pattern: a
number followed by a unit of time, size or share, or a ratio "N x faster".
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import attention_zoo

PACKAGE = Path(attention_zoo.__file__).parent

_NUMBER = r"(?<![\w.])\d+(?:[.,]\d+)*(?:\s*[-–]\s*\d+(?:[.,]\d+)*)?"
_UNIT = (
    r"%|per\s?cent\b"
    r"|(?:ns|µs|us|ms|s|sec|secs|seconds?|min|minutes?|h|hours?)\b"
    r"|(?:[kKMGT]i?B|bytes/s|images/s|tokens/s|verses/s|dates/s|texts/s)\b"
    r"|\s?(?:x|×|times)\s+(?:faster|slower|quicker|as\s+fast|the\s+speed)\b"
)
FIGURE = re.compile(rf"{_NUMBER}\s*(?:{_UNIT})")

# Figures that are no measurement: a definition, or the size of an input
# the code is written to refuse. Each is (file, the text around it, why).
NOT_MEASURED = (
    (
        "applications/captioning/scene_generator.py",
        "20 % with one object, 40 % with two, 40 % with three",
        "the generator's definition of its scenes",
    ),
    (
        "applications/common/lines.py",
        "a 50 MB line never sits whole in memory",
        "an input the line reader is written for",
    ),
    (
        "serving/connections.py",
        "httptools buffers a 200 MB header line",
        "the attack the limit stops, not a speed or a share",
    ),
)


def docstrings(source: str):
    """(line, docstring) of the module, and of each class and function."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(
            node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
        ):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield getattr(node, "lineno", 1), doc


def figures(name: str, source: str) -> list[str]:
    """The measured-looking figures of the docstrings of `source` (file `name`)."""
    found = []
    for line, doc in docstrings(source):
        text = " ".join(doc.split())
        allowed = [t for n, t, _ in NOT_MEASURED if n == name and t in text]
        for match in FIGURE.finditer(text):
            if any(
                match.start() >= (start := text.index(a))
                and match.end() <= start + len(a)
                for a in allowed
            ):
                continue
            around = text[max(0, match.start() - 40) : match.end() + 20]
            found.append(f"{name}:{line}: ...{around}...")
    return found


def test_no_docstring_carries_a_measured_figure():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        found += figures(name, path.read_text(encoding="utf-8"))
    assert not found, (
        "figures in docstrings (move them to docs/benchmarks.md with their "
        "command, or add a non-measurement to NOT_MEASURED with why):\n"
        + "\n".join(found)
    )


def test_every_allowed_figure_is_still_there():
    """An allowance whose text is gone is removed, not kept to cover another."""
    stale = []
    for name, text, _ in NOT_MEASURED:
        path = PACKAGE / name
        source = path.read_text(encoding="utf-8") if path.is_file() else ""
        if not any(text in " ".join(d.split()) for _, d in docstrings(source)):
            stale.append(f"{name}: {text}")
    assert not stale, f"allowances for figures no docstring holds: {stale}"


def test_the_pattern_finds_measurements_and_leaves_definitions():
    measured = [
        '"""Spent 83 % of its time in the event loop."""',
        '"""About 1.6 ms a request."""',
        '"""Compiles in 1.5-3.9 s on 2 cores."""',
        '"""XLA ran it about 9x slower."""',
        '"""Reads both modules (about 70 s)."""',
        '"""10,000 scenes hold 1.5 GB of pixels."""',
        'def f():\n    """Trains at 13,424 tokens/s."""\n',
    ]
    for source in measured:
        assert figures("m.py", source), source
    plain = [
        '"""A (B, Tq, Tv) float32 tensor, 7 x 7 x 1280 at 224 px."""',
        '"""Dates in ISO 8601, within 2x of the root, quantile 0.002."""',
        '"""`max_seconds`: default 30; a block of 4 x 5,000 values."""',
    ]
    for source in plain:
        assert not figures("m.py", source), source
