"""The lexicon file read: `{word: months}` and its day words, from the shipped
`lexicon.json` or a run's.

Apart from `lexicon` (which builds the file from the generator's formats
through the normalization passes) so that a pass may read the shipped
words without an import cycle (`text_spellings` reads them).
"""

from __future__ import annotations

import functools
import json
import types
from pathlib import Path

PATH = Path(__file__).with_name("lexicon.json")
# A run trained on some languages (`--languages`) holds their lexicon.
RUN_FILE = "lexicon.json"


def load(path=None):
    """`{word: months}` of the lexicon file `path` (default: the shipped
    `lexicon.json`, of every language, read-only; a run trained on some
    languages holds its own).

    Raises:
        ValueError: when the file is not `{"words": {word: [months]}}`.
    """
    if path is None:
        return _shipped()
    return _parse(json.loads(Path(path).read_text(encoding="utf-8")))


def load_days(path=None):
    """`{word: days}` of the day words of the lexicon file `path` (default:
    the shipped one); a file written before the day words were counted
    (a run's, without `days`) reads the shipped day words among its words.

    Raises:
        ValueError: when its `days` are not `{word: [days 1-31]}`.
    """
    if path is None:
        return _shipped_days()
    document = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(document, dict) and "days" not in document:
        # Its own words only, as a run written with its days would hold.
        known = _parse(document)
        return {w: days for w, days in _shipped_days().items() if w in known}
    return _parse(document, "days", 31)


@functools.lru_cache(maxsize=1)
def _shipped():
    # Read-only: every caller shares it.
    return types.MappingProxyType(_parse(json.loads(PATH.read_text(encoding="utf-8"))))


@functools.lru_cache(maxsize=1)
def _shipped_days():
    document = json.loads(PATH.read_text(encoding="utf-8"))
    return types.MappingProxyType(_parse(document, "days", 31))


def _parse(document, key="words", last=12) -> dict[str, tuple[int, ...]]:
    entries = document.get(key) if isinstance(document, dict) else None
    if not isinstance(entries, dict) or not all(
        isinstance(word, str)
        and isinstance(numbers, list)
        and all(type(n) is int and 1 <= n <= last for n in numbers)
        for word, numbers in entries.items()
    ):
        raise ValueError(
            f'a lexicon must be {{"{key}": {{word: [numbers 1-{last}]}}}}. '
            f"Received: {str(document)[:80]!r}"
        )
    return {word: tuple(numbers) for word, numbers in entries.items()}
