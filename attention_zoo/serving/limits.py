"""What one request and one connection may hold, and the middleware that
refuses a larger body before it is read whole."""

from __future__ import annotations

from attention_zoo.applications.common.inputs import MAX_INPUT_CHARS
from attention_zoo.serving.defaults import (  # noqa: F401 (the limits, all here)
    BODY_TIMEOUT,
    HEADER_TIMEOUT,
    IDLE_TIMEOUT,
    MAX_CONNECTIONS,
    MAX_HEADER_BYTES,
)
from attention_zoo.serving.errors import send_error

# Inputs per request: a batch the batcher can fill a call with.
MAX_INPUTS = 256
# Characters per text: the limit of every entry point (the command line's
# lines too).
MAX_TEXT_CHARS = MAX_INPUT_CHARS
# Characters of a request's `reference`: the longest ISO 8601 date-time
# with microseconds and an offset is 32; a longer one is no reference.
MAX_REFERENCE_CHARS = 64
# Bytes per decoded image, and per request body (base64 is 4/3 the bytes).
MAX_IMAGE_BYTES = 8 * 1024 * 1024
MAX_BODY_BYTES = 12 * 1024 * 1024


def body_limit_message(limit: int) -> str:
    """The error of a body over `limit` bytes."""
    return f"the request body is over {limit:,} bytes"


class BodyLimit:
    """ASGI middleware: a request body over `limit` bytes gets a 413 JSON
    error, judged by its Content-Length or, for a chunked body, as it
    arrives."""

    def __init__(self, app, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            return await self._refuse(send)
        seen = 0

        async def counted_receive():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    # An HTTPException: FastAPI re-raises it from its body
                    # parsing (any other error there becomes a 400).
                    from starlette.exceptions import HTTPException

                    raise HTTPException(413, self.message)
            return message

        await self.app(scope, counted_receive, send)

    @property
    def message(self) -> str:
        return body_limit_message(self.limit)

    async def _refuse(self, send):
        await send_error(send, 413, self.message, "body")
