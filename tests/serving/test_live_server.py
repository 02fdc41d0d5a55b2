"""`attention-zoo serve` as a user runs it: a real uvicorn process on a
free loopback port, concurrent clients, requests from other sites and
slow or malformed clients refused, and SIGTERM draining the requests in
flight before it exits 0."""

import http.client
import json
import signal
import socket
import threading
import time

import pytest

from tests.serving.live import call, serve

pytestmark = pytest.mark.tf_only

TIMEOUT = 2
CONNECTIONS = 32


@pytest.fixture(scope="module")
def server():
    flags = [
        "--preset",
        "dates_multilingual",
        "--max-batch",
        "8",
        "--max-wait-ms",
        "20",
    ]
    # Short deadlines, so that the slow clients below are cut off quickly.
    flags += ["--header-timeout", str(TIMEOUT), "--body-timeout", str(TIMEOUT)]
    flags += ["--idle-timeout", str(TIMEOUT), "--max-connections", str(CONNECTIONS)]
    flags += ["--allowed-host", "api.example"]
    yield from serve(*flags)


def test_it_binds_loopback_and_answers_concurrent_clients(server):
    process, url = server
    dates = [f"{day} May 1979" for day in range(1, 25)]
    answers = [None] * len(dates)

    def ask(i):
        answers[i] = call(f"{url}/v1/dates/predict", {"inputs": [dates[i]]})

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(dates))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(status == 200 for status, _ in answers)
    outputs = [body["answers"][0]["output"] for _, body in answers]
    assert outputs == [f"1979-05-{day:02d}" for day in range(1, 25)]
    status, body = call(f"{url}/v1/dates/predict", {"inputs": "3 May"})
    assert status == 422 and body["field"] == "inputs"


def request(url, method, path, body=b"", headers=()):
    """(status, headers, JSON body) of one request with exactly `headers`."""
    connection = http.client.HTTPConnection(url.removeprefix("http://"), timeout=30)
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for name, value in headers:
        connection.putheader(name, value)
    if method == "POST":
        connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    response = connection.getresponse()
    answer = response.status, response.headers, json.loads(response.read())
    connection.close()
    return answer


PREDICT = b'{"inputs": ["3 May 1979"]}'


@pytest.mark.parametrize(
    "headers, status, field",
    [
        # A page of another site, through DNS rebinding, as text/plain (a
        # "simple" request, which the browser sends without a preflight).
        (
            [("Host", "rebind.evil.example"), ("Origin", "http://evil.example")],
            400,
            "host",
        ),
        ([("Host", "HOST"), ("Origin", "http://evil.example")], 403, "origin"),
        ([("Host", "HOST"), ("Origin", "null")], 403, "origin"),
        ([("Host", "HOST")], 415, "content-type"),
        ([], 400, "host"),
    ],
)
def test_requests_of_other_sites_are_refused(server, headers, status, field):
    _, url = server
    host = url.removeprefix("http://")
    headers = [(k, v.replace("HOST", host)) for k, v in headers]
    headers.append(("Content-Type", "text/plain"))
    for method, path, body in (
        ("POST", "/v1/dates/predict", PREDICT),  # answered ahead of FastAPI
        ("POST", "/v1/models", PREDICT),
    ):
        got, response_headers, error = request(url, method, path, body, headers)
        assert (got, error["field"]) == (status, field), error
        assert response_headers["content-type"] == "application/json"
    if field != "content-type":
        got, _, error = request(url, "GET", "/v1/models", headers=headers)
        assert (got, error["field"]) == (status, field), error


def test_the_servers_own_names_and_pages_are_answered(server):
    _, url = server
    port = url.rpartition(":")[2]
    json_type = ("Content-Type", "application/json; charset=utf-8")
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "[::1]", "api.example"):
        own = [("Host", host), ("Origin", f"http://{host}"), json_type]
        status, _, body = request(url, "POST", "/v1/dates/predict", PREDICT, own)
        assert status == 200 and body["answers"][0]["output"] == "1979-05-03"
        assert request(url, "GET", "/healthz", headers=[("Host", host)])[0] == 200


def raw(url, data: bytes, seconds: float = 30):
    """A connection that sends `data` and then nothing: (what the server
    answered before it closed, seconds until it closed)."""
    host, _, port = url.removeprefix("http://").rpartition(":")
    with socket.create_connection((host, int(port)), timeout=seconds) as sock:
        start = time.monotonic()
        sock.sendall(data)
        return read_to_close(sock), time.monotonic() - start


def read_to_close(sock) -> bytes:
    chunks = []
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return b"".join(chunks)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def parsed(response: bytes):
    """(status, JSON body) of a raw HTTP response."""
    head, _, body = response.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower(), response[:300]
    return int(head.split()[1]), json.loads(body)


def test_stalled_and_silent_clients_are_cut_off_and_healthz_answers(server):
    _, url = server
    head = f"POST /v1/dates/predict HTTP/1.1\r\nHost: {url[7:]}\r\n"
    clients = {
        "stalled headers": head.encode(),
        "stalled body": (
            head + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
        ).encode()
        + PREDICT[:10],
        "silent": b"",
    }
    results = {}
    threads = [
        threading.Thread(target=lambda k=k: results.update({k: raw(url, clients[k])}))
        for k in clients
    ]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    start = time.monotonic()
    assert call(f"{url}/healthz", timeout=10) == (200, {"status": "ok"})
    assert time.monotonic() - start < TIMEOUT  # not behind the slow clients
    for thread in threads:
        thread.join(60)
    for name, (_, seconds) in results.items():
        # Closed at the deadline, well before the 30 s the client waits.
        assert TIMEOUT - 0.5 < seconds < TIMEOUT + 5, (name, seconds)
    assert parsed(results["stalled headers"][0]) == (
        408,
        {
            "error": f"the request's headers did not arrive within {TIMEOUT} s",
            "field": "headers",
        },
    )
    assert parsed(results["stalled body"][0])[1]["field"] == "body"
    assert results["silent"][0] == b""


def test_an_oversized_header_is_refused_before_it_is_read(server):
    _, url = server
    host, _, port = url.removeprefix("http://").rpartition(":")
    sent = 0
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        try:
            sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\nX-Big: ".encode())
            while sent < 200 * 2**20:  # a 200 MB header line
                sock.sendall(b"a" * 2**16)
                sent += 2**16
        except OSError:  # the server closed: reset, or a broken pipe
            pass
        response = read_to_close(sock)
    # What the kernels' buffers held, not the 200 MB.
    assert sent < 32 * 2**20, sent
    if response:  # else the reset overtook the answer
        assert parsed(response) == (
            431,
            {
                "error": "the request's line and headers are over 65,536 bytes",
                "field": "headers",
            },
        )
    assert call(f"{url}/healthz")[0] == 200


@pytest.mark.parametrize("length", ["-1", "abc", "1e3"])
def test_a_malformed_content_length_is_a_json_400(server, length):
    _, url = server
    data = (
        f"POST /v1/dates/predict HTTP/1.1\r\nHost: {url[7:]}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
    ).encode() + PREDICT
    response, _ = raw(url, data)
    status, error = parsed(response)
    assert status == 400 and error["field"] == "content-length", error
    assert "Content-Length" in error["error"]


def test_a_request_over_the_connection_limit_is_a_quick_503(server):
    _, url = server
    host, _, port = url.removeprefix("http://").rpartition(":")
    held = [socket.create_connection((host, int(port))) for _ in range(CONNECTIONS)]
    try:
        time.sleep(0.3)  # the server accepts them
        start = time.monotonic()
        response, _ = raw(
            url, f"GET /healthz HTTP/1.1\r\nHost: {url[7:]}\r\n\r\n".encode()
        )
        assert time.monotonic() - start < 1.5
        status, error = parsed(response)
        assert status == 503 and f"{CONNECTIONS} connections" in error["error"]
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.3)
    assert call(f"{url}/healthz")[0] == 200


def test_sigterm_drains_the_requests_in_flight_and_exits_0(server):
    process, url = server
    results = []

    def ask():
        # 256 long inputs: a call long enough to be in flight at SIGTERM.
        inputs = ["Thursday, the twenty-seventh of July 2095"] * 256
        results.append(call(f"{url}/v1/dates/predict", {"inputs": inputs}))

    thread = threading.Thread(target=ask)
    thread.start()
    time.sleep(0.3)
    process.send_signal(signal.SIGTERM)
    thread.join(120)
    assert process.wait(60) == 0
    ((status, body),) = results
    assert status == 200 and len(body["answers"]) == 256
    assert body["answers"][0]["output"] == "2095-07-27"
    _, err = process.communicate()
    assert "Traceback" not in err, err
