"""`attention-zoo serve`'s process: listen, run the application under
uvicorn with the connection limits, and end in one line or status 0."""

import os
import signal
import socket
import sys

from attention_zoo._quiet_startup import compilation_cache_folder, running_as_command
from attention_zoo.serving.limits import (
    BODY_TIMEOUT,
    HEADER_TIMEOUT,
    IDLE_TIMEOUT,
    MAX_CONNECTIONS,
    MAX_HEADER_BYTES,
)
from attention_zoo.serving.server import EXTRA_HINT, create_app


def serve(
    presets=(),
    runs=(),
    host: str = "127.0.0.1",
    port: int = 8000,
    max_batch: int = 64,
    max_wait_ms: float = 5.0,
    allowed_hosts=(),
    limits=None,
) -> int:
    """Runs the server until SIGINT or SIGTERM, which let the requests in
    flight finish and end the process with status 0.

    Args:
        allowed_hosts: names a client may reach it by besides the loopback
            names and `host` (`*`: any).
        limits: the `connections.ConnectionLimits` (default: `limits.py`'s).

    Raises:
        OSError: `host` and `port` cannot be listened on (a port in use),
            before anything is loaded.
        ValueError: a model failed to load (the server stops).
    """
    # From here on SIGTERM or SIGINT ends the process at once, with status
    # 0 and nothing to drain (uvicorn puts this handler back, and raises
    # the signal again, once it has drained the requests in flight). It
    # exits without Python's shutdown: a model may be loading in a thread,
    # and TensorFlow's threads abort the interpreter's exit ("terminate
    # called without an active exception", status -6).
    for stop in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop, _exit_now)
    try:
        import fastapi  # noqa: F401
        import uvicorn

        from attention_zoo.serving.connections import ConnectionLimits, protocol_class
        from attention_zoo.serving.guards import allowed_host_names
    except ImportError as error:
        raise ImportError(
            f"attention-zoo serve needs the serve extra: {EXTRA_HINT} ({error})"
        ) from None
    if limits is None:
        limits = ConnectionLimits(
            HEADER_TIMEOUT,
            BODY_TIMEOUT,
            IDLE_TIMEOUT,
            MAX_HEADER_BYTES,
            MAX_CONNECTIONS,
        )
    listener = _listen(host, port)  # before loading: a port in use fails at once
    # The command turned the cache on before TensorFlow started.
    cache = compilation_cache_folder() if running_as_command() else None
    failures = []

    def failed(message):
        failures.append(message)
        server.should_exit = True

    app = create_app(
        presets,
        runs,
        max_batch,
        max_wait_ms,
        allowed_hosts=allowed_host_names(host, allowed_hosts),
        on_load_failure=failed,
        progress=_progress,
        cache=cache,
    )
    config = uvicorn.Config(
        app,
        http=protocol_class(limits),
        lifespan="on",
        log_level="warning",
        timeout_graceful_shutdown=30,
    )
    server = uvicorn.Server(config)
    server.run(sockets=[listener])
    if failures:
        raise ValueError(f"a model failed to load: {failures[0]}")
    return 0


def _progress(line: str) -> None:
    """A step of loading and warming, on standard error."""
    print(f"attention-zoo serve: {line}", file=sys.stderr, flush=True)


def _exit_now(signum, frame) -> None:
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on `host`:`port`, or an OSError naming them."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family, backlog=2048)
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise OSError(f"cannot listen on {host}:{port}: {reason}") from None
