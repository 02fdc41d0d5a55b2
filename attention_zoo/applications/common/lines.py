"""One output line per input line: reading inputs, writing answers.

What a predict-like task shares: inputs from arguments, a file or standard
input (bytes split at `\\n` only, not-UTF-8 bytes read as U+FFFD), answers
written as text or JSON lines, one line per input whatever happens to it,
control characters escaped, a progress bar on files, and the output file
written whole or not at all.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import sys

import keras

from attention_zoo.applications.common.run_folder import atomic_output

FORMATS = ("text", "jsonl")
# Everything `str.splitlines` breaks at.
_LINE_BREAKS = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
# Control characters a terminal may act on (tab is left as it is).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# JSON leaves these unescaped with ensure_ascii=False; a line reader would
# split there.
_JSON_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def read_lines(data: bytes) -> list[tuple[str, bool]]:
    """`(text, decoded_cleanly)` per line of `data`; a `\\r` before `\\n` is dropped."""
    if not data:
        return []
    pieces = data.split(b"\n")
    if pieces[-1] == b"":  # the newline ending the last line
        pieces.pop()
    out = []
    for piece in pieces:
        piece = piece.removesuffix(b"\r")
        try:
            out.append((piece.decode("utf-8"), True))
        except UnicodeDecodeError:
            out.append((piece.decode("utf-8", "replace"), False))
    return out


def read_stdin() -> bytes:
    """Standard input's bytes; a closed standard input is refused in one line."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise ValueError(
            "standard input is closed; give TEXT arguments or --input FILE"
        )
    try:
        return stream.read()
    except (OSError, ValueError) as error:
        raise ValueError(f"cannot read standard input ({error})") from error


def one_line(text: str) -> str:
    """`text` with every line break a space."""
    return _LINE_BREAKS.sub(" ", text)


def printable(text: str) -> str:
    """`text` with control characters escaped as `repr` writes them."""
    return _CONTROLS.sub(lambda m: repr(m.group())[1:-1], text)


def json_line(record: dict, ensure_ascii: bool = False) -> str:
    """`record` as one line of JSON, control characters and line breaks escaped."""
    line = json.dumps(record, ensure_ascii=ensure_ascii)
    for char, escaped in _JSON_BREAKS.items():
        line = line.replace(char, escaped)
    return _CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", line)


def add_line_arguments(parser, inputs: str = "texts") -> None:
    """The flags of a task that answers lines: inputs, `--input`, `--output`,
    `--format`, `--with-attention`, `--progress`."""
    parser.add_argument(
        inputs,
        nargs="*",
        metavar=inputs.removesuffix("s").upper(),
        help="inputs as arguments; - reads standard input",
    )
    parser.add_argument(
        "--input", default=None, help="file of inputs, one a line; - for standard input"
    )
    parser.add_argument(
        "--output", default=None, help="file to write (default: standard output)"
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: one answer a line; jsonl: one JSON object a line (default text)",
    )
    parser.add_argument(
        "--with-attention",
        action="store_true",
        help="jsonl: add the tokens and the attention weights",
    )
    parser.add_argument(
        "--progress",
        action="store_true",
        help="progress bar on standard error (default: when it is a terminal "
        "and the inputs come from a file)",
    )


def input_lines(args, parser, inputs: str = "texts") -> tuple[list, bool]:
    """`([(text, clean)], from_file)` the flags name: the arguments, or the
    lines of `--input` or standard input (`-`)."""
    from pathlib import Path

    given = getattr(args, inputs)
    stdin = args.input == "-" or given == ["-"]
    if args.input is None and not given:
        parser.error(f"give {inputs.upper()} arguments, --input FILE or -")
    if (args.input is not None or stdin) and given and given != ["-"]:
        parser.error(f"give {inputs.upper()} arguments or --input, not both")
    if stdin:
        return read_lines(read_stdin()), True
    if args.input is not None:
        return read_lines(Path(args.input).read_bytes()), True
    return [(text, True) for text in given], False


def write_answers(answer, lines, args, chunk: int = 64) -> int:
    """Writes one line per input of `lines`: `answer(texts)` gives a
    predictor's items for a chunk of texts (each with `text`, `valid`,
    `reason`, `score`, and for `--with-attention` `attention` and
    `source_tokens`/`tokens`). Text format: the answer, or `not valid:
    REASON` after it; jsonl: `input`, `output`, `score`, `valid`, `reason`.

    Returns:
        The number of answers that are not valid.
    """
    output = (
        atomic_output(args.output)
        if args.output
        else contextlib.nullcontext(sys.stdout)
    )
    progress = args.progress or (sys.stderr.isatty() and args.input is not None)
    bar = keras.utils.Progbar(len(lines), verbose=1) if progress and lines else None
    refused = 0
    with output as stream:
        for start in range(0, len(lines), chunk):
            part = lines[start : start + chunk]
            for (text, clean), item in zip(part, answer([t for t, _ in part])):
                reason = item.get("reason", "")
                if not clean:
                    reason = "; ".join(
                        filter(None, ["not UTF-8: read as U+FFFD", reason])
                    )
                refused += not item.get("valid", True)
                stream.write(_line(text, item, reason, args) + "\n")
            if bar is not None:
                bar.update(start + len(part))
    return refused


def _line(text, item, reason, args) -> str:
    if args.format == "text":
        answer = printable(one_line(item["text"]))
        return answer if item.get("valid", True) else f"{answer}\tnot valid: {reason}"
    score = item.get("score")
    record = {
        "input": text,
        "output": item["text"],
        # JSON has no infinity: an input with nothing to read scores null.
        "score": score if score is None or math.isfinite(score) else None,
        "valid": bool(item.get("valid", True)),
        "reason": reason,
    }
    if args.with_attention:
        for key in ("source_tokens", "tokens"):
            if key in item:
                record[key] = item[key]
        record["attention"] = item["attention"].astype("float64").round(4).tolist()
        if "p_gen" in item:
            record["p_gen"] = item["p_gen"].astype("float64").round(4).tolist()
    return json_line(record)
