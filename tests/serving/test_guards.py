"""`RequestGuard`'s rules on their own: which Host names a server answers
to, which Origin is its own, which POST is JSON."""

import pytest

from attention_zoo.serving.guards import RequestGuard, allowed_host_names, host_name


@pytest.mark.parametrize(
    "authority, name",
    [
        ("127.0.0.1:8000", "127.0.0.1"),
        ("LocalHost", "localhost"),
        ("localhost.:8000", "localhost"),
        ("[::1]:8000", "::1"),
        ("[::1]", "::1"),
        ("::1", "::1"),
        ("rebind.evil.example:8000", "rebind.evil.example"),
    ],
)
def test_the_name_of_a_host_header(authority, name):
    assert host_name(authority) == name


def test_the_bound_address_and_the_extra_names_are_allowed():
    assert allowed_host_names("127.0.0.1") == ("127.0.0.1", "localhost", "::1")
    names = allowed_host_names("0.0.0.0", ["Models.LAN:8000", "*"])
    assert names == ("127.0.0.1", "localhost", "::1", "models.lan", "*")
    assert "192.168.1.20" in allowed_host_names("192.168.1.20")


def refusal(headers, method="POST", allowed=("127.0.0.1", "localhost", "::1")):
    scope = {
        "method": method,
        "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
    }
    answer = RequestGuard(None, allowed).refusal(scope)
    return answer and answer[::2]  # (status, field)


JSON = {"content-type": "application/json"}


@pytest.mark.parametrize(
    "headers, method, expected",
    [
        ({"host": "127.0.0.1:8000", **JSON}, "POST", None),
        (
            {"host": "localhost:8000", "origin": "http://localhost:8000", **JSON},
            "POST",
            None,
        ),
        ({"host": "[::1]:8000", "origin": "HTTPS://[::1]:8000", **JSON}, "POST", None),
        (
            {"host": "127.0.0.1", "content-type": "Application/JSON; charset=utf-8"},
            "POST",
            None,
        ),
        ({"host": "127.0.0.1"}, "GET", None),
        ({"host": "rebind.evil.example:8000", **JSON}, "POST", (400, "host")),
        ({**JSON}, "POST", (400, "host")),
        (
            {"host": "127.0.0.1:8000", "origin": "http://evil.example", **JSON},
            "POST",
            (403, "origin"),
        ),
        (
            {"host": "127.0.0.1:8000", "origin": "http://127.0.0.1:9000"},
            "GET",
            (403, "origin"),
        ),
        ({"host": "127.0.0.1:8000", "origin": "null", **JSON}, "POST", (403, "origin")),
        (
            {"host": "127.0.0.1:8000", "content-type": "text/plain"},
            "POST",
            (415, "content-type"),
        ),
        ({"host": "127.0.0.1:8000"}, "POST", (415, "content-type")),
        (
            {"host": "127.0.0.1:8000", "content-type": "application/jsonx"},
            "POST",
            (415, "content-type"),
        ),
    ],
)
def test_what_is_refused(headers, method, expected):
    assert refusal(headers, method) == expected


def test_a_star_takes_any_host_but_still_checks_the_origin():
    headers = {"host": "models.example", **JSON}
    assert refusal(headers, allowed=("*",)) is None
    headers["origin"] = "http://evil.example"
    assert refusal(headers, allowed=("*",)) == (403, "origin")
