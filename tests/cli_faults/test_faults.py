"""The command line under faults: damaged runs, read-only disks, kills, bad options.

Each case runs `attention-zoo` in a fresh process (the cases of one test
share a process through `driver.py`, so that TensorFlow loads once) under a
timeout, and must end with exit status 2 and exactly one line on stderr,
or exit status 0 with a correct result; never with a traceback.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.tf_only
ROOT = Path(__file__).resolve().parents[2]
VOCABULARY = json.dumps(["<pad>", "<unk>", "<start>", "<end>", "one"])
CONFIGS = {
    "dates": {"model": "default"},
    "translation": {
        "attention": "bahdanau",
        "decoder": "parallel",
        "beam_width": 2,
        "alpha": 0.0,
    },
    "captioning": {"beam_width": 2, "resolved_image_size": 32, "grid_shape": [2, 2]},
}
FILES = {
    "dates": ("config.json", "vocabulary.json", "model.keras"),
    "translation": (
        "config.json",
        "source_vocabulary.json",
        "target_vocabulary.json",
        "model.keras",
    ),
    "captioning": ("config.json", "vocabulary.json", "encoder.keras", "model.keras"),
}
PREDICT = {
    "dates": ["dates", "predict", "3 May 1979"],
    "translation": ["translation", "translate", "one"],
    "captioning": ["captioning", "predict", "image.png"],
}


def _env():
    env = dict(os.environ, PYTHONPATH=str(ROOT), KERAS_BACKEND="tensorflow")
    env.pop("ATTENTION_ZOO_DEBUG", None)
    return env


def run_cases(tmp_path, cases, timeout=300):
    """`[{code, stderr, stdout}]` of the command lines `cases`, in one process."""
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([[str(a) for a in argv] for argv in cases]))
    proc = subprocess.run(
        [sys.executable, "-m", "tests.cli_faults.driver", str(path)],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.splitlines()[-1])


def assert_refused(result, *names):
    """Exit 2, one line on stderr naming `names`, no traceback."""
    err = result["stderr"]
    assert result["code"] == 2, result
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err and ": error: " in err, err
    for name in names:
        assert str(name) in err, (name, err)


def fake_run(folder, app, **files):
    """A run folder of `app` with valid small files, `files` replacing some."""
    folder.mkdir(parents=True)
    content = {name: VOCABULARY for name in FILES[app] if name.endswith(".json")}
    if app == "dates":
        content["vocabulary.json"] = json.dumps({"chars": list("0123456789 may")})
    content["config.json"] = json.dumps(CONFIGS[app])
    content.update({name: "" for name in FILES[app] if name.endswith(".keras")})
    content.update({k.replace("__", "."): v for k, v in files.items()})
    for name, data in content.items():
        path = folder / name
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return folder


def garbage_keras(path):
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("config.json", "{garbage")
        archive.writestr("model.weights.h5", b"\x00" * 64)
    return path.read_bytes()


def test_damaged_run_folders_of_every_application(tmp_path):
    """Malformed but parseable JSON, truncated or garbage models, long paths."""
    garbage = garbage_keras(tmp_path / "garbage.keras")
    cases, names = [], []
    for app in ("dates", "translation", "captioning"):
        vocabularies = [n for n in FILES[app] if n.endswith("vocabulary.json")]
        models = [n for n in FILES[app] if n.endswith(".keras")]
        broken = [("config.json", text) for text in ("{}", "[1,2]", "{", "")]
        broken += [(vocabularies[0], t) for t in ("{}", "[1,2]", '{"chars":5}')]
        broken += [(models[0], b"PK\x03\x04trunc"), (models[0], garbage)]
        for name, text in broken:
            run = fake_run(tmp_path / f"{app}{len(cases)}", app, **{name: text})
            cases.append([*PREDICT[app], "--run", run])
            # The file named is the first one read that is broken: the
            # captioner reads its (empty, here) models before config keys.
            names.append(run / name if app != "captioning" else run)
    long_run = "x" * 100_000
    cases.append(["dates", "predict", "--run", long_run, "3 May"])
    names.append("File name too long")
    cases.append(["translation", "evaluate", "--run", tmp_path / "missing"])
    names.append(tmp_path / "missing")
    for result, name in zip(run_cases(tmp_path, cases), names):
        assert_refused(result, name)
        assert len(result["stderr"]) < 1000


@pytest.mark.parametrize(
    "argv, flag",
    [
        (["dates", "train", "--learning-rate", "inf"], "--learning-rate"),
        (["dates", "train", "--learning-rate", "nan"], "--learning-rate"),
        (["dates", "train", "--batch-size", "100000000"], "--batch-size"),
        (["dates", "train", "--train-size", "10000000000"], "--train-size"),
        (["translation", "train", "--dropout", "nan"], "--dropout"),
        (["translation", "train", "--max-minutes=-inf"], "--max-minutes"),
        (["translation", "train", "--length-penalty", "inf"], "--length-penalty"),
        (["translation", "translate", "--beam-width", "100000", "God"], "--beam-width"),
        (["captioning", "train", "--learning-rate", "1e400"], "--learning-rate"),
        (["captioning", "evaluate", "--beam-width", "0"], "--beam-width"),
        (["captioning", "train", "--doubly-stochastic", "inf"], "--doubly-stochastic"),
    ],
)
def test_non_finite_and_absurd_options_are_refused_in_one_line(argv, flag, capsys):
    # The flag checks run before any data or model: in-process is enough.
    from attention_zoo.applications.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert err.count("\n") == 1 and f"Received: {flag}" in err, err


def test_another_applications_model_is_refused(tmp_path):
    from tests.cli_faults.tiny import tiny_dates_model

    model = tiny_dates_model(tmp_path / "dates.keras")
    cases = []
    for app in ("translation", "captioning"):
        files = {"model__keras": model.read_bytes()}
        if app == "captioning":
            files["encoder__keras"] = model.read_bytes()
        run = fake_run(tmp_path / app, app, **files)
        cases.append([*PREDICT[app], "--run", run])
    (tmp_path / "image.png").write_bytes(b"")
    for result, app in zip(run_cases(tmp_path, cases), ("translation", "captioning")):
        err = result["stderr"]
        if app == "captioning" and "image.png" in err:
            continue  # the image is checked first on this path: still one line
        assert_refused(result, tmp_path / app / "model.keras", "another application")


def _old_run(folder):
    folder.mkdir(parents=True)
    for name in ("config.json", "vocabulary.json", "model.keras", "metrics.json"):
        (folder / name).write_text(f"old {name}")


def _old_run_intact(folder):
    for name in ("config.json", "vocabulary.json", "model.keras", "metrics.json"):
        assert (folder / name).read_text() == f"old {name}"


def test_kill_during_train_keeps_the_old_run(tmp_path):
    run = tmp_path / "run"
    _old_run(run)
    argv = ["dates", "train", "--output", run, "--train-size", "4000"]
    argv += ["--epochs", "50", "--validation-size", "100", "--test-size", "100"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "attention_zoo.applications.cli", *map(str, argv)],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    staging = tmp_path / ".run.partial"
    try:
        deadline = time.monotonic() + 240
        # Killed once it writes its new vocabulary: the old code had deleted
        # the old model by then.
        while not (staging / "vocabulary.json").exists():
            assert proc.poll() is None, "train ended before it could be killed"
            assert time.monotonic() < deadline, "train never started writing"
            time.sleep(0.2)
        _old_run_intact(run)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    _old_run_intact(run)
    assert staging.is_dir()  # kept, to resume from


@pytest.mark.slow
def test_read_only_output_folders(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("running as root: chmod does not stop root from writing")
    locked = tmp_path / "locked"
    locked.mkdir()
    from tests.cli_faults.tiny import tiny_dates_run

    run = tiny_dates_run(tmp_path / "run")
    locked.chmod(0o555)
    try:
        cases = [
            ["dates", "train", "--output", locked / "new", "--train-size", "10"],
            ["dates", "export", "--run", run, "--output", locked / "sm"],
            ["dates", "plot", "--run", run, "--output", locked / "plots", "3 May"],
        ]
        results = run_cases(tmp_path, cases)
    finally:
        locked.chmod(0o755)
    for result in results:
        assert_refused(result, "Permission denied")
    assert list(locked.iterdir()) == []


@pytest.mark.slow
def test_full_disk(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", str(disk)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root): no full disk")
    try:
        from tests.cli_faults.tiny import tiny_dates_run

        run = tiny_dates_run(tmp_path / "run")
        cases = [
            ["dates", "export", "--run", run, "--output", disk / "sm"],
            ["dates", "plot", "--run", run, "--output", disk / "plots", "3 May"],
        ]
        for result in run_cases(tmp_path, cases):
            assert_refused(result)
        assert [p.name for p in disk.iterdir()] in ([], ["plots"]) or not any(
            disk.rglob("*.png")
        )
        assert not (disk / "sm").exists()
    finally:
        subprocess.run(["umount", str(disk)], check=False)
