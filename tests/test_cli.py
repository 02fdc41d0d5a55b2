import subprocess
import sys

import pytest

import attention_zoo
from applications.cli import main


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
    assert script.value == "applications.cli:main"
    executable = Path(sys.executable).parent / "attention-zoo"
    assert executable.exists()
    out = subprocess.run(
        [str(executable), "--version"], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0
    assert out.stdout.strip() == f"attention-zoo {attention_zoo.__version__}"
