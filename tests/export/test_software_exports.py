"""The LiteRT and ONNX exports of a translator that masks placeholders
(`software_en_es`): the same answers as the preset's `Translator`, whose
masking, sentence cutting and placeholder check they share (the SavedModel
refuses such a run: docs/translation.md, "Placeholders")."""

import pytest

from attention_zoo.applications import load_exported, registry
from attention_zoo.applications.translation.predictor import Translator

# Two formats' conversions of the greedy search, about 3 minutes on 2 cores:
# with the slow tests, as the Bible preset's portable exports.
pytestmark = [pytest.mark.tf_only, pytest.mark.slow]

TEXTS = [
    "Could not open file %s: %s",
    "Copy %1$s to %2$s",
    "Could not open %s. Save changes to %s before closing?",
    "Press <b>Ctrl+S</b> to save the file in $HOME/Documents.",
    "_Open Recent",
    "The connection to the server was lost. Check your network settings and try again.",
    "Run 'apt --help' for more options",
    "",
]


@pytest.fixture(scope="module")
def expected():
    return Translator.from_preset("software_en_es").predict_items(TEXTS)


@pytest.mark.parametrize("fmt", ["litert", "onnx"])
def test_an_export_answers_as_the_preset(fmt, expected, tmp_path):
    registry.export("translation", "software_en_es", tmp_path / fmt, fmt)
    answers = load_exported(tmp_path / fmt).predict_items(TEXTS)
    for want, got in zip(expected, answers):
        assert got["text"] == want["text"], got
        assert got["valid"] == want["valid"] and got["reason"] == want["reason"]
        if want["score"] is None:
            assert got["score"] is None
        else:
            assert got["score"] == pytest.approx(want["score"], abs=1e-4)
