"""The software translator behind the server: the answer of the preset's
`Translator`, a text of several sentences and its placeholders included."""

import pytest

from tests.serving.conftest import BASE_URL, MAX_BATCH, wait_ready

TEXTS = ["Could not open %s. Save changes to %s before closing?", "_Open Recent"]


def test_the_server_answers_as_the_preset():
    from fastapi.testclient import TestClient

    from attention_zoo.applications.translation.predictor import Translator
    from attention_zoo.serving import create_app

    expected = Translator.from_preset("software_en_es").predict_items(TEXTS)
    app = create_app(["software_en_es"], max_batch=MAX_BATCH)
    with TestClient(app, base_url=BASE_URL) as client:
        wait_ready(client)
        response = client.post("/v1/translation/predict", json={"inputs": TEXTS})
    assert response.status_code == 200, response.text
    answers = response.json()["answers"]
    for want, got in zip(expected, answers):
        assert got["output"] == want["text"] and got["valid"] is want["valid"]
        assert got["score"] == pytest.approx(want["score"], abs=1e-4)
    assert "%s" in answers[0]["output"] and answers[1]["output"].startswith("_")
