"""The software corpus recipe on tiny catalogs and fake `.deb` files written
here: no network, no apt."""

import io
import json
import lzma
import shutil
import tarfile

import polib
import pytest

from attention_zoo.applications.translation.software import catalogs, debs, recipe

COPYRIGHT = """Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: tool

Files: *
Copyright: 2020 Someone
License: GPL-3+
 This program is free software.

Files: po/*
License: LGPL-2.1+
"""


def _entries():
    """(msgid, msgstr or plural forms, flags, extra) of a tiny catalog."""
    return [
        dict(msgid="Open %s", msgstr="Abrir %s"),
        dict(msgid="_Save", msgstr="_Guardar", msgctxt="menu"),
        dict(msgid="Quit", msgstr="Salir", flags=["fuzzy"]),
        dict(msgid="Untranslated", msgstr=""),
        dict(
            msgid="%d file",
            msgid_plural="%d files",
            msgstr_plural={0: "%d archivo", 1: "%d archivos"},
        ),
        dict(msgid="Copy %s to %s", msgstr="Copiar %s"),  # a placeholder lost
        dict(msgid="%s: %s", msgstr="%s: %s"),  # no word
        # The translators' names (GNOME's and KDE's ways): no translation.
        dict(msgid="translator-credits", msgstr="Ana <ana@example.org>"),
        dict(msgid="Your names", msgstr="Ana", msgctxt="NAME OF TRANSLATORS"),
    ]


def _catalog():
    po = polib.POFile()
    po.metadata = {
        "Content-Type": "text/plain; charset=UTF-8",
        "Plural-Forms": "nplurals=2; plural=(n != 1);",
    }
    for entry in _entries():
        po.append(polib.POEntry(**entry))
    po.append(polib.POEntry(msgid="Old", msgstr="Viejo", obsolete=True))
    return po


EXPECTED = [
    ("Open %s", "Abrir %s"),
    ("_Save", "_Guardar"),
    ("%d file", "%d archivo"),
    ("%d files", "%d archivos"),
    ("Copy %s to %s", "Copiar %s"),
    ("%s: %s", "%s: %s"),
]


def test_a_po_catalog_drops_fuzzy_untranslated_obsolete_and_credits(tmp_path):
    path = tmp_path / "es.po"
    _catalog().save(str(path))
    assert catalogs.read_catalog(str(path), "es.po", "po") == EXPECTED


def test_a_mo_catalog_gives_the_same_pairs_plurals_included(tmp_path):
    path = tmp_path / "tool.mo"
    _catalog().save_as_mofile(str(path))
    pairs = catalogs.read_catalog(path.read_bytes(), "tool.mo", "mo")
    assert sorted(pairs) == sorted(EXPECTED)


def test_a_damaged_catalog_is_skipped_with_its_name(tmp_path, capsys):
    assert catalogs.read_catalog(b"\x00not a catalog", "broken.mo", "mo") == []
    assert "broken.mo" in capsys.readouterr().err


def test_merge_drops_pairs_without_words_or_with_lost_placeholders():
    found = [("a", s, t) for s, t in EXPECTED] + [("b", "Open %s", "Abrir %s")]
    messages, dropped = catalogs.merge(found)
    assert dropped == {"no word": 1, "placeholders differ": 1}
    assert catalogs.Message("Open %s", "Abrir %s", ("a", "b")) in messages
    assert len(messages) == 4


def _tar(files, links=(), compression="xz"):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo("./" + name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for name, target in dict(links).items():
            info = tarfile.TarInfo("./" + name)
            info.type, info.linkname = tarfile.SYMTYPE, target
            tar.addfile(info)
    raw = buffer.getvalue()
    if compression == "xz":
        return lzma.compress(raw), ".xz"
    if compression == "zst":
        import subprocess

        return subprocess.run(
            ["zstd", "-c"], input=raw, capture_output=True
        ).stdout, ".zst"
    return raw, ""


def make_deb(path, files, links=(), compression="xz"):
    """A `.deb`: an ar archive of debian-binary, control.tar.xz and data.tar.*."""
    data, suffix = _tar(files, links, compression)
    control = lzma.compress(_tar({"control": b"Package: x\n"}, compression="")[0])
    members = [
        ("debian-binary", b"2.0\n"),
        ("control.tar.xz", control),
        ("data.tar" + suffix, data),
    ]
    out = bytearray(debs.AR_MAGIC)
    for name, blob in members:
        header = f"{name + '/':<16}{0:<12}{0:<6}{0:<6}{100644:<8}{len(blob):<10}`\n"
        out += header.encode() + blob + (b"\n" if len(blob) % 2 else b"")
    path.write_bytes(bytes(out))
    return path


def _mo_bytes(tmp_path, entries):
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    for source, target in entries:
        po.append(polib.POEntry(msgid=source, msgstr=target))
    path = tmp_path / "x.mo"
    po.save_as_mofile(str(path))
    return path.read_bytes()


@pytest.mark.parametrize("compression", ["xz", "none", "zst"])
def test_a_deb_is_read_without_dpkg(tmp_path, compression):
    if compression == "zst" and not shutil.which("zstd"):
        pytest.skip("the zstd command is not installed")
    deb = make_deb(
        tmp_path / "tool_1.0-1_amd64.deb",
        {"usr/share/doc/tool/copyright": b"hello", "usr/bin/tool": b"\x7fELF"},
        {"usr/share/doc/tool-data": "tool"},
        compression,
    )
    files, links = debs.read_files(deb, lambda p: p.startswith("usr/share/doc"))
    assert files == {"usr/share/doc/tool/copyright": b"hello"}
    assert links == {"usr/share/doc/tool-data": "tool"}


def test_a_file_that_is_no_deb_is_named(tmp_path):
    path = tmp_path / "fake.deb"
    path.write_bytes(b"PK\x03\x04 a zip")
    with pytest.raises(ValueError, match="fake.deb is not a .deb"):
        debs.read_files(path, lambda p: True)
    deb = make_deb(tmp_path / "cut.deb", {"usr/bin/x": b"x" * 1000})
    deb.write_bytes(deb.read_bytes().replace(b"data.tar.xz/", b"data.tar.gz/"))
    with pytest.raises(ValueError, match="cut.deb: its data archive is damaged"):
        debs.read_files(deb, lambda p: True)


@pytest.mark.parametrize("name", ["../etc", "tool; rm -rf /", "-o", "Tool", ""])
def test_package_names_outside_debian_policy_are_refused(name):
    with pytest.raises(ValueError, match="package name"):
        debs.check_package_name(name)


def test_licences_from_machine_readable_and_prose_copyright_files():
    assert recipe.licences(COPYRIGHT) == ["GPL-3+", "LGPL-2.1+"]
    prose = "This package is under the GNU General Public License, version 2."
    assert recipe.licences(prose) == ["GPL (named in prose)"]
    assert recipe.licences("All rights reserved.") == ["unknown: read the copyright"]


def _fake_debs(tmp_path):
    folder = tmp_path / "cache" / "debs"
    folder.mkdir(parents=True)
    locale = "usr/share/locale/es/LC_MESSAGES/"
    make_deb(
        folder / "tool_1.0-1_amd64.deb",
        {
            locale + "tool.mo": _mo_bytes(tmp_path, [("Open %s", "Abrir %s")]),
            locale + "other.mo": _mo_bytes(tmp_path, [("Quit", "Salir")]),
            "usr/share/locale/fr/LC_MESSAGES/tool.mo": b"not read",
            "usr/share/doc/tool/copyright": COPYRIGHT.encode(),
        },
    )
    make_deb(
        folder / "suite-l10n-es_2.0_all.deb",
        {
            "usr/lib/libreoffice/program/resource/es/LC_MESSAGES/sw.mo": _mo_bytes(
                tmp_path, [("Quit", "Salir"), ("Page %1$d", "Página %1$d")]
            ),
        },
        {"usr/share/doc/suite-l10n-es": "suite-common"},
    )
    return tmp_path / "cache"


def test_build_reads_the_catalogs_merges_and_caches(tmp_path):
    cache = _fake_debs(tmp_path)
    messages, card = recipe.build(["tool", "suite-l10n-es"], cache, verbose=False)
    assert sorted((m.source, m.target, m.packages) for m in messages) == [
        ("Open %s", "Abrir %s", ("tool",)),
        ("Page %1$d", "Página %1$d", ("suite-l10n-es",)),
        ("Quit", "Salir", ("suite-l10n-es", "tool")),
    ]
    tool = card["packages"]["tool"]
    assert tool == {
        "version": "1.0-1",
        "catalogs": ["other.mo", "tool.mo"],
        "pairs": 2,
        "licences": ["GPL-3+", "LGPL-2.1+"],
    }
    assert card["packages"]["suite-l10n-es"]["licences"] == [
        "see the copyright of suite-common"
    ]
    assert card["pairs"] == 3 and card["english_words"] == 5
    card_md = next(cache.glob("card-*.md")).read_text()
    assert "| tool | 1.0-1 |" in card_md and "GPL-3+; LGPL-2.1+" in card_md
    # The second call reads the cache: the archives are no longer needed.
    shutil.rmtree(cache / "debs")
    assert recipe.build(["tool", "suite-l10n-es"], cache) == (messages, card)


def test_messages_with_tabs_and_line_breaks_survive_the_cache(tmp_path):
    messages = [
        catalogs.Message("Usage:\n\t%s [OPTION]", "Uso:\n\t%s [OPCIÓN]", ("a",))
    ]
    recipe.write_messages(tmp_path / "m.jsonl", messages)
    assert recipe.read_messages(tmp_path / "m.jsonl") == messages


def test_the_split_keeps_a_package_whole_and_an_english_text_in_one_split():
    names = [f"pkg{i}" for i in range(200)]
    by_split = {i: [n for n in names if recipe.package_split(n) == i] for i in range(3)}
    assert all(by_split.values())  # 200 names fill every split
    train, test = by_split[0][0], by_split[2][0]
    messages = [
        catalogs.Message("Only in test", "Solo en prueba", (test,)),
        catalogs.Message("Shared", "Compartido", (test, train)),
        catalogs.Message("Shared", "Común", (test,)),
        catalogs.Message("Only in train", "Solo", (train,)),
    ]
    splits = recipe.split_by_package(messages)
    assert [m.target for m in splits[0]] == ["Compartido", "Común", "Solo"]
    assert [m.target for m in splits[2]] == ["Solo en prueba"]
    assert recipe.split_by_package(messages) == splits  # deterministic


def test_the_package_list_is_valid_and_reads_comments(tmp_path):
    assert len(recipe.package_list()) >= 200
    path = tmp_path / "list.txt"
    path.write_text("# tools\ncoreutils  # GNU\n\ntar\n")
    assert recipe.package_list(path) == ["coreutils", "tar"]
    path.write_text("tar\ntar\n")
    with pytest.raises(ValueError, match="line 2: tar is listed twice"):
        recipe.package_list(path)


def test_a_users_po_folder_is_split_by_file(tmp_path):
    for project in ("one", "two"):
        (tmp_path / project / "po").mkdir(parents=True)
        _catalog().save(str(tmp_path / project / "po" / "es.po"))
    messages, dropped = catalogs.po_messages(tmp_path)
    assert {m.packages for m in messages} == {("one/po/es", "two/po/es")}
    assert dropped == {"no word": 2, "placeholders differ": 2}
    with pytest.raises(FileNotFoundError, match="--po must name a folder"):
        catalogs.po_messages(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no .po or .mo files"):
        catalogs.po_messages(tmp_path / "empty")


def test_train_with_po_reads_the_users_catalogs(tmp_path, capsys):
    from attention_zoo.applications.translation.config import TrainConfig
    from attention_zoo.applications.translation.corpus import load_corpus

    po = polib.POFile()
    for i in range(60):
        po.append(polib.POEntry(msgid=f"Open file number {i}", msgstr=f"Abrir {i}"))
    po.save(str(tmp_path / "es.po"))
    train, validation, test = load_corpus(TrainConfig(corpus="po", po=str(tmp_path)))
    assert len(train) + len(validation) + len(test) == 60
    assert validation and test  # one file: held-out messages drawn at random
    assert "too few to hold whole ones out" in capsys.readouterr().err
    assert json.dumps([p.book for p in train[:1]]) == '["es"]'


def test_the_po_flag_names_the_po_corpus():
    from argparse import Namespace

    from attention_zoo.applications.translation.cli import corpus_field

    flags = dict(pairs=None, po=None, tfds=None, corpus=None)
    assert corpus_field(Namespace(**{**flags, "po": "my/po"})) == {"corpus": "po"}
    assert corpus_field(Namespace(**{**flags, "corpus": "software"})) == {
        "corpus": "software"
    }
