"""The Apertium benchmark's parts, with a stand-in `apertium` command."""

import os
import stat
import types

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


def test_a_translator_is_timed_after_every_shape_it_uses_compiled():
    calls = []

    class Stub:
        """Compiles a shape (rows, longest text) the first time it sees it."""

        masking = True

        def __init__(self):
            self.compiled_shapes = types.SimpleNamespace(compiles=0)
            self.seen = set()

        def shape_inputs(self):
            return ["w " * 32]

        def translations(self, texts):
            calls.append(list(texts))
            shape = (len(texts), max(len(t) for t in texts))
            if shape not in self.seen:
                self.seen.add(shape)
                self.compiled_shapes.compiles += 1
            return [t.upper() for t in texts], None

    outputs, timing = bench.timed_translate(Stub(), ["Open %s", "Quit"])
    assert outputs == ["OPEN %S", "QUIT"]
    # A first pass over the same texts compiles what the timed one uses:
    # none of the timed seconds are a compilation.
    assert calls == [["Open %s", "Quit"], ["Open %s", "Quit"]]
    assert timing["compiles_in_timed_pass"] == 0
    assert set(timing) == {
        "warm_up_seconds",
        "seconds",
        "sentences_per_second",
        "compiles_in_timed_pass",
    }
    assert timing["sentences_per_second"] == 2 / timing["seconds"]


def test_a_translator_that_answers_otherwise_the_second_time_is_an_error():
    class Drifting:
        masking = True
        compiled_shapes = types.SimpleNamespace(compiles=0)
        answers = iter([["uno"], ["dos"]])

        def translations(self, texts):
            return next(self.answers), None

    try:
        bench.timed_translate(Drifting(), ["one"])
    except RuntimeError as error:
        assert "other outputs in its second pass" in str(error)
    else:
        raise AssertionError("no error")
