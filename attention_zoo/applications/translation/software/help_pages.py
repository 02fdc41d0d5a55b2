"""Aligned English-Spanish blocks of translated Mallard help pages.

GNOME's help (`usr/share/help/C/<doc>/<name>.page`) is translated with
itstool, which writes the Spanish page (`usr/share/help/es/<doc>/<name>.page`)
from the English one by replacing each translatable block in place: the two
pages hold the same blocks in the same order, so the n-th paragraph of one is
the translation of the n-th paragraph of the other. A page whose blocks do
not line up (a different number or kind: the translation is of another
version of the page) is dropped whole, and a block left in English is
dropped alone.

A block is a title, subtitle, description or paragraph (`p`); one that holds
another block is not a block itself (a `note` is its paragraphs). Its text
is the text of its inline markup (`<gui>`, `<cmd>`, `<code>`, `<var>`,
`<key>`, ...), kept as text, white space collapsed. Code listings and
screens outside a paragraph are not prose and are skipped.

The pages are read with Python's expat parser with every entity
declaration refused: no entity is expanded, none is fetched, and nothing in
a page runs or names a module to import.
"""

from __future__ import annotations

import collections
import re
from typing import NamedTuple
from xml.etree.ElementTree import Element, TreeBuilder
from xml.parsers import expat

MALLARD = "http://projectmallard.org/1.0/"
ITS_TRANSLATE = "http://www.w3.org/2005/11/its}translate"
BLOCKS = frozenset({"title", "subtitle", "desc", "p"})
# Listings and terminal sessions are code, not prose, even inside a block.
SKIPPED = frozenset({"code", "screen", "synopsis"})
PAGE_PATH = re.compile(
    r"usr/share/help/(?P<lang>[^/]+)/(?P<doc>[^/]+)/(?P<name>[^/]+)\.page"
)


class HelpPair(NamedTuple):
    """One aligned block: where it is (`package`, `doc`, `page`), its kind
    (`p`, `title`, ...) and its English and Spanish text."""

    source: str
    target: str
    package: str
    doc: str
    page: str
    kind: str


def _refuse_entity(name, *_):
    raise ValueError(f"declares the entity {str(name)[:80]!r}; entities are not read")


def _refuse_reference(name, *_):
    raise ValueError(f"refers to the undeclared entity {str(name)[:80]!r}")


def parse(data: bytes, where: str = "the page") -> Element:
    """The element tree of an XML document, entity declarations refused.

    Raises `ValueError` naming `where` for a document that is not
    well-formed XML or that declares an entity.
    """
    builder = TreeBuilder()
    parser = expat.ParserCreate(namespace_separator="}")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.EntityDeclHandler = _refuse_entity
    parser.UnparsedEntityDeclHandler = _refuse_entity
    parser.ExternalEntityRefHandler = _refuse_entity
    # Under an external DTD (never fetched) expat skips an unknown entity
    # silently: text would go missing, so the page is refused instead.
    parser.SkippedEntityHandler = _refuse_reference
    parser.buffer_text = True
    # expat writes `uri}local` with this separator; ElementTree's `{uri}local`.

    def qualified(name):
        return "{" + name if "}" in name else name

    parser.StartElementHandler = lambda name, attrs: builder.start(
        qualified(name), {qualified(k): v for k, v in attrs.items()}
    )
    parser.EndElementHandler = lambda name: builder.end(qualified(name))
    parser.CharacterDataHandler = builder.data
    try:
        parser.Parse(data, True)
        return builder.close()
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None
    except (expat.ExpatError, AssertionError) as error:
        # TreeBuilder asserts on an unbalanced document expat let through.
        raise ValueError(f"{where} is not well-formed XML ({error})") from None


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _in_mallard(tag: str) -> bool:
    return tag.startswith("{" + MALLARD) or not tag.startswith("{")


# Sequences render their parts joined (Mallard's defaults): `Ctrl+P`,
# `Settings ▸ Network`; the white space between the parts is not text.
JOINERS = {"keyseq": "+", "guiseq": " ▸ "}


def _inline(element: Element) -> str:
    joiner = JOINERS.get(_local(element.tag)) if _in_mallard(element.tag) else None
    if joiner is not None:
        return joiner.join(_inline(child).strip() for child in element)
    return (element.text or "") + "".join(
        _inline(child) + (child.tail or "") for child in element
    )


def _text(element: Element) -> str:
    """The text of a block's inline markup, white space collapsed."""
    return " ".join(_inline(element).split())


def _holds_block(element: Element) -> bool:
    return any(
        _in_mallard(e.tag) and _local(e.tag) in BLOCKS
        for e in element.iter()
        if e is not element
    )


def blocks(root: Element) -> list[tuple[str, str]]:
    """`[(kind, text)]`: the page's blocks in document order."""
    found = []

    def walk(element: Element):
        if element.get("{" + ITS_TRANSLATE) == "no":
            return  # not for translators: the Spanish page keeps it English
        tag = element.tag
        if _in_mallard(tag) and _local(tag) in SKIPPED:
            return
        if _in_mallard(tag) and _local(tag) in BLOCKS and not _holds_block(element):
            found.append((_local(tag), _text(element)))
            return
        for child in element:
            walk(child)

    walk(root)
    return found


def align(english: bytes, spanish: bytes, where: str = "the page"):
    """`(pairs, reason, dropped)`: the `(kind, English, Spanish)` blocks of a
    page and its translation, or `([], reason, 0)` when their blocks do not
    line up. Blocks left untranslated (the same text) or empty are dropped
    alone: `dropped` counts them."""
    source = blocks(parse(english, f"{where} (C)"))
    target = blocks(parse(spanish, f"{where} (es)"))
    if [k for k, _ in source] != [k for k, _ in target]:
        return [], "blocks do not line up", 0
    pairs = [
        (kind, en, es)
        for (kind, en), (_, es) in zip(source, target)
        if en and es and en != es
    ]
    return pairs, None, len(source) - len(pairs)


def help_pairs(files: dict[str, bytes], package: str, language: str = "es"):
    """`(pairs, dropped)`: the `HelpPair`s of a package's help pages
    (`files`: path to contents, as `debs.read_files` gives them) and a
    count of what was dropped, by reason."""
    pages = {}
    for path in files:
        match = PAGE_PATH.fullmatch(path)
        if match and match["lang"] in ("C", language):
            pages[match["lang"], match["doc"], match["name"]] = path
    pairs, dropped = [], collections.Counter()
    for (lang, doc, name), path in sorted(pages.items()):
        if lang != "C":
            continue
        translated = pages.get((language, doc, name))
        if translated is None:
            dropped["pages without a translation"] += 1
            continue
        try:
            aligned, reason, untranslated = align(
                files[path], files[translated], f"{package}:{path}"
            )
        except ValueError:
            dropped["pages not read (not well-formed or declaring entities)"] += 1
            continue
        if reason:
            dropped[f"pages whose {reason}"] += 1
            continue
        dropped["blocks untranslated or empty"] += untranslated
        pairs += [
            HelpPair(en, es, package, doc, name, kind) for kind, en, es in aligned
        ]
    return pairs, dict(dropped)
