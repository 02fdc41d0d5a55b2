"""The JSON API through FastAPI's test client: answers equal to the
predictor's, attention on request, and every bad request a 4xx with a JSON
error naming the field, the server serving on."""

import base64
import json
import time

import numpy as np
import pytest

from attention_zoo.presets import PRESETS_DIR, fixed_inputs
from tests.serving.conftest import BASE_URL, wait_ready

DATES = ["3rd of May 1979", "14/07/1789", "tomorrow", ""]


def test_answers_are_the_predictors(client):
    from attention_zoo.applications import registry

    response = client.post("/v1/dates/predict", json={"inputs": DATES})
    assert response.status_code == 200
    answers = response.json()["answers"]
    expected = registry.from_preset("dates_multilingual")(DATES)
    assert [a["output"] for a in answers] == [e["text"] for e in expected]
    assert [a["valid"] for a in answers] == [e["valid"] for e in expected]
    assert [a["reason"] for a in answers] == [e["reason"] for e in expected]
    for answer, item in zip(answers[:3], expected):
        assert answer["score"] == pytest.approx(item["score"], abs=1e-5)
    assert answers[3]["score"] is None  # -inf has no JSON number
    assert "attention" not in answers[0]


def test_a_run_of_iso_dates_answers_alike_whatever_the_reference(client):
    plain = client.post("/v1/dates/predict", json={"inputs": DATES}).json()
    body = {"inputs": DATES, "reference": "2026-01-15T09:00:00+05:30", "prefer": "past"}
    with_reference = client.post("/v1/dates/predict", json=body).json()
    assert with_reference == plain
    described = {m["app"]: m for m in client.get("/v1/models").json()["models"]}
    assert described["dates"]["reference"] is True
    assert described["captioning"]["reference"] is False


def test_a_bad_reference_is_refused_saying_what_was_received(client):
    body = {"inputs": ["3 May 1979"], "reference": "next tuesday"}
    response = client.post("/v1/dates/predict", json=body)
    assert response.status_code == 422
    assert "Received: reference='next tuesday'" in response.json()["error"]


def test_attention_comes_with_its_tokens_on_request(client):
    body = {"inputs": ["3rd of May 1979"], "attention": True}
    answer = client.post("/v1/dates/predict", json=body).json()["answers"][0]
    attention = answer["attention"]
    weights = np.asarray(attention["weights"])
    # One row per character of the answer (the normalizer's ten steps).
    assert attention["output_tokens"] == list(answer["output"])
    assert "".join(attention["source_tokens"]) == "3rd of may 1979"
    assert weights.shape == (10, 15)
    np.testing.assert_allclose(weights.sum(1), 1.0, atol=2e-3)
    # The year's digits look at the year.
    assert weights[0].argmax() >= 11


def test_images_are_base64_and_their_attention_is_the_grid(client):
    image = fixed_inputs("shapes")[0].read_bytes()
    body = {
        "inputs": [base64.b64encode(image).decode()],
        "attention": True,
        "beam_width": 1,
    }
    answer = client.post("/v1/captioning/predict", json=body).json()["answers"][0]
    assert answer["valid"] and answer["output"]
    attention = answer["attention"]
    assert attention["grid_shape"] == [14, 14]
    assert np.asarray(attention["weights"]).shape == (
        len(attention["output_tokens"]),
        196,
    )


def test_models_health_readiness_and_openapi(client):
    models = client.get("/v1/models").json()
    assert models["ready"]
    described = {m["app"]: m for m in models["models"]}
    assert described["dates"]["source"] == "preset dates_multilingual"
    assert described["dates"]["beam_width"] is None
    assert described["captioning"]["beam_width"] == 3
    assert described["dates"]["metadata"]["metrics"]["exact_match"] > 0.99
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json()["models"] == ["captioning", "dates"]
    schema = client.get("/openapi.json").json()
    assert "/v1/{app_name}/predict" in schema["paths"]
    page = client.get("/")
    assert page.status_code == 200 and "explorer.js" in page.text
    assert client.get("/static/explorer.js").status_code == 200
    # The explorer's icon, where browsers look for it and the page links it.
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/png"
    assert icon.content.startswith(b"\x89PNG\r\n\x1a\n")
    assert 'rel="icon"' in page.text and 'href="/favicon.ico"' in page.text


def _png_base64():
    return base64.b64encode(fixed_inputs("shapes")[0].read_bytes()).decode()


FAULTS = [
    # (what, path, body bytes, status, field)
    ("malformed JSON", "dates", b'{"inputs": [', 400, "body"),
    ("not an object", "dates", b'["3 May 1979"]', 422, "body"),
    ("no inputs", "dates", b"{}", 422, "inputs"),
    ("inputs not a list", "dates", b'{"inputs": "3 May"}', 422, "inputs"),
    ("a number for a text", "dates", b'{"inputs": [1979]}', 422, "inputs[0]"),
    ("an empty list", "dates", b'{"inputs": []}', 422, "inputs"),
    ("too many inputs", "dates", json.dumps({"inputs": ["1"] * 257}), 422, "inputs"),
    (
        "an over-long text",
        "dates",
        json.dumps({"inputs": ["9" * 5001]}),
        422,
        "inputs[0]",
    ),
    ("an unknown field", "dates", b'{"inputs": ["1"], "beam": 2}', 422, "beam"),
    (
        "a string for a flag",
        "dates",
        b'{"inputs": ["1"], "attention": "yes"}',
        422,
        "attention",
    ),
    (
        "beam search it has not",
        "dates",
        b'{"inputs": ["1"], "beam_width": 2}',
        422,
        "beam_width",
    ),
    (
        "an n-best list it has not",
        "dates",
        b'{"inputs": ["1"], "n_best": true}',
        422,
        "n_best",
    ),
    (
        "a reference that is no date-time",
        "dates",
        b'{"inputs": ["1"], "reference": "next tuesday"}',
        422,
        "reference",
    ),
    (
        "a number for a reference",
        "dates",
        b'{"inputs": ["1"], "reference": 20260115}',
        422,
        "reference",
    ),
    (
        "an over-long reference",
        "dates",
        json.dumps({"inputs": ["1"], "reference": "2026-01-15" + " " * 60}),
        422,
        "reference",
    ),
    (
        "a policy it has not",
        "dates",
        b'{"inputs": ["1"], "prefer": "soon"}',
        422,
        "prefer",
    ),
    (
        "a reference to an app that takes none",
        "captioning",
        b'{"inputs": ["AA=="], "reference": "2026-01-15"}',
        422,
        "reference",
    ),
    (
        "a beam of 0",
        "captioning",
        b'{"inputs": ["AA=="], "beam_width": 0}',
        422,
        "beam_width",
    ),
    (
        "a beam over the bound",
        "captioning",
        b'{"inputs": ["AA=="], "beam_width": 65}',
        422,
        "beam_width",
    ),
    ("an unknown app", "weather", b'{"inputs": ["1"]}', 404, "app"),
    ("not base64", "captioning", b'{"inputs": ["%%%"]}', 422, "inputs[0]"),
    (
        "a broken image",
        "captioning",
        json.dumps({"inputs": [base64.b64encode(b"\x89PNG\r\n\x1a\nbroken").decode()]}),
        422,
        "inputs[0]",
    ),
    (
        "an empty image after a good one",
        "captioning",
        lambda: json.dumps({"inputs": [_png_base64(), ""]}),
        422,
        "inputs[1]",
    ),
    (
        "a body over the limit",
        "dates",
        b"[" + b" " * (13 * 1024 * 1024) + b"]",
        413,
        "body",
    ),
]


@pytest.mark.parametrize(
    "what, app, body, status, field", FAULTS, ids=[f[0] for f in FAULTS]
)
def test_a_bad_request_is_a_json_error_naming_the_field(
    client, what, app, body, status, field
):
    body = body() if callable(body) else body
    response = client.post(
        f"/v1/{app}/predict", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    error = response.json()
    assert error["field"] == field and error["error"], error
    # And the server goes on answering.
    ok = client.post("/v1/dates/predict", json={"inputs": ["3 May 1979"]})
    assert ok.json()["answers"][0]["output"] == "1979-05-03"


def test_a_failure_inside_a_model_is_a_500_and_the_server_serves_on(
    client, monkeypatch
):
    model = next(m for m in client.app.state.models if m.app.name == "dates")

    def broken(inputs, **options):
        raise RuntimeError("a kernel failed")

    monkeypatch.setattr(model.batcher, "predict", broken)
    response = client.post("/v1/dates/predict", json={"inputs": ["3 May 1979"]})
    assert response.status_code == 500
    assert "a kernel failed" in response.json()["error"]
    monkeypatch.undo()
    ok = client.post("/v1/dates/predict", json={"inputs": ["3 May 1979"]})
    assert ok.status_code == 200


def test_not_ready_until_every_model_is_loaded(monkeypatch):
    import threading

    from fastapi.testclient import TestClient

    from attention_zoo.serving import create_app, server

    release = threading.Event()
    loaded = server.load

    def slow_load(*args):
        release.wait(60)
        loaded(*args)

    monkeypatch.setattr(server, "load", slow_load)
    app = create_app(["dates_multilingual"], max_batch=1)
    with TestClient(app, base_url=BASE_URL) as client:
        assert client.get("/healthz").status_code == 200
        assert client.get("/readyz").status_code == 503
        waiting = client.post("/v1/dates/predict", json={"inputs": ["3 May 1979"]})
        assert waiting.status_code == 503 and "loading" in waiting.json()["error"]
        release.set()
        wait_ready(client)
        assert (
            client.post("/v1/dates/predict", json={"inputs": ["1"]}).status_code == 200
        )


def test_a_model_that_failed_to_load_is_named_not_loading(monkeypatch):
    from fastapi.testclient import TestClient

    from attention_zoo.serving import create_app, server

    def broken(*args):
        raise ValueError("model.weights.h5 is cut")

    monkeypatch.setattr(server, "load", broken)
    failures = []
    app = create_app(["dates_multilingual"], on_load_failure=failures.append)
    with TestClient(app, base_url=BASE_URL) as client:
        deadline = time.monotonic() + 60
        while not failures:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        ready = client.get("/readyz")
        predict = client.post("/v1/dates/predict", json={"inputs": ["3 May 1979"]})
    expected = "preset dates_multilingual: ValueError: model.weights.h5 is cut"
    assert failures == [expected]
    for response in (ready, predict):
        assert response.status_code == 503
        assert response.json()["error"] == f"a model failed to load: {expected}"


def test_a_test_clients_own_host_is_refused():
    from fastapi.testclient import TestClient

    from attention_zoo.serving import create_app

    with TestClient(create_app(models=[])) as client:
        response = client.get("/healthz")  # Host: testserver
    assert response.status_code == 400 and response.json()["field"] == "host"


def test_two_models_of_one_application_are_refused():
    from attention_zoo.serving.models import resolve

    with pytest.raises(ValueError, match="one model per application"):
        resolve(["dates_multilingual", PRESETS_DIR / "dates_multilingual"])
    with pytest.raises(ValueError, match="--run"):
        resolve(runs=[PRESETS_DIR])


@pytest.mark.parametrize(
    "argv, message",
    [
        (["serve"], "at least one model"),
        (["serve", "--preset", "dates_multilingual", "--port", "0"], "--port"),
        (
            ["serve", "--preset", "dates_multilingual", "--max-batch", "0"],
            "--max-batch",
        ),
        (
            ["serve", "--preset", "dates_multilingual", "--max-wait-ms", "-1"],
            "--max-wait-ms",
        ),
        (["serve", "--preset", "no_such_preset"], "no_such_preset"),
        (
            ["serve", "--preset", "dates_multilingual", "--max-connections", "0"],
            "--max-connections",
        ),
        (
            ["serve", "--preset", "dates_multilingual", "--body-timeout", "nan"],
            "--body-timeout",
        ),
        (
            ["serve", "--preset", "dates_multilingual", "--header-timeout", "0"],
            "--header-timeout",
        ),
    ],
)
def test_the_command_names_a_bad_flag(argv, message, capsys):
    from attention_zoo.cli import main

    try:  # argparse exits; a preset that is none is the task's error
        code = main(argv)
    except SystemExit as exit_info:
        code = exit_info.code
    assert code == 2
    assert message in capsys.readouterr().err


def test_a_missing_extra_is_named(monkeypatch):
    import sys

    from attention_zoo.serving import server

    monkeypatch.setitem(sys.modules, "fastapi", None)
    with pytest.raises(ImportError, match=r"pip install '\.\[serve\]'"):
        server.create_app(["dates_multilingual"])


def test_the_n_best_list_of_a_beam_search(monkeypatch):
    from fastapi.testclient import TestClient

    from attention_zoo.serving import create_app

    app = create_app(["bible_en_es"], max_batch=1)
    with TestClient(app, base_url=BASE_URL) as client:
        wait_ready(client)
        assert client.get("/v1/models").json()["models"][0]["n_best"]
        body = {"inputs": ["The Lord is my shepherd."], "n_best": True}
        answer = client.post("/v1/translation/predict", json=body).json()["answers"][0]
        hypotheses = answer["n_best"]
        assert len(hypotheses) == 4  # the preset's beam
        assert {k: hypotheses[0][k] for k in ("text", "score")} == {
            "text": answer["output"],
            "score": answer["score"],
        }
        # The search's own order: best ranking score first.
        ranks = [h["ranking_score"] for h in hypotheses]
        assert ranks == sorted(ranks, reverse=True)
        body["beam_width"] = 1
        answer = client.post("/v1/translation/predict", json=body).json()["answers"][0]
        assert len(answer["n_best"]) == 1


def test_the_captioner_gives_its_n_best_list_too(client):
    image = base64.b64encode(fixed_inputs("shapes")[0].read_bytes()).decode()
    body = {"inputs": [image], "beam_width": 3, "n_best": True}
    answer = client.post("/v1/captioning/predict", json=body).json()["answers"][0]
    assert [h["text"] for h in answer["n_best"]][:1] == [answer["output"]]
    assert len(answer["n_best"]) == 3
