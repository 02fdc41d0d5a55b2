"""Whether a translation keeps its message's placeholders.

An output that drops, adds or changes a placeholder, reorders printf
placeholders that have no `%n$` position (or `{}` fields without a name),
breaks the nesting of markup tags, loses the accelerator, a leading or
trailing line break, or still holds a masked token, is not valid: each
reason names the placeholder. Positional placeholders (`%1$s`, `%(name)s`,
`{0}`, `{name}`) may move, as a translation needs them to.
"""

from __future__ import annotations

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
    for kind in KINDS:
        a = [p.text for p in wanted if p.kind == kind]
        b = [p.text for p in got if p.kind == kind]
        reasons += _count_problems(kind, a, b)
        if kind in _UNNUMBERED and Counter(a) == Counter(b):
            reasons += _order_problems(kind, wanted, got)
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


def _order_problems(kind, wanted, got) -> list[str]:
    """Unnumbered placeholders out of their order (`%%` is no argument)."""

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
