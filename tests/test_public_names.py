"""Every public name of the package resolves, whether the package loaded
it at import (a library user's program) or loads it on first use (the
`attention-zoo` command, which imports the package without Keras)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

# `attention_zoo.__all__` as it was when every name was imported by the
# package's `__init__`: none may go missing.
PUBLIC_NAMES = [
    "AttentionRNNDecoder",
    "BahdanauAttention",
    "BaseAttention",
    "BidirectionalRNNEncoder",
    "DoublyStochasticAttentionLoss",
    "CoverageAttention",
    "CoverageLoss",
    "LocalAttention",
    "LocationSensitiveAttention",
    "LuongAttention",
    "MaskedSequenceCrossEntropy",
    "MaskedTokenAccuracy",
    "MonotonicAttention",
    "MonotonicChunkwiseAttention",
    "ParallelAttentionDecoder",
    "PointerGenerator",
    "SequenceExactMatch",
    "ShowAttendTellDecoder",
    "__version__",
    "decoders",
    "decoding",
    "encoders",
    "layers",
    "losses",
    "metrics",
    "ops",
]
# The subpackages whose public names load on first use.
SUBPACKAGES = (
    "attention_zoo.applications",
    "attention_zoo.applications.common",
    "attention_zoo.serving",
)

# Run as the command imports the package (`sys.argv[0]` is the console
# script's name): what is loaded before and after each name is read.
LAZY_CHECK = """
import importlib, json, sys
sys.argv = ["attention-zoo"]
import attention_zoo
frameworks = lambda: sorted(m for m in ("keras", "tensorflow") if m in sys.modules)
report = {"at_import": frameworks(), "missing": [], "dir_missing": []}
for package, names in json.loads(NAMES_JSON):
    module = importlib.import_module(package)
    report["dir_missing"] += [f"{package}.{n}" for n in names if n not in dir(module)]
    for name in names:
        try:
            exec(f"from {package} import {name}")
            getattr(module, name)
        except Exception as error:
            report["missing"].append(f"{package}.{name}: {error!r}")
report["after"] = frameworks()
print(json.dumps(report))
"""


def _public(package):
    return [package, list(importlib.import_module(package).__all__)]


def test_every_public_name_resolves_in_a_library_import():
    import attention_zoo

    assert sorted(attention_zoo.__all__) == sorted(PUBLIC_NAMES)
    for name in PUBLIC_NAMES:
        assert getattr(attention_zoo, name) is not None, name
        assert name in dir(attention_zoo), name
    for package in SUBPACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            assert getattr(module, name) is not None, f"{package}.{name}"
            assert name in dir(module), f"{package}.{name}"


def test_a_library_import_loads_the_public_classes_at_once():
    """So that a `.keras` file using them loads after `import attention_zoo`
    (tests/test_docstrings.py loads one)."""
    import attention_zoo

    assert "BahdanauAttention" in vars(attention_zoo)
    assert "layers" in vars(attention_zoo)


def test_an_unknown_name_is_an_attribute_error():
    import attention_zoo
    import attention_zoo.serving

    with pytest.raises(AttributeError, match="no attribute 'NoSuchLayer'"):
        attention_zoo.NoSuchLayer  # noqa: B018
    with pytest.raises(ImportError):
        from attention_zoo.serving import no_such_name  # noqa: F401


@pytest.mark.backend_free
def test_every_public_name_resolves_when_the_command_imports_the_package():
    names = [["attention_zoo", PUBLIC_NAMES]] + [_public(p) for p in SUBPACKAGES]
    code = LAZY_CHECK.replace("NAMES_JSON", repr(json.dumps(names)))
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr[-2000:]
    report = json.loads(run.stdout.splitlines()[-1])
    assert report["at_import"] == []  # the command's import: no Keras
    assert report["missing"] == [] and report["dir_missing"] == []
    assert "keras" in report["after"]  # loaded when a class was read
