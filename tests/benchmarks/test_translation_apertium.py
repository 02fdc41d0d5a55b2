"""The Apertium benchmark's parts, with a stand-in `apertium` command."""

import os
import stat
import types

import pytest

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

        def translations(self, texts):
            calls.append(list(texts))
            shape = (len(texts), max(len(t) for t in texts))
            if shape not in self.seen:
                self.seen.add(shape)
                self.compiled_shapes.compiles += 1
            return [t.upper() for t in texts], None

    stub = Stub()
    first, timing, again = bench.warmed_up(stub, ["Open %s", "Quit"])
    assert first == ["OPEN %S", "QUIT"] and set(timing) == {"warm_up_seconds"}
    compiled = stub.compiled_shapes.compiles
    outputs, seconds = bench.timed_passes({"stub": again}, 2, {"stub": first})
    assert outputs == {"stub": ["OPEN %S", "QUIT"]} and len(seconds["stub"]) == 2
    # The warm-up compiled what the timed passes use: none of their
    # seconds are a compilation.
    assert calls == [["Open %s", "Quit"]] * 3
    assert stub.compiled_shapes.compiles == compiled == 1


def test_the_systems_take_turns_and_the_median_pass_is_reported():
    order = []

    def system(name):
        return lambda: order.append(name) or [name]

    outputs, seconds = bench.timed_passes({"a": system("a"), "b": system("b")}, 3)
    assert order == ["a", "b"] * 3
    assert outputs == {"a": ["a"], "b": ["b"]}
    assert bench.speed(10, [4.0, 1.0, 2.0]) == {
        "seconds": 2.0,
        "passes_seconds": [4.0, 1.0, 2.0],
        "sentences_per_second": 5.0,
    }
    with pytest.raises(ValueError, match="`repeats` must be at least 1. Received: 0"):
        bench.timed_passes({"a": system("a")}, 0)


def test_a_system_that_answers_otherwise_in_a_later_pass_is_an_error():
    answers = iter([["uno"], ["dos"]])
    with pytest.raises(RuntimeError, match="drifting gave other outputs in its pass 2"):
        bench.timed_passes({"drifting": lambda: next(answers)}, 2)
    # Against a warm-up's outputs, the first timed pass already counts.
    with pytest.raises(RuntimeError, match="gave other outputs in its pass 1"):
        bench.timed_passes({"drifting": lambda: ["tres"]}, 1, {"drifting": ["uno"]})
