"""One served app for the serving tests: the date normalizer and the
captioner (text and image inputs), loaded once."""

import time

import pytest

pytest.importorskip("fastapi", reason="needs the serve extra")

# Warming up every padded batch size costs a compilation each: 4 keeps it short.
MAX_BATCH = 4
# A name the server answers to (the test client's own, `testserver`, is not).
BASE_URL = "http://127.0.0.1"


def wait_ready(client, seconds: float = 300) -> None:
    deadline = time.monotonic() + seconds
    while client.get("/readyz").status_code != 200:
        assert time.monotonic() < deadline, client.get("/readyz").json()
        time.sleep(0.2)


@pytest.fixture(scope="package")
def client():
    from fastapi.testclient import TestClient

    from attention_zoo.serving import create_app

    app = create_app(["dates_multilingual", "shapes"], max_batch=MAX_BATCH)
    with TestClient(app, base_url=BASE_URL) as client:
        wait_ready(client)
        yield client
