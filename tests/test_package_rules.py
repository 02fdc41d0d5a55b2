"""Rules of the package's layout that a change could break silently."""

from __future__ import annotations

import re
from pathlib import Path

import attention_zoo

PACKAGE = Path(attention_zoo.__file__).parent
SOURCES = sorted(PACKAGE.rglob("*.py"))
# A file past this many lines is asking to be split (house style).
MAX_LINES = 400


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
