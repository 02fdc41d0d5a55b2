"""Readers of the hand-written test sets in `data/` (see their headers)."""

from pathlib import Path

DATA = Path(__file__).parent / "data"
REAL_DATES = DATA / "real_dates.tsv"
NON_DATES = DATA / "non_dates.txt"
GUARD_FAMILIES = DATA / "guard_families.tsv"


def _lines(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def read_real_dates(path=REAL_DATES) -> list[tuple[str, str, str]]:
    """`(iso, language, text)` per line."""
    return [tuple(line.split("\t")) for line in _lines(path)]


def read_guard_families(path=GUARD_FAMILIES) -> list[tuple[str, str, str, str]]:
    """`(family, language, expected, text)` per line; `expected` "-" where
    no single day is right."""
    return [tuple(line.split("\t")) for line in _lines(path)]


def read_non_dates(path=NON_DATES) -> list[str]:
    return _lines(path)


def _by_section(path) -> list[tuple[str, str]]:
    """`(section, line)` per data line, the section being the name of the
    last `# --- name` line above it ("" before the first)."""
    section, rows = "", []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# --- "):
            section = line[len("# --- ") :].strip()
        elif line and not line.startswith("#"):
            rows.append((section, line))
    return rows


def read_non_dates_by_section(path=NON_DATES) -> list[tuple[str, str]]:
    """`(section, text)` per line of `read_non_dates`."""
    return _by_section(path)


def read_real_dates_by_section(path=REAL_DATES) -> list[tuple[str, tuple]]:
    """`(section, (iso, language, text))` per line of `read_real_dates`."""
    return [(s, tuple(line.split("\t"))) for s, line in _by_section(path)]
