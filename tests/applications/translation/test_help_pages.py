"""The documentation-prose test: aligned blocks of translated help pages,
read from tiny hand-written Mallard pages."""

import shutil

import pytest

from attention_zoo.applications.translation.software import (
    help_pages,
    help_recipe,
    recipe,
)
from tests.applications.translation.test_software import make_deb

HEAD = (
    '<page xmlns="http://projectmallard.org/1.0/" '
    'xmlns:its="http://www.w3.org/2005/11/its" id="x">'
)
ENGLISH = f"""<?xml version="1.0" encoding="utf-8"?>{HEAD}
  <info><credit><name>Ann Author</name></credit>
    <desc>Print a <em>document</em>.</desc></info>
  <title>Print a file</title>
  <p>Press <keyseq><key>Ctrl</key> <key>P</key></keyseq> or choose
  <guiseq><gui>File</gui> <gui>Print</gui></guiseq>.</p>
  <steps><item><p>Run <cmd>lp <var>FILE</var></cmd> in a terminal.</p></item>
    <item><p>GNOME</p></item></steps>
  <code>lp --help</code>
  <note><p its:translate="no">Not for translators.</p>
    <p>The <file>~/.config</file> folder keeps &lt;settings&gt;.</p></note>
</page>
""".encode()
SPANISH = f"""<?xml version="1.0" encoding="utf-8"?>{HEAD}
  <info><credit><name>Ann Author</name></credit>
    <desc>Imprimir un <em>documento</em>.</desc>
    <credit type="translator"><name>Tina Traductora</name></credit></info>
  <title>Imprimir un archivo</title>
  <p>Pulse <keyseq><key>Ctrl</key> <key>P</key></keyseq> o elija
  <guiseq><gui>Archivo</gui> <gui>Imprimir</gui></guiseq>.</p>
  <steps><item><p>Ejecute <cmd>lp <var>ARCHIVO</var></cmd> en una terminal.</p></item>
    <item><p>GNOME</p></item></steps>
  <code>lp --help</code>
  <note><p its:translate="no">Not for translators.</p>
    <p>La carpeta <file>~/.config</file> guarda &lt;settings&gt;.</p></note>
</page>
""".encode()
EXPECTED = [
    ("desc", "Print a document.", "Imprimir un documento."),
    ("title", "Print a file", "Imprimir un archivo"),
    (
        "p",
        "Press Ctrl+P or choose File ▸ Print.",
        "Pulse Ctrl+P o elija Archivo ▸ Imprimir.",
    ),
    ("p", "Run lp FILE in a terminal.", "Ejecute lp ARCHIVO en una terminal."),
    (
        "p",
        "The ~/.config folder keeps <settings>.",
        "La carpeta ~/.config guarda <settings>.",
    ),
]


def test_blocks_align_in_order_with_markup_stripped_to_text():
    pairs, reason, dropped = help_pages.align(ENGLISH, SPANISH)
    assert reason is None
    assert pairs == EXPECTED
    # "GNOME" is the same on both sides: left untranslated, dropped alone.
    assert dropped == 1


def test_a_page_whose_blocks_do_not_line_up_is_dropped_whole():
    extra = SPANISH.replace(b"<code>", b"<p>Un p\xc3\xa1rrafo de m\xc3\xa1s.</p><code>")
    assert help_pages.align(ENGLISH, extra) == ([], "blocks do not line up", 0)
    # The same number of blocks of other kinds does not line up either.
    swapped = SPANISH.replace(b"<title>Imprimir un archivo</title>", b"<p>x</p>")
    assert help_pages.align(ENGLISH, swapped)[1] == "blocks do not line up"


@pytest.mark.parametrize(
    "doctype, body",
    [
        ('<!DOCTYPE page [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>', "&b;"),
        ('<!DOCTYPE page [<!ENTITY leak SYSTEM "file:///etc/hostname">]>', "&leak;"),
        ('<!DOCTYPE page SYSTEM "http://example.invalid/mallard.dtd">', "&b;"),
    ],
    ids=["internal_entities", "external_entity", "external_dtd"],
)
def test_entities_are_never_expanded_or_fetched(doctype, body):
    page = f'<?xml version="1.0"?>{doctype}<page><p>{body}</p></page>'.encode()
    with pytest.raises(ValueError, match="a.page.*entity") as error:
        help_pages.parse(page, "a.page")
    assert "aaaa" not in str(error.value)


def test_a_declared_but_unused_entity_is_refused_too():
    page = b'<!DOCTYPE page [<!ENTITY a "x">]><page><p>plain</p></page>'
    with pytest.raises(ValueError, match="declares the entity 'a'"):
        help_pages.parse(page, "a.page")


def test_a_page_that_is_not_xml_is_named():
    with pytest.raises(ValueError, match="b.page is not well-formed XML"):
        help_pages.parse(b"<page><p>open</page>", "b.page")


def test_help_pairs_match_pages_by_document_and_name():
    files = {
        "usr/share/help/C/tool/print.page": ENGLISH,
        "usr/share/help/es/tool/print.page": SPANISH,
        "usr/share/help/fr/tool/print.page": b"not read",
        "usr/share/help/C/tool/new.page": ENGLISH,  # not translated yet
        "usr/share/help/C/tool/broken.page": b"<page>",
        "usr/share/help/es/tool/broken.page": b"<page>",
    }
    pairs, dropped = help_pages.help_pairs(files, "tool")
    assert [(p.kind, p.source, p.target) for p in pairs] == EXPECTED
    assert {(p.package, p.doc, p.page) for p in pairs} == {("tool", "tool", "print")}
    assert dropped == {
        "blocks untranslated or empty": 1,
        "pages without a translation": 1,
        "pages not read (not well-formed or declaring entities)": 1,
    }


def test_the_help_packages_are_not_in_the_training_list():
    help_list = recipe.package_list(help_recipe.HELP_PACKAGES_FILE)
    assert help_list and not set(help_list) & set(recipe.package_list())
    with pytest.raises(ValueError, match=r"evaluation only.*\['tar'\]"):
        help_recipe.check_held_out(["tar", "docs"], training=["tar", "grep"])


def test_build_reads_the_pages_and_caches_them_apart(tmp_path):
    folder = tmp_path / "cache" / "debs"
    folder.mkdir(parents=True)
    make_deb(
        folder / "docs_1%3a2.0-1_all.deb",
        {
            "usr/share/help/C/docs/print.page": ENGLISH,
            "usr/share/help/es/docs/print.page": SPANISH,
            "usr/share/help/C/docs/again.page": ENGLISH,
            "usr/share/help/es/docs/again.page": SPANISH,
            "usr/share/doc/docs/copyright": b"Format: x\n\nLicense: CC-BY-SA-3.0\n",
        },
    )
    cache = tmp_path / "cache"
    pairs, card = help_recipe.build(["docs"], cache, verbose=False)
    # The second page repeats the first: its blocks are scored once.
    assert [(p.kind, p.source, p.target) for p in pairs] == EXPECTED
    assert card["duplicates_dropped"] == len(EXPECTED)
    assert card["packages"]["docs"]["version"] == "1:2.0-1"
    assert card["packages"]["docs"]["licences"] == ["CC-BY-SA-3.0"]
    assert card["pairs"] == 5 and not list(cache.glob("pairs-*"))
    shutil.rmtree(folder)
    assert help_recipe.build(["docs"], cache) == (pairs, card)
