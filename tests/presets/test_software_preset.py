"""The software_en_es preset: its domain check and its placeholders, on
text written for these tests (its fixed outputs and slice are checked with
every preset's in test_shipped_presets.py)."""

import pytest

from attention_zoo.applications.translation.placeholder_check import problems
from attention_zoo.applications.translation.predictor import Translator
from attention_zoo.presets import preset_folder

pytestmark = pytest.mark.tf_only

SOFTWARE = [
    "Could not save the file.",
    "Delete the selected items?",
    "Show hidden files",
    "The connection to the server was lost.",
    "Select a folder to import",
    "Print the document",
]
# Bible verses, the text its domain is contrasted with (`--contrast-with
# bible_en_es`). Everyday English mostly passes: docs/translation.md.
OTHER = [
    "And the LORD said unto Moses, Stretch out thine hand over the sea.",
    "And he went up into the mountain, and the people followed him.",
    "Blessed are they that mourn: for they shall be comforted.",
]
PLACEHOLDERS = [
    "Could not open %s: %s",
    "Copy %1$s to %2$s",
    "Press <b>Enter</b> to continue",
    "File {name} was saved to $HOME",
    "Run 'apt --help' for more options",
    "_Save As...",
]


@pytest.fixture(scope="module")
def translator():
    return Translator.from_preset("software_en_es")


def test_software_messages_are_in_its_domain(translator):
    answers = translator.predict_items(SOFTWARE)
    assert [a["valid"] for a in answers] == [True] * len(SOFTWARE), answers


def test_bible_verses_are_flagged_by_its_domain(translator):
    for answer in translator.predict_items(OTHER):
        assert answer["valid"] is False, answer
        assert "training texts" in answer["reason"], answer


def test_an_answer_is_valid_only_with_its_placeholders(translator):
    answers = translator.predict_items(PLACEHOLDERS)
    for text, answer in zip(PLACEHOLDERS, answers):
        found = problems(text, answer["text"])
        assert answer["valid"] is not bool(found), answer
        if found:
            assert answer["reason"].startswith("placeholders: "), answer
    # Most of these come through whole.
    assert sum(a["valid"] for a in answers) >= 4, answers


# Messages whose placeholders a free search loses (dropped, repeated, or
# one the source lacks); the search keeps them by construction
# (`attention_zoo.decoding.constrain_copies`).
HARD = [
    "Could not copy %s to %s: %s",
    "Moving %2$s before %1$s",
    "<b>%s</b> is not a directory",
    "Open {name} with $EDITOR or press %s to cancel",
    "Use --force to overwrite `%s'",
    "Failed to read %s\n",
    "%d of %d files (%s) were copied to %s in %s",
    "See <a href=\"https://example.org/help\">the manual</a> or run 'tool --help'",
    # Unknown words around the placeholders: an <unk> copying one would add it
    # (`masking.copy_limits`).
    "%C22*%O$t%C26$1%O removes user limit",
    "Use set gfxpayload=%s before the linux command.",
]


@pytest.mark.parametrize("beam_width", [1, 3], ids=["greedy", "beam3"])
def test_its_search_keeps_every_placeholder(translator, beam_width):
    answers = translator.predict_items(HARD, beam_width=beam_width)
    for text, answer in zip(HARD, answers):
        assert not problems(text, answer["text"]), (text, answer["text"])


def test_a_text_of_several_sentences_is_translated_sentence_by_sentence(translator):
    first, second = "Could not open %s.", "Save changes to %s before closing?"
    joined, alone_first, alone_second = translator.predict_items(
        [f"{first} {second}", first, second]
    )
    assert joined["text"] == f"{alone_first['text']} {alone_second['text']}"
    assert joined["valid"], joined
    # Each sentence's steps attend to its own source positions only.
    steps, positions = len(alone_first["tokens"]), len(alone_first["source_tokens"])
    assert not joined["attention"][:steps, positions:].any()
    assert not joined["attention"][steps:-1, :positions].any()
    # Read whole, the text is another search (the same words here or not).
    whole = Translator(preset_folder("software_en_es"), sentences=False)
    assert whole.sentences is False and translator.sentences is True
    assert whole.search([f"{first} {second}"])[0].shape[-1] == 160
