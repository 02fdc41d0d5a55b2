"""The shipped presets and the command under a locale that is not UTF-8.

The package's files are UTF-8; read in the locale's encoding they gave
wrong answers marked valid (`3 février 1979` -> 1979-04-03 under latin-1)
or failed (ASCII). docs/reliability.md, "Text files are UTF-8, whatever
the locale".
"""

from __future__ import annotations

import codecs
import json
import os
import shutil
import subprocess
import sys

import pytest

DATE = "3 février 1979"
# Run in one process, under the locale, so that TensorFlow is imported once:
# the two presets from Python, then `dates predict` as `python -m
# attention_zoo` runs it (its `__main__`, the date read from the process's
# own arguments).
CHECKS = """
import json, locale, runpy, sys
from attention_zoo.applications import from_preset

date = from_preset("dates_multilingual")(["3 f\\u00e9vrier 1979"])[0]
translation = from_preset("bible_en_es")(["Jesus wept."])[0]
print(json.dumps({
    "encoding": locale.getpreferredencoding(False),
    "date": date["text"],
    "valid": date["valid"],
    "translation": translation["text"],
}), flush=True)
sys.argv = ["attention-zoo", "dates", "predict", sys.argv[1]]
runpy.run_module("attention_zoo", run_name="__main__")
"""


def _environment_not_utf8(folder):
    """An environment of a latin-1 locale, else of ASCII; its encoding.

    A latin-1 locale of the system is used, else one `localedef` compiles
    into `folder` (no root needed: `LOCPATH` points there), else the C locale
    with Python's UTF-8 mode off, whose encoding is ASCII.
    """
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("LC_")
        and k not in ("LANG", "LANGUAGE", "LOCPATH", "PYTHONIOENCODING")
    }
    env["PYTHONUTF8"] = "0"
    names = []
    if shutil.which("locale"):
        names = subprocess.run(
            ["locale", "-a"], capture_output=True, check=False
        ).stdout.split()
    for name in names:
        if name.lower().replace(b"-", b"").endswith((b"iso88591", b"latin1")):
            return {**env, "LC_ALL": name.decode("ascii")}, "latin-1"
    if shutil.which("localedef"):
        subprocess.run(
            ["localedef", "-i", "en_US", "-f", "ISO-8859-1", "en_US.ISO-8859-1"],
            cwd=folder,
            capture_output=True,
            check=False,
        )
        if (folder / "en_US.ISO-8859-1").is_dir():
            env.update(LOCPATH=str(folder), LC_ALL="en_US.ISO-8859-1")
            return env, "latin-1"
    return {**env, "LC_ALL": "C"}, "ascii"


@pytest.mark.tf_only
def test_presets_and_the_command_under_a_locale_that_is_not_utf8(tmp_path):
    env, encoding = _environment_not_utf8(tmp_path)
    # What a terminal of the locale sends; under ASCII, a UTF-8 terminal's
    # bytes, which the locale cannot decode.
    typed = DATE.encode("latin-1" if encoding == "latin-1" else "utf-8")
    out = subprocess.run(
        [sys.executable, "-c", CHECKS, typed],
        capture_output=True,
        env=env,
        check=False,
        timeout=600,
    )
    stderr = out.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr and out.returncode == 0, stderr[-3000:]
    # The streams write the locale's encoding; under ASCII, nothing else.
    lines = out.stdout.decode(encoding).splitlines()
    checks = json.loads(lines[0])
    if codecs.lookup(checks["encoding"]).name == "utf-8":
        pytest.skip(f"no locale here makes Python's encoding other than UTF-8: {env}")
    assert (checks["date"], checks["valid"]) == ("1979-02-03", True), checks
    assert "Jesús" in checks["translation"], checks
    assert len(lines) == 2 and "-> 1979-02-03" in lines[1], lines
