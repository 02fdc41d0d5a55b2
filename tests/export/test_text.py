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
