"""Summarization data: Debian package descriptions offline, a user's pairs,
or a `tensorflow_datasets` summarization set.

- `debian_examples()`: the long description of every package apt knows in
  English and its one-line synopsis (`Translation-en`, after
  `apt-get -o Acquire::Languages=en update`), with each binary package's
  source package (`Packages`), so that `split_by_source` never puts two
  binary packages of one source in two splits (they share most of their
  text: `0ad-data` and `0ad-data-common`).
- `read_pairs(path)`: a user's tab-separated file, `text<TAB>summary`.
- `tfds_examples(name, split)`: `gigaword`, `cnn_dailymail` (online).

The descriptions are human-written, full of the names a summary must copy
(`0ad`, `scala`, `libfoo`), and a strong baseline exists: the first words
of the description (`benchmarks/summarization.py` measures both).
"""

from __future__ import annotations

import bz2
import dataclasses
import glob
import gzip
import hashlib
import lzma
import re
import subprocess
from pathlib import Path

from attention_zoo.applications.common.pairs_files import tab_rows

APT_LISTS = "/var/lib/apt/lists"
TRANSLATION_GLOB = "*_i18n_Translation-en*"
PACKAGES_GLOB = "*_binary-*_Packages*"
HOW_TO_FETCH = (
    "fetch them with `sudo apt-get -o Acquire::Languages=en update` (Debian "
    "and Ubuntu: the English package descriptions, about 13 MB compressed), "
    "or train on your own pairs with --pairs FILE.tsv"
)
# Split of a source package by its name's hash: per cent in validation and
# in test (the rest trains).
VALIDATION_PERCENT, TEST_PERCENT = 5, 5
# A description of fewer words is no text to summarise ("Dummy package").
MIN_TEXT_WORDS = 8


@dataclasses.dataclass(frozen=True)
class Example:
    """A text and its reference summary; `group` keeps related examples in
    one split (a Debian source package), `name` says where it came from."""

    text: str
    summary: str
    group: str = ""
    name: str = ""


def _read_list_file(path: Path) -> str:
    """The text of an apt list file, compressed or not.

    lz4 (apt's default) has no Python standard module: apt's own helper
    decompresses it.
    """
    suffix = path.suffix
    if suffix == ".gz":
        return gzip.decompress(path.read_bytes()).decode("utf-8", "replace")
    if suffix == ".xz":
        return lzma.decompress(path.read_bytes()).decode("utf-8", "replace")
    if suffix == ".bz2":
        return bz2.decompress(path.read_bytes()).decode("utf-8", "replace")
    if suffix == ".lz4":
        helper = "/usr/lib/apt/apt-helper"
        if not Path(helper).is_file():
            raise FileNotFoundError(
                f"{path} is lz4-compressed and {helper} (apt) is missing to read it"
            )
        done = subprocess.run(
            [helper, "cat-file", str(path)], capture_output=True, check=False
        )
        if done.returncode != 0:
            raise ValueError(
                f"{path}: apt-helper could not decompress it "
                f"({done.stderr.decode('utf-8', 'replace').strip()[:200]})"
            )
        return done.stdout.decode("utf-8", "replace")
    return path.read_text(encoding="utf-8", errors="replace")


def parse_records(text: str) -> list[dict]:
    """The records of a deb822 file (`Packages`, `Translation-en`): one dict
    of fields per paragraph, a multi-line field's lines joined by newlines."""
    records, record, field = [], {}, None
    for line in text.splitlines():
        if not line.strip():
            if record:
                records.append(record)
            record, field = {}, None
        elif line[0] in " \t" and field is not None:
            record[field] += "\n" + line[1:]
        elif ":" in line:
            field, _, value = line.partition(":")
            record[field] = value.strip()
    if record:
        records.append(record)
    return records


def description_text(long: str) -> str:
    """A `Description` field's long text as plain prose: paragraphs (the
    ` .` lines) joined, verbatim-indented lines and list bullets kept as
    words, whitespace collapsed."""
    lines = [" " if line.strip() == "." else line for line in long.splitlines()]
    text = " ".join(line.strip() for line in lines)
    return re.sub(r"\s+", " ", text).strip()


def source_packages(lists=APT_LISTS) -> dict[str, str]:
    """`{binary package: source package}` from apt's `Packages` files."""
    sources = {}
    for path in sorted(glob.glob(str(Path(lists) / PACKAGES_GLOB))):
        for record in parse_records(_read_list_file(Path(path))):
            package = record.get("Package")
            if package:
                source = record.get("Source", package).split(" ")[0]
                sources.setdefault(package, source)
    return sources


def debian_examples(lists=APT_LISTS) -> list[Example]:
    """Every package description apt knows in English, one example each.

    A description shared by several packages (identical text and synopsis)
    is kept once; one whose long text has fewer than `MIN_TEXT_WORDS` words
    is left out.

    Raises:
        FileNotFoundError: saying how to fetch the files, when `lists` holds
            no `Translation-en` file.
    """
    paths = sorted(glob.glob(str(Path(lists) / TRANSLATION_GLOB)))
    if not paths:
        raise FileNotFoundError(
            f"no English package descriptions in {lists} ({TRANSLATION_GLOB}): "
            + HOW_TO_FETCH
        )
    sources = source_packages(lists)
    examples, seen = [], set()
    for path in paths:
        for record in parse_records(_read_list_file(Path(path))):
            package = record.get("Package")
            description = record.get("Description-en")
            if not package or not description:
                continue
            synopsis, _, long = description.partition("\n")
            text = description_text(long)
            key = (text, synopsis.strip())
            if len(text.split()) < MIN_TEXT_WORDS or not key[1] or key in seen:
                continue
            seen.add(key)
            examples.append(
                Example(text, key[1], group=sources.get(package, package), name=package)
            )
    return examples


def split_by_source(examples, seed: int = 0):
    """`(train, validation, test)`: each group (source package) whole in one
    split, chosen by a hash of its name and `seed`, so a split never changes
    when packages come or go."""
    splits = ([], [], [])
    for example in examples:
        digest = hashlib.sha256(f"{seed}:{example.group}".encode()).digest()
        bucket = int.from_bytes(digest[:4], "big") % 100
        index = (
            2
            if bucket < TEST_PERCENT
            else 1
            if bucket < TEST_PERCENT + VALIDATION_PERCENT
            else 0
        )
        splits[index].append(example)
    return splits


def read_pairs(path) -> list[Example]:
    """Examples from a tab-separated file: text, summary (more columns are
    ignored; a line without both is skipped and counted on standard error).

    Raises:
        FileNotFoundError: naming the file.
        ValueError: naming the file when it is not UTF-8 or holds no pair.
    """
    import sys

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"pairs file not found: {path}")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = error.object[: error.start].count(b"\n") + 1
        raise ValueError(
            f"{path} is not UTF-8 (line {line}); save it as UTF-8"
        ) from None
    examples, skipped = [], 0
    for number, row in tab_rows(text, path):
        if len(row) >= 2 and row[0].strip() and row[1].strip():
            examples.append(Example(row[0].strip(), row[1].strip(), f"line{number}"))
        elif any(cell.strip() for cell in row):
            skipped += 1
    if not examples:
        raise ValueError(f"no tab-separated text and summary pairs in {path}")
    if skipped:
        print(
            f"{path}: skipped {skipped} line(s) without a text and a summary",
            file=sys.stderr,
        )
    return examples


def write_pairs(path, examples) -> None:
    """`examples` as a tab-separated file that `read_pairs` reads back."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as file:
        for example in examples:
            file.write(f"{_one_line(example.text)}\t{_one_line(example.summary)}\n")


def _one_line(text: str) -> str:
    return re.sub(r"[\t\r\n]+", " ", text)


# The text and summary features of the tensorflow_datasets sets.
TFDS_FEATURES = {
    "gigaword": ("document", "summary"),
    "cnn_dailymail": ("article", "highlights"),
}


def tfds_examples(name: str, split: str, data_dir=None, download=False, limit=None):
    """Examples of a `tensorflow_datasets` summarization set (`TFDS_FEATURES`).

    With `download=False` (the default) nothing is fetched: the set must be
    prepared in `data_dir` already, or this fails at once saying how to
    download it.
    """
    import tensorflow_datasets as tfds

    from attention_zoo.applications.common.tfds import tfds_builder, tfds_split

    base = name.split("/")[0].split(":")[0]
    if base not in TFDS_FEATURES:
        raise ValueError(
            f"`tfds_name` must be one of {sorted(TFDS_FEATURES)} (optionally "
            f"with a config or version). Received: tfds_name={name!r}"
        )
    text_key, summary_key = TFDS_FEATURES[base]
    dataset = tfds_split(
        tfds_builder(name, data_dir, download),
        split,
        "Download it once with `attention-zoo summarization train --tfds "
        f"{name} --download` or `tfds build {name}`",
    )
    if limit:
        dataset = dataset.take(limit)
    examples = []
    for row in tfds.as_numpy(dataset):
        text = row[text_key].decode("utf-8", "replace")
        summary = row[summary_key].decode("utf-8", "replace")
        examples.append(Example(text, summary, f"{split}{len(examples)}"))
    return examples
