"""The run folder helpers of the application skeleton."""

import pytest

from attention_zoo.applications.common import (
    check_run_folder,
    load_run_model,
    output_folder,
    start_run_folder,
)


def test_start_run_folder_removes_the_last_runs_trained_artifacts(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    for name in ("model.keras", "metrics.json", "vocabulary.json"):
        (run / name).write_text("old")
    assert start_run_folder(run, ("model.keras", "metrics.json", "x.keras")) == run
    # A training that fails from here on leaves no old model beside the new
    # vocabulary; the files it rewrites anyway stay until it does.
    assert sorted(p.name for p in run.iterdir()) == ["vocabulary.json"]
    fresh = start_run_folder(tmp_path / "a" / "b", ("model.keras",))
    assert fresh.is_dir()


def test_output_folder_refuses_a_file(tmp_path):
    (tmp_path / "f").write_text("")
    assert output_folder(tmp_path / "new") == tmp_path / "new"
    with pytest.raises(
        ValueError, match=r"--run-output must be a folder .* an existing file"
    ):
        output_folder(tmp_path / "f", "--run-output")
    with pytest.raises(ValueError, match=r"Received: --output .*f, an existing file"):
        start_run_folder(tmp_path / "f", ())


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
