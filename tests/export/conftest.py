"""Exports shared by the export tests: each application's preset in the
three formats, made once per test run (exporting costs tens of seconds;
the tests that tamper with an export copy it first)."""

import os
import shutil
import subprocess
import sys

import pytest

try:
    import fcntl
except ImportError:  # Windows: each pytest-xdist worker exports its own
    fcntl = None

FORMATS = ("saved_model", "litert", "onnx")
EXPORT_ALL = f"""
import sys
from attention_zoo.applications import registry
app, preset, root = sys.argv[1:]
for fmt in {FORMATS!r}:
    registry.export(app, preset, root + "/" + fmt, fmt)
"""


def _shared_folder(tmp_path_factory):
    """A folder every pytest-xdist worker of this run sees: the workers'
    temporary folders (`popen-gw0`, ...) share a parent, fresh for each run.
    Without xdist (or without file locks), this process's own."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER") and fcntl is not None:
        return base.parent
    return base


@pytest.fixture(scope="session")
def exports(tmp_path_factory):
    """`exports(app, preset)`: `{format: folder}` of the preset exported in
    each format with its own search (greedy for dates, beam search for the
    others). One process per application: tf2onnx slowed down tenfold
    converting a model after another application's in one process.

    Made once per run, not once per worker: test_export_integrity.py and
    test_portable_exports.py both read the dates export, and
    `--dist loadfile` may give them to different workers. The first worker
    to ask exports under a file lock; another waits for it and reads the
    same folders (which no test writes into)."""
    shared = _shared_folder(tmp_path_factory)
    made = {}

    def export(app: str, preset: str) -> dict:
        if (app, preset) not in made:
            root = shared / f"exports-{app}-{preset}"
            with open(shared / f"exports-{app}-{preset}.lock", "w") as lock:
                if fcntl is not None:
                    fcntl.flock(lock, fcntl.LOCK_EX)  # released when closed
                done = shared / f"exports-{app}-{preset}.done"
                if not done.exists():
                    # What a worker that failed left behind is made again.
                    shutil.rmtree(root, ignore_errors=True)
                    root.mkdir()
                    subprocess.run(
                        [sys.executable, "-c", EXPORT_ALL, app, preset, str(root)],
                        check=True,
                        capture_output=True,
                    )
                    done.touch()
            made[(app, preset)] = {fmt: root / fmt for fmt in FORMATS}
        return made[(app, preset)]

    return export
