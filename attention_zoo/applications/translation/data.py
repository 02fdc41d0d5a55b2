"""Sentence pairs for the translation application.

Sources:

- `read_tsv_pairs(path)`: a user's tab-separated file (Anki/Tatoeba style:
  source, target, extra columns ignored);
- `bible_pairs()`: the offline real corpus, English-Spanish Bible verses from
  the public-domain Debian packages `sword-text-web` (World English Bible)
  and `sword-text-sparv` (Reina-Valera 1909), read with `pysword`;
- `number_pairs(n)`: `num2words` number-word pairs, a tiny corpus with real
  reordering, for tests;
- `tfds_pairs(name)`: a `tensorflow_datasets` translation dataset, for users
  online (tests run it offline with `tfds.testing.mock_data`).

`split_by_book` holds whole books out for validation and test, so no
near-duplicate verse leaks between splits.
"""

from __future__ import annotations

import csv
import os
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from attention_zoo.applications.common.pairs_files import tab_rows

SWORD_PATH = "/usr/share/sword"
SWORD_MODULES = {"en": "engWEB2015eb", "es": "spaRV1909eb"}
INSTALL_HINT = (
    "sudo apt-get install sword-text-web sword-text-sparv && pip install pysword"
)
# Held out whole, from both Testaments, so that no near-duplicate verse
# leaks: 914 validation and 1,210 test pairs of the 31,077.
VALIDATION_BOOKS = ("Mark", "Ruth", "Jonah", "Philippians")
TEST_BOOKS = ("John", "Esther", "Habakkuk", "James")


@dataclass(frozen=True)
class Pair:
    source: str
    target: str
    book: str = ""


def read_tsv_pairs(path, max_pairs: int | None = None) -> list[Pair]:
    """Pairs from a tab-separated file: source, target, extra columns ignored.

    The file is UTF-8; a byte order mark at its start (as Windows editors
    write) is dropped. Lines with fewer than two columns or an empty side
    are skipped, and counted in one line on standard error (blank lines
    silently).
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"pairs file not found: {path}")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        # `error.object` is what was decoded (without the BOM), so the line
        # number counts from the file's first line.
        line = error.object[: error.start].count(b"\n") + 1
        raise ValueError(
            f"{path} is not UTF-8: line {line} holds byte "
            f"0x{error.object[error.start]:02x} ({error.reason}). Save the file "
            "as UTF-8"
        ) from error
    pairs, skipped = [], []
    for line, row in tab_rows(text, path):
        if len(row) < 2 or not row[0].strip() or not row[1].strip():
            if any(cell.strip() for cell in row):  # blank lines are no loss
                skipped.append(line)
            continue
        pairs.append(Pair(row[0].strip(), row[1].strip()))
        if max_pairs and len(pairs) >= max_pairs:
            break
    if not pairs:
        raise ValueError(f"no tab-separated pairs in {path}")
    if skipped:
        print(
            f"{path}: skipped {len(skipped)} line(s) without two non-empty "
            f"tab-separated columns (line {', line '.join(map(str, skipped[:5]))}"
            f"{', ...' if len(skipped) > 5 else ''})",
            file=sys.stderr,
        )
    return pairs


def number_pairs(
    n: int,
    source_lang: str = "en",
    target_lang: str = "es",
    seed: int = 0,
    max_value: int = 999_999,
) -> list[Pair]:
    """`n` distinct numbers written out in two languages with `num2words`."""
    from num2words import num2words

    rng = random.Random(seed)
    numbers = set()
    while len(numbers) < min(n, max_value + 1):
        numbers.add(rng.randint(0, max_value))
    return [
        Pair(num2words(x, lang=source_lang), num2words(x, lang=target_lang))
        for x in sorted(numbers, key=lambda _: rng.random())
    ]


_NOTE = re.compile(r"<note\b.*?</note>", re.S)
_TAG = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")


def clean_osis(text: str) -> str:
    """Verse text without footnotes and markup.

    A note is replaced by a space before the tags go, so the words on either
    side of it stay apart ("only born<note>...</note>Son" -> "only born Son").
    """
    return _SPACE.sub(" ", _TAG.sub("", _NOTE.sub(" ", text))).strip()


def _read_module(modules, name, only_books=None):
    """{(book, chapter, verse): text}, reading whole books at a time."""
    bible = modules.get_bible_from_module(name)
    out = {}
    books = bible.get_structure().get_books()
    for testament in ("ot", "nt"):
        for book in books.get(testament, []):
            if only_books is not None and book.name not in only_books:
                continue
            verses = bible.get_iter(books=[book.osis_name], clean=False)
            refs = (
                (chapter + 1, verse + 1)
                for chapter, count in enumerate(book.chapter_lengths)
                for verse in range(count)
            )
            for (chapter, verse), text in zip(refs, verses):
                out[(book.name, chapter, verse)] = clean_osis(text)
    return out


def bible_pairs(
    source_lang: str = "en",
    target_lang: str = "es",
    sword_path: str = SWORD_PATH,
    cache_dir: str | Path | None = None,
    books=None,
) -> list[Pair]:
    """Aligned verse pairs present and non-empty in both translations.

    The first call for the whole Bible reads both modules (about a minute:
    docs/translation.md) and caches the pairs as TSV in `cache_dir` (default
    `~/.cache/attention_zoo`). `books` (names such as "Ruth") reads only
    those books, without the cache.
    """
    cache_dir = Path(cache_dir or Path.home() / ".cache" / "attention_zoo")
    cache = cache_dir / f"bible_{source_lang}_{target_lang}.tsv"
    if books is None and cache.is_file():
        with cache.open(encoding="utf-8", newline="") as f:
            return [Pair(s, t, b) for b, s, t in csv.reader(f, delimiter="\t")]
    try:
        from pysword.modules import SwordModules
    except ImportError as error:
        raise RuntimeError(
            f"pysword is missing. Install with: {INSTALL_HINT}"
        ) from error
    modules = SwordModules(sword_path)
    found = (
        modules.parse_modules()
        if os.path.isdir(os.path.join(sword_path, "mods.d"))
        else {}
    )
    names = [SWORD_MODULES[source_lang], SWORD_MODULES[target_lang]]
    missing = [n for n in names if n not in found]
    if missing:
        raise RuntimeError(
            f"SWORD modules {missing} not found in {sword_path}. Install with: "
            f"{INSTALL_HINT}"
        )
    source, target = (_read_module(modules, n, books) for n in names)
    pairs = [
        Pair(source[ref], target[ref], ref[0])
        for ref in source
        if ref in target and source[ref] and target[ref]
    ]
    if books is not None:
        return pairs
    cache_dir.mkdir(parents=True, exist_ok=True)
    with cache.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, delimiter="\t", quoting=csv.QUOTE_MINIMAL)
        writer.writerows((p.book, p.source, p.target) for p in pairs)
    return pairs


def split_by_book(pairs, validation_books=VALIDATION_BOOKS, test_books=TEST_BOOKS):
    """Train, validation and test lists; validation and test are whole books."""
    overlap = set(validation_books) & set(test_books)
    if overlap:
        raise ValueError(f"books in both validation and test: {sorted(overlap)}")
    train = [
        p for p in pairs if p.book not in validation_books and p.book not in test_books
    ]
    validation = [p for p in pairs if p.book in validation_books]
    test = [p for p in pairs if p.book in test_books]
    return train, validation, test


def tfds_pairs(
    name: str,
    split: str = "train",
    data_dir=None,
    download: bool = False,
    max_pairs: int | None = None,
) -> list[Pair]:
    """Pairs from a `tensorflow_datasets` translation dataset.

    `name` like `"ted_hrlr_translate/pt_to_en"` or `"wmt14_translate/de-en"`;
    the source and target are the dataset's `supervised_keys`. With
    `download=False` (the default) nothing is fetched: the dataset must be
    prepared in `data_dir` already, or this fails at once with a
    FileNotFoundError saying how to download it.
    """
    import tensorflow_datasets as tfds

    from attention_zoo.applications.common import tfds_builder, tfds_split

    builder = tfds_builder(name, data_dir, download)
    keys = builder.info.supervised_keys
    if not keys:
        raise ValueError(f"{name} has no supervised (source, target) keys")
    source_key, target_key = keys[:2]
    dataset = tfds_split(
        builder,
        split,
        "Download it once with `attention-zoo translation train --download` "
        f"(tfds_pairs(..., download=True)) or `tfds build {name}`",
    )
    if max_pairs:
        dataset = dataset.take(max_pairs)
    pairs = []
    for example in tfds.as_numpy(dataset):
        pairs.append(
            Pair(
                example[source_key].decode("utf-8"), example[target_key].decode("utf-8")
            )
        )
    return pairs
