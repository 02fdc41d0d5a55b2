"""The corpus of a training run, split, and the held-out pairs it writes."""

from __future__ import annotations

import csv
import random
import sys
from pathlib import Path

from attention_zoo.applications.common.pairs_files import check_held_out
from attention_zoo.applications.translation import data
from attention_zoo.applications.translation.config import CORPORA, TrainConfig

SPLITS = ("validation", "test")


def load_corpus(config: TrainConfig):
    """`(train, validation, test)` lists of `data.Pair` for the config's corpus.

    `validation_pairs` and `test_pairs`, TSV files, replace the held-out
    split they name; a corpus split at random (`numbers`, `tsv`) then holds
    out only the splits not given, and keeps every pair for training when
    both are. Held-out pairs that are mostly training pairs (by their
    source sentence) are refused, some are warned of on standard error
    (`pairs_files.check_held_out`).
    """
    given = [
        data.read_tsv_pairs(path) if path else None
        for path in (config.validation_pairs, config.test_pairs)
    ]
    splits = _load_splits(config, given)
    splits = tuple(g if g is not None else s for g, s in zip((None, *given), splits))
    # A validation file identical to the training file makes early stopping
    # and the test scores optimistic: refused when mostly shared, warned of
    # when partly.
    flags = ("--validation-pairs", "--test-pairs")
    check_held_out(
        {p.source for p in splits[0]},
        {name: [p.source for p in s] for name, s in zip(SPLITS, splits[1:])},
        "source sentence",
        {name: f for name, f, g in zip(SPLITS, flags, given) if g is not None},
    )
    return splits


def _load_splits(config: TrainConfig, given):
    if config.corpus not in CORPORA:
        raise ValueError(
            f"`corpus` must be one of {CORPORA}. Received: corpus={config.corpus!r}"
        )
    if config.corpus == "bible":
        return data.split_by_book(data.bible_pairs())
    if config.corpus in ("software", "po"):
        return _software_splits(config)
    if config.corpus == "numbers":
        pairs = data.number_pairs(config.n_pairs, seed=config.seed)
        return _random_split(pairs, config.seed, given)
    if config.corpus == "tsv":
        if not config.pairs:
            raise ValueError("corpus 'tsv' needs `pairs`, the path of the TSV file")
        return _random_split(data.read_tsv_pairs(config.pairs), config.seed, given)
    if not config.tfds_name:
        raise ValueError(
            "corpus 'tfds' needs `tfds_name`, e.g. 'ted_hrlr_translate/pt_to_en'"
        )
    splits = []
    for split in ("train", "validation", "test"):
        splits.append(
            data.tfds_pairs(
                config.tfds_name,
                split=split,
                data_dir=config.tfds_data_dir,
                download=config.download and split == "train",
            )
        )
    return tuple(splits)


def _software_splits(config: TrainConfig):
    """Debian's software messages, or a user's catalogs (`po`), split by
    package (or file): every message of one in one split."""
    from attention_zoo.applications.translation.software import catalogs, recipe

    if config.corpus == "po":
        if not config.po:
            raise ValueError("corpus 'po' needs `po`, the folder of .po/.mo files")
        messages, _ = catalogs.po_messages(config.po)
    else:
        messages, _ = recipe.build()
    splits = tuple(
        [data.Pair(m.source, m.target, m.packages[0]) for m in split]
        for split in recipe.split_by_package(messages, config.seed)
    )
    if all(splits):
        return splits
    # Too few packages (a user's handful of catalogs) to hold whole ones
    # out: held-out messages are drawn at random instead, no English
    # message in two splits.
    print(
        f"{len({m.packages[0] for m in messages})} catalog(s) are too few to hold "
        "whole ones out: validation and test messages are drawn at random",
        file=sys.stderr,
    )
    return _random_split([p for split in splits for p in split], config.seed)


def _random_split(pairs, seed, given=(None, None), held_out: float = 0.05):
    """Seeded train/validation/test split with no source string in two splits.

    Only the held-out splits that `given` (validation, test) leaves None
    are drawn; the others come back empty, to be replaced by the given ones.
    """
    by_source = {}
    for p in pairs:
        by_source.setdefault(p.source, []).append(p)
    sources = sorted(by_source)
    random.Random(seed).shuffle(sources)
    n = max(1, int(len(sources) * held_out))
    pick = lambda keys: [p for k in keys for p in by_source[k]]  # noqa: E731
    held = []
    for g in given:
        held.append([] if g is not None else pick(sources[:n]))
        if g is None:
            sources = sources[n:]
    return pick(sources), *held


def write_pairs(path, pairs):
    """Write `pairs` as book, source, target rows of a TSV file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, delimiter="\t")
        writer.writerows((p.book, p.source, p.target) for p in pairs)


def read_pairs(path):
    """The pairs `write_pairs` wrote to `path`."""
    with Path(path).open(encoding="utf-8", newline="") as f:
        return [data.Pair(s, t, b) for b, s, t in csv.reader(f, delimiter="\t")]
