"""Reading and writing lines of files: one output line per input line."""

import io
import json

import pytest

from attention_zoo.applications.translation.lines import (
    Progress,
    json_line,
    one_line,
    printable,
    read_lines,
    translate_lines,
)


def test_read_lines_splits_at_newline_only():
    data = b"a\r\n\nb\xffc\nd\xe2\x80\xa8e\x0bf\n"
    assert read_lines(data) == [
        ("a", True),
        ("", True),
        ("b\ufffdc", False),
        ("d\u2028e\x0bf", True),
    ]
    assert read_lines(b"") == [] and read_lines(b"\n") == [("", True)]
    assert read_lines(b"x") == [("x", True)]


def test_written_lines_never_break():
    text = "a\u2028b\x85c\rd\x0be\nf"
    assert one_line(text) == "a b c d e f"
    line = json_line({"translation": text})
    assert len(line.splitlines()) == 1 and json.loads(line)["translation"] == text


def test_progress_writes_only_when_enabled():
    stream = io.StringIO()
    bar = Progress(3, True, stream)
    bar.update(2)
    bar.update(3)
    assert stream.getvalue() == "\rtranslated 2/3 lines\rtranslated 3/3 lines\n"
    quiet = io.StringIO()
    Progress(3, False, quiet).update(3)
    assert quiet.getvalue() == ""


def test_translate_lines_refuses_unknown_formats():
    with pytest.raises(ValueError, match="Received: 'csv'"):
        translate_lines(None, [], io.StringIO(), "csv")


def test_control_characters_never_reach_the_terminal():
    """An ESC or BEL copied from an input line was written raw in --input
    mode (round 3, item 12); tab stays a tab."""
    text = "a\x1b[2Jb\x07c\td\x7fe\x9bf"
    assert printable(text) == "a\\x1b[2Jb\\x07c\td\\x7fe\\x9bf"
    line = json_line({"translation": text})
    assert not any(c in line for c in "\x1b\x07\x7f\x9b")
    assert json.loads(line)["translation"] == text


class _OneWordTranslator:
    """Translates every line as "Jesús", without a model."""

    def _search(self, texts, beam_width):
        return [None] * len(texts), [None] * len(texts)

    def readable(self, texts, ids, attention, *flags):
        return [["Jesús"] for _ in texts]

    def join(self, tokens):
        return " ".join(tokens)

    def scores(self, texts, tokens):
        return [0.0] * len(texts)

    def problems(self, text):
        return []


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "utf-8"])
def test_jsonl_is_exact_json_in_any_encoding_of_the_output(encoding):
    # The command's standard output under a C or latin-1 locale: the
    # locale's encoding, `\xe9` for what it cannot encode (cli.main).
    raw = io.BytesIO()
    output = io.TextIOWrapper(raw, encoding=encoding, errors="backslashreplace")
    translate_lines(_OneWordTranslator(), [("Jesus", True)], output, "jsonl")
    output.flush()
    line = raw.getvalue().decode(encoding)
    assert json.loads(line)["translation"] == "Jesús"
    assert line.isascii() == (encoding != "utf-8")
