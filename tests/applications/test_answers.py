"""One story per fact (issue 59): every application's answer has the same
keys whatever the input, a reason quotes at most 80 characters of it, and
an answer that is not valid keeps its best guess in `text` with `valid`
False and the reason, in Python and on the command line."""

import functools

import numpy as np
import pytest

from attention_zoo.applications import from_preset
from attention_zoo.applications.common.errors import MAX_QUOTED
from attention_zoo.applications.common.predictor import InputError

TEXT_PRESETS = {
    "dates": ("dates_multilingual", "3rd of May 1979"),
    "translation": ("bible_en_es", "The Lord is my shepherd."),
    "summarization": (
        "debian_synopsis",
        "Tesseract is an open source Optical Character Recognition (OCR) "
        "Engine. This package contains the data needed for processing "
        "images in Greek language.",
    ),
}
# 5,000 characters (`MAX_INPUT_CHARS`, the most any entry point reads): a
# date too long for the normalizer, a verse of 1,000 words, and one word of
# 5,000 letters, which a rule naming a word of the input would repeat.
LONG = "3 May 1979 " * 454 + "3 May"
ONE_WORD = "x" * 5_000
INPUTS = ("", "   ", LONG, ONE_WORD)


@functools.cache
def predictor(app):
    name = TEXT_PRESETS[app][0] if app in TEXT_PRESETS else "shapes"
    return from_preset(name)


def quotes_at_most_80(message: str, text: str) -> bool:
    """Whether `message` holds no run of more than `MAX_QUOTED` characters
    of `text` (its repeated patterns included)."""
    return not any(
        text[i : i + MAX_QUOTED + 1] in message
        for i in range(0, max(1, len(text) - MAX_QUOTED), 7)
    )


@pytest.mark.parametrize("app", sorted(TEXT_PRESETS))
def test_every_answer_has_the_same_keys_whatever_the_input(app):
    # The empty input's answer lacked `notes` (and the tokens) for dates;
    # the summarizer's answers had no `notes` at all.
    normal = TEXT_PRESETS[app][1]
    items = predictor(app)([*INPUTS, normal])
    keys = [sorted(item) for item in items]
    assert all(k == keys[-1] for k in keys), keys
    assert {"input", "text", "score", "valid", "reason", "notes"} <= set(keys[-1])
    assert {"tokens", "source_tokens", "attention"} <= set(keys[-1])
    assert items[-1]["valid"], items[-1]
    for item in items[:-1]:
        assert not item["valid"] and item["reason"], item
        assert isinstance(item["notes"], list)


@pytest.mark.parametrize("app", sorted(TEXT_PRESETS))
def test_reasons_and_notes_quote_at_most_80_characters_of_the_input(app):
    items = predictor(app)([LONG, ONE_WORD, f"{ONE_WORD[:2000]} {LONG[:2999]}"])
    for item in items:
        for message in [item["reason"], *item["notes"]]:
            assert quotes_at_most_80(message, item["input"]), message[:300]
            assert len(message) < 400, message[:300]
    # Through the command line's check too (`predictor.check`).
    for text in (LONG, ONE_WORD):
        try:
            predictor(app).check(text)
        except InputError as error:
            assert quotes_at_most_80(str(error), text), str(error)[:300]


def test_the_captioner_keeps_its_guess_for_a_photograph_not_valid():
    """README, model card, docs and Python say the same: an image unlike
    the training scenes is answered `valid` False with the reason; `text`
    still holds the model's guess, in words of shapes, which is not to be
    used as a description."""
    import PIL.Image

    from attention_zoo.presets import fixed_inputs

    captioner = predictor("captioning")
    photo = PIL.Image.new("RGB", (320, 240), (200, 120, 40))
    scene, *_ = fixed_inputs("shapes")
    items = captioner([photo, scene])
    assert [sorted(i) for i in items][0] == sorted(items[1])
    assert {"text", "score", "valid", "reason", "notes", "tokens"} <= set(items[0])
    (guess, answer) = items
    assert not guess["valid"] and "unlike the training images" in guess["reason"]
    assert guess["text"] and guess["tokens"]  # the best guess, kept
    assert answer["valid"] and answer["reason"] == "" and answer["notes"] == []


def test_the_captioner_quotes_at_most_80_characters_of_a_path():
    path = "x" * 5_000 + ".png"  # too long a name for the file system
    with pytest.raises(InputError) as raised:
        predictor("captioning").check(path)
    assert quotes_at_most_80(str(raised.value), path), str(raised.value)[:300]
    assert "cannot read it" in str(raised.value)


def test_the_command_line_shows_a_photograph_refused_with_its_reason(
    tmp_path, capsys
):
    """It printed `photo.png: ` and the reason on standard error only."""
    import PIL.Image

    from attention_zoo.cli import main
    from attention_zoo.presets import preset_folder

    predictor("captioning")  # loaded once, by the test above
    photo = tmp_path / "photo.png"
    PIL.Image.new("RGB", (320, 240), (200, 120, 40)).save(photo)
    argv = ["captioning", "predict", "--run", str(preset_folder("shapes"))]
    assert main([*argv, str(photo)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{photo}: not valid: the image is unlike the training")
    assert "score" not in out
    with_scores = main([*argv, "--scores", str(photo)])
    assert with_scores == 0 and "   [score -" in capsys.readouterr().out


def test_a_long_argument_is_refused_in_a_short_line(capsys):
    from attention_zoo.cli import main

    assert main(["dates", "predict", LONG]) == 2
    err = capsys.readouterr().err
    assert quotes_at_most_80(err, LONG) and len(err) < 400, err[:300]


def test_notes_are_lists_of_text():
    # The server passes `notes` on (serving.answers.EXTRAS) for every app.
    items = predictor("summarization")([" ".join(["word"] * 100)])
    assert items[0]["notes"] == ["100 words: only the first 80 are read"]
    assert np.asarray(items[0]["attention"]).ndim == 2


def test_the_rules_naming_a_word_quote_at_most_80_characters():
    """The month-word rule and the summary rules name words of the input
    or of the output (a copied word is the input's): a 5,000-letter word
    was repeated whole, three times for a summary that repeats it."""
    from attention_zoo.applications.dates.lexicon import month_disagreement
    from attention_zoo.applications.summarization.summary_rules import (
        summary_reason,
    )

    word = "q" * 5_000
    reason = month_disagreement(f"3 {word} 1979", "1979-05-03")
    assert "not taught" in reason and quotes_at_most_80(reason, word), reason[:300]
    reason = summary_reason([word] * 3, {word}, set())
    assert "repeats itself" in reason and quotes_at_most_80(reason, word)
    assert len(reason) < 300, reason[:300]
