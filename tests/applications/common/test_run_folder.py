"""The run folder helpers of the application skeleton."""

import os
import threading

import pytest

from attention_zoo import owned_folders
from attention_zoo.applications.common import (
    check_run_folder,
    load_run_model,
    output_folder,
    staged_run,
    training_backup_dir,
)
from attention_zoo.applications.common.run_folder import (
    write_atomically,
    write_evaluation,
    write_plots,
)
from attention_zoo.owned_folders import MARKER, replace_folder, stagings


def _run(folder, text, app="dates"):
    """A run as a training leaves it: its files, then its marker."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("model.keras", "metrics.json", "config.json"):
        (folder / name).write_text(text)
    owned_folders.write_marker(folder, "run", app)


def _files(folder):
    return sorted(
        str(p.relative_to(folder)) for p in folder.rglob("*") if p.name != MARKER
    )


def _hidden(parent):
    return sorted(p.name for p in parent.iterdir() if p.name.startswith("."))


def test_staged_run_replaces_the_old_run_only_when_it_commits(tmp_path):
    run = tmp_path / "run"
    _run(run, "old")
    with staged_run(run, "dates") as staging:
        assert staging.parent == tmp_path and staging.name.startswith(".run.")
        (staging / "config.json").write_text("new")
        # Until the commit, the old run is whole.
        assert (run / "model.keras").read_text() == "old"
        training_backup_dir(staging).mkdir()
        (training_backup_dir(staging) / "state.weights.h5").write_text("x")
    assert _files(run) == ["config.json"]  # the backup never lands in the run
    assert owned_folders.read_marker(run)["files"] == ["config.json"]
    assert _hidden(tmp_path) == []  # no staging, holder or lock left


def test_staged_run_makes_a_new_run_s_missing_parent_folders(tmp_path):
    fresh = tmp_path / "a" / "b"
    with staged_run(fresh, "dates") as staging:
        (staging / "config.json").write_text("x")
    assert _files(fresh) == ["config.json"]


def test_a_failed_training_keeps_the_old_run_and_its_staging_to_resume(tmp_path):
    run = tmp_path / "run"
    _run(run, "old")
    with pytest.raises(RuntimeError):
        with staged_run(run, "dates") as staging:
            (staging / "model.keras").write_text("half")
            training_backup_dir(staging).mkdir()
            (training_backup_dir(staging) / "b").write_text("state")
            raise RuntimeError("killed")
    assert (run / "model.keras").read_text() == "old"
    # Started again: the backup is kept for BackupAndRestore, the rest cleared.
    with pytest.raises(RuntimeError):
        with staged_run(run, "dates") as again:
            assert again == staging
            assert _files(again) == ["backup", "backup/b"]
            raise RuntimeError("killed again")
    # A staging folder without a backup has nothing to resume: not reused.
    (tmp_path / ".run.x.partial").mkdir()
    with staged_run(run, "dates") as third:
        assert third == staging
    assert stagings(run) == [] and (run / "model.keras").exists() is False


def test_repair_after_a_crash_between_the_swaps_renames(tmp_path):
    run = tmp_path / "run"
    holder = tmp_path / ".run.abc.old"
    _run(holder / "previous", "old")  # moved aside, the new run not yet in place
    owned_folders.repair(run)
    assert (run / "model.keras").read_text() == "old" and not holder.exists()
    _run(holder / "previous", "older")  # the new run in place, the old not deleted
    owned_folders.repair(run)
    assert (run / "model.keras").read_text() == "old" and not holder.exists()


def test_a_run_cut_between_the_renames_is_repaired_when_read(tmp_path):
    run = tmp_path / "run"
    _run(tmp_path / ".run.abc.old" / "previous", "old")
    assert check_run_folder(run, "dates", ("config.json",)) == run
    assert (run / "model.keras").read_text() == "old"


def test_staged_run_refuses_a_folder_that_is_not_a_run(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "thesis.tex").write_text("precious")
    with pytest.raises(
        ValueError, match=r"--output is a folder with files that .* did"
    ):
        with staged_run(home, "dates"):
            pass
    # A config.json no longer makes a folder a run (item 2 of round 3).
    (home / "config.json").write_text("{}")
    (home / "src").mkdir()
    with pytest.raises(ValueError, match="refusing to replace it"):
        with staged_run(home, "dates"):
            pass
    assert (home / "thesis.tex").read_text() == "precious"
    assert (home / "src").is_dir() and _hidden(tmp_path) == []
    (tmp_path / "empty").mkdir()
    with staged_run(tmp_path / "empty", "dates") as staging:
        assert staging.is_dir()


def test_a_run_with_files_the_package_did_not_write_is_refused(tmp_path):
    run = tmp_path / "run"
    _run(run, "old")
    (run / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match=r"holds 1 file\(s\) .* \(notes.txt\)"):
        with staged_run(run, "dates"):
            pass
    assert (run / "notes.txt").read_text() == "mine"


def test_a_run_of_another_application_is_refused(tmp_path):
    run = tmp_path / "run"
    _run(run, "old", app="translation")
    with pytest.raises(ValueError, match="a translation run folder, not a dates run"):
        with staged_run(run, "dates"):
            pass


def test_what_later_tasks_write_into_a_run_keeps_it_replaceable(tmp_path):
    run = tmp_path / "run"
    _run(run, "old")
    write_evaluation(run, {"exact_match": 1.0})
    (run / "plots").mkdir()

    def plot(folder):
        (folder / "a.png").write_bytes(b"png")
        return [folder / "a.png"]

    write_plots(run / "plots" / "predict-1", plot, "dates")
    write_plots(run / "plots", plot, "dates")
    replace_folder(run / "saved_model", lambda f: f.mkdir(), "saved_model", "dates")
    assert owned_folders.foreign_files(run) == []
    with staged_run(run, "dates") as staging:
        (staging / "config.json").write_text("new")
    assert _files(run) == ["config.json"]


def test_a_symlinked_staging_folder_is_never_followed(tmp_path):
    """The staging folder's name was predictable (`.run.partial`): a link
    planted there had the training delete the target's files and write
    into it. Staging folders are now fresh and private."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("keep")
    for name in (".run.partial", ".run.old", ".run.x.partial", ".run.x.old"):
        os.symlink(victim, tmp_path / name)
    with staged_run(tmp_path / "run", "dates") as staging:
        assert not staging.is_symlink() and victim not in staging.parents
        (staging / "config.json").write_text("x")
    replace_folder(tmp_path / "sm", lambda f: f.mkdir(), "saved_model", "dates")
    assert [p.name for p in victim.iterdir()] == ["keep.txt"]
    assert (tmp_path / ".run.partial").is_symlink()  # left alone, not deleted


def test_a_symlinked_output_or_lock_is_refused(tmp_path):
    (tmp_path / "target").mkdir()
    os.symlink(tmp_path / "target", tmp_path / "link")
    with pytest.raises(ValueError, match="symbolic link"):
        with staged_run(tmp_path / "link", "dates"):
            pass
    os.symlink(tmp_path / "elsewhere", tmp_path / ".run.lock")
    with pytest.raises(ValueError, match="cannot open the lock file"):
        with staged_run(tmp_path / "run", "dates"):
            pass
    assert not (tmp_path / "elsewhere").exists()


def test_a_second_writer_of_the_same_folder_is_refused(tmp_path):
    run = tmp_path / "run"
    inside, release = threading.Event(), threading.Event()

    def first():
        with staged_run(run, "dates") as staging:
            (staging / "config.json").write_text("first")
            inside.set()
            release.wait(10)

    thread = threading.Thread(target=first)
    thread.start()
    try:
        assert inside.wait(10)
        with pytest.raises(owned_folders.LockedError, match="another attention-zoo"):
            with staged_run(run, "dates"):
                pass
        with pytest.raises(owned_folders.LockedError):
            replace_folder(run, lambda f: f.mkdir(), "saved_model", "dates")
    finally:
        release.set()
        thread.join()
    assert (run / "config.json").read_text() == "first"
    with staged_run(run, "dates") as staging:  # free again
        (staging / "config.json").write_text("second")


def test_the_current_folder_is_refused_up_front(tmp_path, monkeypatch):
    run = tmp_path / "run"
    _run(run, "old")
    monkeypatch.chdir(run)
    for output in (".", "..", str(run)):
        with pytest.raises(ValueError, match="must not be the current folder"):
            with staged_run(output, "dates"):
                pass


def _write_saved_model(folder):
    folder.mkdir()
    (folder / "saved_model.pb").write_text("new")


def test_replace_folder_is_all_or_nothing(tmp_path):
    out = tmp_path / "sm"
    assert replace_folder(out, _write_saved_model, "saved_model", "dates") == out
    assert (out / "saved_model.pb").read_text() == "new"

    def fail(folder):
        folder.mkdir()
        (folder / "saved_model.pb").write_text("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        replace_folder(out, fail, "saved_model", "dates")
    assert _files(tmp_path) == ["sm", "sm/saved_model.pb"]
    assert (out / "saved_model.pb").read_text() == "new"


def test_replace_folder_refuses_a_folder_it_did_not_write(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("")
    with pytest.raises(ValueError, match="attention-zoo did not write"):
        replace_folder(tmp_path / "notes", _write_saved_model, "saved_model", "dates")


def test_staged_run_refuses_a_saved_model_folder(tmp_path):
    out = replace_folder(tmp_path / "sm", _write_saved_model, "saved_model", "dates")
    with pytest.raises(ValueError, match="a dates saved model folder, not a dates run"):
        with staged_run(out, "dates"):
            pass


def test_write_atomically_leaves_the_old_file_or_the_new_one(tmp_path, monkeypatch):
    path = tmp_path / "out.txt"
    write_atomically(path, "old\n")

    class Full(OSError):
        pass

    def full(*args):
        raise Full(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(Full):
        write_atomically(path, "new\n" * 1000)
    assert path.read_text() == "old\n" and _files(tmp_path) == ["out.txt"]


def test_output_folder_refuses_a_file(tmp_path):
    (tmp_path / "f").write_text("")
    assert output_folder(tmp_path / "new") == tmp_path / "new"
    with pytest.raises(
        ValueError, match=r"--run-output must be a folder .* an existing file"
    ):
        output_folder(tmp_path / "f", "--run-output")
    with pytest.raises(ValueError, match=r"Received: --output .*f, an existing file"):
        with staged_run(tmp_path / "f", "dates"):
            pass


def test_check_run_folder_names_what_is_missing(tmp_path):
    (tmp_path / "model.keras").write_text("")
    assert check_run_folder(tmp_path, "dates", ("model.keras",)) == tmp_path
    with pytest.raises(
        FileNotFoundError,
        match=r"is not a run folder of `attention-zoo dates train` "
        r"\(no config.json, vocabulary.json\)",
    ):
        check_run_folder(
            tmp_path, "dates", ("model.keras", "config.json", "vocabulary.json")
        )


def test_load_run_model_refuses_a_file_that_is_no_keras_archive(tmp_path):
    empty = tmp_path / "model.keras"
    empty.write_bytes(b"")
    with pytest.raises(ValueError, match=r"model.keras is not a .keras model file"):
        load_run_model(empty)
