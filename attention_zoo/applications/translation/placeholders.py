"""The placeholders and markup of a software message, masked and restored.

A message such as `"Delete %1$s from <b>%2$s</b>?\\n"` carries parts a
translation must copy unchanged: printf and Python formats, shell
variables, markup tags and entities, escapes, paths, URLs, e-mail
addresses and option names. `find` lists them; `mask` replaces each with a
typed token the model reads as one word (`PH_PRINTF_1`, `PH_TAG_1`, ...,
numbered per kind in source order), and `restore` puts them back after
decoding. Accelerators (`_File`, `&Open`) are the exception: the key
letter belongs to the translated word, so `mask` removes the marker and
`restore` puts it before the word at the same word index (the first word
when the output's word count differs).

`placeholder_check.problems(source, output)` says whether an output keeps
them all (docs/translation.md, "Placeholders").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Markup tags of GTK's Pango, Qt's rich text and HTML help: `<file>` and
# `<N>` in a --help text are words to translate, not markup, so only these
# names are placeholders.
TAG_NAMES = (
    "a b big blockquote br code div em font h1 h2 h3 h4 h5 h6 hr i img kbd "
    "li ol p pre s small span strong sub sup table td th tr tt u ul var"
).split()

_PRINTF_LENGTH = r"(?:hh|h|ll|l|L|q|j|z|Z|t|I64|I32|I)?"
# Kinds in priority order: where two start at one position the first wins
# (a URL's `%20` is the URL's, a tag's `href` value the tag's).
PATTERNS = {
    "url": r"(?:https?|ftp|file)://[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]]|www\.[\w-]+(?:\.[\w-]+)+(?:/[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]])?",
    # No `%` in the local part: `%s@%s` is two printf placeholders.
    "email": r"[A-Za-z0-9._+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+",
    "tag": r"</?(?:" + "|".join(TAG_NAMES) + r")(?:\s+[^<>]*?)?\s*/?>",
    "entity": r"&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9A-Fa-f]+);",
    # Python's `%(name)s`, reorderable like positional printf.
    "named": r"%\([A-Za-z_][A-Za-z0-9_]*\)[-+#0]*(?:\d+)?(?:\.\d+)?[diouxXeEfFgGcrsa%]",
    # C printf: `%%`, `%s`, `%1$d`, `%-10.3lf`, `%'d`, `%*d`, gettext's
    # `%<PRId64>`. The space flag is left out: "100% of" is prose, not `% o`.
    "printf": r"%%|%(?:\d+\$)?[-+#0']*(?:\d+|\*(?:\d+\$)?)?(?:\.(?:\d+|\*(?:\d+\$)?))?"
    + _PRINTF_LENGTH
    + r"(?:[diouxXeEfFgGaAcspnmCS]|<PRI[A-Za-z0-9]+>)",
    # Python's str.format: `{}`, `{0}`, `{name}`, `{0:>3}`, `{x.y!r}` and the
    # literal braces `{{` `}}`.
    "brace": r"\{\{|\}\}|\{(?:[A-Za-z_][A-Za-z0-9_]*|\d+)?(?:\.[A-Za-z_]\w*|\[[^\]{}]*\])*(?:![rsa])?(?::[^{}]*)?\}",
    "variable": r"\$\{[A-Za-z_][A-Za-z0-9_]*(?:[:#%/][^{}]*)?\}|\$[A-Za-z_][A-Za-z0-9_]*",
    # Backslash escapes written out, and the real line breaks and tabs a
    # catalog holds once read, with the spaces beside them (the indentation
    # of a --help line is layout the tokenizer would lose).
    "escape": r"\\(?:[ntrabfv0\\\"']|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})|[ \t]*(?:\r?\n[ \t]*)+|[ \t]*\t[ \t]*",
    "path": r"(?<![\w.~/-])(?:~|\.{1,2})?/(?:[\w.+-]+/)*[\w.+-]*[\w+/-]|(?<![\w.~/-])~(?=\s|$)",
    # `--help`, `-v`; not the hyphen of "e-mail". The value of
    # `--block-size=SIZE` is a word to translate (`--block-size=TAMAÑO`).
    "option": r"(?<![\w-])--[A-Za-z0-9][A-Za-z0-9-]*|(?<![\w-])-[A-Za-z](?![\w-])",
    # `_File`, `&Open` at the start of a word (not `LC_MESSAGES`, `AT&T`,
    # `__init__`, Qt's literal `&&`, nor an entity, matched before).
    "accelerator": r"(?<![\w&])_(?=[^\W_])|(?<![\w&])&(?=[^\W_])",
}
KINDS = tuple(PATTERNS)
_FINDER = re.compile("|".join(f"(?P<{kind}>{p})" for kind, p in PATTERNS.items()))
# Every pattern holds one of these (a URL "://" or "www.", a path "/" or
# "~", an option "-", ...): a text without any has no placeholder, and
# most messages have none, so `find` skips `_FINDER`'s slower search.
_MAY_HOLD = re.compile(r"[@<&%{}$\\\n\t/~_-]|www\.")
TOKEN = re.compile(r"\bPH_([A-Z]+)_(\d+)\b", re.IGNORECASE)
_WORD_START = re.compile(r"(?<!\w)[^\W_]")


@dataclass(frozen=True)
class Placeholder:
    """One placeholder: its kind (a key of `PATTERNS`), its text, and where
    it is in the message (`start`, `end`)."""

    kind: str
    text: str
    start: int
    end: int

    @property
    def positional(self) -> bool:
        """True for the placeholders that name their argument (`%1$s`,
        `%(n)s`, `{0}`, `{name}`) and so may move in a translation."""
        if self.kind == "printf":
            return bool(re.match(r"%\d+\$", self.text)) or self.text == "%%"
        if self.kind == "brace":
            return not re.match(r"\{[!:}]", self.text)
        return True


def find(text: str) -> list[Placeholder]:
    """The placeholders of `text`, in order.

    Examples:
        >>> [p.text for p in find("Copy %s to <b>$HOME</b>?")]
        ['%s', '<b>', '$HOME', '</b>']
    """
    if not _MAY_HOLD.search(text):
        return []
    return [
        Placeholder(match.lastgroup, match.group(), match.start(), match.end())
        for match in _FINDER.finditer(text)
    ]


@dataclass(frozen=True)
class Masked:
    """A masked message: its `text`, and what `restore` needs: the token of
    each placeholder with the spaces `mask` added beside it, and the
    accelerators with the word index they stood before."""

    text: str
    tokens: dict  # token -> (placeholder text, space added before, after)
    accelerators: tuple  # (marker, word index)


def token_name(kind: str, number: int) -> str:
    return f"PH_{kind.upper()}_{number}"


def _word_starts(text: str) -> list[int]:
    """Where the words of `text` start, masked tokens left out."""
    tokens = [(m.start(), m.end()) for m in TOKEN.finditer(text)]
    return [
        m.start()
        for m in _WORD_START.finditer(text)
        if not any(a <= m.start() < b for a, b in tokens)
    ]


def _joins(char: str) -> bool:
    """Whether a token beside `char` would run into it (no word boundary)."""
    return char.isalnum() or char == "_"


def mask(
    text: str, found: list[Placeholder] | None = None, names: dict | None = None
) -> Masked:
    """`text` with each placeholder replaced by its token.

    `names` (`{index in found: token}`) gives some placeholders the token of
    another text's (`mask_target`); the others are numbered per kind.

    A token gets a space on a side where it would touch a letter, a digit or
    another token (`%sfoo` -> `PH_PRINTF_1 foo`), so the tokenizer reads it
    as one word; `restore` takes that space away again.

    Examples:
        >>> mask("_Open %s in {app}").text
        'Open PH_PRINTF_1 in PH_BRACE_1'
    """
    found = find(text) if found is None else found
    markers_at = {p.start for p in found if p.kind == "accelerator"}
    counts, tokens, pieces, markers, last = {}, {}, [], [], 0
    for index, p in enumerate(found):
        pieces.append(text[last : p.start])
        last = p.end
        emitted = "".join(pieces)
        if p.kind == "accelerator":
            markers.append((p.text, len(emitted)))
            continue
        counts[p.kind] = counts.get(p.kind, 0) + 1
        name = (names or {}).get(index) or token_name(p.kind, counts[p.kind])
        before = bool(emitted) and _joins(emitted[-1])
        # The letter after a removed accelerator marker touches the token.
        following = p.end + (p.end in markers_at)
        after = following < len(text) and _joins(text[following])
        pieces.append(" " * before + name + " " * after)
        tokens[name] = (p.text, before, after)
    pieces.append(text[last:])
    masked = "".join(pieces)
    accelerators = ()
    if markers:  # most messages have none: no word starts to find
        starts = _word_starts(masked)
        accelerators = tuple(
            (marker, starts.index(at) if at in starts else 0) for marker, at in markers
        )
    return Masked(masked, tokens, accelerators)


def mask_target(target: str, source: Masked) -> str:
    """The masked text of `target`, a translation of the message `source`
    masks: a placeholder that the message holds gets the message's token
    (whatever the order the translation puts it in), so the model learns to
    copy `PH_PRINTF_2` where the message has it; any other gets a token
    numbered past the message's of its kind (a model that writes it has
    added a placeholder, which `restore` leaves for the check to name).

    Examples:
        >>> source = mask("%1$s of %2$s")
        >>> mask_target("%2$s de %1$s", source)
        'PH_PRINTF_2 de PH_PRINTF_1'
    """
    free = {}  # placeholder text -> the message's tokens not yet used
    for name, (text, _, _) in source.tokens.items():
        free.setdefault(text, []).append(name)
    found = find(target)
    counts = {}
    for name in source.tokens:
        kind = TOKEN.fullmatch(name).group(1).lower()
        counts[kind] = counts.get(kind, 0) + 1
    names = {}
    for index, p in enumerate(found):
        if p.kind == "accelerator":
            continue
        if free.get(p.text):
            names[index] = free[p.text].pop(0)
        else:
            counts[p.kind] = counts.get(p.kind, 0) + 1
            names[index] = token_name(p.kind, counts[p.kind])
    return mask(target, found, names).text


def restore(output: str, masked: Masked) -> str:
    """`output` (a translation of `masked.text`) with the placeholders back.

    A token is matched in any case (the model writes lower case); a token
    the message never had is left as it is, for the check to name. The
    space `mask` put beside a token goes, and so do the spaces beside a line
    break or tab (the detokenizer puts a space between any two words).

    Examples:
        >>> restore("Abrir ph_printf_1 en PH_BRACE_1", mask("_Open %s in {app}"))
        '_Abrir %s en {app}'
    """
    if masked.accelerators:
        output = _put_accelerators(output, masked)
    pieces, last = [], 0
    for match in TOKEN.finditer(output):
        pieces.append(output[last : match.start()])
        last = match.end()
        name = token_name(match.group(1), int(match.group(2)))
        if name not in masked.tokens:
            pieces.append(match.group())
            continue
        text, before, after = masked.tokens[name]
        if (before or text.isspace()) and pieces[-1].endswith(" "):
            pieces[-1] = pieces[-1][:-1]
        pieces.append(text)
        if (after or text.isspace()) and output.startswith(" ", last):
            last += 1
    pieces.append(output[last:])
    return "".join(pieces)


def _put_accelerators(output: str, masked: Masked) -> str:
    starts = _word_starts(output)
    if not starts:
        starts = [0]
    same = len(starts) == len(_word_starts(masked.text))
    inserts = sorted(
        (starts[i] if same else starts[0], marker) for marker, i in masked.accelerators
    )
    for at, marker in reversed(inserts):
        output = output[:at] + marker + output[at:]
    return output
