"""The files of an export folder: listed with their sizes and SHA-256
digests in its `export.json` when it is written, checked before a loader
reads any of them.

A folder of files is what a user copies, unpacks and edits, so what
`load_exported` runs must be what the export wrote: a model file added
beside another (a `saved_model.pb` in a LiteRT folder), a data file edited
(a vocabulary, `config.json`), a truncated copy or a link leading out of
the folder is refused naming the file, before any runtime opens it. Only
regular files are read, checked after opening (a FIFO in place of a model
would block a reader forever).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

from attention_zoo.applications.common.errors import MalformedFileError, one_line
from attention_zoo.owned_folders import MARKER

EXPORT_FILE = "export.json"
# `export.json` is a few hundred bytes; a larger one is no description.
MAX_DESCRIPTION = 1 << 20
_CHUNK = 1 << 20
_HEX = frozenset("0123456789abcdef")


def _digest(path: Path) -> tuple[int, str]:
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as file:
        while chunk := file.read(_CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()


def list_files(folder) -> dict:
    """`{relative path: {"size", "sha256"}}` of every file under `folder`
    but its description and the package's marker (written after it, never
    read by a loader), as `write_description` records it."""
    folder = Path(folder)
    files = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = Path(root) / name
            relative = path.relative_to(folder).as_posix()
            if relative in (EXPORT_FILE, MARKER):
                continue
            size, sha256 = _digest(path)
            files[relative] = {"size": size, "sha256": sha256}
    return dict(sorted(files.items()))


def write_description(folder, description: dict) -> None:
    """`description` with the `files` of `folder` (`list_files`), written
    as `folder/export.json`; called last, when the folder is complete."""
    folder = Path(folder)
    content = {**description, "files": list_files(folder)}
    (folder / EXPORT_FILE).write_text(json.dumps(content, indent=1), encoding="utf-8")


def _refuse(folder: Path, what: str) -> MalformedFileError:
    return MalformedFileError(
        f"{folder} is not the export `attention-zoo APP export` wrote ({what}); "
        "export again"
    )


def read_regular(folder, name: str, limit: int | None = None) -> bytes:
    """The bytes of `folder/name`, a regular file inside `folder`.

    A link is followed only to a file inside `folder`; a FIFO, device or
    folder is refused before it is opened (and checked again once opened,
    without blocking, in case it was swapped in between).

    Raises:
        FileNotFoundError: naming the file when it is missing.
        MalformedFileError: naming the file when it is no regular file
            inside `folder`, or larger than `limit` bytes.
    """
    folder = Path(folder)
    path = folder / name
    try:
        real = path.resolve(strict=True)
    except FileNotFoundError:
        raise FileNotFoundError(f"{folder} has no {name}; export again") from None
    except (OSError, RuntimeError) as error:  # a loop of links
        raise _refuse(folder, f"{name}: {one_line(error)}") from None
    if not real.is_relative_to(folder.resolve()):
        raise _refuse(folder, f"{name} is a link leading out of the folder")
    info = os.stat(real)
    if not stat.S_ISREG(info.st_mode):
        raise _refuse(folder, f"{name} is not a regular file")
    if limit is not None and info.st_size > limit:
        raise _refuse(
            folder, f"{name} holds {info.st_size} bytes, over the {limit} expected"
        )
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(real, flags | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _refuse(folder, f"{name} is not a regular file")
        return file.read() if limit is None else file.read(limit + 1)


def _valid_listing(files) -> bool:
    if not isinstance(files, dict) or not files:
        return False
    for name, entry in files.items():
        parts = name.split("/")
        if (
            not name
            or name.startswith("/")
            or "\\" in name
            or any(p in ("", ".", "..") for p in parts)
            or not isinstance(entry, dict)
            or type(entry.get("size")) is not int
            or entry["size"] < 0
            or not isinstance(entry.get("sha256"), str)
            or len(entry["sha256"]) != 64
            or not set(entry["sha256"]) <= _HEX
        ):
            return False
    return True


def check_files(folder, files, keep=()) -> dict[str, bytes]:
    """Check `folder` against the `files` its `export.json` lists.

    Every listed file must be a regular file inside `folder` of the listed
    size and SHA-256 digest, and `folder` must hold no other file (nor
    link, FIFO or the like) besides `export.json` and the package's marker:
    a file the export did not write is refused, not ignored.

    Args:
        folder: the export folder.
        files: the `files` of its description (`list_files`).
        keep: names whose checked bytes are returned, for a runtime to
            load what was checked rather than open the file again.

    Returns:
        `{name: bytes}` for the names of `keep`.

    Raises:
        MalformedFileError: naming the first file that differs.
    """
    folder = Path(folder)
    if not _valid_listing(files):
        raise _refuse(folder, f"the `files` of its {EXPORT_FILE} are no listing")
    present = set()
    for root, dirs, names in os.walk(folder):
        here = Path(root)
        for name in [*dirs, *names]:
            path = here / name
            relative = path.relative_to(folder).as_posix()
            if name in dirs and not path.is_symlink():
                continue
            present.add(relative)
    extra = sorted(present - set(files) - {EXPORT_FILE, MARKER})
    if extra:
        shown = ", ".join(extra[:5]) + (", ..." if len(extra) > 5 else "")
        raise _refuse(
            folder, f"it holds files its {EXPORT_FILE} does not list: {shown}"
        )
    kept = {}
    for name, entry in files.items():
        if name not in present:
            raise _refuse(folder, f"{name} is missing")
        content = read_regular(folder, name, entry["size"])
        if len(content) != entry["size"]:
            raise _refuse(
                folder,
                f"{name} holds {len(content)} bytes where it was written with "
                f"{entry['size']}",
            )
        if hashlib.sha256(content).hexdigest() != entry["sha256"]:
            raise _refuse(folder, f"{name} differs from the file written")
        if name in keep:
            kept[name] = content
    return kept
