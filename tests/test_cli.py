import os
import subprocess
import sys

import pytest

import attention_zoo
from attention_zoo.cli import main

# These tests start `python -m attention_zoo` with the backend they choose
# (KERAS_BACKEND or a keras.json of their own), so the session's backend
# changes nothing in what they check: CI runs them once, not on each leg.
backend_free = pytest.mark.backend_free


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
    assert script.value == "attention_zoo.cli:command"
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


@backend_free
def test_a_jax_command_keeps_tensorflows_start_up_lines_off_stderr():
    """Keras imports TensorFlow on every backend (its serialization asks for
    it), so a JAX run printed TensorFlow's start-up lines (round 3, item 12)."""
    pytest.importorskip("jax")
    out = subprocess.run(
        [sys.executable, "-m", "attention_zoo", "dates", "predict", "3 May 1979"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "KERAS_BACKEND": "jax"},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("'3 May 1979' -> 1979-05-03"), out.stdout
    assert out.stderr.splitlines() == [
        "attention-zoo dates predict: no --run given; using the shipped preset "
        "dates_multilingual"
    ]


def test_applications_install_under_the_package_namespace():
    # Nothing named `applications` at the top of site-packages: the
    # applications are `attention_zoo.applications` wherever they are read.
    import importlib.util

    import attention_zoo.applications

    assert attention_zoo.applications.__name__ == "attention_zoo.applications"
    spec = importlib.util.find_spec("applications")
    assert spec is None or "site-packages" not in (spec.origin or ""), spec


def _command(tmp_path, *args, backend=None, keras_json=None):
    """`python -m attention_zoo ARGS` with `KERAS_BACKEND=backend` (None:
    unset) and a Keras home of its own holding `keras_json` (None: none)."""
    import os

    home = tmp_path / "keras_home"
    home.mkdir()
    if keras_json is not None:
        (home / "keras.json").write_text(keras_json, encoding="utf-8")
    env = {**os.environ, "KERAS_HOME": str(home)}
    env.pop("KERAS_BACKEND", None)
    if backend is not None:
        env["KERAS_BACKEND"] = backend
    return subprocess.run(
        [sys.executable, "-m", "attention_zoo", *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


@backend_free
@pytest.mark.parametrize("backend", ["numpy", "openvino", "no_such_backend"])
def test_a_backend_that_cannot_load_is_one_line_and_exit_2(backend, tmp_path):
    # numpy and openvino load, but run inference only: no model.fit.
    out = _command(tmp_path, "--help", backend=backend)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert f"KERAS_BACKEND={backend}" in out.stderr
    assert "tensorflow, jax" in out.stderr and out.stdout == ""


@backend_free
@pytest.mark.parametrize(
    "keras_json, named, args",
    [
        ('{"backend": "nosuchbackend"}', "Received: backend=nosuchbackend in", []),
        ('{"backend": "numpy"}', "backend=numpy in", []),
        ('{"backend": ["jax"]}', "Received: backend=['jax'] in", []),
        ("[1, 2]", "must hold a JSON object", []),
        # Keras itself refuses it, when a command that needs a model starts
        # it (`--help` does not: test_cli_startup.py).
        ('{"floatx": "float8"}', "Received: floatx=float8", ["presets", "list"]),
    ],
    ids=["unknown", "numpy", "not_a_name", "not_an_object", "bad_floatx"],
)
def test_a_keras_json_that_cannot_run_the_command_is_one_line_and_exit_2(
    keras_json, named, args, tmp_path
):
    out = _command(tmp_path, *(args or ["--help"]), keras_json=keras_json)
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert named in out.stderr and out.stdout == ""


@backend_free
def test_help_answers_before_keras_reads_its_own_settings(tmp_path):
    """A `floatx` only Keras reads is refused when Keras starts, not by
    `--help`, which answers without Keras (issue 59)."""
    out = _command(tmp_path, "--help", keras_json='{"floatx": "float8"}')
    assert out.returncode == 0 and out.stderr == ""
    assert out.stdout.startswith("usage: attention-zoo")


@backend_free
def test_the_backend_of_keras_json_is_the_one_checked(tmp_path):
    pytest.importorskip("jax")
    out = _command(tmp_path, "--help", keras_json='{"backend": "jax"}')
    assert out.returncode == 0 and out.stderr == ""
    assert "usage: attention-zoo" in out.stdout


@backend_free
def test_a_keras_json_that_is_not_json_is_one_warning(tmp_path):
    # Keras ignores it, and loads TensorFlow, which a user who meant the
    # file's backend would not know.
    out = _command(tmp_path, "--help", keras_json='{"backend": "jax",')
    assert out.returncode == 0 and "usage: attention-zoo" in out.stdout
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert "keras.json is not JSON" in out.stderr
    assert "uses the tensorflow backend" in out.stderr


@pytest.mark.parametrize(
    "variable, keras_json, backend",
    [
        (None, None, "tensorflow"),
        ("jax", '{"backend": "torch"}', "jax"),
        # Keras reads an empty KERAS_BACKEND as unset.
        ("", '{"backend": "torch"}', "torch"),
        (None, "{", "tensorflow"),
    ],
    ids=["default", "variable_first", "empty_variable", "not_json"],
)
def test_the_backend_checked_is_the_one_keras_loads(
    variable, keras_json, backend, tmp_path, monkeypatch
):
    from attention_zoo import _quiet_startup

    if keras_json is not None:
        (tmp_path / "keras.json").write_text(keras_json, encoding="utf-8")
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    if variable is None:
        monkeypatch.delenv("KERAS_BACKEND", raising=False)
    else:
        monkeypatch.setenv("KERAS_BACKEND", variable)
    checked, error, warning = _quiet_startup.backend_check()
    assert (checked, error) == (backend, None)
    assert (warning is not None) == (keras_json == "{")
