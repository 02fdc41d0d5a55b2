"""`attention-zoo serve` as a user runs it: a real uvicorn process on a
free loopback port, concurrent clients, and SIGTERM draining the requests
in flight before it exits 0."""

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

pytestmark = pytest.mark.tf_only


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(url, body=None, timeout=120):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.fixture(scope="module")
def server():
    port = free_port()
    argv = [
        sys.executable,
        "-m",
        "attention_zoo",
        "serve",
        "--preset",
        "dates_multilingual",
    ]
    argv += ["--port", str(port), "--max-batch", "8", "--max-wait-ms", "20"]
    process = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while True:
        assert process.poll() is None, process.communicate()
        try:
            if call(f"{url}/readyz", timeout=5)[0] == 200:
                break
        except (urllib.error.URLError, ConnectionError):
            pass
        assert time.monotonic() < deadline, "the server never became ready"
        time.sleep(0.5)
    yield process, url
    if process.poll() is None:
        process.kill()
        process.communicate()


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
