"""Reading and writing lines of files: one output line per input line, for
every application's predict-like task (`common.lines`)."""

import argparse
import io
import json
import sys

import numpy as np
import pytest

from attention_zoo.applications.common.lines import (
    add_line_arguments,
    checked,
    input_lines,
    json_line,
    one_line,
    printable,
    read_lines,
    write_answers,
)
from attention_zoo.applications.common.predictor import InputError


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
    line = json_line({"output": text})
    assert len(line.splitlines()) == 1 and json.loads(line)["output"] == text


def test_control_characters_never_reach_the_terminal():
    """An ESC or BEL copied from an input line was written raw in --input
    mode (round 3, item 12); tab stays a tab."""
    text = "a\x1b[2Jb\x07c\td\x7fe\x9bf"
    assert printable(text) == "a\\x1b[2Jb\\x07c\td\\x7fe\\x9bf"
    line = json_line({"output": text})
    assert not any(c in line for c in "\x1b\x07\x7f\x9b")
    assert json.loads(line)["output"] == text


class _Upper:
    """A predictor without a model: the input in capitals; an input holding
    "?" is not valid, an empty one cannot be read."""

    def check(self, text):
        if not text.strip():
            raise InputError("empty input")

    def __call__(self, texts, **options):
        return [
            {
                "input": t,
                "text": t.upper(),
                "score": -1.0,
                "valid": "?" not in t,
                "reason": "a question" if "?" in t else "",
                "notes": ["has a digit"] if any(c.isdigit() for c in t) else [],
                "tokens": t.split(),
                "attention": np.ones((len(t.split()) + 1, 2), "float32") / 2,
            }
            for t in texts
        ]


def _args(*argv):
    parser = argparse.ArgumentParser()
    add_line_arguments(parser, "texts")
    return parser.parse_args(list(argv)), parser


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "utf-8"])
def test_jsonl_is_exact_json_in_any_encoding_of_the_output(encoding, monkeypatch):
    # The command's standard output under a C or latin-1 locale: the
    # locale's encoding, `\xe9` for what it cannot encode (cli.main).
    raw = io.BytesIO()
    output = io.TextIOWrapper(raw, encoding=encoding, errors="backslashreplace")
    monkeypatch.setattr(sys, "stdout", output)
    args, _ = _args("--format", "jsonl")
    write_answers(checked(_Upper()), [("jesús", True)], args, from_file=True)
    output.flush()
    line = raw.getvalue().decode(encoding)
    assert json.loads(line)["output"] == "JESÚS"
    assert line.isascii() == (encoding != "utf-8")


def test_every_input_line_gets_one_output_line_and_a_message(capsys, tmp_path):
    path = tmp_path / "in.txt"
    path.write_bytes(b"one\n\n  \nwhy?\n\xff2\nlast\n")
    args, parser = _args("--input", str(path))
    lines, from_file = input_lines(args, parser)
    lines = list(lines)  # read as it is consumed: here at once
    assert from_file and len(lines) == 6
    answer = checked(_Upper())
    refused = write_answers(answer, lines, args, from_file)
    out, err = capsys.readouterr()
    # Not valid or unreadable: an empty line in its place, the reason on stderr.
    assert out.splitlines() == ["ONE", "", "", "", "\ufffd2", "LAST"]
    assert refused == 3 and answer.unreadable == 2
    assert "line 2: empty input" in err and "line 2: not valid" not in err
    assert "line 4: not valid: a question" in err
    assert "line 5: not UTF-8" in err and "has a digit" in err
    assert "line 1:" not in err and "line 6:" not in err


def test_jsonl_carries_input_output_score_validity_and_attention(capsys):
    args, parser = _args("a b", "c?", "--format", "jsonl", "--with-attention")
    lines, from_file = input_lines(args, parser)
    write_answers(checked(_Upper()), lines, args, from_file)
    records = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["output"] for r in records] == ["A B", "C?"]
    assert records[0]["valid"] and not records[1]["valid"]
    assert records[1]["reason"] == "a question" and records[0]["score"] == -1.0
    assert records[0]["tokens"] == ["a", "b"]
    assert np.array(records[0]["attention"]).shape == (3, 2)


def test_arguments_on_a_terminal_are_shown_with_their_input(capsys):
    args, parser = _args("a", "b?")
    lines, from_file = input_lines(args, parser)
    write_answers(checked(_Upper()), lines, args, from_file)
    assert capsys.readouterr().out.splitlines() == [
        "'a' -> 'A'",
        "'b?' -> not valid: a question",
    ]


def test_scores_are_shown_only_when_asked(capsys):
    # Issue 59: every dates line ended in `[score -0.00]`; the notes stay.
    args, parser = _args("a1", "b?")
    lines, from_file = input_lines(args, parser)
    write_answers(checked(_Upper()), lines, args, from_file)
    assert capsys.readouterr().out.splitlines() == [
        "'a1' -> 'A1'   [has a digit]",
        "'b?' -> not valid: a question",
    ]
    args, parser = _args("a1", "b?", "--scores")
    lines, from_file = input_lines(args, parser)
    write_answers(checked(_Upper()), lines, args, from_file)
    assert capsys.readouterr().out.splitlines() == [
        "'a1' -> 'A1'   [score -1.00; has a digit]",
        "'b?' -> not valid: a question   [score -1.00]",
    ]


def test_standard_input_and_dash(capsys, monkeypatch):
    stdin = io.TextIOWrapper(io.BytesIO(b"x\ny\n"), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    args, parser = _args("-")
    lines, from_file = input_lines(args, parser)
    assert list(lines) == [("x", True), ("y", True)] and from_file


def test_arguments_and_input_together_are_refused(tmp_path):
    args, parser = _args("a", "--input", str(tmp_path / "f"))
    with pytest.raises(SystemExit):
        input_lines(args, parser)
    args, parser = _args()
    with pytest.raises(SystemExit):
        input_lines(args, parser)


def test_the_progress_bar_goes_to_standard_error(capsys, tmp_path):
    out = tmp_path / "out.txt"
    args, _ = _args("--progress", "--output", str(out))
    write_answers(checked(_Upper()), [("a", True)] * 3, args, from_file=True)
    captured = capsys.readouterr()
    assert captured.out == "" and "3/3" in captured.err
    assert out.read_text(encoding="utf-8") == "A\nA\nA\n"


# Round 4 (issue 55): long lines, streaming, closed pipes, short reasons.


def test_a_long_line_is_refused_without_being_held(capsys, tmp_path):
    """A 50 MB line made `translate --input` peak at 3.4 GB: lines are read
    at most `MAX_LINE_BYTES` at a time, and a longer one is answered not
    valid ("input too long"), one output line per input line still."""
    import tracemalloc

    from attention_zoo.applications.common.lines import MAX_LINE_BYTES
    from attention_zoo.applications.common.predictor import MAX_INPUT_CHARS

    path = tmp_path / "in.txt"
    with open(path, "wb") as file:
        file.write(b"first\n")
        for _ in range(8):
            file.write(b"x" * (1 << 20))  # an 8 MB line
        file.write(b"\nlast\n")
    # Exactly the limit in characters (4 bytes each in UTF-8) is answered.
    path.write_bytes(path.read_bytes() + "\U0001f600".encode() * MAX_INPUT_CHARS)
    args, parser = _args("--input", str(path))
    tracemalloc.start()
    try:
        lines, from_file = input_lines(args, parser)
        refused = write_answers(checked(_Upper()), lines, args, from_file)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    out, err = capsys.readouterr()
    assert out.splitlines() == ["FIRST", "", "LAST", "\U0001f600" * MAX_INPUT_CHARS]
    assert refused == 1
    (message,) = err.splitlines()
    assert message.startswith("line 2: input too long: 'xxx") and len(message) < 200
    assert "more than 5,000 characters" in message
    assert peak < 4 * MAX_LINE_BYTES + (1 << 20), peak


def test_output_is_written_chunk_by_chunk_as_input_is_read(tmp_path):
    """`--output` appeared only at the end and memory grew with the input:
    each chunk is now read, answered and flushed to the staging file before
    the next chunk is read."""
    out = tmp_path / "out.txt"
    args, _ = _args("--output", str(out))
    consumed = []

    def lines():
        for i in range(200):
            consumed.append(i)
            yield f"line {i}", True

    upper = checked(_Upper())
    staged = []

    def answer(texts):
        (staging,) = tmp_path.glob(".out.txt.*")
        staged.append((len(consumed), staging.read_text(encoding="utf-8").count("\n")))
        return upper(texts)

    write_answers(answer, lines(), args, from_file=True, chunk=64)
    # Before each chunk is answered: its lines read, no more; the chunks
    # before it already in the staging file.
    assert staged == [(64, 0), (128, 64), (192, 128), (200, 192)]
    assert out.read_text(encoding="utf-8").splitlines()[-1] == "LINE 199"
    assert not list(tmp_path.glob(".out.txt.*"))


def test_a_closed_pipe_ends_the_command_quietly(capsys):
    from attention_zoo.applications.common.errors import run_guarded

    def job():
        raise BrokenPipeError(32, "Broken pipe")

    assert run_guarded("attention-zoo dates predict", job) == 141
    assert capsys.readouterr().err == ""


def test_reasons_quote_at_most_80_characters_of_the_input():
    from attention_zoo.applications.common.errors import quoted

    assert quoted("3 May 1979") == "'3 May 1979'"
    long = quoted("é" * 5000)
    assert long == repr("é" * 80) + "... (5,000 characters)"
