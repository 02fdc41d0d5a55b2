"""Rules of the package's layout that a change could break silently."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import attention_zoo

PACKAGE = Path(attention_zoo.__file__).parent
SOURCES = sorted(PACKAGE.rglob("*.py"))
# A file past this many lines is asking to be split (house style).
MAX_LINES = 400
# The benchmarks beside the package, in a source checkout.
BENCHMARKS = sorted((PACKAGE.parent / "benchmarks").glob("*.py"))


def test_the_package_sources_are_found():
    assert len(SOURCES) > 50


def test_no_source_file_is_over_400_lines():
    long = {
        str(p.relative_to(PACKAGE)): n
        for p in SOURCES
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"files over {MAX_LINES} lines: {long}"


def test_private_keras_names_come_from_the_compatibility_module_alone():
    private = re.compile(r"^\s*(from|import)\s+keras\.src\b", re.MULTILINE)
    users = [
        str(p.relative_to(PACKAGE))
        for p in SOURCES
        if p.name != "_keras_compat.py" and private.search(p.read_text("utf-8"))
    ]
    assert not users, f"keras.src imported outside _keras_compat.py: {users}"


def test_the_library_imports_tensorflow_only_in_the_export_helpers():
    """The layers, decoders and decoding run on every backend; TensorFlow is
    imported by the SavedModel export helpers and the applications."""
    imports = re.compile(r"^\s*(from|import)\s+tensorflow\b", re.MULTILINE)
    allowed = ("applications", "export", "presets")
    # _quiet_startup imports TensorFlow on its own backend only, to silence
    # its start-up logging before Keras imports it.
    users = [
        str(p.relative_to(PACKAGE))
        for p in SOURCES
        if p.relative_to(PACKAGE).parts[0] not in allowed
        and p.name != "_quiet_startup.py"
        and imports.search(p.read_text("utf-8"))
    ]
    assert not users, f"TensorFlow imported by library modules: {users}"


_MODE_CHARACTERS = set("rwxabt+U")


def _argument(call: ast.Call, index: int, name: str):
    """The node of the argument at position `index` or keyword `name`."""
    if len(call.args) > index:
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == name), None)


def _text_mode(mode, default: str = "r") -> bool:
    """Whether `mode` (a node, or None for `default`) opens a text file."""
    if mode is None:
        return "b" not in default
    if isinstance(mode, ast.Constant) and isinstance(mode.value, str):
        # A string that is no mode is another `open`'s argument (an image's
        # path given to `Image.open`).
        return set(mode.value) <= _MODE_CHARACTERS and "b" not in mode.value
    return False  # a mode computed at run time: not decidable here


def locale_encoded_calls(source: str) -> list[str]:
    """The calls in `source` that read or write text in the locale's encoding.

    `Path.read_text()`, `Path.write_text(text)`, `open`, `io.open`,
    `Path.open`, `os.fdopen` in text mode, `io.TextIOWrapper` and text-mode
    temporary files without `encoding=` decode and encode with the locale's
    encoding (latin-1 under such a locale, ASCII under `LC_ALL=C`, cp1252 on
    Windows), so a UTF-8 file reads as other characters. Subprocesses in
    text mode are left out: another program writes in the locale's encoding.
    """
    found = []
    for call in ast.walk(ast.parse(source)):
        if not isinstance(call, ast.Call):
            continue
        function = call.func
        name = getattr(function, "attr", getattr(function, "id", None))
        owner = getattr(getattr(function, "value", None), "id", None)
        if name == "read_text":
            bare = _argument(call, 0, "encoding") is None
        elif name == "write_text":
            bare = _argument(call, 1, "encoding") is None
        elif name in ("open", "fdopen") and (
            isinstance(function, ast.Name) or owner in ("io", "codecs", "os")
        ):
            # open(file, mode, buffering, encoding); os.open takes flags.
            mode = _argument(call, 1, "mode")
            bare = (
                not (name == "open" and owner == "os")
                and _text_mode(mode)
                and _argument(call, 3, "encoding") is None
            )
        elif name == "open":  # Path.open(mode, buffering, encoding)
            mode = _argument(call, 0, "mode")
            bare = _text_mode(mode) and _argument(call, 2, "encoding") is None
        elif name == "TextIOWrapper":
            bare = _argument(call, 1, "encoding") is None
        elif name in ("TemporaryFile", "NamedTemporaryFile"):
            mode = _argument(call, 0, "mode")
            bare = _text_mode(mode, "w+b") and _argument(call, 2, "encoding") is None
        else:
            continue
        if bare:
            found.append(f"line {call.lineno}: {ast.unparse(call)[:80]}")
    return found


def test_text_files_are_read_and_written_as_utf8():
    """Every text file of the package and the benchmarks names its encoding.

    The shipped presets' vocabularies are UTF-8: read in a latin-1 locale,
    "février" was three unknown characters and `3 février 1979` came out
    as 1979-04-03 (docs/reliability.md, "Text files are UTF-8, whatever the
    locale").
    """
    bare = {
        str(p.relative_to(PACKAGE.parent)): calls
        for p in SOURCES + BENCHMARKS
        if (calls := locale_encoded_calls(p.read_text(encoding="utf-8")))
    }
    assert not bare, f"text read or written without encoding=: {bare}"


def test_the_encoding_rule_finds_every_kind_of_bare_call():
    bare = [
        "Path(p).read_text()",
        "p.write_text(text)",
        "open(p)",
        "open(p, 'w')",
        "open(p, mode='a+')",
        "io.open(p, 'rt')",
        "p.open()",
        "p.open('w', newline='')",
        "os.fdopen(fd, 'w')",
        "io.TextIOWrapper(buffer)",
        "tempfile.NamedTemporaryFile('w')",
    ]
    for call in bare:
        assert locale_encoded_calls(call), call
    named = [
        "p.read_text(encoding='utf-8')",
        "p.read_text('utf-8')",
        "p.write_text(text, encoding='utf-8')",
        "p.read_bytes()",
        "open(p, 'rb')",
        "open(p, 'w', encoding='utf-8')",
        "open(p, 'r', -1, 'utf-8')",
        "p.open('rb')",
        "p.open(encoding='utf-8', newline='')",
        "os.open(p, os.O_WRONLY)",
        "os.fdopen(fd, 'wb')",
        "Image.open(io.BytesIO(data))",
        "Image.open('cat.png')",
        "archive.open(names[0])",
        "io.TextIOWrapper(buffer, 'utf-8')",
        "tempfile.NamedTemporaryFile()",
    ]
    for call in named:
        assert not locale_encoded_calls(call), call
