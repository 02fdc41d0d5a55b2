"""Hostile bytes shared by the tests that compare a graph half with its
Python half (tests/export/test_text.py, the dates pass parity test)."""

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
