"""`benchmarks/bytecode.py`: a start-up benchmark says whether what it times
was read from compiled bytecode, and warns where it was not."""

import py_compile
import sys

from benchmarks import bytecode


def test_a_package_without_current_bytecode_is_named_in_the_warning(
    tmp_path, monkeypatch
):
    package = tmp_path / "startup_probe"
    package.mkdir()
    (package / "__init__.py").write_text("X = 1\n")
    (package / "part.py").write_text("Y = 2\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    packages = (("startup_probe", True),)

    facts, warning = bytecode.state(packages)
    assert facts[0].startswith("bytecode: startup_probe: 0 of 2 modules compiled")
    assert facts[-1] == "PYTHONDONTWRITEBYTECODE set: Python writes no .pyc"
    assert warning.startswith("WARNING: bytecode of startup_probe not compiled")
    assert "every run compiles from source" in warning and "\n" not in warning

    for source in package.glob("*.py"):
        py_compile.compile(str(source), doraise=True)
    facts, warning = bytecode.state(packages)
    assert facts[0].startswith("bytecode: startup_probe: 2 of 2 modules compiled")
    assert warning == ""

    # A source changed after its compilation: Python compiles it again.
    (package / "part.py").write_text("Y = 22\n")
    assert not bytecode.is_current(package / "part.py")
    assert bytecode.state(packages)[1]


def test_a_package_s_init_alone_and_a_missing_package(tmp_path, monkeypatch):
    package = tmp_path / "startup_probe_init"
    package.mkdir()
    (package / "__init__.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    text, compiled = bytecode.package_state("startup_probe_init", every_module=False)
    assert (text.split(" (")[0], compiled) == (
        "startup_probe_init/__init__.py NOT compiled",
        False,
    )
    py_compile.compile(str(package / "__init__.py"), doraise=True)
    assert bytecode.package_state("startup_probe_init", every_module=False)[1]
    assert bytecode.package_state("no_such_package_here", every_module=False) == (
        "no_such_package_here not installed",
        True,
    )
    assert "startup_probe_init" not in sys.modules  # found, never imported
