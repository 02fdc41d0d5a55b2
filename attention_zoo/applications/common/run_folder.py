"""The run folder: where a training writes and what the other tasks read."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

from attention_zoo import owned_folders
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

    A run that a crash left between the two renames of its replacement
    (`owned_folders.swap_in`) is repaired first, unless a training is
    writing it right now.

    Raises:
        FileNotFoundError: naming the folder and the `files` it lacks.
    """
    run = Path(run_dir)
    missing = [name for name in files if not (run / name).is_file()]
    if missing and owned_folders.interrupted_swap(run):
        try:
            with owned_folders.locked(run):
                owned_folders.repair(run)
        except owned_folders.LockedError as error:
            raise FileNotFoundError(
                f"{run} is being replaced by a training that is finishing "
                "right now; try again in a moment"
            ) from error
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
    # Keras only here: the command line's flags read this module without it
    # (docs/reliability.md, "The command answers at once").
    import keras

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


# The kind of folder `train` writes (`attention_zoo.owned_folders`).
RUN_KIND = "run"


def training_backup_dir(staging) -> Path:
    """`<staging>/backup`: where `keras.callbacks.BackupAndRestore` keeps the
    state of an unfinished training; `commit_run` removes it."""
    return Path(staging) / "backup"


def check_not_current(output: Path, flag: str = "--output") -> None:
    """Raise ValueError when `output` is the current folder or holds it: the
    swap at the end of a training renames `output`, which cannot be done
    from inside it (and would pull the user's shell out of its folder)."""
    here = Path.cwd().resolve()
    target = output.resolve()
    if target == here or target in here.parents:
        raise ValueError(
            f"{flag} must not be the current folder or one that holds it (the "
            f"finished run replaces it whole). Received: {flag} {output}"
        )


def check_train_output(output, app: str, flag: str = "--output") -> Path:
    """The checks `staged_run` makes before it locks, for a training to make
    before it reads data that takes long to load: `output` is no file, no
    link, not the current folder, and replaceable by a run of `app`."""
    output = output_folder(output, flag)
    check_not_current(output, flag)
    owned_folders.check_replaceable(output, RUN_KIND, app, flag)
    return output


def _resumable_staging(output: Path) -> Path:
    """The staging folder of a training into `output`.

    The newest staging folder a killed training left beside `output` with
    a `training_backup_dir` is reused (cleared but for its backup, from
    which `BackupAndRestore` resumes); the others are deleted; without one,
    a fresh private folder is made (`owned_folders.new_staging`).
    """
    left = owned_folders.stagings(output)
    resumable = [p for p in left if training_backup_dir(p).is_dir()]
    staging = resumable[-1] if resumable else owned_folders.new_staging(output)
    for path in left:
        if path != staging:
            owned_folders.remove(path)
    backup = training_backup_dir(staging)
    for path in staging.iterdir():
        if path != backup:
            shutil.rmtree(
                path
            ) if path.is_dir() and not path.is_symlink() else path.unlink()
    return staging


def commit_run(staging, output, app: str) -> Path:
    """Replace the run folder `output` with the finished `staging` folder.

    The staging folder's `training_backup_dir` is removed, the folder is
    marked as a run of `app` (listing its files), then swapped in
    (`owned_folders.swap_in`): at every instant either the old or the new
    run is complete on disk.
    """
    staging = Path(staging)
    shutil.rmtree(training_backup_dir(staging), ignore_errors=True)
    owned_folders.write_marker(staging, RUN_KIND, app)
    return owned_folders.swap_in(staging, output)


@contextlib.contextmanager
def staged_run(output, app: str, flag: str = "--output", commit: bool = True):
    """The staging folder of a training of `app` into the run folder `output`.

    Under the lock of `output` (a second training into it is refused at
    once), after checking that `output` is missing, empty or a run of `app`
    holding only its own files, the block trains into the staging folder
    (a fresh one, or the one a killed training left, to resume). When the
    block ends without an exception the staging folder replaces `output`
    (`commit_run`), or is deleted when `commit` is False (a worker that is
    not the chief); otherwise the old run stays untouched, and the staging
    folder stays to be resumed.

    Raises:
        ValueError: naming `flag` when `output` is a file, a link, the
            current folder, or a folder this package may not replace.
        LockedError: when another process is writing `output`.
    """
    output = output_folder(output, flag)
    check_not_current(output, flag)
    with owned_folders.locked(output, flag):
        owned_folders.repair(output)
        owned_folders.check_replaceable(output, RUN_KIND, app, flag)
        staging = _resumable_staging(output)
        yield staging
        if commit:
            commit_run(staging, output, app)
        else:
            owned_folders.remove(staging)


def plot_folder(run_dir, output=None, app: str = "") -> Path:
    """Where `attention-zoo APP plot` writes: `output`, or a new folder.

    Without `output`, `RUN/plots/predict-N` with the first N not taken, so
    the run's own training plots (`RUN/plots/*.png`) and earlier plots are
    never overwritten. The run folder is checked first: nothing is created
    inside a folder that is not a run.
    """
    if output is not None:
        return output_folder(output)
    plots = check_run_folder(run_dir, app, ("config.json",)) / "plots"
    n = 1
    while (plots / f"predict-{n}").exists():
        n += 1
    return plots / f"predict-{n}"


def write_plots(output, plot, app: str = "") -> list[Path]:
    """`plot(folder)` into a hidden staging folder inside `output`, whose
    PNGs then move into `output`: a failed plot (a full disk, an input
    refused) leaves no partial file, and no folder it created.

    A folder it creates is marked as plots of `app`; PNGs written into a
    folder of a run (`RUN/plots/predict-N`, or `--output RUN/plots`) are
    recorded as the package's, so the next training may replace the run.

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
    if created:
        owned_folders.write_marker(output, "plots", app)
    else:
        owned_folders.record_written(paths)
    return paths


@contextlib.contextmanager
def atomic_output(path):
    """A UTF-8 text file that becomes `path` when the block ends without an
    exception: it is written beside `path` under a temporary name and
    renamed over it once complete, so a full disk, an error or a kill leaves
    the old file or none, never a cut one."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            yield file
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_atomically(path, text: str) -> Path:
    """Writes `text` to `path` through `atomic_output`."""
    with atomic_output(path) as file:
        file.write(text)
    return Path(path)


def write_evaluation(run_dir, metrics: dict) -> Path:
    """`evaluate`'s metrics as `RUN/metrics_evaluate.json`, written atomically
    and recorded in the run's marker (the next training may replace it)."""
    path = write_atomically(
        Path(run_dir) / "metrics_evaluate.json", json.dumps(metrics, indent=1)
    )
    owned_folders.record_written([path])
    return path


@contextlib.contextmanager
def set_aside(path):
    """The file `path` moved aside while the block rewrites it: the block
    reads its folder without it (a damaged one cannot stop its own
    rewrite), and an error puts it back."""
    path = Path(path)
    held = path.with_name(f".{path.name}.old")
    if path.exists():
        os.replace(path, held)
    try:
        yield path
    except BaseException:
        if held.exists():
            os.replace(held, path)
        raise
    held.unlink(missing_ok=True)
