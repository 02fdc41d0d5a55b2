"""A translation run's vocabulary shortlist (`attention_zoo.decoding.shortlist`):
the target words each source word makes likely, learned from the run's own
outputs, in `shortlist.json` of the run folder.

With it the translator searches each sentence over `size` target ids, not
the whole vocabulary: the output layer and what the search reads each
step shrink to them (docs/translation.md, "Speed", measures what that
saves and what it changes).

How it is learned (`learn`): the run, searching greedily over its whole
vocabulary, translates its training sources as the translator reads them
(masked, and cut into sentences where it cuts them); each word it emits
counts for the source word its attention weighs most there; each source
word keeps the `CANDIDATES` words counted most for it (ties: the lower
id). The model's own outputs, not the reference translations: what the
shortlist must hold is what the model would emit, and the references'
co-occurrence statistics (Dice) missed more of it. `shared`, first in
every shortlist: the `FREQUENT` lowest target ids (the vocabulary is
ordered by frequency, its special tokens first) and every target word
that holds a placeholder token, whose groups the copy constraint knows by
position (`masking.copy_tables`). Each shortlist has room for `EXTRA`
candidate ids beside them.

The file holds ids only and is checked on reading: every id within its
vocabulary, `size` within bounds; nothing in it is run.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from attention_zoo._checks import is_int
from attention_zoo.applications.common.inputs import InputError
from attention_zoo.applications.common.text import END_ID, PAD_ID, START_ID
from attention_zoo.applications.translation import sentences
from attention_zoo.applications.translation.masking import grouped_ids
from attention_zoo.decoding.shortlist import check_shortlist, packed
from attention_zoo.decoding.shortlist import shortlist as make_shortlist

SHORTLIST_FILE = "shortlist.json"
FORMAT = 1
CANDIDATES = 16
FREQUENT = 200
EXTRA = 128


def learn(
    translator,
    sources,
    max_tokens: int,
    candidates: int = CANDIDATES,
    frequent: int = FREQUENT,
    extra: int = EXTRA,
) -> dict:
    """The shortlist of `translator`'s run, as `shortlist.json` holds it.

    Args:
        translator: the run's `Translator`, searching without a shortlist.
        sources: its training sources as the model reads them (masked).
        max_tokens: words of a source the translator reads
            (`MAX_SOURCE_TOKENS`).
        candidates, frequent, extra: the module docstring's sizes.
    """
    for name, value in (
        ("candidates", candidates),
        ("frequent", frequent),
        ("extra", extra),
    ):
        if not is_int(value) or value < 1:
            raise ValueError(
                f"`{name}` must be a positive int. Received: {name}={value!r}"
            )
    if translator.shortlist is not None:
        raise ValueError(
            "`translator` must search the whole vocabulary: give "
            "Translator(run, shortlist=False)"
        )
    # The texts the translator searches: sentences where it cuts them.
    texts = [
        piece
        for source in sources
        for piece, _, _ in (
            sentences.split(source, max_tokens)
            if translator.sentences
            else [(source, 0, 0)]
        )
    ]
    ids, attention, _ = translator.search(texts, beam_width=1)
    vocab_t = len(translator.target_vocabulary)
    pairs = []
    for text, out, weights in zip(texts, ids, attention):
        source = np.asarray(translator.source_vocabulary.encode(text)[:max_tokens])
        emitted = out[out != PAD_ID]
        if not len(source) or not len(emitted):
            continue
        attended = source[weights[: len(emitted), : len(source)].argmax(axis=-1)]
        pairs.append(attended.astype("int64") * vocab_t + emitted)
    keys, counts = np.unique(
        np.concatenate(pairs or [np.zeros(0, "int64")]), return_counts=True
    )
    placeholders = (
        [] if translator.must_copy is None else grouped_ids(translator.must_copy[1])
    )
    shared = sorted(set(range(min(frequent, vocab_t))) | set(placeholders))
    # By source word, then the most counted first, then the lower id.
    order = np.lexsort((keys % vocab_t, -counts, keys // vocab_t))
    table: dict[int, list[int]] = {}
    kept = set(shared)
    for key in keys[order]:
        source, target = divmod(int(key), vocab_t)
        row = table.setdefault(source, [])
        if target not in kept and len(row) < candidates:
            row.append(target)
    return {
        "format": FORMAT,
        "size": min(len(shared) + extra, vocab_t),
        "shared": shared,
        "candidates": {str(s): row for s, row in sorted(table.items()) if row},
        "learned_from": f"greedy outputs of this run on {len(texts)} training sentences",
        "sizes": {"candidates": candidates, "frequent": frequent, "extra": extra},
    }


def save(folder, shortlist: dict) -> Path:
    """Writes `shortlist` into `folder`'s `shortlist.json`."""
    path = Path(folder) / SHORTLIST_FILE
    path.write_text(json.dumps(shortlist) + "\n", encoding="utf-8")
    return path


def chosen(folder, wanted, source_tokens, target_tokens):
    """`Translator(shortlist=wanted)`'s shortlist of the run in `folder`:
    `load`'s, None for `wanted` False; an InputError for `wanted` True and
    a run without one."""
    if wanted is False:
        return None
    found = load(folder, len(source_tokens), len(target_tokens))
    if wanted and found is None:
        raise InputError(f"shortlist=True: {folder} has no {SHORTLIST_FILE}")
    return found


def on_host(ids, shortlist, vocab_size: int) -> np.ndarray:
    """The shortlists of source `ids` `(N, T)` computed with NumPy and
    `packed` `(N, size)`, as the search with refilled rows reads them
    (`Translator.model_input`); `shortlist` is `load`'s."""
    candidates, shared, size = shortlist
    return packed(
        *make_shortlist(ids, candidates, shared, size, vocab_size, on_host=True)
    )


def load(folder, source_size: int, target_size: int):
    """`(candidates (source_size, k), shared, size)` from `folder`'s
    `shortlist.json` (`model.make_translate_fn`'s `shortlist`), or None
    when it has none; a ValueError naming the file for one that does not
    fit the vocabularies."""
    path = Path(folder) / SHORTLIST_FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise ValueError(f"format {data.get('format')!r}, not {FORMAT}")
        rows = {int(s): list(map(int, row)) for s, row in data["candidates"].items()}
        if rows and not 0 <= min(rows) <= max(rows) < source_size:
            raise ValueError(f"source ids outside 0..{source_size - 1}")
        width = max(map(len, rows.values()), default=1)
        table = np.full((source_size, width), -1, "int64")
        for source, row in rows.items():
            table[source, : len(row)] = row
        table[PAD_ID] = -1  # padding makes no word likely
        size = data["size"]
        candidates, shared = check_shortlist(
            table,
            np.asarray(data["shared"], "int64"),
            size,
            target_size,
            tokens=(PAD_ID, START_ID, END_ID),
        )
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise ValueError(f"{path} is not a shortlist of this run: {error}") from None
    return candidates, shared, size
