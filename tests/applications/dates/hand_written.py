"""Readers of the hand-written test sets in `data/` (see their headers)."""

from pathlib import Path

DATA = Path(__file__).parent / "data"
REAL_DATES = DATA / "real_dates.tsv"
NON_DATES = DATA / "non_dates.txt"


def _lines(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def read_real_dates(path=REAL_DATES) -> list[tuple[str, str, str]]:
    """`(iso, language, text)` per line."""
    return [tuple(line.split("\t")) for line in _lines(path)]


def read_non_dates(path=NON_DATES) -> list[str]:
    return _lines(path)
