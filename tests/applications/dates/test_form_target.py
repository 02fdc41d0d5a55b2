"""The forms target (`--target forms`): its data, its answers, and a run of
it beside a run of ISO dates, on untrained tiny models (the trained run is
test_form_training.py's, marked slow)."""

import collections
import json
import math
import re

import keras
import numpy as np
import pytest

from attention_zoo.applications.dates import data, form_answers, forms_data, lexicon
from attention_zoo.applications.dates import model as models
from attention_zoo.applications.dates.config import TrainConfig
from attention_zoo.applications.dates.predictor import Normalizer
from attention_zoo.applications.dates.reference import parse_reference
from attention_zoo.applications.dates.training import check

REFERENCE = "2026-01-15T09:00:00"
WORDS = lexicon.load(), lexicon.load_days()


@pytest.fixture(scope="module")
def splits():
    return forms_data.make_splits(
        800, 60, 120, seed=3, negatives=0.25, languages=("en", "es", "any")
    )


def test_the_splits_mix_days_and_expressions_of_every_kind(splits):
    train, val, test = splits
    days = [e for e in test if e.kind == forms_data.ABSOLUTE]
    expressions = [e for e in test if e.kind not in (forms_data.ABSOLUTE, "non_date")]
    assert len(days) == 60 and len(expressions) == 60
    assert all(e.form == f"date {e.value}" for e in days)
    # Both languages, and in training every kind of both.
    assert {e.language for e in expressions} == {"en", "es"}
    kinds = collections.Counter(
        (e.language, e.kind)
        for e in train
        if e.kind not in (forms_data.ABSOLUTE, "non_date")
    )
    assert {k for _, k in kinds} >= {
        "relative",
        "month",
        "year",
        "time",
        "interval_days",
    }
    assert {lang for lang, _ in kinds} == {"en", "es"}
    assert any(e.form == "" for e in train)  # non-dates answer <invalid>


def test_no_held_out_text_is_trained_on(splits):
    train, val, test = splits
    trained = {data.normalize(e.text) for e in train}
    assert not trained & {data.normalize(e.text) for e in val + test}


def test_the_splits_are_seeded():
    def texts(seed):
        split = forms_data.make_splits(60, 10, 20, seed=seed, languages=("es", "any"))
        return [[e.text for e in part] for part in split]

    assert texts(5) == texts(5)
    assert texts(5) != texts(6)


def test_the_form_vocabulary_round_trips_every_form(splits):
    forms = [e.form for e in splits[0]]
    vocabulary = forms_data.FormVocabulary()
    assert vocabulary.decode(vocabulary.targets(forms)) == forms


def test_the_forms_target_is_the_default_models():
    with pytest.raises(ValueError, match="target='forms'"):
        check(TrainConfig(model="classic", target="forms"))
    with pytest.raises(ValueError, match="target"):
        check(TrainConfig(target="words"))


def _item(text, form, score=-0.1, ok=True):
    return {"input": text, "text": form, "score": score, "valid": ok, "reason": ""}


def _answer(text, form, score=-0.1, prefer="future"):
    ok = form_answers.form_checks(text, form, *WORDS) and score > -1
    moment = parse_reference(REFERENCE)
    return form_answers.answer(
        _item(text, form, score, ok), form, moment, prefer, -1.0, lambda *a: "date"
    )


@pytest.mark.parametrize(
    "written, form, text, kind, parts",
    [
        ("yesterday", "shift day -1", "2026-01-14", "date", {"day": "reference"}),
        ("next Friday", "weekday +1 FRI", "2026-01-16", "date", {"day": "reference"}),
        ("March 2015", "month 2015-03", "2015-03", "month", {}),
        ("3 March", "date --03-03", "2026-03-03", "date", {"year": "reference"}),
        ("5:30 pm", "time 17:30", "2026-01-15T17:30", "datetime", {"day": "reference"}),
        ("3-7 May 1979", "date 1979-05-03 / date 1979-05-07", "1979-05-03/1979-05-07",
         "interval", {}),
    ],
)  # fmt: skip
def test_a_form_is_resolved_against_the_reference(written, form, text, kind, parts):
    got = _answer(written, form)
    assert (got["text"], got["kind"], got["form"], got["valid"]) == (
        text,
        kind,
        form,
        True,
    )
    assert got["reference"] == "2026-01-15T09:00:00+00:00" and got["prefer"] == "future"
    assert parts.items() <= got["parts"].items()


def test_the_policy_picks_what_the_text_leaves_open():
    assert _answer("Friday", "weekday FRI", prefer="past")["text"] == "2026-01-09"


def test_an_output_outside_the_grammar_is_not_valid_naming_it():
    got = _answer("yesterday", "shift dya -1")
    assert not got["valid"] and got["text"] == "" and "'dya'" in got["reason"]
    assert got["form"] == "shift dya -1"


def test_a_form_below_the_threshold_is_low_confidence():
    got = _answer("next Friday", "weekday +1 FRI", score=-5.0)
    assert not got["valid"] and got["reason"].startswith("low confidence")


def test_an_absolute_day_passes_the_checks_of_an_iso_date():
    assert form_answers.form_checks("3 May 1979", "date 1979-05-03", *WORDS)
    # The text's year is not the form's: the year check refuses it.
    assert not form_answers.form_checks("3 May 1979", "date 1989-05-03", *WORDS)


def _tiny_run(folder, target):
    vocabulary = data.CharVocabulary.from_texts(["yesterday in 3 days 1979-05-03"])
    targets = forms_data.FormVocabulary() if target == "forms" else data.IsoVocabulary()
    keras.utils.set_random_seed(0)
    models.build_default(
        len(vocabulary), units=4, embedding_dim=4, target_vocab_size=len(targets)
    ).save(folder / "model.keras")
    ty = forms_data.TY_FORMS if target == "forms" else data.TY
    config = {"model": "default", "tx": data.TX, "ty": ty, "target": target}
    if target == "dates":
        del config["target"]  # as every run before the forms target
    (folder / "config.json").write_text(json.dumps(config))
    (folder / "vocabulary.json").write_text(json.dumps(vocabulary.to_json()))
    return Normalizer(folder)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    if keras.backend.backend() != "tensorflow":
        pytest.skip("the application tests run on the TensorFlow backend")
    return {
        target: _tiny_run(tmp_path_factory.mktemp(target), target)
        for target in ("forms", "dates")
    }


@pytest.mark.tf_only
def test_a_forms_run_answers_with_its_form_and_reference(tiny):
    (item, unreadable) = tiny["forms"](["yesterday", ""], reference=REFERENCE)
    for got in (item, unreadable):
        assert {"kind", "grain", "form", "parts", "prefer"} <= got.keys()
        assert got["reference"] == "2026-01-15T09:00:00+00:00"
    # Untrained: whatever it writes is refused, with a reason.
    assert not item["valid"] and item["reason"] and item["text"] == ""
    assert unreadable["score"] == -math.inf and "empty input" in unreadable["reason"]
    assert np.asarray(item["attention"]).shape == (forms_data.TY_FORMS, data.TX)


@pytest.mark.tf_only
def test_a_forms_run_with_languages_it_does_not_know_is_refused(tiny, tmp_path):
    import shutil

    from attention_zoo.applications.common.errors import MalformedFileError

    folder = tmp_path / "run"
    shutil.copytree(tiny["forms"].run_dir, folder)
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, "languages": "en,xx"}))
    with pytest.raises(MalformedFileError, match="languages='en,xx'"):
        Normalizer(folder)
    (folder / "config.json").write_text(json.dumps({**config, "languages": "en,es"}))
    assert Normalizer(folder).languages == ("en", "es")


@pytest.mark.tf_only
def test_a_run_of_iso_dates_answers_as_before_whatever_the_reference(tiny):
    dates = tiny["dates"]
    plain = dates(["3 May 1979"])[0]
    with_reference = dates(["3 May 1979"], reference=REFERENCE)[0]
    assert "reference" not in plain and "form" not in plain
    assert plain.keys() == with_reference.keys()
    assert plain["text"] == with_reference["text"]
    assert plain["reason"] == with_reference["reason"]


@pytest.mark.tf_only
@pytest.mark.parametrize("target", ["forms", "dates"])
@pytest.mark.parametrize(
    "options, named",
    [
        ({"reference": "next tuesday"}, "reference='next tuesday'"),
        ({"reference": 20260115}, "reference=20260115"),
        ({"prefer": "soon"}, "prefer='soon'"),
    ],
)
def test_a_bad_reference_or_policy_is_refused_naming_it(tiny, target, options, named):
    with pytest.raises(ValueError, match=named):
        tiny[target](["yesterday"], **options)


def _jsonl(capsys, folder, *flags):
    from attention_zoo.cli import main

    status = main(
        ["dates", "predict", "--run", str(folder), "--format", "jsonl", *flags]
    )
    out = capsys.readouterr()
    return status, [json.loads(line) for line in out.out.splitlines()], out.err


@pytest.mark.tf_only
def test_the_command_answers_as_the_predictor_against_its_reference(tiny, capsys):
    forms = tiny["forms"]
    flags = ("--reference", "2026-01-15T09:00:00+01:00", "--prefer", "past")
    status, (line,), _ = _jsonl(capsys, forms.run_dir, *flags, "in 3 days")
    assert status == 0
    item = forms(["in 3 days"], reference="2026-01-15T09:00:00+01:00", prefer="past")[0]
    assert line["reference"] == item["reference"] == "2026-01-15T09:00:00+01:00"
    assert line["prefer"] == "past"
    for key in ("output", "valid", "reason", "kind", "grain", "form", "parts"):
        assert line[key] == item["text" if key == "output" else key], key


@pytest.mark.tf_only
def test_the_command_refuses_a_bad_reference_naming_it(tiny, capsys):
    status, lines, err = _jsonl(
        capsys, tiny["forms"].run_dir, "--reference", "soon", "x"
    )
    assert status == 2 and not lines
    assert "Received: reference='soon'" in err


@pytest.mark.tf_only
def test_the_command_of_an_iso_dates_run_ignores_the_reference(tiny, capsys):
    folder = tiny["dates"].run_dir
    _, plain, _ = _jsonl(capsys, folder, "3 May 1979")
    _, with_reference, _ = _jsonl(
        capsys, folder, "--reference", "1999-01-01", "3 May 1979"
    )
    assert plain == with_reference and "reference" not in plain[0]


def test_the_figures_count_a_form_by_its_value_at_the_reference():
    from attention_zoo.applications.dates.evaluation import format_metrics
    from attention_zoo.applications.dates.form_evaluation import evaluate_forms

    def example(text, form, kind, value):
        return forms_data.FormExample(text, form, "en", kind, REFERENCE, value)

    examples = [
        example("in a week", "shift week +1", "relative", "2026-01-22"),
        example("tomorrow", "shift day +1", "relative", "2026-01-16"),
        example("3 May 1979", "date 1979-05-03", forms_data.ABSOLUTE, "1979-05-03"),
        example("hello", "", "non_date", ""),
    ]
    # Another form of the same value, a wrong one, a right one, a refusal.
    written = ["shift day +7", "shift day +2", "date 1979-05-03", ""]

    class Written:
        def scored(self, texts):
            n = len(texts)
            return written, np.ones(n, bool), np.zeros(n), None

    metrics = evaluate_forms(Written(), examples)
    assert metrics["exact_match"] == 0.5 and metrics["value_exact"] == 0.75
    assert metrics["by_family"]["relative"]["value_exact"] == 0.5
    shown = format_metrics(metrics)
    assert "value exact: 75.00 %" in shown
    assert "| relative | 2 | 0.00 % | 50.00 % |" in shown


def test_a_held_out_text_is_a_new_number_in_a_trained_pattern():
    texts = ["yesterday", "ayer", "tomorrow", *(f"in {n} days" for n in range(1, 8))]
    for seed in range(20):
        pools = {
            split: collections.defaultdict(list)
            for split in ("train", "validation", "test")
        }
        forms_data.split_texts({t: [t] for t in texts}, pools, "key", str(seed))
        trained = pools["train"]["key"]
        held = pools["validation"]["key"] + pools["test"]["key"]
        assert held and sorted(trained + held) == sorted(texts)
        assert {"yesterday", "ayer", "tomorrow"} <= set(trained)
        assert "in # days" in {forms_data.template(t) for t in trained}


@pytest.mark.parametrize(
    ("text", "kind", "conflicts"),
    [
        ("5pm", "time", True),
        ("17h30", "time", True),
        ("March 2015", "partial_date", True),
        ("3 days", "time", False),  # a duration names no point in time
        ("90 minutes", "time", False),
        ("+44 20 7946 0958", "phone", False),
        ("1990-1995", "labelled_number", True),  # an interval of years
        ("1914 to 1918", "labelled_number", True),
        ("Rua Augusta 1995", "labelled_number", False),
        ("1987", "number", True),  # a year alone
        ("* 1948", "number", True),
        ("0955", "number", False),  # no year starts with a zero
        ("19870", "number", False),
        ("v1.2.3", "labelled_number", False),
    ],
)
def test_a_non_date_that_is_a_time_expression_here_is_left_out(text, kind, conflicts):
    example = data.Example(text, "", f"non_date_{kind}", "en", data.NON_DATE)
    assert forms_data.conflicting(example) is conflicts


def test_no_split_teaches_a_clock_time_as_a_non_date(monkeypatch):
    clock = re.compile(r"\d:\d\d|\d ?(?:am|pm|a\.m\.)|\dh\d\d|\d uhr", re.I)

    def clocks_taught_as_non_dates():
        train, val, _ = forms_data.make_splits(
            1500, 10, 10, seed=1, negatives=1.0, languages=("en",)
        )
        return [e.text for e in train + val if e.form == "" and clock.search(e.text)]

    assert not clocks_taught_as_non_dates()
    # The check sees them where the filter is off.
    monkeypatch.setattr(forms_data, "conflicting", lambda example: False)
    assert clocks_taught_as_non_dates()
