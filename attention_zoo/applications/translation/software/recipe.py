"""The software corpus: the Spanish message catalogs of the Debian packages in
`packages.txt`, fetched once, read, merged, cached and split by package.

`build()` fetches the `.deb` files missing from the cache with `apt-get
download`, reads `usr/share/locale/es/LC_MESSAGES/*.mo` (and LibreOffice's
`usr/lib/libreoffice/program/resource/es/LC_MESSAGES/*.mo`) and
`usr/share/doc/PKG/copyright` straight from each archive, and caches the
merged pairs and the data card in `~/.cache/attention_zoo/software_es/`
(as `bible_pairs` caches the Bible): the second call reads the cache.
Debian's translated package descriptions (`Translation-es`) are never
read: they are kept for independent evaluation.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

from attention_zoo.applications.translation.software import catalogs, debs

PACKAGES_FILE = Path(__file__).with_name("packages.txt")
LANGUAGE = "es"
# Bumped when the recipe's output changes, so an old cache is not read.
RECIPE_VERSION = 2
CACHE_DIR = Path.home() / ".cache" / "attention_zoo" / "software_es"
# Per cent of packages (by a hash of the name) in validation and in test.
VALIDATION_PERCENT, TEST_PERCENT = 10, 10


def package_list(path: str | Path = PACKAGES_FILE) -> list[str]:
    """The package names of a list file: one a line, `#` comments."""
    names = []
    for number, line in enumerate(Path(path).read_text("utf-8").splitlines(), 1):
        name = line.split("#")[0].strip()
        if not name:
            continue
        try:
            debs.check_package_name(name)
        except ValueError as error:
            raise ValueError(f"{path}, line {number}: {error}") from None
        if name in names:
            raise ValueError(f"{path}, line {number}: {name} is listed twice")
        names.append(name)
    return names


def _wanted(language: str):
    catalog = re.compile(
        rf"usr/(?:share/locale|lib/libreoffice/program/resource)/{language}/"
        r"LC_MESSAGES/[^/]+\.mo"
    )
    doc = re.compile(r"usr/share/doc/[^/]+(?:/copyright)?")
    return lambda path: bool(catalog.fullmatch(path) or doc.fullmatch(path))


def licences(copyright_text: str) -> list[str]:
    """The licences a `debian/copyright` file names: the `License:` fields
    of a machine-readable file (DEP-5), else the licences its prose names."""
    if copyright_text.startswith("Format:"):
        found = re.findall(r"^License:[ \t]*(\S[^\n]*)", copyright_text, re.M)
        return list(dict.fromkeys(f.strip() for f in found))
    names = {
        "GPL": r"GNU General Public License|\bGPL\b",
        "LGPL": r"GNU (?:Lesser|Library) General Public License|\bLGPL\b",
        "MIT": r"\bMIT\b|Permission is hereby granted, free of charge",
        "BSD": r"\bBSD\b|Redistribution and use in source and binary forms",
        "Apache-2.0": r"Apache License",
        "MPL": r"Mozilla Public License",
        "GFDL": r"GNU Free Documentation License",
    }
    found = [n for n, pattern in names.items() if re.search(pattern, copyright_text)]
    return [f"{n} (named in prose)" for n in found] or ["unknown: read the copyright"]


def package_messages(deb: Path, package: str, language: str = LANGUAGE):
    """`([(package, source, target)], info)` of one `.deb`: the pairs of its
    catalogs, and its version, catalogs, pair count and licences."""
    files, links = debs.read_files(deb, _wanted(language))
    found, names = [], []
    for path in sorted(p for p in files if p.endswith(".mo")):
        names.append(path.rsplit("/", 1)[1])
        for source, target in catalogs.read_catalog(files[path], f"{deb}:{path}", "mo"):
            found.append((package, source, target))
    copyright_file = f"usr/share/doc/{package}/copyright"
    if copyright_file in files:
        named = licences(files[copyright_file].decode("utf-8", "replace"))
    elif f"usr/share/doc/{package}" in links:
        # -data and -common packages share their main package's documents.
        named = [f"see the copyright of {links[f'usr/share/doc/{package}']}"]
    else:
        named = ["unknown: no copyright file"]
    version = deb.name.split("_")[1] if deb.name.count("_") >= 2 else ""
    info = {
        "version": version,
        "catalogs": names,
        "pairs": len(found),
        "licences": named,
    }
    return found, info


def _cached_package(deb: Path, package: str, language: str, folder: Path):
    """`package_messages`, read once per `.deb` and recipe version: reading
    the archives is the slow part, merging is not."""
    path = folder / f"{RECIPE_VERSION}-{language}-{deb.stem}.json"
    if path.is_file():
        saved = json.loads(path.read_text("utf-8"))
        return [tuple(t) for t in saved["pairs"]], saved["info"]
    triples, info = package_messages(deb, package, language)
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps({"pairs": triples, "info": info}, ensure_ascii=False), "utf-8"
    )
    return triples, info


def _cache_key(packages, language) -> str:
    blob = json.dumps([RECIPE_VERSION, language, sorted(packages)]).encode()
    return hashlib.sha256(blob).hexdigest()[:12]


def build(
    packages=None,
    cache_dir: str | Path | None = None,
    refresh: bool = False,
    language: str = LANGUAGE,
    verbose: bool = True,
):
    """`(messages, card)`: the merged `catalogs.Message` list of `packages`
    (default: `packages.txt`) and the data card (a dict; `format_card`).

    Cached in `cache_dir` by the package list and recipe version; `refresh`
    reads the packages again (the `.deb` files stay cached).
    """
    packages = package_list() if packages is None else list(packages)
    cache_dir = Path(cache_dir or CACHE_DIR)
    key = _cache_key(packages, language)
    pairs_file = cache_dir / f"pairs-{key}.jsonl"
    card_file = cache_dir / f"card-{key}.json"
    if pairs_file.is_file() and card_file.is_file() and not refresh:
        return read_messages(pairs_file), json.loads(card_file.read_text("utf-8"))
    found_debs, missing = debs.download(packages, cache_dir / "debs", verbose)
    found, infos = [], {}
    for package in sorted(found_debs):
        triples, infos[package] = _cached_package(
            found_debs[package], package, language, cache_dir / "read"
        )
        found += triples
        if verbose:
            print(f"{package}: {len(triples)} pairs", file=sys.stderr)
    messages, dropped = catalogs.merge(found)
    card = {
        "recipe_version": RECIPE_VERSION,
        "language": language,
        "packages": infos,
        "missing": missing,
        "dropped": dropped,
        "pairs": len(messages),
        "english_words": sum(len(m.source.split()) for m in messages),
    }
    write_messages(pairs_file, messages)
    card_file.write_text(json.dumps(card, indent=1, ensure_ascii=False), "utf-8")
    (cache_dir / f"card-{key}.md").write_text(format_card(card), "utf-8")
    return messages, card


def write_messages(path: Path, messages) -> None:
    """One JSON object a line: tabs and line breaks in messages are kept."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        for m in messages:
            row = {"source": m.source, "target": m.target, "packages": m.packages}
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def read_messages(path: Path) -> list[catalogs.Message]:
    with Path(path).open(encoding="utf-8") as f:
        return [
            catalogs.Message(row["source"], row["target"], tuple(row["packages"]))
            for row in map(json.loads, f)
        ]


def package_split(package: str, seed: int = 0) -> int:
    """0 (train), 1 (validation) or 2 (test): by a hash of the name and
    `seed`, so a package's split never changes when others come or go."""
    digest = hashlib.sha256(f"{seed}:{package}".encode()).digest()
    bucket = int.from_bytes(digest[:4], "big") % 100
    if bucket < TEST_PERCENT:
        return 2
    return 1 if bucket < TEST_PERCENT + VALIDATION_PERCENT else 0


def split_by_package(messages, seed: int = 0):
    """`(train, validation, test)` lists of messages, a package's messages
    all in its split. A message several packages hold, and every message
    with the same English text, goes to the first split among them (train
    before validation before test): no English message is in two splits, so
    the test measures text no training package holds."""
    splits_of = {}
    for m in messages:
        index = min(package_split(p, seed) for p in m.packages)
        splits_of[m.source] = min(splits_of.get(m.source, 2), index)
    splits = ([], [], [])
    for m in messages:
        splits[splits_of[m.source]].append(m)
    return splits


def format_card(card: dict) -> str:
    """The data card as Markdown: totals, then a row per package."""
    lines = [
        f"# Software corpus, English-{card['language']} (recipe "
        f"{card['recipe_version']})",
        "",
        f"{len(card['packages'])} packages, {card['pairs']:,} pairs, "
        f"{card['english_words']:,} English words. Dropped: "
        + (
            ", ".join(f"{n:,} {r}" for r, n in sorted(card["dropped"].items()))
            or "none"
        )
        + ". Not fetched: "
        + (", ".join(card["missing"]) or "none")
        + ".",
        "",
        "| package | version | split | pairs read | catalogs | licences |",
        "|---|---|---|---|---|---|",
    ]
    names = ("train", "validation", "test")
    for package, info in sorted(card["packages"].items()):
        lines.append(
            f"| {package} | {info['version']} | {names[package_split(package)]} | "
            f"{info['pairs']:,} | {len(info['catalogs'])} | "
            f"{'; '.join(info['licences'])[:200]} |"
        )
    return "\n".join(lines) + "\n"
