"""One command line for every predict-like task: inputs in, one line out each.

Inputs come as arguments, from `--input FILE` or from standard input (`-`),
one a line (for images, their paths). Files and streams are read as bytes
split at `\\n` only (a `\\r` before it is dropped, a line separator of another
kind stays inside its line); bytes that are not UTF-8 are read as U+FFFD.

Every input gets exactly one output line, in order, whatever it holds:

- `--format text` writes the answer, or an empty line for an answer that is
  not valid; a line whose answer is not valid, or that drew a note (words
  read as `<unk>`, a text cut at the model's length, bytes that are not
  UTF-8), is named on standard error as `line N: ...`.
- `--format jsonl` writes one JSON object a line: `input`, `output`,
  `score`, `valid`, `reason`, `notes`, and with `--with-attention` the
  tokens and the attention weights.
- Arguments written to a terminal in text format are shown as
  `INPUT -> ANSWER` (the application's `show`), `not valid: REASON` in
  place of an answer that is not valid, and the answer's notes after it
  in brackets; `--scores` adds the score there (`score -0.00`).

No output line holds a line break or a control character a terminal would
act on. A line of more than `MAX_INPUT_CHARS` characters is answered not
valid ("input too long"), read only that far: a 50 MB line never sits whole
in memory. Inputs are read, answered and written `chunk` lines at a time,
so memory stays flat whatever the file's length; `--output FILE` is written
to a staging file beside it, flushed after each chunk, and renamed over it
at the end: whole or not at all. Files get a `keras.utils.Progbar` on
standard error when it is a terminal (or with `--progress`).
"""

from __future__ import annotations

import codecs
import contextlib
import itertools
import json
import math
import re
import sys
from pathlib import Path

from attention_zoo.applications.common.errors import MAX_QUOTED, quoted, quoted_path
from attention_zoo.applications.common.inputs import MAX_INPUT_CHARS, InputError
from attention_zoo.applications.common.line_reader import (  # noqa: F401
    MAX_LINE_BYTES,
    count_lines,
    iter_lines,
    read_lines,
    stdin_stream,
    stream_lines,
)
from attention_zoo.applications.common.predictor_protocol import DETAILS
from attention_zoo.applications.common.run_folder import atomic_output

FORMATS = ("text", "jsonl")
# Everything `str.splitlines` breaks at.
_LINE_BREAKS = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
# Control characters a terminal may act on (tab is left as it is).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# JSON leaves these unescaped with ensure_ascii=False; a line reader would
# split there.
_JSON_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}
NOT_UTF8 = "not UTF-8: undecodable bytes read as U+FFFD"


def one_line(text: str) -> str:
    """`text` with every line break a space."""
    return _LINE_BREAKS.sub(" ", text)


def printable(text: str) -> str:
    """`text` with control characters (C0 but tab, DEL, C1) escaped as
    `repr` writes them: an ESC or BEL copied from an input line must not
    reach the terminal as a control sequence."""
    return _CONTROLS.sub(lambda m: repr(m.group())[1:-1], text)


def json_line(record: dict, ensure_ascii: bool = False) -> str:
    """`record` as one line of JSON, control characters and line breaks escaped."""
    line = json.dumps(record, ensure_ascii=ensure_ascii)
    for char, escaped in _JSON_BREAKS.items():
        line = line.replace(char, escaped)
    # JSON escapes C0 itself; DEL and C1 (CSI is U+009B) it leaves as they are.
    return _CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", line)


def add_line_arguments(parser, inputs: str = "texts") -> None:
    """The flags of a task that answers lines: the positional inputs,
    `--input`, `--output`, `--format`, `--scores`, `--with-attention`,
    `--progress`."""
    what = "image file paths" if inputs == "images" else "texts"
    parser.add_argument(
        inputs,
        nargs="*",
        metavar=inputs.removesuffix("s").upper(),
        help=f"{what} to answer; - reads them from standard input, one a line",
    )
    parser.add_argument(
        "--input",
        default=None,
        help=f"file of {what}, one a line; - for standard input (default: the "
        "arguments)",
    )
    parser.add_argument(
        "--output",
        default=None,
        help="file to write, whole or not at all (default: standard output)",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: one answer a line; jsonl: one JSON object a line with "
        "input, output, score, valid, reason (default: text)",
    )
    parser.add_argument(
        "--scores",
        action="store_true",
        help="text: show each argument's score (the model's log-probability "
        "per output token) after its answer; jsonl always has it (default: off)",
    )
    parser.add_argument(
        "--with-attention",
        action="store_true",
        help="jsonl: add the tokens and the attention weights (default: off)",
    )
    parser.add_argument(
        "--progress",
        action="store_true",
        help="progress bar on standard error (default: on when standard error "
        "is a terminal and the inputs come from a file)",
    )


def check_inputs_given(args, parser, inputs: str = "texts") -> None:
    """Inputs as arguments or `--input`, exactly one of the two, else a
    parser error (exit 2). The command checks this before Keras starts
    (`cli._main`), so that the error answers at once."""
    given = getattr(args, inputs)
    name = inputs.removesuffix("s").upper()
    if args.input is None and not given:
        parser.error(
            f"give {name} arguments, --input FILE or -. Received: no {name} "
            "and no --input"
        )
    if args.input is not None and given:
        parser.error(
            f"give {name} arguments or --input, not both. Received: "
            f"{len(given)} {name} argument{'s' * (len(given) > 1)} and "
            f"--input {quoted_path(args.input)}"
        )


def input_lines(args, parser, inputs: str = "texts") -> tuple:
    """`(lines, from_file)` the flags name: the arguments (a list of
    `(text, True)`), or the lines of `--input` or standard input (`-`), an
    iterator of `(text, clean)` read as it is consumed (`iter_lines`).

    A file that cannot be opened is refused here, before any model loads.
    """
    check_inputs_given(args, parser, inputs)
    given = getattr(args, inputs)
    stdin = args.input == "-" or given == ["-"]
    if stdin:
        stream = stdin_stream()
        return stream_lines(
            lambda: contextlib.nullcontext(stream), "standard input"
        ), True
    if args.input is not None:
        path = Path(args.input)
        open(path, "rb").close()  # a missing or unreadable file: refused now
        return stream_lines(lambda: open(path, "rb"), str(path)), True
    return [(text, True) for text in given], False


def too_long_reason(text: str) -> str:
    """The reason an input of more than `MAX_INPUT_CHARS` characters is not
    answered ("" for one that is not)."""
    if len(text) <= MAX_INPUT_CHARS:
        return ""
    # Only its start is at hand (`iter_lines`): no count of its characters.
    return (
        f"input too long: {quoted(text[:MAX_QUOTED])}... has more than "
        f"{MAX_INPUT_CHARS:,} characters; at most {MAX_INPUT_CHARS:,} are read"
    )


def refused_item(text: str, reason: str) -> dict:
    """The answer to an input the predictor cannot read: no output, not
    valid, the reason also its note (the line's message is the reason)."""
    return {
        "input": text,
        "text": "",
        "score": None,
        "valid": False,
        "reason": reason,
        "notes": [reason],
        "refused": True,
    }


def checked(predictor, **options):
    """`answer(texts)` for `write_answers`: `predictor(texts, **options)`,
    an input that `predictor.check` refuses answered by `refused_item`
    instead of failing the others; `answer.unreadable` counts those."""

    def answer(texts):
        reasons = {}
        for i, text in enumerate(texts):
            try:
                if too_long_reason(text):
                    raise InputError(too_long_reason(text))
                predictor.check(text)
            except InputError as error:
                reasons[i] = str(error)
        answer.unreadable += len(reasons)
        answer.reasons.extend(list(reasons.values())[: 3 - len(answer.reasons)])
        readable = [t for i, t in enumerate(texts) if i not in reasons]
        items = iter(predictor(readable, **options) if readable else ())
        return [
            refused_item(t, reasons[i]) if i in reasons else next(items)
            for i, t in enumerate(texts)
        ]

    answer.unreadable = 0
    # The first three reasons of the inputs refused, for a command's last
    # line (a file of many refused lines keeps only these).
    answer.reasons = []
    return answer


def _show(text, item) -> str:
    answer = repr(item["text"]) if item["valid"] else f"not valid: {item['reason']}"
    return f"{text!r} -> {answer}"


def shown(text, item, show, scores: bool) -> str:
    """An argument's line on a terminal: `show(text, item)`, then the
    answer's notes in brackets, the score first with `scores`."""
    notes = list(item.get("notes") or [])
    if scores:
        score = item.get("score")
        finite = score is not None and math.isfinite(score)
        notes.insert(0, f"score {score:.2f}" if finite else "no score")
    suffix = f"   [{'; '.join(notes)}]" if notes else ""
    return show(text, item) + suffix


def write_answers(
    answer, lines, args, from_file: bool, show=None, chunk: int = 64, total=None
):
    """Writes one line per input of `lines` (module docstring), `chunk`
    inputs at a time: each chunk is read, answered, written and flushed
    before the next is read.

    Args:
        answer: a function of a list of inputs to one item per input, each
            a dict with `text`, `score`, `valid`, `reason` and optionally
            `notes` (a list of str), and for `--with-attention`
            `attention` and the tokens (`source_tokens`, `tokens`, `p_gen`).
        lines: `(input, decoded_cleanly)` pairs (`input_lines`): a list or
            an iterator.
        args: the parsed flags of `add_line_arguments`.
        from_file: whether `lines` came from a file or standard input.
        show: a function of `(input, item)` to the line an argument gets on
            a terminal (default: `'INPUT' -> 'ANSWER'`), before its notes
            (`shown`).
        chunk: inputs answered at once.
        total: the number of lines, for the progress bar (default: the
            length of a list; unknown for an iterator).

    Returns:
        The number of answers that are not valid.
    """
    display = args.format == "text" and args.output is None and not from_file
    show = show or _show
    output = (
        atomic_output(args.output)
        if args.output
        else contextlib.nullcontext(sys.stdout)
    )
    if total is None and isinstance(lines, (list, tuple)):
        total = len(lines)
    progress = args.progress or (from_file and sys.stderr.isatty())
    refused = 0
    lines = iter(lines)
    with output as stream, _progress_bar(total, progress) as bar:
        # JSON is UTF-8; a stream of another encoding (a latin-1 or C
        # locale's standard output) gets `\u00e9`, which every JSON reader
        # decodes exactly, never a character it cannot encode.
        encoding = getattr(stream, "encoding", None)
        ascii_json = bool(encoding) and codecs.lookup(encoding).name != "utf-8"
        done = 0
        while part := list(itertools.islice(lines, chunk)):
            for i, ((text, clean), item) in enumerate(
                zip(part, answer([t for t, _ in part])), done + 1
            ):
                notes = ([] if clean else [NOT_UTF8]) + list(item.get("notes") or [])
                item = {**item, "notes": notes}
                refused += not item["valid"]
                if display:
                    line = shown(text, item, show, getattr(args, "scores", False))
                    stream.write(printable(one_line(line)) + "\n")
                    continue
                message = notes + ([] if item["valid"] else [_not_valid(item, notes)])
                if message and args.format == "text":
                    text_message = "; ".join(dict.fromkeys(filter(None, message)))
                    sys.stderr.write(f"line {i}: {printable(text_message)}\n")
                stream.write(_line(text, item, args, ascii_json) + "\n")
            done += len(part)
            # A reader of the output (`tail -f`, a pipe) follows each chunk.
            stream.flush()
            bar.update(done)
    return refused


def _not_valid(item, notes) -> str:
    """`not valid: REASON`, or "" where a note already says the reason."""
    reason = item["reason"]
    return "" if any(n.startswith(reason) for n in notes) else f"not valid: {reason}"


@contextlib.contextmanager
def _progress_bar(total, enabled: bool):
    """A `keras.utils.Progbar` on standard error (Keras writes it to
    standard output, which holds the answers); `total` None: a count."""
    if not enabled or total == 0:
        yield _NoBar()
        return
    # Keras only here: the command's argument checks load this module
    # without it (docs/reliability.md, "The command answers at once").
    import keras

    with contextlib.redirect_stdout(sys.stderr):
        bar = keras.utils.Progbar(total, unit_name="line")
    yield _StderrBar(bar)


class _NoBar:
    def update(self, done: int) -> None:
        pass


class _StderrBar:
    def __init__(self, bar):
        self.bar = bar

    def update(self, done: int) -> None:
        with contextlib.redirect_stdout(sys.stderr):
            self.bar.update(done)


def _line(text, item, args, ascii_json) -> str:
    if args.format == "text":
        return printable(one_line(item["text"])) if item["valid"] else ""
    score = item.get("score")
    record = {
        "input": text,
        "output": item["text"],
        # JSON has no infinity: an input with nothing to read scores null.
        "score": score if score is None or math.isfinite(score) else None,
        "valid": bool(item["valid"]),
        "reason": item["reason"],
        "notes": item["notes"],
    }
    # What an application's answer adds where it has it (the date forms'
    # kind, grain, form, parts and reference).
    record.update({key: item[key] for key in DETAILS if key in item})
    if args.with_attention:
        for key in ("source_tokens", "tokens"):
            if key in item:
                record[key] = list(item[key])
        attention = item.get("attention")
        # An input that could not be read attends to nothing.
        record["attention"] = (
            [] if attention is None else attention.astype("float64").round(4).tolist()
        )
        if "p_gen" in item:
            record["p_gen"] = item["p_gen"].astype("float64").round(4).tolist()
    return json_line(record, ascii_json)
