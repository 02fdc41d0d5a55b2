"""The run folder helpers of the application skeleton."""

import pytest

from attention_zoo.applications.common import (
    check_run_folder,
    commit_run,
    load_run_model,
    output_folder,
    repair_run,
    replace_folder,
    staged_run,
    staging_folder,
    start_staged_run,
    training_backup_dir,
)


def _run(folder, text):
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("model.keras", "metrics.json", "config.json"):
        (folder / name).write_text(text)


def _files(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_staged_run_replaces_the_old_run_only_when_it_commits(tmp_path):
    run = tmp_path / "run"
    _run(run, "old")
    staging = start_staged_run(run)
    assert staging == tmp_path / ".run.partial" == staging_folder(run)
    (staging / "config.json").write_text("new")
    # Until the commit, the old run is whole.
    assert (run / "model.keras").read_text() == "old"
    training_backup_dir(staging).mkdir()
    (training_backup_dir(staging) / "state.weights.h5").write_text("x")
    assert commit_run(staging, run) == run
    assert _files(run) == ["config.json"]  # the backup never lands in the run
    assert not staging.exists() and not (tmp_path / ".run.old").exists()
    fresh = tmp_path / "a" / "b"
    with staged_run(fresh) as staging:
        (staging / "config.json").write_text("x")
    assert _files(fresh) == ["config.json"]


def test_a_failed_training_keeps_the_old_run_and_its_staging_to_resume(tmp_path):
    run = tmp_path / "run"
    _run(run, "old")
    with pytest.raises(RuntimeError):
        with staged_run(run) as staging:
            (staging / "model.keras").write_text("half")
            training_backup_dir(staging).mkdir()
            (training_backup_dir(staging) / "b").write_text("state")
            raise RuntimeError("killed")
    assert (run / "model.keras").read_text() == "old"
    # Started again: the backup is kept for BackupAndRestore, the rest cleared.
    staging = start_staged_run(run)
    assert _files(staging) == ["backup", "backup/b"]


def test_repair_run_after_a_crash_between_the_commits_renames(tmp_path):
    run, old = tmp_path / "run", tmp_path / ".run.old"
    _run(old, "old")  # moved aside, the new run not yet in place
    repair_run(run)
    assert (run / "model.keras").read_text() == "old" and not old.exists()
    _run(old, "older")  # the new run in place, the old one not yet deleted
    repair_run(run)
    assert (run / "model.keras").read_text() == "old" and not old.exists()


def test_staged_run_refuses_a_folder_that_is_not_a_run(tmp_path):
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "thesis.tex").write_text("precious")
    with pytest.raises(ValueError, match=r"--output is a folder .* no config.json"):
        start_staged_run(tmp_path / "home")
    assert (tmp_path / "home" / "thesis.tex").read_text() == "precious"
    (tmp_path / "empty").mkdir()
    assert start_staged_run(tmp_path / "empty").is_dir()


def test_replace_folder_is_all_or_nothing(tmp_path):
    out = tmp_path / "sm"

    def write(folder):
        folder.mkdir()
        (folder / "saved_model.pb").write_text("new")

    assert replace_folder(out, write, "saved_model.pb", "a SavedModel") == out
    assert (out / "saved_model.pb").read_text() == "new"

    def fail(folder):
        folder.mkdir()
        (folder / "saved_model.pb").write_text("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        replace_folder(out, fail, "saved_model.pb", "a SavedModel")
    assert _files(tmp_path) == ["sm", "sm/saved_model.pb"]
    assert (out / "saved_model.pb").read_text() == "new"
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("")
    with pytest.raises(ValueError, match="no saved_model.pb, so not a SavedModel"):
        replace_folder(tmp_path / "notes", write, "saved_model.pb", "a SavedModel")


def test_output_folder_refuses_a_file(tmp_path):
    (tmp_path / "f").write_text("")
    assert output_folder(tmp_path / "new") == tmp_path / "new"
    with pytest.raises(
        ValueError, match=r"--run-output must be a folder .* an existing file"
    ):
        output_folder(tmp_path / "f", "--run-output")
    with pytest.raises(ValueError, match=r"Received: --output .*f, an existing file"):
        start_staged_run(tmp_path / "f")


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
