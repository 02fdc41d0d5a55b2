"""The documented error body, `{"error": MESSAGE, "field": NAME}`, for the
layers that answer before FastAPI does: an ASGI middleware (`send_error`)
and the HTTP protocol itself (`raw_error`, before any ASGI request
exists)."""

from __future__ import annotations

import http
import json


def error_json(message: str, field: str | None) -> bytes:
    """The error body as UTF-8 JSON."""
    return json.dumps({"error": message, "field": field}, ensure_ascii=False).encode()


async def send_error(
    send, status: int, message: str, field: str | None, close: bool = False
) -> None:
    """Answers an ASGI request with the error; `close` ends the connection
    after it (the request's body may be unread or never come)."""
    body = error_json(message, field)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def raw_error(status: int, message: str, field: str | None) -> bytes:
    """A whole HTTP/1.1 response holding the error, closing the connection."""
    body = error_json(message, field)
    phrase = http.HTTPStatus(status).phrase
    head = (
        f"HTTP/1.1 {status} {phrase}\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body
