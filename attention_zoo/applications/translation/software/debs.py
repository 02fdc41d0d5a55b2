"""Debian packages fetched once with `apt-get download` and read without
installing them: a `.deb` is an `ar` archive whose `data.tar.*` member holds
the files (`dpkg-deb --fsys-tarfile` does the same)."""

from __future__ import annotations

import bz2
import glob
import gzip
import io
import lzma
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zlib
from pathlib import Path

AR_MAGIC = b"!<arch>\n"
# Debian policy's package names: nothing else goes to apt-get or into a path.
PACKAGE_NAME = re.compile(r"[a-z0-9][a-z0-9+.-]+")


def check_package_name(name: str) -> str:
    if not isinstance(name, str) or not PACKAGE_NAME.fullmatch(name):
        raise ValueError(
            "a package name is lower-case letters, digits and + . - (Debian "
            f"policy). Received: {str(name)[:80]!r}"
        )
    return name


def ar_members(data: bytes, where: str = "the archive") -> dict[str, bytes]:
    """The members of an `ar` archive (the common format `.deb` uses)."""
    if not data.startswith(AR_MAGIC):
        raise ValueError(f"{where} is not a .deb (no ar archive header)")
    members, at = {}, len(AR_MAGIC)
    while at + 60 <= len(data):
        header = data[at : at + 60]
        if header[58:60] != b"`\n":
            raise ValueError(f"{where}: a damaged ar member header at byte {at}")
        name = header[:16].decode("ascii", "replace").strip().rstrip("/")
        try:
            size = int(header[48:58].decode("ascii").strip())
        except ValueError:
            raise ValueError(
                f"{where}: a damaged ar member size at byte {at}"
            ) from None
        start = at + 60
        if start + size > len(data):
            raise ValueError(f"{where}: the member {name!r} is cut short")
        members[name] = data[start : start + size]
        at = start + size + size % 2  # members start on even offsets
    return members


def _unzstd(blob: bytes, where: str) -> bytes:
    """zstd, which Ubuntu's packages use, has no module in Python 3.11's
    standard library: the `zstandard` package or the `zstd` command does it."""
    try:
        import zstandard

        return zstandard.ZstdDecompressor().decompressobj().decompress(blob)
    except ImportError:
        pass
    if shutil.which("zstd"):
        done = subprocess.run(
            ["zstd", "-dc"], input=blob, capture_output=True, check=False
        )
        if done.returncode == 0:
            return done.stdout
        raise ValueError(f"{where}: zstd could not decompress it")
    raise RuntimeError(
        f"{where} is zstd-compressed: install the zstd command (apt-get install "
        "zstd) or the zstandard module (pip install zstandard)"
    )


_DECOMPRESS = {
    "": lambda blob, where: blob,
    ".gz": lambda blob, where: gzip.decompress(blob),
    ".xz": lambda blob, where: lzma.decompress(blob),
    ".bz2": lambda blob, where: bz2.decompress(blob),
    ".zst": _unzstd,
}


def read_files(deb: str | Path, wanted) -> tuple[dict[str, bytes], dict[str, str]]:
    """`(files, links)` of the `.deb` at `deb` whose path `wanted(path)`
    accepts: regular files' contents and symbolic links' targets, by path
    without the leading `./` (`usr/share/doc/tar/copyright`).

    Nothing is written to disk: a member's path never becomes a file name.
    """
    deb = Path(deb)
    members = ar_members(deb.read_bytes(), str(deb))
    names = [n for n in members if n.startswith("data.tar")]
    if not names:
        raise ValueError(f"{deb} holds no data.tar member: {sorted(members)}")
    suffix = names[0][len("data.tar") :]
    if suffix not in _DECOMPRESS:
        raise ValueError(f"{deb}: unknown data archive compression {names[0]!r}")
    files, links = {}, {}
    try:
        tar_bytes = _DECOMPRESS[suffix](members[names[0]], str(deb))
        with tarfile.open(fileobj=io.BytesIO(tar_bytes), mode="r:") as tar:
            for member in tar:
                path = member.name.removeprefix("./")
                if not wanted(path):
                    continue
                if member.isfile():
                    files[path] = tar.extractfile(member).read()
                elif member.issym():
                    links[path] = member.linkname
    except (lzma.LZMAError, OSError, EOFError, zlib.error, tarfile.TarError) as error:
        raise ValueError(f"{deb}: its data archive is damaged ({error})") from None
    return files, links


def deb_path(folder: Path, package: str) -> Path | None:
    """The `.deb` of `package` already in `folder`, the newest name first."""
    found = sorted(glob.glob(str(folder / f"{glob.escape(package)}_*.deb")))
    return Path(found[-1]) if found else None


# As root, apt hands the download to its `_apt` user, which cannot write to a
# folder under /root: it then warns and downloads as root anyway.
_APT_GET = ["apt-get"] + (
    ["-o", "APT::Sandbox::User=root"]
    if hasattr(os, "geteuid") and os.geteuid() == 0
    else []
)


def _apt_download(packages, folder: Path):
    return subprocess.run(
        _APT_GET + ["download", *packages],
        cwd=folder,
        stdin=subprocess.DEVNULL,  # apt-get would read a caller's input
        capture_output=True,
        check=False,
        timeout=3600,
    )


def download(packages, folder: str | Path, verbose: bool = True):
    """`({package: .deb path}, [packages apt could not fetch])`.

    The packages not yet in `folder` are fetched with `apt-get download`
    (the versions the machine's apt lists name; run `apt-get update` once
    first), all in one call; when apt refuses the call (a name it does not
    know), one package at a time, and those it cannot fetch are reported,
    not fatal.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    packages = [check_package_name(p) for p in packages]
    wanted = [p for p in packages if deb_path(folder, p) is None]
    if wanted and not shutil.which("apt-get"):
        raise RuntimeError(
            "apt-get is missing: the software corpus is read from Debian "
            "packages (Debian or Ubuntu); train on your own catalogs with --po DIR"
        )
    if wanted and _apt_download(wanted, folder).returncode != 0:
        for package in wanted:
            if deb_path(folder, package) is None:
                done = _apt_download([package], folder)
                if done.returncode != 0 and verbose:
                    reason = done.stderr.decode("utf-8", "replace").strip()
                    print(f"{package}: not fetched ({reason[-200:]})", file=sys.stderr)
    found = {p: deb_path(folder, p) for p in packages}
    return {p: path for p, path in found.items() if path}, [
        p for p, path in found.items() if path is None
    ]
