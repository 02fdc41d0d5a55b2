"""`PredictPath`, the plain-ASGI answer to `POST /v1/{app}/predict`: which
requests it takes, its body limit, and its errors, with a stub answer."""

import asyncio
import json

import pytest

from attention_zoo.serving.fast_path import PredictPath, predict_app


@pytest.mark.parametrize(
    "path, app",
    [
        ("/v1/dates/predict", "dates"),
        ("/v1//predict", None),
        ("/v1/dates/predict/", None),
        ("/v2/dates/predict", None),
        ("/v1/models", None),
        ("/", None),
    ],
)
def test_only_the_predict_route_is_taken(path, app):
    assert predict_app(path) == app


def call(middleware, path, chunks, headers=(), method="POST"):
    """Runs one request through `middleware`; (status, JSON body, passed on)."""
    sent, passed = [], []
    messages = [
        {"type": "http.request", "body": c, "more_body": i < len(chunks) - 1}
        for i, c in enumerate(chunks)
    ]

    async def receive():
        return messages.pop(0)

    async def send(message):
        sent.append(message)

    async def downstream(scope, receive, send):
        passed.append(scope["path"])

    middleware.app = downstream
    scope = {"type": "http", "method": method, "path": path, "headers": list(headers)}
    asyncio.run(middleware(scope, receive, send))
    if passed:
        return None, None, passed
    start, body = sent
    assert dict(start["headers"])[b"content-type"] == b"application/json"
    return start["status"], json.loads(body["body"]), passed


async def echo(app_name, body):
    return 200, {"app": app_name, "bytes": len(body)}


def test_the_body_is_read_whole_and_answered():
    status, body, _ = call(
        PredictPath(None, echo, 10), "/v1/dates/predict", [b"ab", b"cd"]
    )
    assert (status, body) == (200, {"app": "dates", "bytes": 4})


def test_other_requests_go_on_to_the_framework():
    for method, path in (("GET", "/v1/dates/predict"), ("POST", "/v1/models")):
        _, _, passed = call(PredictPath(None, echo, 10), path, [b""], method=method)
        assert passed == [path]


@pytest.mark.parametrize(
    "chunks, headers",
    [
        ([b"x" * 11], [(b"content-length", b"11")]),  # by its Content-Length
        ([b"x" * 6, b"x" * 6], []),  # counted as it arrives
        ([b"x"], [(b"content-length", b"-1")]),  # a length that is no number
    ],
)
def test_a_body_over_the_limit_is_a_413_naming_the_body(chunks, headers):
    status, body, _ = call(
        PredictPath(None, echo, 10), "/v1/dates/predict", chunks, headers
    )
    assert status == 413 and body["field"] == "body" and "10 bytes" in body["error"]


def test_a_failure_of_the_answer_is_a_500_with_a_json_body():
    async def broken(app_name, body):
        raise KeyError("oops")

    status, body, _ = call(PredictPath(None, broken, 10), "/v1/dates/predict", [b"{}"])
    assert status == 500 and "KeyError" in body["error"]

    async def not_a_number(app_name, body):
        return 200, {"score": float("nan")}

    status, body, _ = call(PredictPath(None, not_a_number, 10), "/v1/x/predict", [b""])
    assert status == 500 and "not JSON compliant" in body["error"]
