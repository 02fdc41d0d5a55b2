"""Folders the package writes whole: marked, locked, staged, swapped in.

A run folder, a SavedModel export, a preset and a folder of plots are each
written into a fresh staging folder beside their destination and then
swapped in, so that at every instant one complete folder is on disk. Four
rules keep that from ever touching a user's files:

- **Marked**: the folder gets a marker file, `.attention-zoo.json`, with
  its kind (`run`, `saved_model`, `preset`, `plots`), its application and
  the list of files written. An existing destination is replaced only if
  it holds that marker, of the same kind and application, and nothing but
  the files listed there (a subfolder with its own marker, such as an
  export or plots written into a run later, counts as the package's too);
  anything else is refused in one line that names what is in the way.
- **Locked**: the writer holds an exclusive lock on `.<name>.lock` beside
  the destination for the whole write (a training included), so a second
  writer of the same destination is refused at once instead of mixing its
  files with the first one's.
- **Never through a link**: staging and holding folders are created fresh
  with `tempfile.mkdtemp` (a random name, mode 0700), and a folder is
  reused or deleted only if it is a real directory owned by this user
  whose name has the destination's prefix; a symbolic link in the way is
  refused, never followed or deleted through.
- **Repairable**: the swap renames the old folder into a holding folder,
  the staging folder into place, then deletes the holding folder;
  `repair` finishes or undoes a swap a crash cut in the middle.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
import tempfile
from pathlib import Path

MARKER = ".attention-zoo.json"
KINDS = ("run", "saved_model", "litert", "onnx", "preset", "plots")
# Shown at most in a refusal: a folder of 10,000 foreign files names a few.
_SHOWN = 5


class LockedError(OSError):
    """Another process is writing the same destination."""


def _owned_dir(path: Path) -> bool:
    """A real directory (not a link) owned by this user."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    uid = getattr(os, "getuid", lambda: info.st_uid)()
    return stat.S_ISDIR(info.st_mode) and info.st_uid == uid


def _siblings(output: Path, suffix: str) -> list[Path]:
    """This user's real folders `.<name>.*<suffix>` beside `output`, newest last."""
    prefix = f".{output.name}."
    try:
        entries = list(output.parent.iterdir())
    except OSError:
        return []
    found = [
        p
        for p in entries
        if p.name.startswith(prefix) and p.name.endswith(suffix) and _owned_dir(p)
    ]
    return sorted(found, key=lambda p: p.stat().st_mtime)


def _files(folder: Path) -> list[str]:
    """Relative paths of the files under `folder`, not descending into a
    subfolder that holds its own marker."""
    found = []
    for root, dirs, files in os.walk(folder):
        here = Path(root)
        dirs[:] = [d for d in dirs if not (here / d / MARKER).is_file()]
        found += [(here / f).relative_to(folder).as_posix() for f in files]
    return sorted(f for f in found if f != MARKER)


def write_marker(folder, kind: str, app: str) -> None:
    """Marks `folder` as a `kind` folder of `app`, listing its files."""
    if kind not in KINDS:
        raise ValueError(f"`kind` must be one of {KINDS}. Received: kind={kind!r}")
    folder = Path(folder)
    marker = {"kind": kind, "app": app, "files": _files(folder)}
    (folder / MARKER).write_text(json.dumps(marker, indent=0), encoding="utf-8")


def read_marker(folder) -> dict | None:
    """The marker of `folder`, or None when it has none (or a damaged one)."""
    path = Path(folder) / MARKER
    try:
        marker = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    files = marker.get("files") if isinstance(marker, dict) else None
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        return None
    return marker


def _marked_ancestor(path: Path, levels: int = 4) -> Path | None:
    for folder in list(path.parents)[:levels]:
        if read_marker(folder) is not None:
            return folder
    return None


def record_written(paths) -> None:
    """Adds each of `paths` to the marker of the nearest marked folder above
    it (four levels at most), if any: a task that writes into a run later
    (evaluate's metrics, plots into `RUN/plots`) keeps the run replaceable
    by the next training. A path under no marked folder is left alone."""
    by_folder = {}
    for path in map(Path, paths):
        folder = _marked_ancestor(path.absolute())
        if folder is not None:
            relative = path.absolute().relative_to(folder).as_posix()
            by_folder.setdefault(folder, set()).add(relative)
    for folder, names in by_folder.items():
        marker = read_marker(folder)
        marker["files"] = sorted(set(marker["files"]) | names)
        temporary = folder / f"{MARKER}.partial"
        temporary.write_text(json.dumps(marker, indent=0), encoding="utf-8")
        os.replace(temporary, folder / MARKER)


def foreign_files(folder) -> list[str]:
    """The entries under `folder` its marker does not list (all of them
    without a marker); a subfolder with its own marker is checked by its
    own list, and any symbolic link is foreign."""
    folder = Path(folder)
    marker = read_marker(folder)
    listed = set(marker["files"]) if marker else set()
    foreign = []
    for root, dirs, files in os.walk(folder):
        here = Path(root)
        for name in list(dirs):
            path = here / name
            if path.is_symlink():
                foreign.append(path.relative_to(folder).as_posix())
                dirs.remove(name)
            elif (path / MARKER).is_file():
                dirs.remove(name)
                inner = path.relative_to(folder).as_posix()
                foreign += [f"{inner}/{f}" for f in foreign_files(path)]
        for name in files:
            relative = (here / name).relative_to(folder).as_posix()
            if relative != MARKER and relative not in listed:
                foreign.append(relative)
    return sorted(foreign)


def check_replaceable(output, kind: str, app: str, flag: str = "--output") -> Path:
    """`output` as a destination this package may replace.

    It may be missing, an empty folder, or a folder marked as a `kind` of
    `app` that holds nothing but the files it lists.

    Raises:
        ValueError: naming `flag`, the folder and what is in the way.
    """
    output = Path(output)
    what = f"a {app} {kind.replace('_', ' ')} folder"
    if output.is_symlink():
        raise ValueError(
            f"{flag} is a symbolic link; give the folder itself. Received: "
            f"{flag} {output}"
        )
    if not output.exists():
        return output
    if not output.is_dir():
        raise ValueError(
            f"{flag} must be a folder to write into. Received: {flag} {output}, "
            "an existing file"
        )
    if not any(output.iterdir()):
        return output
    marker = read_marker(output)
    if marker is None:
        raise ValueError(
            f"{flag} is a folder with files that attention-zoo did not write "
            f"(it has no {MARKER}), so not {what}; refusing to replace it. "
            f"Received: {flag} {output}"
        )
    if (marker.get("kind"), marker.get("app")) != (kind, app):
        raise ValueError(
            f"{flag} is a {marker.get('app')} {str(marker.get('kind')).replace('_', ' ')} "
            f"folder, not {what}; refusing to replace it. Received: {flag} {output}"
        )
    foreign = foreign_files(output)
    if foreign:
        shown = ", ".join(foreign[:_SHOWN]) + (", ..." if len(foreign) > _SHOWN else "")
        raise ValueError(
            f"{flag} holds {len(foreign)} file(s) that attention-zoo did not write "
            f"({shown}); refusing to replace it: move them out or choose another "
            f"{flag}. Received: {flag} {output}"
        )
    return output


@contextlib.contextmanager
def locked(output, flag: str = "--output"):
    """Holds the exclusive lock of `output` (`.<name>.lock` beside it).

    Raises:
        LockedError: naming `flag` when another process holds it.
    """
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    path = output.parent / f".{output.name}.lock"
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    flags |= getattr(os, "O_CLOEXEC", 0)
    for _ in range(10):
        try:
            fd = os.open(path, flags, 0o600)
        except OSError as error:
            raise ValueError(
                f"cannot open the lock file {path} of {flag} "
                f"({error.strerror or error}). Received: {flag} {output}"
            ) from error
        if not _try_lock(fd):
            os.close(fd)
            raise LockedError(
                f"another attention-zoo process is writing {output} (it holds "
                f"{path}); wait for it to finish or choose another {flag}. "
                f"Received: {flag} {output}"
            )
        # The file may have been unlinked by the previous holder between our
        # open and our lock: then the lock guards nothing, try again.
        try:
            same = os.stat(path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    else:
        raise LockedError(f"could not take the lock {path} of {flag} {output}")
    try:
        yield output
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
        os.close(fd)


def _try_lock(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def new_staging(output) -> Path:
    """A fresh, private staging folder beside `output` (`.<name>.XXXX.partial`)."""
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    return Path(
        tempfile.mkdtemp(
            prefix=f".{output.name}.", suffix=".partial", dir=output.parent
        )
    )


def stagings(output) -> list[Path]:
    """This user's staging folders of `output` left by earlier writers, newest last."""
    return _siblings(Path(output), ".partial")


def remove(folder) -> None:
    """Deletes `folder` if it is this user's real directory; never a link's target."""
    if _owned_dir(Path(folder)):
        shutil.rmtree(folder, ignore_errors=True)


def interrupted_swap(output) -> bool:
    """Whether a `swap_in` of `output` was cut between its renames."""
    return bool(_siblings(Path(output), ".old"))


def repair(output) -> None:
    """Finishes or undoes a `swap_in` that a crash cut between its renames.

    With `output` missing, the previous folder goes back in place; with
    `output` there, the swap was done and the holding folder is deleted.
    """
    output = Path(output)
    for holder in _siblings(output, ".old"):
        previous = holder / "previous"
        if not output.exists() and not output.is_symlink() and previous.is_dir():
            previous.rename(output)
        remove(holder)


def swap_in(staging, output) -> Path:
    """Replaces `output` with the finished `staging` folder, atomically enough
    that one of the two is always whole on disk (`repair` tidies up)."""
    staging, output = Path(staging), Path(output)
    repair(output)
    holder = None
    if output.exists():
        holder = Path(
            tempfile.mkdtemp(
                prefix=f".{output.name}.", suffix=".old", dir=output.parent
            )
        )
        output.rename(holder / "previous")
    staging.rename(output)
    if holder is not None:
        remove(holder)
    return output


def replace_folder(output, write, kind: str, app: str, flag: str = "--output"):
    """`write(staging)`, then the folder it wrote replaces `output` atomically.

    For outputs written in one go (a SavedModel, a preset): under the lock
    of `output`, which must be missing, empty, or a `kind` folder of `app`
    holding only its own files (`check_replaceable`). `write` gets a path
    that does not exist yet, inside a fresh private folder; the folder it
    writes is marked (`write_marker`) and swapped in (`swap_in`). A failed
    `write` leaves no file behind and `output` as it was.

    Returns:
        `output`, as a Path.
    """
    output = Path(output)
    with locked(output, flag):
        repair(output)
        check_replaceable(output, kind, app, flag)
        holder = new_staging(output)
        try:
            staging = holder / "output"
            write(staging)
            write_marker(staging, kind, app)
            return swap_in(staging, output)
        finally:
            remove(holder)
