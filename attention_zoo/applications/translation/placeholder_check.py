"""Whether a translation keeps its message's placeholders.

An output that drops, adds or changes a placeholder, reorders printf
placeholders that have no `%n$` position (or `{}` fields without a name),
breaks the nesting of markup tags, loses the accelerator, a leading or
trailing line break, or still holds a masked token, is not valid: each
reason names the placeholder. Positional placeholders (`%1$s`, `%(name)s`,
`{0}`, `{name}`) may move, as a translation needs them to, and a
translation may number the source's unnumbered ones (`%s %s` -> `%2$s
%1$s`, as gettext allows). Line breaks inside a message are layout (a
--help text rewraps its columns): only those that start or end it count,
as `msgfmt --check` asks.
"""

from __future__ import annotations

import re
from collections import Counter

from attention_zoo.applications.translation.placeholders import (
    KINDS,
    TOKEN,
    Placeholder,
    find,
)

# Tags that close nothing: a `<br>` stands alone.
VOID_TAGS = {"br", "hr", "img"}
# The order-bound placeholders, named for the reason.
_UNNUMBERED = {"printf": "no %n$ position", "brace": "no field name or number"}


def problems(source: str, output: str) -> list[str]:
    """The reasons `output` does not keep the placeholders of `source`
    (empty when it keeps them all).

    Examples:
        >>> problems("Copy %s to %s", "Copiar %s a %s")
        []
        >>> problems("Open %s", "Abrir")
        ["drops the printf placeholder '%s'"]
    """
    wanted, got = find(source), find(output)
    reasons = [
        f"keeps the masked token {m.group()!r} where a placeholder belongs"
        for m in TOKEN.finditer(output)
    ]
    got, numbered = _numbered_as_source(wanted, got)
    for kind in KINDS:
        a = [_key(p) for p in wanted if p.kind == kind and _counted(p)]
        b = [_key(p) for p in got if p.kind == kind and _counted(p)]
        reasons += _count_problems(kind, a, b)
        if kind in _UNNUMBERED and Counter(a) == Counter(b):
            reasons += _order_problems(kind, wanted, got, numbered)
    reasons += _nesting_problems(wanted, got)
    reasons += _edge_problems(wanted, got, source, output)
    return reasons


def _count_problems(kind, wanted, got) -> list[str]:
    """Dropped, added and changed placeholders of one kind."""
    name = "accelerator" if kind == "accelerator" else f"{kind} placeholder"
    missing = list((Counter(wanted) - Counter(got)).elements())
    extra = list((Counter(got) - Counter(wanted)).elements())
    # In message order, so that a changed placeholder pairs with the one
    # that took its place.
    missing.sort(key=wanted.index)
    extra.sort(key=got.index)
    reasons = [f"changes the {name} {x!r} to {y!r}" for x, y in zip(missing, extra)]
    n = min(len(missing), len(extra))
    reasons += [f"drops the {name} {x!r}" for x in missing[n:]]
    reasons += [f"adds the {name} {y!r}" for y in extra[n:]]
    return reasons


def _counted(p: Placeholder) -> bool:
    """Line breaks inside a message are layout a translation may change (a
    --help text's columns wrap where the Spanish words end): only those
    that start or end it count (`_edge_problems`)."""
    return not (p.kind == "escape" and p.text.isspace() and "\n" in p.text)


def _key(p: Placeholder) -> str:
    """What must match: a tab's neighbouring spaces are layout too."""
    return (
        p.text.replace(" ", "") if p.kind == "escape" and p.text.isspace() else p.text
    )


def _numbered_as_source(wanted, got):
    """`(got, numbered)`: the output's `%n$s` written back as the source's
    n-th unnumbered `%s` when the source numbers none (a translation may
    number them to reorder, as gettext allows), and where those were."""
    source = [p.text for p in wanted if p.kind == "printf" and p.text != "%%"]
    if any(re.match(r"%\d+\$", t) for t in source):
        return got, set()
    out, numbered = [], set()
    for p in got:
        match = re.match(r"%(\d+)\$(.*)", p.text) if p.kind == "printf" else None
        n = int(match.group(1)) if match else 0
        if match and 1 <= n <= len(source) and "%" + match.group(2) == source[n - 1]:
            p = Placeholder("printf", source[n - 1], p.start, p.end)
            numbered.add(p.start)
        out.append(p)
    return out, numbered


def _order_problems(kind, wanted, got, numbered=frozenset()) -> list[str]:
    """Unnumbered placeholders out of their order (`%%` is no argument)."""
    if kind == "printf" and numbered:
        # Numbered in the output: any order, but all of them numbered (C
        # forbids mixing the two forms in one format).
        unnumbered = [
            p.text
            for p in got
            if p.kind == "printf" and not p.positional and p.start not in numbered
        ]
        if unnumbered:
            return [
                f"mixes numbered and unnumbered printf placeholders: "
                f"{unnumbered[0]!r} has no %n$ position"
            ]
        return []

    def order(found: list[Placeholder]):
        return [p.text for p in found if p.kind == kind and not p.positional]

    a, b = order(wanted), order(got)
    for x, y in zip(a, b):
        if x != y:
            return [
                f"reorders the {kind} placeholders {x!r} and {y!r}: with "
                f"{_UNNUMBERED[kind]} their order is fixed"
            ]
    return []


def _tag_name(text: str) -> str:
    return text.strip("</>").split()[0].lower() if text.strip("</>") else ""


def _nesting(found: list[Placeholder]) -> str | None:
    """The first tag that breaks the nesting, or None when the tags nest."""
    stack = []
    for p in found:
        if p.kind != "tag" or p.text.endswith("/>"):
            continue
        name = _tag_name(p.text)
        if name in VOID_TAGS:
            continue
        if not p.text.startswith("</"):
            stack.append(name)
        elif stack and stack[-1] == name:
            stack.pop()
        else:
            return p.text
    return f"<{stack[-1]}>" if stack else None


def _nesting_problems(wanted, got) -> list[str]:
    if _nesting(wanted) is not None:  # a source that does not nest binds none
        return []
    broken = _nesting(got)
    if broken is None:
        return []
    return [f"breaks the nesting of the markup at the tag {broken!r}"]


def _edge_problems(wanted, got, source: str, output: str) -> list[str]:
    """A line break that starts or ends the source must start or end the
    output (as `msgfmt --check` asks)."""
    reasons = []
    for side in ("starts", "ends"):
        mark = _edge_break(wanted, source, side)
        if mark is not None and _edge_break(got, output, side) is None:
            reasons.append(
                f"the message {side} with the line break {mark!r} and the "
                "output does not"
            )
    return reasons


def _edge_break(found, text: str, side: str) -> str | None:
    """The line break that starts (or ends) `text`, if one does."""
    for p in found:
        if p.kind == "escape" and p.text.isspace() and "\n" in p.text:
            if p.start == 0 if side == "starts" else p.end == len(text):
                return p.text
    return None


def is_valid(source: str, output: str) -> bool:
    return not problems(source, output)
