"""Which requests the server takes at all: the Host it is reached by, the
page that sends them, and the content type of a POST.

A server on 127.0.0.1 is still reachable from any web page the user
opens: a `text/plain` POST is a "simple" cross-site request that needs no
CORS preflight, and DNS rebinding points a name the attacker owns
(`rebind.evil.example`) at 127.0.0.1, so the browser sends it with that
name in `Host`. So a request is answered only when its `Host` names the
server (`allowed_hosts`), its `Origin`, when it has one, is the server's
own, and a POST says `application/json`; the same three checks as
Starlette's TrustedHostMiddleware plus the two it lacks, written as one
middleware so that every refusal is the documented JSON error.
"""

from __future__ import annotations

from attention_zoo.serving.errors import send_error

# The names of this machine's loopback interface.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
# Addresses that bind every interface: no client names the server by them.
WILDCARD_HOSTS = ("0.0.0.0", "::", "")
MAX_QUOTED = 80


def host_name(authority: str) -> str:
    """`example.com` from `Example.com:8000`, `::1` from `[::1]:8000`."""
    authority = authority.strip().lower()
    if authority.startswith("["):
        return authority[1:].partition("]")[0]
    if authority.count(":") == 1:
        authority = authority.partition(":")[0]
    return authority.rstrip(".")  # `localhost.` is `localhost`


def allowed_host_names(bound: str, extra=()) -> tuple[str, ...]:
    """The loopback names, the address the server is bound to (unless it
    binds every interface) and `extra` (`*`: any name)."""
    names = list(LOOPBACK_HOSTS)
    if host_name(bound) not in WILDCARD_HOSTS:
        names.append(host_name(bound))
    names += [name if name == "*" else host_name(name) for name in extra]
    return tuple(dict.fromkeys(names))


class RequestGuard:
    """ASGI middleware refusing requests that are not the server's own.

    Args:
        app: the ASGI application the requests it takes go to.
        allowed_hosts: the names a `Host` header may give (with or without
            a port; `*` takes any name).

    A `Host` not in the list, or none, is a 400 (field `host`); an
    `Origin` other than the server's own (`http://` or `https://` and the
    request's `Host`) a 403 (field `origin`); a POST whose Content-Type is
    not `application/json` a 415 (field `content-type`).
    """

    def __init__(self, app, allowed_hosts):
        self.app = app
        self.any_host = "*" in allowed_hosts
        self.allowed_hosts = frozenset(allowed_hosts)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        refusal = self.refusal(scope)
        if refusal is not None:
            # The body may be on its way: closing spares reading it.
            return await send_error(send, *refusal, close=True)
        await self.app(scope, receive, send)

    def refusal(self, scope) -> tuple[int, str, str] | None:
        """`(status, message, field)` refusing the request, or None."""
        headers = {}
        for key, value in scope.get("headers") or ():
            headers.setdefault(key, value.decode("latin-1"))
        host = headers.get(b"host")
        if host is None:
            return 400, "the request has no Host header", "host"
        if not self.any_host and host_name(host) not in self.allowed_hosts:
            return (
                400,
                f"this server does not answer to the host {host[:MAX_QUOTED]!r} "
                "(add it with --allowed-host)",
                "host",
            )
        origin = headers.get(b"origin")
        if origin is not None and origin.lower() not in (
            f"http://{host}".lower(),
            f"https://{host}".lower(),
        ):
            return (
                403,
                f"cross-origin requests are refused: Origin {origin[:MAX_QUOTED]!r} "
                f"is not this server's (http://{host[:MAX_QUOTED]})",
                "origin",
            )
        if scope["method"] == "POST":
            kind = headers.get(b"content-type", "")
            if kind.partition(";")[0].strip().lower() != "application/json":
                return (
                    415,
                    "a POST must be JSON (Content-Type: application/json). "
                    f"Received: {kind[:MAX_QUOTED]!r}",
                    "content-type",
                )
        return None
