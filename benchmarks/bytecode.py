"""Whether the modules a start-up benchmark times are read from compiled
bytecode.

Without a current `.pyc` beside a module (in its `__pycache__`), Python
compiles it from source at every start where PYTHONDONTWRITEBYTECODE is set,
and at the first where it is not: a start-up time then measures the
compiler, not what an installed package does (pip and uv compile the
bytecode when they install). `state` says which case a run is in, so that
its figures say it too.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path


def is_current(source: Path) -> bool:
    """Whether `source` has a `.pyc` that Python would use: one in the
    place `importlib.util.cache_from_source` names, recording the source's
    modification time and size (a `.pyc` of another version of the file
    is compiled over)."""
    cached = Path(importlib.util.cache_from_source(str(source)))
    try:
        header = cached.read_bytes()[:16]
        stat = source.stat()
    except OSError:
        return False
    if len(header) < 16 or header[:4] != importlib.util.MAGIC_NUMBER:
        return False
    flags = int.from_bytes(header[4:8], "little")
    if flags & 1:  # a hash-based .pyc (PEP 552): its source is not checked
        return True
    mtime = int.from_bytes(header[8:12], "little")
    size = int.from_bytes(header[12:16], "little")
    return (
        mtime == int(stat.st_mtime) & 0xFFFFFFFF and size == stat.st_size & 0xFFFFFFFF
    )


def package_state(name: str, every_module: bool) -> tuple[str, bool]:
    """`(text, compiled)` for the package `name`, found without importing
    it: its `__init__.py` alone, or every module of it (`every_module`)."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        return f"{name} not installed", True
    init = Path(spec.origin)
    sources = sorted(init.parent.rglob("*.py")) if every_module else [init]
    current = sum(is_current(source) for source in sources)
    where = f"{init.parent}"
    if not every_module:
        done = "compiled" if current else "NOT compiled"
        return f"{name}/__init__.py {done} ({where})", bool(current)
    return (
        f"{name}: {current} of {len(sources)} modules compiled ({where})",
        current == len(sources),
    )


def state(
    packages=(("tensorflow", False), ("attention_zoo", True)),
) -> tuple[list[str], str]:
    """`(facts, warning)`: a line per package and one for
    PYTHONDONTWRITEBYTECODE; `warning` is one line where something is not
    compiled ("" where all is)."""
    facts, missing = [], []
    for name, every_module in packages:
        text, compiled = package_state(name, every_module)
        facts.append(f"bytecode: {text}")
        if not compiled:
            missing.append(name)
    no_writing = (
        bool(os.environ.get("PYTHONDONTWRITEBYTECODE")) or sys.flags.dont_write_bytecode
    )
    facts.append(
        "PYTHONDONTWRITEBYTECODE "
        + ("set: Python writes no .pyc" if no_writing else "not set")
    )
    if not missing:
        return facts, ""
    when = "every run" if no_writing else "the first run of each"
    warning = (
        f"WARNING: bytecode of {', '.join(missing)} not compiled: {when} compiles "
        "from source, which an installed package does not (run `python -m "
        "compileall` on it first)"
    )
    return facts, warning
