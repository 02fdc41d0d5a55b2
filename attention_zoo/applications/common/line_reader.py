"""Lines of a file or of standard input, read as they are consumed and
never more than `MAX_LINE_BYTES` bytes of one line at a time
(`common.lines`, module docstring: the rules of a line)."""

from __future__ import annotations

import codecs
import io
import sys

from attention_zoo.applications.common.inputs import MAX_INPUT_CHARS

# UTF-8 spends at most 4 bytes on a character: a line of more bytes than
# this holds more than MAX_INPUT_CHARS characters, and is read no further.
MAX_LINE_BYTES = 4 * MAX_INPUT_CHARS
# The rest of a line too long to answer is skipped this many bytes at a time.
_SKIP_BYTES = 1 << 16


def iter_lines(stream):
    """Yields `(text, decoded_cleanly)` per line of the binary `stream`
    (module docstring), reading at most `MAX_LINE_BYTES` bytes of a line:
    a longer one gives its first `MAX_INPUT_CHARS + 1` characters, which
    `checked` refuses as too long, and the rest is skipped unread."""
    while True:
        piece = stream.readline(MAX_LINE_BYTES + 1)
        if not piece:
            return
        cut = len(piece) > MAX_LINE_BYTES and not piece.endswith(b"\n")
        if cut:
            rest = piece
            while rest and not rest.endswith(b"\n"):
                rest = stream.readline(_SKIP_BYTES)
            # A character the cut split in two is dropped, not called
            # undecodable.
            decoder = codecs.getincrementaldecoder("utf-8")("replace")
            text = decoder.decode(piece, final=False)
            yield text[: MAX_INPUT_CHARS + 1], "\ufffd" not in text
            continue
        piece = piece.removesuffix(b"\n").removesuffix(b"\r")
        try:
            yield piece.decode("utf-8"), True
        except UnicodeDecodeError:
            yield piece.decode("utf-8", "replace"), False


def read_lines(data: bytes) -> list[tuple[str, bool]]:
    """`(text, decoded_cleanly)` per line of `data` (`iter_lines`)."""
    return list(iter_lines(io.BytesIO(data)))


def stdin_stream():
    """Standard input's binary stream; a closed standard input (`<&-`) is
    refused in one line instead of failing on `None`."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise ValueError("standard input is closed; give arguments or --input FILE")
    return stream


def stream_lines(open_stream, what: str):
    """`iter_lines` of the stream `open_stream()` opens (closed at the end);
    a stream that cannot be read is one ValueError naming `what`."""
    try:
        with open_stream() as stream:
            yield from iter_lines(stream)
    except ValueError as error:  # a closed descriptor
        raise ValueError(f"cannot read {what} ({error})") from error


def count_lines(path) -> int:
    """The lines of the file `path`, counted without holding it (for the
    progress bar's total)."""
    count, last = 0, b"\n"
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            count += block.count(b"\n")
            last = block[-1:]
    return count + (last != b"\n")
