"""The Apertium benchmark's parts, with a stand-in `apertium` command."""

import os
import stat

from benchmarks import translation_apertium as bench


def _fake_apertium(tmp_path, monkeypatch, body):
    script = tmp_path / "apertium"
    script.write_text(
        '#!/bin/sh\nif [ "$1" = "-l" ]; then echo "  eng-spa"; exit 0; fi\n' + body
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")


def test_messages_with_line_breaks_stay_aligned(tmp_path, monkeypatch):
    _fake_apertium(tmp_path, monkeypatch, "cat\n")
    texts = ["Usage:\n  tar [OPTION]...\n", "", "_File", "a\n\nb", "\n"]
    assert bench.apertium_available() is None
    assert bench.apertium(texts) == texts


def test_a_lost_separator_is_an_error_not_a_misalignment(tmp_path, monkeypatch):
    _fake_apertium(tmp_path, monkeypatch, "tr -d '\\342'\n")
    try:
        bench.apertium(["one", "two"])
    except RuntimeError as error:
        assert "1 outputs for 2 messages" in str(error)
    else:
        raise AssertionError("no error")


def test_without_apertium_the_reason_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert "apt-get install -y apertium apertium-eng-spa" in (
        bench.apertium_available()
    )


def test_scores_count_the_messages_that_keep_their_placeholders():
    sources = ["Open %s", "Quit", "Copy %s to %s"]
    outputs = ["Abrir %s", "Salir", "Copiar %s"]
    scores = bench.score(sources, outputs, ["Abrir %s", "Salir", "Copiar %s a %s"])
    assert scores["kept"] == 2 / 3
    assert scores["kept_with_placeholders"] == 1 / 2
    assert scores["messages_with_placeholders"] == 2
    assert scores["bleu_signature"].startswith("nrefs:1|case:mixed")


def test_a_translator_is_timed_after_its_search_compiled():
    calls = []

    class Stub:
        masking = True

        def shape_inputs(self):
            return ["w " * 32]

        def translations(self, texts):
            calls.append(list(texts))
            return [t.upper() for t in texts], None

    outputs, timing = bench.timed_translate(Stub(), ["Open %s", "Quit"])
    assert outputs == ["OPEN %S", "QUIT"]
    # The warm-up runs first and apart from the timed batch.
    assert calls == [["w " * 32], ["Open %s", "Quit"]]
    assert set(timing) == {"warm_up_seconds", "seconds", "sentences_per_second"}
    assert timing["sentences_per_second"] == 2 / timing["seconds"]
