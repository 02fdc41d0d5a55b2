"""The run folder: where a training writes and what the other tasks read."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

import keras

from attention_zoo.applications.common.errors import MalformedFileError, one_line


def output_folder(path, flag: str = "--output") -> Path:
    """`path` as a folder to write into (created later by the caller).

    Raises:
        ValueError: naming `flag` when `path` exists as something other than
            a folder (a file would otherwise fail deep inside a save with an
            OS or TensorFlow error).
    """
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(
            f"{flag} must be a folder to write into. Received: {flag} {path}, "
            "an existing file"
        )
    return path


def check_run_folder(run_dir, app: str, files) -> Path:
    """`run_dir` as the folder of a finished `attention-zoo APP train` run.

    Raises:
        FileNotFoundError: naming the folder and the `files` it lacks.
    """
    run = Path(run_dir)
    missing = [name for name in files if not (run / name).is_file()]
    if missing:
        raise FileNotFoundError(
            f"{run} is not a run folder of `attention-zoo {app} train` "
            f"(no {', '.join(missing)})"
        )
    return run


def load_run_model(path):
    """`keras.saving.load_model(path)` for a model file of a run folder.

    Raises:
        MalformedFileError: a ValueError, when the file is not a zip
            archive (an empty file from a training killed while saving, say,
            which Keras reports as "File not found" although the file is
            there), or one that Keras cannot load (garbage weights, an
            unknown layer).
    """
    if not zipfile.is_zipfile(path):
        raise MalformedFileError(
            f"{path} is not a .keras model file (not a zip archive: a "
            "training interrupted while saving, or another file); train the "
            "run again"
        )
    try:
        return keras.saving.load_model(path)
    except Exception as error:
        # Whatever Keras raises for a damaged archive or foreign content.
        raise MalformedFileError(
            f"{path} is not a loadable .keras model ({type(error).__name__}: "
            f"{one_line(error)}); train the run again"
        ) from error


# A file every finished run folder holds: what makes an existing `--output`
# replaceable (any other non-empty folder is refused, never deleted).
RUN_MARKER = "config.json"


def _sibling(output: Path, kind: str) -> Path:
    return output.parent / f".{output.name}.{kind}"


def staging_folder(output) -> Path:
    """The staging folder of a training into `output`: `<parent>/.<name>.partial`.

    It is deterministic, so a training started again after a kill finds the
    folder (and its `training_backup_dir`) of the one that was killed.
    """
    return _sibling(Path(output), "partial")


def training_backup_dir(staging) -> Path:
    """`<staging>/backup`: where `keras.callbacks.BackupAndRestore` keeps the
    state of an unfinished training; `commit_run` removes it."""
    return Path(staging) / "backup"


def repair_run(output) -> None:
    """Finish or undo a `commit_run` that a crash cut between its renames.

    `commit_run` moves the old run aside to `.<name>.old`, then the staging
    folder to `output`. With `output` missing, the old run is put back (the
    staging folder stays, to be trained again or resumed); with both there,
    the new run was committed and the old one is deleted.
    """
    output = Path(output)
    old = _sibling(output, "old")
    if not old.exists():
        return
    if output.exists():
        shutil.rmtree(old)
    else:
        old.rename(output)


def check_replaceable(output: Path, marker: str, flag: str, what: str) -> None:
    """Raise ValueError unless `output` is missing, empty or holds `marker`."""
    if output.is_dir() and any(output.iterdir()) and not (output / marker).exists():
        raise ValueError(
            f"{flag} is a folder that holds files but no {marker}, so not "
            f"{what}; refusing to replace it. Received: {flag} {output}"
        )


def commit_run(staging, output) -> Path:
    """Replace the run folder `output` with the finished `staging` folder.

    The old run is renamed aside, the staging folder renamed into place,
    then the old run deleted: at every instant either the old or the new
    run is complete on disk (`repair_run` tidies after a crash in between).
    The staging folder's `training_backup_dir` is removed first, so it
    never lands in the run.
    """
    staging, output = Path(staging), Path(output)
    shutil.rmtree(training_backup_dir(staging), ignore_errors=True)
    repair_run(output)
    old = _sibling(output, "old")
    if output.exists():
        output.rename(old)
    staging.rename(output)
    if old.exists():
        shutil.rmtree(old)
    return output


def start_staged_run(output, flag: str = "--output") -> Path:
    """The staging folder of a training into the run folder `output`.

    Training writes into `staging_folder(output)` (created if missing; what
    a killed training left there is cleared, except its
    `training_backup_dir`, from which `BackupAndRestore` resumes), then
    calls `commit_run(staging, output)` once the run is complete. Until
    then, and if the training raises or is killed, the old run in `output`
    is untouched.

    Raises:
        ValueError: naming `flag` when `output` is a file, or a folder with
            files but none of a run (`config.json`): a mistyped `--output`
            never deletes the user's files.
    """
    output = output_folder(output, flag)
    repair_run(output)
    check_replaceable(output, RUN_MARKER, flag, "a run folder")
    staging = staging_folder(output)
    staging.mkdir(parents=True, exist_ok=True)
    backup = training_backup_dir(staging)
    for path in staging.iterdir():
        if path != backup:
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    return staging


@contextlib.contextmanager
def staged_run(output, flag: str = "--output"):
    """`start_staged_run(output)` as a context manager: yields the staging
    folder and commits it when the block ends without an exception."""
    staging = start_staged_run(output, flag)
    yield staging
    commit_run(staging, output)


def replace_folder(output, write, marker: str, what: str, flag: str = "--output"):
    """`write(staging)`, then the folder it wrote replaces `output` atomically.

    For outputs written in one go (a SavedModel): `output` must be missing,
    empty, or hold `marker` (a previous output of the same kind, which is
    replaced); a failed `write` leaves no file behind and `output` as it was.

    Returns:
        `output`, as a Path.
    """
    output = output_folder(output, flag)
    repair_run(output)
    check_replaceable(output, marker, flag, what)
    staging = _sibling(output, "partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.parent.mkdir(parents=True, exist_ok=True)
    try:
        write(staging)
        return commit_run(staging, output)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def plot_folder(run_dir, output=None, app: str = "") -> Path:
    """Where `attention-zoo APP plot` writes: `output`, or a new folder.

    Without `output`, `RUN/plots/predict-N` with the first N not taken, so
    the run's own training plots (`RUN/plots/*.png`) and earlier plots are
    never overwritten. The run folder is checked first: nothing is created
    inside a folder that is not a run.
    """
    if output is not None:
        return output_folder(output)
    plots = check_run_folder(run_dir, app, (RUN_MARKER,)) / "plots"
    n = 1
    while (plots / f"predict-{n}").exists():
        n += 1
    return plots / f"predict-{n}"


def write_plots(output, plot) -> list[Path]:
    """`plot(folder)` into a hidden staging folder inside `output`, whose
    PNGs then move into `output`: a failed plot (a full disk, an input
    refused) leaves no partial file, and no folder it created.

    Returns:
        The paths of the PNGs in `output`.
    """
    output = output_folder(output)
    created = not output.exists()
    output.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".partial-", dir=output))
    try:
        written = plot(staging)
        paths = []
        for path in written:
            paths.append(output / Path(path).name)
            os.replace(path, paths[-1])
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if created:
            shutil.rmtree(output, ignore_errors=True)
        raise
    shutil.rmtree(staging, ignore_errors=True)
    return paths
