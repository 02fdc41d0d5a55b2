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


def test_the_docs_test_drops_training_messages_and_samples_with_a_seed(monkeypatch):
    from attention_zoo.applications.translation.software import catalogs
    from attention_zoo.applications.translation.software.help_pages import HelpPair

    pairs = [
        HelpPair(f"Paragraph {i}.", f"Párrafo {i}.", "docs", "d", "p", "p")
        for i in range(5)
    ] + [HelpPair("Preferences", "Preferencias", "docs", "d", "p", "title")]
    card = {"packages": {"docs": {}}, "pairs": len(pairs)}
    trained = catalogs.Message("Preferences", "Preferencias", ("train-tool",))
    held = catalogs.Message("Paragraph 1.", "Párrafo 1.", ("test-tool",))
    monkeypatch.setattr(bench.help_recipe, "build", lambda: (pairs, card))
    monkeypatch.setattr(bench.recipe, "build", lambda: ([trained, held], {}))
    monkeypatch.setattr(
        bench.recipe,
        "package_split",
        lambda package, seed=0: 0 if package == "train-tool" else 2,
    )
    chosen, facts = bench.documentation(limit=None)
    # A help block that is a training message is not prose the model never
    # saw; one that is a held-out package's message stays.
    assert [p.source for p in chosen] == [f"Paragraph {i}." for i in range(5)]
    assert "1 dropped as training messages" in facts[0]
    sample, _ = bench.documentation(limit=3, seed=1)
    assert len(sample) == 3 and sample == bench.documentation(limit=3, seed=1)[0]


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
