"""What one connection may cost the server: uvicorn's httptools protocol
with the limits it lacks.

Uvicorn closes a connection idle between two requests (`timeout_keep_alive`)
and answers 503 over `limit_concurrency`; it has no limit on a request's
head (httptools buffers a 200 MB header line), no deadline for a head or a
body that stalls, no timeout before a connection's first byte, and its
refusals are plain text. `GuardedProtocol` adds them, each refusal the
documented JSON error followed by closing the connection:

- idle: a connection that sends nothing for `idle_timeout` seconds, before
  its first request as between two, is closed (uvicorn's keep-alive timer,
  armed at the connection too);
- head: a request whose line and headers are not whole within
  `header_timeout` seconds of its first byte gets a 408; one whose head
  passes `max_header_bytes` a 431, without the rest being read;
- body: a body not whole within `body_timeout` seconds of the end of its
  head gets a 408 and the connection is closed (the middleware reading it
  sees a disconnect and lets go of what it held);
- connections: a request on a connection past the `max_connections`-th
  open one gets a 503 (uvicorn's `limit_concurrency` test, answered in
  JSON);
- a request that is not HTTP (a Content-Length of `-1`, `abc` or `1e3`)
  gets httptools' reason in a JSON 400, where uvicorn answers plain text.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from attention_zoo.serving.errors import raw_error, send_error


@dataclass(frozen=True)
class ConnectionLimits:
    """The limits `GuardedProtocol` enforces (seconds and bytes)."""

    header_timeout: float
    body_timeout: float
    idle_timeout: float
    max_header_bytes: int
    max_connections: int


class _Refused(Exception):
    """Raised inside an httptools callback to stop parsing a request."""


class GuardedProtocol(HttpToolsProtocol):
    """`HttpToolsProtocol` with the limits of `self.limits`; `protocol_class`
    makes the subclass that holds them, the class uvicorn's `http=` takes."""

    limits: ConnectionLimits

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.timeout_keep_alive = self.limits.idle_timeout
        self._deadline: asyncio.TimerHandle | None = None
        self._head_bytes: int | None = None  # None outside a request's head
        self._refusal: tuple[int, str, str | None] | None = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        # Uvicorn arms its idle timer only after a first response.
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )

    def connection_lost(self, exc) -> None:
        self._cancel_deadline()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
        except httptools.HttpParserError as error:
            refusal, self._refusal = self._refusal, None
            if refusal is None:
                field = (
                    "content-length" if "content-length" in str(error).lower() else None
                )
                refusal = (400, f"the request is not valid HTTP: {error}", field)
            self._refuse(*refusal)
            return
        if self._head_bytes is not None:
            # Still inside a head: count what it has held so far, so that
            # httptools never buffers much more than the limit.
            self._head_bytes += len(data)
            if self._head_bytes > self.limits.max_header_bytes:
                self._refuse(*self._head_too_large())

    # Parser callbacks
    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_bytes = 0
        self._set_deadline(self.limits.header_timeout, "the request's headers")

    def on_headers_complete(self) -> None:
        self._cancel_deadline()
        size = len(self.url) + sum(len(k) + len(v) + 4 for k, v in self.headers)
        if size > self.limits.max_header_bytes:
            self._refusal = self._head_too_large()
            raise _Refused
        self._head_bytes = None
        app = self.app
        if len(self.connections) > self.limits.max_connections:
            self.app = self._busy
        try:
            super().on_headers_complete()
        finally:
            self.app = app
        self._set_deadline(self.limits.body_timeout, "the request's body")

    def on_message_complete(self) -> None:
        self._cancel_deadline()
        super().on_message_complete()

    # Refusals
    def _head_too_large(self) -> tuple[int, str, str]:
        return (
            431,
            f"the request's line and headers are over "
            f"{self.limits.max_header_bytes:,} bytes",
            "headers",
        )

    def _refuse(self, status: int, message: str, field: str | None) -> None:
        """Answers `status` to the request at hand unless its answer has
        begun, and closes the connection."""
        self._cancel_deadline()
        if self.transport.is_closing():
            return
        cycle = self.cycle
        in_flight = cycle is not None and not cycle.response_complete
        if in_flight and not cycle.response_started:
            # The application waits for this request's body: it reads a
            # disconnect, and what it answers then is dropped.
            cycle.disconnected = True
            cycle.message_event.set()
            self.transport.write(raw_error(status, message, field))
        elif not in_flight and (self._head_bytes is not None or cycle is None):
            self.transport.write(raw_error(status, message, field))
        # Else an answer was given (or begun) before the body ended: close.
        self.transport.close()

    def _set_deadline(self, seconds: float, what: str) -> None:
        self._cancel_deadline()
        self._deadline = self.loop.call_later(
            seconds,
            self._refuse,
            408,
            f"{what} did not arrive within {seconds:g} s",
            "body" if "body" in what else "headers",
        )

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    async def _busy(self, scope, receive, send) -> None:
        await send_error(
            send,
            503,
            f"the server holds its limit of {self.limits.max_connections} "
            "connections; try again shortly",
            None,
            close=True,
        )


def protocol_class(limits: ConnectionLimits) -> type[GuardedProtocol]:
    """The `GuardedProtocol` subclass enforcing `limits`."""
    return type("GuardedProtocol", (GuardedProtocol,), {"limits": limits})
