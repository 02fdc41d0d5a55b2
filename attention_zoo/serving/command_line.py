"""The `attention-zoo serve` command's flags and their checks.

Imports neither the server nor Keras (its defaults are `serving.defaults`),
so that `attention-zoo serve --help` and a mistyped flag answer at once
(docs/reliability.md, "The command answers at once"); the command
(`attention_zoo.cli`) starts the server.
"""

from __future__ import annotations

from attention_zoo.applications.common.cli import check_flags
from attention_zoo.applications.common.config import integer_range, number_range
from attention_zoo.serving.defaults import (
    BODY_TIMEOUT,
    HEADER_TIMEOUT,
    IDLE_TIMEOUT,
    MAX_CONNECTIONS,
)


def add_serve(commands) -> None:
    """Adds the `serve` command and its flags to the subparsers `commands`."""
    serve = commands.add_parser(
        "serve",
        help="serve models over HTTP: a JSON API and an attention explorer page",
        description="Serve shipped presets and trained runs (one per application) "
        "behind a JSON API (POST /v1/APP/predict, GET /v1/models, /healthz, "
        "/readyz, /openapi.json) with micro-batching, and an attention explorer "
        "at /. Needs the serve extra: pip install '.[serve]' in a clone of the repository.",
    )
    serve.add_argument(
        "--preset",
        nargs="+",
        default=[],
        metavar="NAME",
        help="shipped presets or preset folders to serve (default: none)",
    )
    serve.add_argument(
        "--run",
        nargs="+",
        default=[],
        metavar="RUN",
        help="training runs to serve (default: none)",
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to bind (default 127.0.0.1: this machine only; "
        "0.0.0.0 opens it to the network)",
    )
    serve.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    serve.add_argument(
        "--max-batch",
        type=int,
        default=64,
        help="most inputs gathered into one model call, 1 to 1024 (default 64)",
    )
    serve.add_argument(
        "--max-wait-ms",
        type=float,
        default=5.0,
        help="how long a request waits for others to join its call, 0 to "
        "1000 ms (default 5)",
    )
    serve.add_argument(
        "--allowed-host",
        nargs="+",
        default=[],
        metavar="NAME",
        help="names clients reach the server by, besides 127.0.0.1, localhost, "
        "[::1] and --host (a request naming another in its Host header is "
        "refused: DNS rebinding); * allows any (default: none)",
    )
    serve.add_argument(
        "--max-connections",
        type=int,
        default=MAX_CONNECTIONS,
        help="open connections; a request over them gets 503, 1 to 10000 "
        f"(default {MAX_CONNECTIONS})",
    )
    for flag, default, what in (
        (
            "--header-timeout",
            HEADER_TIMEOUT,
            "a request's line and headers, from its first byte",
        ),
        (
            "--body-timeout",
            BODY_TIMEOUT,
            "a request's body, from the end of its headers",
        ),
        ("--idle-timeout", IDLE_TIMEOUT, "a connection that sends nothing"),
    ):
        serve.add_argument(
            flag,
            type=float,
            default=default,
            metavar="SECONDS",
            help=f"seconds allowed for {what}, 0.1 to 3600 (default {default:g})",
        )


def check_serve_arguments(parser, args) -> None:
    """`parser.error` (exit 2) for the first `serve` flag out of its range,
    or no model to serve."""
    check_flags(
        parser,
        [
            ("--port", args.port, integer_range(1, 65535)),
            ("--max-batch", args.max_batch, integer_range(1, 1024)),
            ("--max-connections", args.max_connections, integer_range(1, 10000)),
            ("--header-timeout", args.header_timeout, number_range(0.1, 3600)),
            ("--body-timeout", args.body_timeout, number_range(0.1, 3600)),
            ("--idle-timeout", args.idle_timeout, number_range(0.1, 3600)),
        ],
    )
    if not 0 <= args.max_wait_ms <= 1000:
        parser.error(f"--max-wait-ms must be 0 to 1000. Received: {args.max_wait_ms}")
    if not (args.preset or args.run):
        parser.error("give at least one model: --preset NAME or --run RUN")
