"""In-graph string normalisation agrees with the Python path on any bytes."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.tf_only

tf = pytest.importorskip("tensorflow")

from attention_zoo.export import normalize_strings  # noqa: E402

# Bytes a careless or hostile caller sends a SavedModel: NUL (which
# tf.strings.lower reads as the end of the string), invalid and truncated
# UTF-8, overlong and surrogate encodings, control characters, and the
# escape bytes the graph uses for NUL itself.
NASTY = [
    b"3 May\x00 1979",
    b"\x00",
    b"a\x00\x00B",
    b"",
    b"ABC\xff\xfeD",
    b"\xe2\x82",
    b"x\xe2\x00\x82Y",
    b"\xf0\x9f\x98\x80 Sept",
    b"\xc3\x89COLE \xc4\xb0",
    b"\x01\x02TAB\tX\x7f",
    b"\x01\x03\x00\x01",
    b"\xed\xa0\x80",
    b"\xc0\xaf",
    b"\xf4\x90\x80\x80",
    "ΟΔΟΣ Straße ẞ".encode(),
]


def python_normalize(raw: bytes) -> str:
    text = raw.decode("utf-8", "replace").lower()
    return re.sub(r"[ \t\n\r\f\v]+", " ", text).strip(" \t\n\r\f\v")


def graph_normalize(raws):
    out = normalize_strings(tf.constant(raws, dtype=tf.string)).numpy()
    return [o.decode("utf-8") for o in out]


def test_nasty_bytes_normalise_as_in_python():
    assert graph_normalize(NASTY) == [python_normalize(raw) for raw in NASTY]


def test_nul_no_longer_truncates():
    assert graph_normalize([b"3 May\x00 1979"]) == ["3 may\x00 1979"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(st.binary(max_size=24), st.text(max_size=24).map(str.encode)),
        min_size=1,
        max_size=8,
    )
)
def test_any_bytes_normalise_as_in_python(raws):
    assert graph_normalize(raws) == [python_normalize(raw) for raw in raws]


# -------------------------------------------- readable output helpers

from attention_zoo.export.text import (  # noqa: E402
    StringTable,
    capitalize_first,
    rewrite_strings,
    valid_utf8,
)


def test_valid_utf8_reads_bad_bytes_as_replacement_characters():
    for raw in [b"ABC\xff\xfeD", b"\xe2\x82", b"a\x00b", b"\xc3\x89COLE"]:
        got = valid_utf8(tf.constant([raw])).numpy()[0].decode("utf-8")
        assert got == raw.decode("utf-8", "replace")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=12), min_size=1, max_size=8))
def test_capitalize_first_matches_python(texts):
    texts = [t for t in texts if not t.startswith("\x00")] or ["x"]
    got = capitalize_first(tf.constant([t.encode() for t in texts])).numpy()
    assert [g.decode("utf-8") for g in got] == [t[:1].upper() + t[1:] for t in texts]


def test_capitalize_first_keeps_a_leading_nul_and_empty_strings():
    got = capitalize_first(tf.constant([["\x00a", ""], ["éa", "ßx"]])).numpy()
    assert [[s.decode() for s in row] for row in got] == [
        ["\x00a", ""],
        ["Éa", "SSx"],
    ]


def test_rewrite_strings_matches_re_sub_on_spanish_spacing():
    from attention_zoo.applications.translation import postprocess

    rules = [
        (postprocess.NO_SPACE_BEFORE, r"\1"),
        (postprocess.NO_SPACE_AFTER, r"\1"),
        (postprocess.AROUND_HYPHEN, "-"),
    ]
    texts = [
        "¿ qué te he hecho , que me has herido ? ¡ ay !",
        "dijo : ( esto ) ; « sí » … hadad - ezer . .",
        "",
    ]
    got = rewrite_strings(tf.constant(texts), rules).numpy()
    assert [g.decode() for g in got] == [
        postprocess.detokenize(t.split()) for t in texts
    ]


def test_string_table_passes_unknown_strings_through():
    table = StringTable({"jesús": "Jesús", "dios": "Dios"})
    got = table.lookup(tf.constant([["jesús", "y"], ["", "dios"]])).numpy()
    assert [[s.decode() for s in row] for row in got] == [["Jesús", "y"], ["", "Dios"]]
    assert StringTable({}).lookup(tf.constant(["a"])).numpy().tolist() == [b"a"]


def test_native_digits_read_as_in_the_dates_normalizer():
    from attention_zoo.applications.dates import data
    from attention_zoo.export import ascii_digits

    texts = [
        "٢٣ سبتمبر ١٩٨٧",
        "۲۳/۰۹/۱۳۶۶",
        "२३ सितंबर १९८७",
        "１９８７年９月２３日",
        "0123456789",
        "٠١٢٣٤٥٦٧٨٩ ०१२३४५६७८९ ０１２３４５６７８９",
        "x\x00٩",
    ]
    raws = [t.encode() for t in texts] + NASTY
    from attention_zoo.applications.dates.export import (
        cjk_numerals,
        drop_label,
        japanese_era,
        roman_months,
    )

    texts += ["平成七年\x00一月", "11 XI\x00 1918 ; 5 V 1987", "n\x00te: 3 may"]
    raws = [t.encode() for t in texts] + NASTY
    graph = ascii_digits(tf.constant(raws, dtype=tf.string), data.NATIVE_DIGITS)
    graph = japanese_era(cjk_numerals(roman_months(graph)))
    got = [o.decode("utf-8") for o in drop_label(normalize_strings(graph)).numpy()]
    assert got == [data.normalize(r.decode("utf-8", "replace")) for r in raws]
    assert got[:4] == ["23 سبتمبر 1987", "23/09/1366", "23 सितंबर 1987", "1987年9月23日"]


def test_the_graph_drops_untaught_leading_words_as_python_does():
    from attention_zoo.applications.dates import lexicon
    from attention_zoo.applications.dates.graph_rules import (
        drop_untaught_words,
        word_table,
    )

    taught = lexicon.load()
    table = word_table(taught, lexicon.load_days())
    texts = [
        "київ, 24 серпня 1991 р.",
        "kyoto, 1987年9月23日",
        "new york city, 11.09.2001",
        "tuesday, 11 september 2001",
        "rua simões, 7",
        "vicolo fiamma, 15 (archived)",
        "canale rolando, 136 appartamento 72",
        "уторак, 4. септембар 2040.",
        "paris, le 3 mai 1979",
        ", 3 mai 1979",
        "x" * 41 + ", 3 mai 1979",
        "x" * 40 + ", 3 mai 1979",
        "a\u2028b, 3 mai 1979",
        "",
    ]
    from attention_zoo.applications.dates import data
    from attention_zoo.applications.dates.export import (
        cjk_numerals,
        drop_label,
        japanese_era,
        roman_months,
    )
    from attention_zoo.export import ascii_digits

    raws = [t.encode() for t in texts] + NASTY
    # As the SavedModel reads them: normalized first.
    graph = ascii_digits(tf.constant(raws, dtype=tf.string), data.NATIVE_DIGITS)
    graph = japanese_era(cjk_numerals(roman_months(graph)))
    graph = drop_label(normalize_strings(graph))
    got = drop_untaught_words(graph, table).numpy()
    expected = [
        lexicon.drop_untaught_words(
            data.normalize(r.decode("utf-8", "replace")), taught
        )
        for r in raws
    ]
    assert [g.decode("utf-8") for g in got] == expected
    assert expected[:3] == ["24 серпня 1991 р.", "1987年9月23日", "11.09.2001"]
    # A batch without leading words and a comma skips the passes.
    plain = tf.constant(["3 mai 1979"])
    assert drop_untaught_words(plain, table).numpy().tolist() == [b"3 mai 1979"]
