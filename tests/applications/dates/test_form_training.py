"""A short training of the forms target, end to end: the configuration of
docs/dates.md's hand run ("The form target"), its held-out figures, and the
same answers through the predictor, the command and the server.

This short run does not yet read relative expressions right (docs/dates.md
gives its figures per kind): the floors below are what it reached, so
that the pipeline cannot silently lose them; the kinds' targets of issue
57 need a longer training."""

import json

import keras
import pytest

from attention_zoo.applications.dates import forms_data
from attention_zoo.applications.dates.config import TrainConfig
from attention_zoo.applications.dates.predictor import Normalizer
from attention_zoo.applications.dates.training import train

pytestmark = [pytest.mark.slow, pytest.mark.tf_only]

REFERENCE = "2026-01-15T09:00:00"
# Texts asked through every entry point at REFERENCE (a Thursday). "next
# Friday" is not generated: languages disagree on what it means
# (expressions.LEFT_OUT); "in 1 Friday" is the form's reading.
TEXTS = [
    "yesterday",
    "in 3 days",
    "in 1 Friday",
    "March 2015",
    "ayer",
    "dentro de 3 días",
    "dentro de 1 viernes",
    "marzo de 2015",
]
# The least share of held-out test examples whose value is right at their
# reference, per kind. 8 epochs read 83.5 % of absolute days until the
# generator of 2026-11-30 added holidays, nth weekdays, weekdays and month
# ranges to the expressions (then 74.8 %); 10 epochs read 87.3 %.
KINDS = {"absolute": 0.75}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    if keras.backend.backend() != "tensorflow":
        pytest.skip("the application tests run on the TensorFlow backend")
    path = tmp_path_factory.mktemp("forms") / "run"
    config = TrainConfig(
        target="forms",
        languages="en,es",
        n_train=6000,
        n_validation=300,
        n_test=800,
        epochs=10,
        seed=0,
    )
    train(path, config, verbose=0)
    return path


def test_held_out_examples_are_read_right_at_their_reference(run):
    normalizer = Normalizer(run)
    test = forms_data.load_examples(run / "data" / "test.json")
    for kind, least in KINDS.items():
        chosen = [e for e in test if e.kind == kind]
        assert chosen, kind
        right = [
            normalizer([e.text], reference=e.reference)[0]["text"] == e.value
            for e in chosen
        ]
        assert sum(right) / len(right) >= least, (kind, sum(right), len(right))
    metrics = json.loads((run / "metrics.json").read_text(encoding="utf-8"))
    assert {"relative", "month"} <= metrics["test"]["by_family"].keys()


def test_the_same_answers_through_every_entry_point(run, capsys):
    from fastapi.testclient import TestClient

    from attention_zoo.cli import main
    from attention_zoo.serving import create_app
    from tests.serving.conftest import BASE_URL, wait_ready

    items = Normalizer(run)(TEXTS, reference=REFERENCE)
    flags = ["--run", str(run), "--format", "jsonl", "--reference", REFERENCE]
    assert main(["dates", "predict", *flags, *TEXTS]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    app = create_app(runs=[str(run)], max_batch=4)
    with TestClient(app, base_url=BASE_URL) as client:
        wait_ready(client)
        body = {"inputs": TEXTS, "reference": REFERENCE}
        answers = client.post("/v1/dates/predict", json=body).json()["answers"]
    assert len(items) == len(lines) == len(answers) == len(TEXTS)
    for item, line, answer in zip(items, lines, answers):
        assert item["reference"] == "2026-01-15T09:00:00+00:00"
        for key in ("valid", "reason", "kind", "grain", "form", "parts", "reference"):
            assert item[key] == line[key] == answer[key], key
        assert item["text"] == line["output"] == answer["output"]
