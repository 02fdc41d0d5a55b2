"""Placeholders masked in a translation run: the training pairs, the
vocabularies that keep every typed token, and the predictor's answers.

A run's `config.json` says `"placeholders": "mask"` when its data step
masked them (`resolve`: by default for `--corpus software` and `--po`);
its `Translator` then masks each input (`placeholders.mask`), decodes,
restores the placeholders in the output (`placeholders.restore`) and runs
`placeholder_check.problems` on the answer.
"""

from __future__ import annotations

import collections
from dataclasses import replace

import numpy as np

from attention_zoo.applications.common.text import SPECIALS, WordVocabulary, tokenize
from attention_zoo.applications.translation import data
from attention_zoo.applications.translation.placeholder_check import problems
from attention_zoo.applications.translation.placeholders import (
    TOKEN,
    Masked,
    find,
    mask,
    mask_target,
    restore,
)

# The corpora of software messages, masked unless the config says "keep".
MASKED_CORPORA = ("software", "po")
MODES = ("auto", "mask", "keep")


def resolve(config):
    """`config` with `placeholders` "mask" or "keep" (not "auto"): what
    the run's `config.json` records."""
    if config.placeholders not in MODES:
        raise ValueError(
            f"`placeholders` must be one of {MODES}. Received: "
            f"placeholders={config.placeholders!r}"
        )
    if config.placeholders != "auto":
        return config
    mode = "mask" if config.corpus in MASKED_CORPORA else "keep"
    return replace(config, placeholders=mode)


def masked_pairs(pairs) -> list[data.Pair]:
    """`pairs` with the placeholders of each source masked, and those of its
    target masked with the source's tokens (`placeholders.mask_target`)."""
    out = []
    for pair in pairs:
        source = mask(pair.source)
        out.append(data.Pair(source.text, mask_target(pair.target, source), pair.book))
    return out


def vocabulary(texts, size: int) -> WordVocabulary:
    """`WordVocabulary.from_texts(texts, size)`, but every typed token of
    `texts` a word of it first (however rare `PH_PRINTF_7` is, an `<unk>`
    in its place could not be restored), then the most frequent words."""
    texts = list(texts)
    counts = collections.Counter(t for text in texts for t in tokenize(text))
    reserved = sorted(
        (w for w in counts if TOKEN.fullmatch(w)), key=lambda w: (-counts[w], w)
    )[: size - len(SPECIALS)]
    kept = set(reserved)
    words = sorted((w for w in counts if w not in kept), key=lambda w: (-counts[w], w))
    return WordVocabulary(
        SPECIALS + reserved + words[: size - len(SPECIALS) - len(reserved)]
    )


def copy_tables(source_tokens, target_tokens):
    """What a masked run's search must copy (`model.make_translate_fn`'s
    `must_copy`, `attention_zoo.decoding.constrain_copies`'s groups): one
    group per typed token the target vocabulary holds (`ph_printf_1`),
    which every target word holding it counts for (`` `ph_printf_1 ``,
    `ph_printf_1+ph_printf_2` counts for two), and a last group no source
    holds, for the target words that hold a typed token twice (never
    emitted).

    Returns:
        `(source_groups (len(source_tokens), S), target_groups
        (len(target_tokens), S))`, int32, -1 for no group: the groups each
        source word holds (those the target vocabulary lacks left out: no
        output could hold them) and each target word counts for.
    """
    held = [[m.group().lower() for m in TOKEN.finditer(w)] for w in target_tokens]
    names = sorted({n for row in held for n in row})
    group = {n: i for i, n in enumerate(names)}
    never = len(names)
    target = [
        [group[n] for n in row] if len(set(row)) == len(row) else [never]
        for row in held
    ]
    source = [
        [
            group[m.group().lower()]
            for m in TOKEN.finditer(w)
            if m.group().lower() in group
        ]
        for w in source_tokens
    ]
    return _table(source), _table(target)


def grouped_ids(token_groups) -> list[int]:
    """The ids that count for a group in `copy_tables`'s `token_groups`."""
    return np.flatnonzero((np.asarray(token_groups) >= 0).any(axis=1)).tolist()


def _table(rows) -> np.ndarray:
    """Rows of group ids as an int32 array padded with -1."""
    width = max(1, max(map(len, rows), default=0))
    out = np.full((len(rows), width), -1, "int32")
    for i, row in enumerate(rows):
        out[i, : len(row)] = row
    return out


def mask_inputs(texts, enabled: bool) -> list[Masked | None]:
    """The masked form of each text, or None for each when not `enabled`."""
    return [mask(t) if enabled else None for t in texts]


def copy_limits(source_tokens, counted) -> list | None:
    """How often an `<unk>` may become each source token (`postprocess`,
    step 1; None: any number), for a masked run; `counted` is the set of
    source words whose typed tokens the search's constraint counts
    (`counted_words`). Such a word never: the search emits its placeholders
    itself, exactly as often as the source holds them, so a copy would add
    one. Any other word holding a placeholder ("gfxpayload=ph_printf_2",
    unknown to the vocabulary) once: only a copy carries it through. The
    rest any number. Without masking (`counted` None): None, every token
    any number, as the SavedModel graph copies."""
    if counted is None:
        return None
    holds = [bool(TOKEN.search(t) or find(t)) for t in source_tokens]
    return [
        (0 if t.lower() in counted else 1) if h else None
        for t, h in zip(source_tokens, holds)
    ]


def counted_words(source_tokens, tables) -> frozenset | None:
    """The source words that hold a group of `copy_tables`' source groups
    (`tables`, None for a run that does not mask: None)."""
    if tables is None:
        return None
    return frozenset(source_tokens[i] for i in grouped_ids(tables[0]))


def restored(output: str, masked: Masked | None) -> str:
    """`output` with the placeholders of `masked` put back (as it is for None)."""
    return output if masked is None else restore(output, masked)


def reason(source: str, output: str) -> str:
    """Why `output` does not keep the placeholders of `source` ("" when it
    does): the check's reasons, each naming the placeholder."""
    found = problems(source, output)
    return "placeholders: " + "; ".join(found) if found else ""
