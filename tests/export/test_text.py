"""In-graph string normalisation agrees with the Python path on any bytes."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.tf_only

tf = pytest.importorskip("tensorflow")

from attention_zoo.export import normalize_strings  # noqa: E402
from tests.hostile_bytes import NASTY  # noqa: E402


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
