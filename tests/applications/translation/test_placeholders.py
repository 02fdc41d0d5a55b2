"""Placeholders of software messages: found, masked, restored and checked.

Random messages mix words with random placeholders of every kind; masking
and restoring gives the message back, and every single mutation of a
placeholder (dropped, added, changed, unnumbered ones swapped) is caught
with a reason that names it. A hand-written table per kind pins the rules.
"""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from attention_zoo.applications.translation.placeholder_check import problems
from attention_zoo.applications.translation.placeholders import (
    _FINDER,
    KINDS,
    TOKEN,
    find,
    mask,
    restore,
)

WORDS = ["file", "Open", "the", "copy", "Save", "cannot", "archivo", "mode", "x"]
NAMES = st.sampled_from(["name", "count", "path", "n", "user_id", "HOME", "X1"])
DIGITS = st.integers(1, 12).map(str)


def _printf():
    position = st.one_of(st.just(""), DIGITS.map(lambda n: f"{n}$"))
    flags = st.sampled_from(["", "-", "0", "'", "+", "#", "-0"])
    width = st.sampled_from(["", "5", "10", "*"])
    precision = st.sampled_from(["", ".3", ".*"])
    length = st.sampled_from(["", "l", "ll", "h", "z"])
    conversion = st.sampled_from(list("diouxXfeEgcsp"))
    spec = st.tuples(position, flags, width, precision, length, conversion).map(
        lambda t: "%" + "".join(t)
    )
    return st.one_of(spec, st.just("%%"), st.just("%<PRId64>"))


PLACEHOLDERS = {
    "printf": _printf(),
    "named": st.tuples(NAMES, st.sampled_from(["s", "d", "r", ".2f", "5d"])).map(
        lambda t: f"%({t[0]}){t[1]}"
    ),
    "brace": st.one_of(
        st.sampled_from(["{}", "{{", "}}", "{:>3}", "{0:>3}", "{!r}"]),
        DIGITS.map(lambda n: "{" + n + "}"),
        NAMES.map(lambda n: "{" + n + "}"),
        NAMES.map(lambda n: "{" + n + ".attr!s:^10}"),
    ),
    "variable": st.one_of(
        NAMES.map(lambda n: "$" + n), NAMES.map(lambda n: f"${{{n}}}")
    ),
    "tag": st.sampled_from(
        [
            "<b>",
            "</b>",
            "<i>",
            "</span>",
            "<br/>",
            "<br>",
            '<a href="http://x.org/">',
            '<span weight="bold">',
            "</a>",
            "<tt>",
        ]
    ),
    "entity": st.one_of(
        st.sampled_from(["&amp;", "&lt;", "&gt;", "&quot;", "&nbsp;"]),
        st.integers(1, 99999).map(lambda n: f"&#{n};"),
        st.integers(1, 0xFFFF).map(lambda n: f"&#x{n:X};"),
    ),
    "escape": st.sampled_from(
        ["\\n", "\\t", "\\\\", '\\"', "\\x1b", "\\u00e9", "\n", "\t", "\n  "]
    ),
    "path": st.sampled_from(
        [
            "/etc/passwd",
            "~/.config/app",
            "./configure",
            "/usr/share/doc/",
            "../lib/x.so",
            "~",
        ]
    ),
    "url": st.sampled_from(
        [
            "https://www.gnu.org/software/tar/",
            "http://example.org/a%20b?x=1&y=2",
            "ftp://ftp.debian.org/debian",
            "www.gnome.org",
            "file:///tmp/x",
        ]
    ),
    "email": st.sampled_from(["bug-tar@gnu.org", "a.b+c@example.co.uk", "me@x.org"]),
    "option": st.one_of(
        st.sampled_from(["--help", "--block-size", "--no-dereference", "-v", "-R"]),
        NAMES.map(lambda n: "--" + n.lower().replace("_", "-")),
    ),
    "accelerator": st.sampled_from(["_", "&"]),
}
assert set(PLACEHOLDERS) == set(KINDS)


@st.composite
def messages(draw, min_placeholders=1):
    """(message, [(kind, text)]): words and placeholders joined by spaces,
    an accelerator standing before a word."""
    items, inserted = [], []
    for _ in range(draw(st.integers(0, 6))):
        items.append(draw(st.sampled_from(WORDS)))
    for _ in range(draw(st.integers(min_placeholders, 6))):
        kind = draw(st.sampled_from(KINDS))
        text = draw(PLACEHOLDERS[kind])
        at = draw(st.integers(0, len(items)))
        if kind == "accelerator":
            items.insert(at, text + draw(st.sampled_from(WORDS)))
        else:
            items.insert(at, text)
    message = " ".join(items)
    inserted = [(p.kind, p.text) for p in find(message)]
    return message, inserted


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(messages(min_placeholders=0).map(lambda c: c[0]), st.text(max_size=40))
)
def test_the_quick_test_for_placeholder_characters_never_hides_one(text):
    # `find` skips the full search on a text without any character a
    # placeholder needs: it must find what the full search finds.
    full = [(m.lastgroup, m.group(), m.start()) for m in _FINDER.finditer(text)]
    assert [(p.kind, p.text, p.start) for p in find(text)] == full


@settings(max_examples=200, deadline=None)
@given(messages(min_placeholders=0))
def test_random_messages_round_trip_through_mask_and_restore(case):
    message, _ = case
    masked = mask(message)
    assert restore(masked.text, masked) == message
    assert [p.kind for p in find(masked.text)] == []
    assert problems(message, message) == []


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_text_round_trips_and_keeps_its_own_placeholders(text):
    assume(not TOKEN.search(text))
    masked = mask(text)
    assert restore(masked.text, masked) == text
    assert problems(text, text) == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(KINDS), st.data()), min_size=1, max_size=6))
def test_each_inserted_placeholder_is_found_as_its_kind(specs):
    items, expected = [], []
    for kind, data in specs:
        text = data.draw(PLACEHOLDERS[kind])
        if kind == "escape" and text.isspace():
            continue  # a line break takes the spaces beside it along
        items += ["word", text + ("Word" if kind == "accelerator" else "")]
        expected.append((kind, text))
    message = " ".join(items + ["end"])
    assert [(p.kind, p.text) for p in find(message)] == expected


def _inner_line_break(p, message):
    """A line break inside the message: layout, free to change."""
    inside = 0 < p.start and p.end < len(message)
    return p.kind == "escape" and p.text.isspace() and "\n" in p.text and inside


def _matched(p):
    """What the check compares of a placeholder: a run of tabs without the
    spaces beside them (layout), any other its text."""
    return (
        p.text.replace(" ", "") if p.kind == "escape" and p.text.isspace() else p.text
    )


def _named_in(reasons, text):
    """Whether a reason quotes `text`; a line break is named with the spaces
    beside it, which the mutation may have changed, and a run of tabs
    without its spaces, as the check matches it (`placeholder_check._key`)."""
    if not text.isspace():
        key = repr(text)
    elif "\n" in text:
        key = repr(text.strip(" "))[1:-1]
    else:
        key = repr(text.replace(" ", ""))[1:-1]
    return any(key in reason for reason in reasons)


@settings(max_examples=200, deadline=None)
@given(messages(), st.data())
def test_every_dropped_placeholder_is_caught_and_named(case, data):
    message, _ = case
    found = find(message)
    assume(found)
    p = data.draw(st.sampled_from(found))
    assume(not _inner_line_break(p, message))
    output = message[: p.start] + " " + message[p.end :]
    reasons = problems(message, output)
    assert reasons and _named_in(reasons, p.text), (output, reasons)


@settings(max_examples=200, deadline=None)
@given(messages(), st.data())
def test_every_added_placeholder_is_caught(case, data):
    message, _ = case
    found = find(message)
    assume(found)
    p = data.draw(st.sampled_from(found))
    assume(not (p.kind == "escape" and "\n" in p.text and p.text.isspace()))
    added = p.text.strip(" \t") or p.text
    extra = added + "zz" if p.kind == "accelerator" else added
    output = f"{message} zz {extra} zz"
    reasons = problems(message, output)
    assert reasons and _named_in(reasons, added), (output, reasons)


@settings(max_examples=200, deadline=None)
@given(messages(), st.data())
def test_every_changed_placeholder_is_caught_and_named(case, data):
    message, _ = case
    found = find(message)
    assume(found)
    p = data.draw(st.sampled_from(found))
    new = data.draw(PLACEHOLDERS[p.kind])
    assume(not _inner_line_break(p, message) and not (new.isspace() and "\n" in new))
    output = message[: p.start] + " " + new + " " + message[p.end :]
    # Changed as the check matches placeholders: a tab's spaces are layout.
    assume(
        [_matched(q) for q in find(output)].count(_matched(p))
        < [_matched(q) for q in found].count(_matched(p))
    )
    reasons = problems(message, output)
    assert reasons and _named_in(reasons, p.text), (output, reasons)


UNNUMBERED = _printf().filter(lambda s: "$" not in s and s != "%%")


@settings(max_examples=200, deadline=None)
@given(st.lists(UNNUMBERED, min_size=2, max_size=5, unique=True), st.data())
def test_swapping_unnumbered_printf_placeholders_is_caught(specs, data):
    i = data.draw(st.integers(0, len(specs) - 2))
    j = data.draw(st.integers(i + 1, len(specs) - 1))
    swapped = list(specs)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    reasons = problems(" and ".join(specs), " y ".join(swapped))
    assert reasons == [
        f"reorders the printf placeholders {specs[i]!r} and {specs[j]!r}: with "
        "no %n$ position their order is fixed"
    ]


@settings(max_examples=200, deadline=None)
@given(
    st.permutations(
        ["%1$s", "%2$d", "%3$'.2f", "%(name)s", "{0}", "{user}", "<b>x</b>"]
    )
)
def test_numbered_placeholders_may_move(order):
    message = "Moved %1$s and %2$d at %3$'.2f by %(name)s: {0} {user} <b>x</b>"
    assert problems(message, "Movido " + " ".join(order)) == []


# Hand-written cases per kind: a message and the placeholders found.
FOUND = [
    ("printf_plain", "Cannot open %s: %d", [("printf", "%s"), ("printf", "%d")]),
    ("printf_positional", "%2$s of %1$d", [("printf", "%2$s"), ("printf", "%1$d")]),
    (
        "printf_width",
        "%-10.3lf|%'d|%5.*s",
        [("printf", "%-10.3lf"), ("printf", "%'d"), ("printf", "%5.*s")],
    ),
    ("printf_percent", "100%% done", [("printf", "%%")]),
    ("printf_not_prose", "100% of the disk, 5% more", []),
    ("printf_inttypes", "offset %<PRIu64>", [("printf", "%<PRIu64>")]),
    (
        "named",
        "%(count)d files in %(dir)s",
        [("named", "%(count)d"), ("named", "%(dir)s")],
    ),
    (
        "brace",
        "{0} of {total:>3} {}",
        [("brace", "{0}"), ("brace", "{total:>3}"), ("brace", "{}")],
    ),
    ("brace_literal", "use {{ and }}", [("brace", "{{"), ("brace", "}}")]),
    ("brace_prose", "a { b } c", []),
    (
        "variable",
        "set $HOME or ${XDG_DATA_HOME}",
        [("variable", "$HOME"), ("variable", "${XDG_DATA_HOME}")],
    ),
    ("variable_price", "costs $5", []),
    (
        "tag",
        '<b>Bold</b> <a href="https://x.org">x</a><br/>',
        [
            ("tag", "<b>"),
            ("tag", "</b>"),
            ("tag", '<a href="https://x.org">'),
            ("tag", "</a>"),
            ("tag", "<br/>"),
        ],
    ),
    ("tag_metavariable", "Usage: tar <file> <N>", []),
    (
        "entity",
        "Tom &amp; Jerry &#169; &#x263A;",
        [("entity", "&amp;"), ("entity", "&#169;"), ("entity", "&#x263A;")],
    ),
    ("accelerator_underscore", "_File", [("accelerator", "_")]),
    ("accelerator_ampersand", "&Open", [("accelerator", "&")]),
    ("accelerator_not_identifier", "LC_MESSAGES __init__ AT&T a && b &&Quit", []),
    ("escape_written", "line\\nnext\\ttab", [("escape", "\\n"), ("escape", "\\t")]),
    (
        "escape_real",
        "Usage:\n  tar [OPTION]...\n",
        [("escape", "\n  "), ("escape", "\n")],
    ),
    (
        "path",
        "read /etc/fstab and ~/.bashrc, run ./configure",
        [("path", "/etc/fstab"), ("path", "~/.bashrc"), ("path", "./configure")],
    ),
    ("path_not_slash_word", "and/or 1/2", []),
    (
        "url",
        "see https://www.gnu.org/software/tar/.",
        [("url", "https://www.gnu.org/software/tar/")],
    ),
    ("email", "Report bugs to: bug-tar@gnu.org", [("email", "bug-tar@gnu.org")]),
    (
        "option",
        "Try '--help' or '-v', --block-size=SIZE",
        [("option", "--help"), ("option", "-v"), ("option", "--block-size")],
    ),
    ("option_not_hyphen_word", "e-mail, built-in, -5 degrees", []),
]


@pytest.mark.parametrize(
    "message,expected", [c[1:] for c in FOUND], ids=[c[0] for c in FOUND]
)
def test_found_placeholders_by_kind(message, expected):
    assert [(p.kind, p.text) for p in find(message)] == expected


# Hand-written checks: a message, an output, and the reasons (empty: valid).
CHECKS = [
    ("kept", "Open %s", "Abrir %s", []),
    ("dropped", "Open %s", "Abrir", ["drops the printf placeholder '%s'"]),
    ("added", "Open", "Abrir %s", ["adds the printf placeholder '%s'"]),
    ("changed", "Open %s", "Abrir %d", ["changes the printf placeholder '%s' to '%d'"]),
    (
        "reordered",
        "%s of %d",
        "%d de %s",
        [
            "reorders the printf placeholders '%s' and '%d': with no %n$ position their order is fixed"
        ],
    ),
    ("positional_moved", "%1$s of %2$d", "%2$d de %1$s", []),
    ("brace_unnamed_reordered", "{} of {}x", "{}x de {}", []),
    ("brace_named_moved", "{a} of {b}", "{b} de {a}", []),
    (
        "tag_nesting",
        "<b>Bold</b>",
        "</b>Negrita<b>",
        ["breaks the nesting of the markup at the tag '</b>'"],
    ),
    ("tag_moved_nested", "<b>x</b> <i>y</i>", "<i>y</i> <b>x</b>", []),
    ("accelerator_moved", "_Save As", "Guardar _como", []),
    ("accelerator_dropped", "_File", "Archivo", ["drops the accelerator '_'"]),
    (
        "accelerator_changed",
        "_File",
        "&Archivo",
        ["changes the accelerator '_' to '&'"],
    ),
    ("entity_changed", "A &amp; B", "A & B", ["drops the entity placeholder '&amp;'"]),
    (
        "trailing_newline",
        "Done.\n",
        "Hecho.",
        ["the message ends with the line break '\\n' and the output does not"],
    ),
    (
        "masked_token_left",
        "Open %s",
        "Abrir PH_PRINTF_1",
        [
            "keeps the masked token 'PH_PRINTF_1' where a placeholder belongs",
            "drops the printf placeholder '%s'",
        ],
    ),
    (
        "url_changed",
        "See https://x.org/",
        "Vea https://x.es/",
        ["changes the url placeholder 'https://x.org/' to 'https://x.es/'"],
    ),
    (
        "option_translated",
        "Try --help",
        "Pruebe --ayuda",
        ["changes the option placeholder '--help' to '--ayuda'"],
    ),
]


@pytest.mark.parametrize(
    "message,output,expected", [c[1:] for c in CHECKS], ids=[c[0] for c in CHECKS]
)
def test_checks_by_hand(message, output, expected):
    assert problems(message, output) == expected


def test_restore_puts_a_lower_cased_model_output_back():
    masked = mask("Copy %s to <b>$HOME</b>?")
    assert masked.text == "Copy PH_PRINTF_1 to PH_TAG_1 PH_VARIABLE_1 PH_TAG_2?"
    output = "copiar ph_printf_1 a ph_tag_1 ph_variable_1 ph_tag_2?"
    # The spaces the model put between the tokens go with them.
    assert restore(output, masked) == "copiar %s a <b>$HOME</b>?"


def test_a_token_glued_to_a_word_gets_a_space_the_restore_removes():
    masked = mask("%sfoo {0}{1} x\nbar")
    assert masked.text == "PH_PRINTF_1 foo PH_BRACE_1 PH_BRACE_2 x PH_ESCAPE_1 bar"
    assert restore(
        "PH_PRINTF_1 foo PH_BRACE_1 PH_BRACE_2 x PH_ESCAPE_1 bar", masked
    ) == ("%sfoo {0}{1} x\nbar")


def test_an_unknown_token_is_left_for_the_check_to_name():
    masked = mask("Open %s")
    output = restore("Abrir ph_printf_1 ph_printf_2", masked)
    assert output == "Abrir %s ph_printf_2"
    assert problems("Open %s", output) == [
        "keeps the masked token 'ph_printf_2' where a placeholder belongs"
    ]


def test_the_accelerator_goes_before_the_word_at_its_index():
    masked = mask("Save _As")
    assert masked.text == "Save As" and masked.accelerators == (("_", 1),)
    assert restore("Guardar como", masked) == "Guardar _como"
    # Another word count: the first word takes it.
    assert restore("Guardar como nuevo", masked) == "_Guardar como nuevo"
