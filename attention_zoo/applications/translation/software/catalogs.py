"""English-Spanish message pairs of gettext catalogs (`.po` and `.mo`), read
with `polib`: fuzzy, obsolete and untranslated entries dropped, a plural
entry giving its singular and its plural pair, the context (`msgctxt`)
kept out of the text."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from attention_zoo.applications.translation.placeholder_check import problems

# The entries whose translation is the translators' names and addresses
# (GNOME's msgid, KDE's contexts), not a translation.
CREDITS_IDS = {"translator-credits", "translator_credits", "translator-credits\n"}
CREDITS_CONTEXTS = {"NAME OF TRANSLATORS", "EMAIL OF TRANSLATORS"}
# A message to learn from has a word of two letters outside its
# placeholders: "%s: %s" and "---" teach nothing.
_WORD = re.compile(r"[^\W\d_]{2}")


@dataclass(frozen=True)
class Message:
    """One English message and its translation; `packages` are the packages
    (or catalog files) that hold this pair, the first one's name first."""

    source: str
    target: str
    packages: tuple[str, ...] = ()


def catalog_pairs(catalog) -> list[tuple[str, str]]:
    """`(msgid, msgstr)` pairs of a `polib` catalog.

    A plural entry gives `(msgid, msgstr[0])` and `(msgid_plural,
    msgstr[1])`, Spanish's two forms (a form left empty is skipped).
    """
    pairs = []
    for entry in catalog:
        if not entry.msgid or entry.obsolete or "fuzzy" in entry.flags:
            continue
        if entry.msgid in CREDITS_IDS or entry.msgctxt in CREDITS_CONTEXTS:
            continue
        if entry.msgid_plural:
            forms = entry.msgstr_plural
            for index, source in ((0, entry.msgid), (1, entry.msgid_plural)):
                if forms.get(index):
                    pairs.append((source, forms[index]))
        elif entry.msgstr:
            pairs.append((entry.msgid, entry.msgstr))
    return pairs


def read_catalog(path_or_data, name: str, kind: str) -> list[tuple[str, str]]:
    """The pairs of one catalog: `kind` "po" or "mo", from a path or (for
    .mo) bytes. A catalog polib cannot read is skipped with a message on
    standard error naming it (one broken file does not stop a corpus)."""
    import polib

    reader = polib.mofile if kind == "mo" else polib.pofile
    try:
        catalog = reader(path_or_data)
    # polib reports a damaged file as OSError, ValueError, UnicodeError or a
    # struct/index error from deep inside its parser.
    except Exception as error:  # noqa: BLE001
        print(
            f"{name}: not a readable {kind} catalog, skipped ({error!s:.200})",
            file=sys.stderr,
        )
        return []
    return catalog_pairs(catalog)


def usable(source: str, target: str) -> str | None:
    """Why a pair is no training or test pair, or None when it is one."""
    if not _WORD.search(source):
        return "no word"
    if problems(source, target):
        return "placeholders differ"
    return None


def merge(found) -> tuple[list[Message], dict]:
    """Messages from `(package, source, target)` triples: each pair once,
    with every package that holds it; pairs that are not `usable` counted
    by reason (`{reason: count}`)."""
    holders, dropped = {}, {}
    for package, source, target in found:
        reason = usable(source, target)
        if reason is not None:
            dropped[reason] = dropped.get(reason, 0) + 1
            continue
        holders.setdefault((source, target), []).append(package)
    messages = [
        Message(source, target, tuple(sorted(set(packages))))
        for (source, target), packages in holders.items()
    ]
    return messages, dropped


def po_files(directory: str | Path) -> list[Path]:
    """The `.po` and `.mo` files under `directory`, sorted."""
    directory = Path(directory)
    if not directory.is_dir():
        raise FileNotFoundError(
            f"--po must name a folder of .po or .mo files. Received: "
            f"{str(directory)[:80]!r}"
        )
    files = sorted(
        p for p in directory.rglob("*") if p.suffix in (".po", ".mo") and p.is_file()
    )
    if not files:
        raise ValueError(f"no .po or .mo files under {str(directory)[:80]!r}")
    return files


def po_messages(directory: str | Path) -> tuple[list[Message], dict]:
    """The messages of a user's catalogs under `directory`; each file is
    its own group for the split (its path without the suffix: two projects'
    `po/es.po` stay apart)."""
    directory = Path(directory)
    found = []
    for path in po_files(directory):
        group = path.relative_to(directory).with_suffix("").as_posix()
        for source, target in read_catalog(str(path), str(path), path.suffix[1:]):
            found.append((group, source, target))
    return merge(found)
