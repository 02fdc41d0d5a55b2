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

from attention_zoo import owned_folders
from attention_zoo.applications import registry
from attention_zoo.owned_folders import stagings
from attention_zoo.presets import preset_folder

pytestmark = pytest.mark.tf_only
ROOT = Path(__file__).resolve().parents[2]
# Every registered application with a shipped preset: its fake runs take
# their JSON files from the preset, so only the file a case breaks is wrong.
APPS = [app for app in registry.applications() if app.presets]


def predict_argv(app, run, tmp_path) -> list:
    """A task of `app` that reads the model of `run`: `plot`, which every
    application has, on one input."""
    some_input = "image.png" if app.input_kind == "image" else "3 May 1979"
    return [app.name, "plot", "--run", run, "--output", tmp_path / "plots", some_input]


def _env():
    env = dict(os.environ, PYTHONPATH=str(ROOT), KERAS_BACKEND="tensorflow")
    env.pop("ATTENTION_ZOO_DEBUG", None)
    return env


def run_cases(tmp_path, cases, timeout=300, cwd=ROOT):
    """`[{code, stderr, stdout}]` of the command lines `cases`, in one process."""
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([[str(a) for a in argv] for argv in cases]))
    proc = subprocess.run(
        [sys.executable, "-m", "tests.cli_faults.driver", str(path)],
        cwd=cwd,
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
    """A run folder of `app` (an `Application`) with the JSON files of its
    shipped preset and empty models, `files` replacing some."""
    folder.mkdir(parents=True)
    preset = preset_folder(app.presets[0].name)
    names = app.predictor.required_files
    content = {n: (preset / n).read_bytes() for n in names if n.endswith(".json")}
    content.update({n: b"" for n in names if n.endswith(".keras")})
    content.update({k.replace("__", "."): v for k, v in files.items()})
    for name, data in content.items():
        path = folder / name
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return folder


BROKEN_JSON = ("{}", "[1,2]", "{", "")


def garbage_keras(path):
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("config.json", "{garbage")
        archive.writestr("model.weights.h5", b"\x00" * 64)
    return path.read_bytes()


def test_damaged_run_folders_of_every_application(tmp_path):
    """Malformed but parseable JSON, truncated or garbage models, long paths."""
    garbage = garbage_keras(tmp_path / "garbage.keras")
    cases, names = [], []
    for app in APPS:
        files = app.predictor.required_files
        vocabularies = [n for n in files if n.endswith("vocabulary.json")]
        models = [n for n in files if n.endswith(".keras")]
        broken = [({"config.json": text}, "config.json") for text in BROKEN_JSON]
        broken += [
            ({vocabularies[0]: t}, vocabularies[0])
            for t in ("{}", "[1,2]", '{"chars":5}')
        ]
        # Every model of the run broken alike: the one read first is named.
        broken += [
            (dict.fromkeys(models, data), ".keras")
            for data in (b"PK\x03\x04trunc", garbage)
        ]
        for changes, name in broken:
            run = fake_run(
                tmp_path / f"{app.name}{len(cases)}",
                app,
                **{k.replace(".", "__"): v for k, v in changes.items()},
            )
            cases.append(predict_argv(app, run, tmp_path))
            names.append((str(run), name))
    for app in APPS:
        cases.append(predict_argv(app, "x" * 100_000, tmp_path))
        names.append(("File name too long",))
        cases.append(predict_argv(app, tmp_path / "missing", tmp_path))
        names.append((str(tmp_path / "missing"),))
    for result, name in zip(run_cases(tmp_path, cases), names):
        assert_refused(result, *name)
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
    from attention_zoo.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert err.count("\n") == 1 and f"Received: {flag}" in err, err


def test_another_applications_model_is_refused(tmp_path):
    from tests.cli_faults.tiny import tiny_dates_model

    model = tiny_dates_model(tmp_path / "dates.keras").read_bytes()
    others = [app for app in APPS if app.name != "dates"]
    cases = []
    for app in others:
        models = [n for n in app.predictor.required_files if n.endswith(".keras")]
        run = fake_run(
            tmp_path / app.name,
            app,
            **dict.fromkeys((n.replace(".", "__") for n in models), model),
        )
        cases.append(predict_argv(app, run, tmp_path))
    (tmp_path / "image.png").write_bytes(b"")
    for result, app in zip(run_cases(tmp_path, cases), others):
        assert_refused(result, tmp_path / app.name, "another application")


def _old_run(folder):
    folder.mkdir(parents=True)
    for name in ("config.json", "vocabulary.json", "model.keras", "metrics.json"):
        (folder / name).write_text(f"old {name}")
    owned_folders.write_marker(folder, "run", "dates")


def _old_run_intact(folder):
    for name in ("config.json", "vocabulary.json", "model.keras", "metrics.json"):
        assert (folder / name).read_text() == f"old {name}"


def _start_training(run, *more):
    argv = ["dates", "train", "--output", run, "--train-size", "4000"]
    argv += ["--epochs", "50", "--validation-size", "100", "--test-size", "100"]
    return subprocess.Popen(
        [sys.executable, "-m", "attention_zoo", *map(str, argv), *more],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _wait_for_staging(proc, run, name="vocabulary.json"):
    """The staging folder of the training `proc` into `run`, once it holds `name`."""
    deadline = time.monotonic() + 240
    while True:
        found = [p for p in stagings(run) if (p / name).exists()]
        if found:
            return found[0]
        assert proc.poll() is None, "train ended before it could be killed"
        assert time.monotonic() < deadline, "train never started writing"
        time.sleep(0.2)


def test_kill_during_train_keeps_the_old_run(tmp_path):
    run = tmp_path / "run"
    _old_run(run)
    proc = _start_training(run)
    try:
        # Killed once it writes its new vocabulary: the old code had deleted
        # the old model by then.
        staging = _wait_for_staging(proc, run)
        _old_run_intact(run)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    _old_run_intact(run)
    assert staging.is_dir()  # kept, to resume from


def test_a_second_training_into_the_same_folder_is_refused(tmp_path):
    """Two trainings into one folder committed a mixed run (one's config
    and model, the other's data/); the second is now refused at once."""
    run = tmp_path / "run"
    proc = _start_training(run)
    try:
        _wait_for_staging(proc, run, "data")
        # Stopped, the first training still holds the folder's lock (a
        # stopped process keeps its flock) but no longer takes the CPU the
        # second one starts with (half this test's CPU time).
        os.killpg(proc.pid, signal.SIGSTOP)
        (second,) = run_cases(tmp_path, [["dates", "train", "--output", run]])
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    assert_refused(second, "another attention-zoo process is writing", run)


def test_foreign_folders_links_and_the_current_folder_are_never_replaced(tmp_path):
    """A folder with a config.json was taken for a run and deleted whole; a
    link at the predictable staging name had its target's files deleted."""
    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    (project / "config.json").write_text("{}")
    (project / "thesis.tex").write_text("keep")
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("keep")
    os.symlink(victim, tmp_path / ".sm.partial")
    os.symlink(victim, tmp_path / ".r.partial")
    from tests.cli_faults.tiny import tiny_dates_run

    run = tiny_dates_run(tmp_path / "r")
    tiny = ["--epochs", "1", "--train-size", "64", "--validation-size", "16"]
    tiny += ["--test-size", "16"]
    results = run_cases(
        tmp_path,
        [
            ["dates", "train", "--output", project, *tiny],
            ["dates", "export", "--run", run, "--output", project],
            ["dates", "export", "--run", run, "--output", tmp_path / "sm"],
            ["dates", "train", "--output", ".", *tiny],
            ["dates", "train", "--negatives", "1e9"],
        ],
        cwd=run,
    )
    assert_refused(results[0], "refusing to replace it", project)
    assert_refused(results[1], "refusing to replace it", project)
    assert results[2]["code"] == 0, results[2]
    assert_refused(results[3], "must not be the current folder")
    assert_refused(results[4], "--negatives")
    assert (project / "thesis.tex").read_text() == "keep"
    assert (project / "src").is_dir() and (project / "config.json").is_file()
    assert [p.name for p in victim.iterdir()] == ["keep.txt"]
    assert (tmp_path / "sm" / "saved_model.pb").is_file()
    assert (run / "model.keras").is_file()  # `train --output .` never started


def test_a_run_cut_between_the_swaps_renames_is_repaired_by_predict(tmp_path):
    from tests.cli_faults.tiny import tiny_dates_run

    run = tiny_dates_run(tmp_path / "r")
    holder = tmp_path / ".r.cut.old"
    holder.mkdir()
    run.rename(holder / "previous")
    (result,) = run_cases(tmp_path, [["dates", "predict", "--run", run, "3 May 1979"]])
    assert result["code"] == 0, result
    # The one-epoch model answers badly; what counts is that it answers.
    assert result["stdout"].startswith("'3 May 1979' -> ") and not holder.exists()
    assert (run / "model.keras").is_file()


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


def _small_disk(folder, size):
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root): no full disk")


# The console script (`command`), with the free-space check switched off
# when asked, so that HDF5 itself meets the full disk.
FULL_DISK_TRAINING = """
import sys
guard, sys.argv = sys.argv[1], ["attention-zoo", *sys.argv[2:]]
from attention_zoo import cli
from attention_zoo.applications.common import training
if guard == "unguarded":
    training.DiskSpaceGuard.check = lambda self: None
cli.command()
"""


@pytest.mark.slow
@pytest.mark.parametrize("guard", ["guarded", "unguarded"])
def test_full_disk_during_training(tmp_path, guard):
    """The disk fills while a training saves: one line, exit 2, nothing
    committed (an h5py save that ran out of space printed tracebacks from
    its finalizers and crashed the interpreter at exit, status 139)."""
    disk = tmp_path / "disk"
    _small_disk(disk, "600k")
    try:
        argv = ["dates", "train", "--output", disk / "r", "--epochs", "1"]
        argv += ["--train-size", "300", "--validation-size", "100"]
        argv += ["--test-size", "100"]
        proc = subprocess.run(
            [sys.executable, "-c", FULL_DISK_TRAINING, guard, *map(str, argv)],
            cwd=ROOT,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert_refused(
            {"code": proc.returncode, "stderr": proc.stderr}, "No space left on device"
        )
        assert not (disk / "r").exists()
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def test_a_closed_standard_output_ends_the_command_quietly(tmp_path):
    """`translate --input FILE | head -1` ended with `error: [Errno 32]
    Broken pipe`; every application's answers go through one writer and
    one error boundary, so the dates preset stands for them all."""
    from tests.cli_faults.tiny import tiny_dates_run

    run = tiny_dates_run(tmp_path / "run")
    path = tmp_path / "in.txt"
    # More than a pipe's 64 KB buffer: the command is still writing when
    # the reader goes away.
    path.write_text("3 May 1979\n" * 20_000, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "attention_zoo", "dates", "predict"]
        + ["--run", str(run), "--input", str(path), "--format", "jsonl"],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    first = proc.stdout.readline()
    proc.stdout.close()  # what `head -1` does after its line
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 141, err
    assert json.loads(first)["input"] == "3 May 1979"
    assert "Broken pipe" not in err and "error" not in err, err
