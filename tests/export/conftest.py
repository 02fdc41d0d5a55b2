"""Exports shared by the export tests: each application's preset in the
three formats, made once per test session (exporting costs tens of
seconds; the tests that tamper with an export copy it first)."""

import subprocess
import sys

import pytest

FORMATS = ("saved_model", "litert", "onnx")
EXPORT_ALL = f"""
import sys
from attention_zoo.applications import registry
app, preset, root = sys.argv[1:]
for fmt in {FORMATS!r}:
    registry.export(app, preset, root + "/" + fmt, fmt)
"""


@pytest.fixture(scope="session")
def exports(tmp_path_factory):
    """`exports(app, preset)`: `{format: folder}` of the preset exported in
    each format with its own search (greedy for dates, beam search for the
    others). One process per application: tf2onnx slowed down tenfold
    converting a model after another application's in one process."""
    made = {}

    def export(app: str, preset: str) -> dict:
        if (app, preset) not in made:
            root = tmp_path_factory.mktemp(app)
            subprocess.run(
                [sys.executable, "-c", EXPORT_ALL, app, preset, str(root)],
                check=True,
                capture_output=True,
            )
            made[(app, preset)] = {fmt: root / fmt for fmt in FORMATS}
        return made[(app, preset)]

    return export
