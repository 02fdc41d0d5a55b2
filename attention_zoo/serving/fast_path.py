"""`POST /v1/{app}/predict` answered as plain ASGI, ahead of the framework.

Under 64 concurrent clients the date normalizer's server spent most of its
time in the event loop's thread, most of that in FastAPI's and Starlette's
handling of each request (routing, dependency solving, exception layers,
response encoding) rather than in the model (benchmarks/serving.py,
docs/serving.md). This middleware reads the body (within the size limit),
hands it to the server's `answer` function, which validates it with the
same pydantic model and returns the status and JSON, and writes the
response; every other request goes on to FastAPI.
"""

from __future__ import annotations

import json

from attention_zoo.serving.limits import body_limit_message

# What `_body` returns for a request whose connection closed mid-body.
_GONE = object()


def json_bytes(body: dict) -> bytes:
    """`body` as UTF-8 JSON; NaN or infinity are an error, not invalid JSON."""
    return json.dumps(body, ensure_ascii=False, allow_nan=False).encode()


def predict_app(path: str) -> str | None:
    """The `app` of a path `/v1/{app}/predict`, else None."""
    parts = path.split("/")
    if len(parts) == 4 and parts[:2] == ["", "v1"] and parts[3] == "predict":
        return parts[2] or None
    return None


class PredictPath:
    """ASGI middleware answering `POST /v1/{app}/predict` with `answer`.

    Args:
        app: the ASGI application every other request goes to.
        answer: `async answer(app_name, body bytes) -> (status, dict)`.
        limit: the most bytes a body may hold (413 beyond, by its
            Content-Length or counted as it arrives).
    """

    def __init__(self, app, answer, limit: int):
        self.app = app
        self.answer = answer
        self.limit = limit

    async def __call__(self, scope, receive, send):
        name = None
        if scope["type"] == "http" and scope["method"] == "POST":
            name = predict_app(scope["path"])
        if name is None:
            return await self.app(scope, receive, send)
        body = await self._body(scope, receive)
        if body is _GONE:  # the client left, or a deadline closed it
            return
        if body is None:
            status, payload = (
                413,
                {"error": body_limit_message(self.limit), "field": "body"},
            )
        else:
            try:
                status, payload = await self.answer(name, body)
            except Exception as exc:  # a bug of ours: 500, the server goes on
                status = 500
                payload = {
                    "error": f"internal error: {type(exc).__name__}: {exc}",
                    "field": None,
                }
        try:
            content = json_bytes(payload)
        except ValueError as exc:  # a NaN that escaped `answers`
            status, content = (
                500,
                json_bytes({"error": f"internal error: {exc}", "field": None}),
            )
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(content)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": content})

    async def _body(self, scope, receive):
        """The request's body, None once it is over the limit, or `_GONE`
        when the connection closed before its end."""
        for key, value in scope.get("headers") or ():
            if key == b"content-length":
                if not value.isdigit() or int(value) > self.limit:
                    return None
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return _GONE
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)
