import subprocess
import sys

import pytest

import attention_zoo
from attention_zoo.applications.cli import main


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert (
        capsys.readouterr().out.strip() == f"attention-zoo {attention_zoo.__version__}"
    )


def test_help_lists_demo(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "demo" in capsys.readouterr().out


def test_bad_demo_arguments_name_the_flag(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["demo", "--epochs", "0"])
    assert exit_info.value.code == 2
    assert "Received: --epochs 0" in capsys.readouterr().err


def test_console_script_is_installed():
    # The executable the installed distribution put beside the interpreter.
    from importlib.metadata import entry_points
    from pathlib import Path

    (script,) = [
        e for e in entry_points(group="console_scripts") if e.name == "attention-zoo"
    ]
    assert script.value == "attention_zoo.applications.cli:main"
    executable = Path(sys.executable).parent / "attention-zoo"
    assert executable.exists()
    out = subprocess.run(
        [str(executable), "--version"], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0
    assert out.stdout.strip() == f"attention-zoo {attention_zoo.__version__}"


def test_python_dash_m_runs_the_command():
    out = subprocess.run(
        [sys.executable, "-m", "attention_zoo", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"attention-zoo {attention_zoo.__version__}"
    # TensorFlow's start-up lines (oneDNN, CUDA, absl) stay off the command's
    # standard error.
    assert out.stderr == ""


def test_applications_install_under_the_package_namespace():
    # Nothing named `applications` at the top of site-packages: the
    # applications are `attention_zoo.applications` wherever they are read.
    import importlib.util

    import attention_zoo.applications

    assert attention_zoo.applications.__name__ == "attention_zoo.applications"
    spec = importlib.util.find_spec("applications")
    assert spec is None or "site-packages" not in (spec.origin or ""), spec


@pytest.mark.parametrize("backend", ["openvino", "no_such_backend"])
def test_a_backend_that_cannot_load_is_one_line_and_exit_2(backend):
    import os

    env = {**os.environ, "KERAS_BACKEND": backend}
    out = subprocess.run(
        [sys.executable, "-m", "attention_zoo", "--version"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert f"KERAS_BACKEND={backend}" in out.stderr
