"""The documentation-prose test: aligned English-Spanish blocks of the
translated help pages of the Debian packages in `help_packages.txt`,
fetched once and cached.

For evaluation only: the packages are not in the training list
(`packages.txt`), `build` refuses a list that shares one with it, and the
pairs are cached in their own files (`help-pairs-<key>.jsonl` and
`help-card-<key>.json` in `recipe.CACHE_DIR`), which no training reads.
Debian's translated package descriptions (`Translation-es`) are never read.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path
from urllib.parse import unquote

from attention_zoo.applications.translation.software import debs, help_pages, recipe

HELP_PACKAGES_FILE = Path(__file__).with_name("help_packages.txt")
# Bumped when the extraction's output changes, so an old cache is not read.
HELP_VERSION = 2
COPYRIGHT = re.compile(r"usr/share/doc/[^/]+(?:/copyright)?")


def _wanted(language: str):
    def wanted(path: str) -> bool:
        match = help_pages.PAGE_PATH.fullmatch(path)
        if match:
            return match["lang"] in ("C", language)
        return bool(COPYRIGHT.fullmatch(path))

    return wanted


def package_pairs(deb: Path, package: str, language: str = recipe.LANGUAGE):
    """`(pairs, info)`: the `help_pages.HelpPair`s of one `.deb` and its
    version, pair count, drops and licences."""
    files, links = debs.read_files(deb, _wanted(language))
    pairs, dropped = help_pages.help_pairs(files, package, language)
    copyright_file = f"usr/share/doc/{package}/copyright"
    if copyright_file in files:
        named = recipe.licences(files[copyright_file].decode("utf-8", "replace"))
    elif f"usr/share/doc/{package}" in links:
        named = [f"see the copyright of {links[f'usr/share/doc/{package}']}"]
    else:
        named = ["unknown: no copyright file"]
    # apt-get download writes an epoch's colon as %3a.
    version = unquote(deb.name.split("_")[1]) if deb.name.count("_") >= 2 else ""
    info = {
        "version": version,
        "pairs": len(pairs),
        "dropped": dropped,
        "licences": named,
    }
    return pairs, info


def check_held_out(packages, training=None) -> None:
    """Refuse a help package that the training corpus reads."""
    training = set(recipe.package_list() if training is None else training)
    shared = sorted(set(packages) & training)
    if shared:
        raise ValueError(
            "the documentation-prose test is for evaluation only, but these "
            f"packages are in the training list packages.txt: {shared[:10]}"
        )


def build(
    packages=None,
    cache_dir: str | Path | None = None,
    refresh: bool = False,
    language: str = recipe.LANGUAGE,
    verbose: bool = True,
):
    """`(pairs, card)`: the `HelpPair`s of `packages` (default:
    `help_packages.txt`), in package, document and page order, and their
    card (a dict: per package its version, pairs, drops and licences).

    Cached in `cache_dir` by the package list and version; `refresh` reads
    the packages again (the `.deb` files stay cached).
    """
    packages = (
        recipe.package_list(HELP_PACKAGES_FILE) if packages is None else list(packages)
    )
    check_held_out(packages)
    cache_dir = Path(cache_dir or recipe.CACHE_DIR)
    blob = json.dumps([HELP_VERSION, language, sorted(packages)]).encode()
    key = hashlib.sha256(blob).hexdigest()[:12]
    pairs_file = cache_dir / f"help-pairs-{key}.jsonl"
    card_file = cache_dir / f"help-card-{key}.json"
    if pairs_file.is_file() and card_file.is_file() and not refresh:
        with pairs_file.open(encoding="utf-8") as f:
            pairs = [help_pages.HelpPair(**json.loads(line)) for line in f]
        return pairs, json.loads(card_file.read_text("utf-8"))
    found_debs, missing = debs.download(packages, cache_dir / "debs", verbose)
    pairs, infos, seen, duplicates = [], {}, set(), 0
    for package in sorted(found_debs):
        found, infos[package] = package_pairs(found_debs[package], package, language)
        for pair in found:
            # A repeated English block (a shared title, a boilerplate
            # paragraph) is scored once.
            if pair.source in seen:
                duplicates += 1
                continue
            seen.add(pair.source)
            pairs.append(pair)
        if verbose:
            print(f"{package}: {len(found)} help pairs", file=sys.stderr)
    card = {
        "help_version": HELP_VERSION,
        "language": language,
        "packages": infos,
        "missing": missing,
        "duplicates_dropped": duplicates,
        "pairs": len(pairs),
        "english_words": sum(len(p.source.split()) for p in pairs),
    }
    cache_dir.mkdir(parents=True, exist_ok=True)
    with pairs_file.open("w", encoding="utf-8") as f:
        for p in pairs:
            f.write(json.dumps(p._asdict(), ensure_ascii=False) + "\n")
    card_file.write_text(json.dumps(card, indent=1, ensure_ascii=False), "utf-8")
    return pairs, card
