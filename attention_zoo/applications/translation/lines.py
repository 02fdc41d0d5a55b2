"""Translate lines of a file or stream: exactly one output line per input line.

Input is bytes, split at `\\n` only (a `\\r` before it is dropped), so a
line separator of another kind (`\\v`, `\\x1c`, U+2028, ...) stays inside
its line; bytes that are not UTF-8 are read as U+FFFD. Every line gets an
output line, in order, whatever it holds:

- an empty line (no word once normalized) gives an empty translation;
- a line of more than `MAX_SOURCE_TOKENS` words is translated from its
  first `MAX_SOURCE_TOKENS`;
- words outside the source vocabulary, in any script, are read as `<unk>`
  and copied through when the output attends to them.

Each of these, and undecodable bytes, is named on standard error as
`line N: ...`. A translation never holds a line break of any kind: any a
copied word brings is written as a space (`FORMATS`: text, one translation
a line; jsonl, one JSON object a line).
"""

from __future__ import annotations

import codecs
import json
import re
import sys

from attention_zoo.applications.translation.predictor import Translator

FORMATS = ("text", "jsonl")
# Everything `str.splitlines` breaks at.
_LINE_BREAKS = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
# Control characters a terminal may act on (tab is left as it is).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# JSON leaves these unescaped with ensure_ascii=False; a line reader would
# split there.
_JSON_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def read_lines(data: bytes) -> list[tuple[str, bool]]:
    """`(text, decoded_cleanly)` per line of `data` (module docstring)."""
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


def one_line(text: str) -> str:
    return _LINE_BREAKS.sub(" ", text)


def printable(text: str) -> str:
    """`text` with control characters (C0 but tab, DEL, C1) escaped as
    `repr` writes them: an ESC or BEL copied from an input line must not
    reach the terminal as a control sequence."""
    return _CONTROLS.sub(lambda m: repr(m.group())[1:-1], text)


def json_line(record: dict, ensure_ascii: bool = False) -> str:
    line = json.dumps(record, ensure_ascii=ensure_ascii)
    for char, escaped in _JSON_BREAKS.items():
        line = line.replace(char, escaped)
    # JSON escapes C0 itself; DEL and C1 (CSI is U+009B) it leaves as they are.
    return _CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", line)


class Progress:
    """`translated N/M lines` on standard error, redrawn in place."""

    def __init__(self, total: int, enabled: bool, stream=None):
        self.total, self.enabled = total, enabled
        self.stream = stream or sys.stderr

    def update(self, done: int):
        if self.enabled:
            end = "\n" if done >= self.total else ""
            self.stream.write(f"\rtranslated {done:,}/{self.total:,} lines{end}")
            self.stream.flush()


def translate_lines(
    translator: Translator,
    lines,
    output,
    output_format: str = "text",
    with_attention: bool = False,
    beam_width: int | None = None,
    progress: bool = False,
    messages=None,
    chunk: int = 256,
) -> int:
    """Write one translation per item of `lines` (`read_lines`) to `output`.

    Args:
        translator: the run's `Translator`.
        lines: `(text, decoded_cleanly)` pairs.
        output: a text stream; each translation ends with `\\n`.
        output_format: one of `FORMATS`. jsonl: `source`, `translation`,
            `score` (the model's log-probability of its lower-cased output,
            `<end>` included), `messages`, and with `with_attention` the
            source and output tokens with `attention`, one row of weights
            over the source tokens per output token (`<end>` last).
        progress: draw `Progress` on standard error.
        messages: a text stream for the per-line messages (standard error).

    Returns:
        The number of lines that drew a message.
    """
    if output_format not in FORMATS:
        raise ValueError(
            f"`output_format` must be one of {FORMATS}. Received: {output_format!r}"
        )
    messages = messages or sys.stderr
    # JSON is UTF-8; a stream of another encoding (a latin-1 or C locale's
    # standard output) gets `\u00e9`, which every JSON reader decodes
    # exactly, never a character it cannot encode or a `\xe9` escape.
    encoding = getattr(output, "encoding", None)
    ascii_json = bool(encoding) and codecs.lookup(encoding).name != "utf-8"
    lines = list(lines)
    bar = Progress(len(lines), progress)
    flagged = 0
    for start in range(0, len(lines), chunk):
        part = lines[start : start + chunk]
        texts = [text for text, _ in part]
        ids, attention = translator._search(texts, beam_width)
        tokens = translator.readable(texts, ids, attention)
        translations = [one_line(translator.join(t)) for t in tokens]
        if output_format == "jsonl":
            raw = translator.readable(texts, ids, attention, False, False)
            scores = translator.scores(texts, raw)
        for i, (text, clean) in enumerate(part):
            notes = [] if clean else ["not UTF-8: undecodable bytes read as U+FFFD"]
            notes += translator.problems(text)
            if notes:
                flagged += 1
                messages.write(f"line {start + i + 1}: {printable('; '.join(notes))}\n")
            if output_format == "text":
                output.write(printable(translations[i]) + "\n")
                continue
            record = {
                "source": text,
                "translation": translations[i],
                "score": scores[i],
                "messages": notes,
            }
            if with_attention:
                source = translator.source_tokens(text)
                steps = len(tokens[i]) + 1 if source else 0  # with <end>
                record["source_tokens"] = source
                record["translation_tokens"] = tokens[i]
                record["attention"] = (
                    attention[i][:steps].astype("float64").round(4).tolist()
                )
            output.write(json_line(record, ascii_json) + "\n")
        bar.update(start + len(part))
    return flagged
