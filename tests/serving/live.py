"""A real `attention-zoo serve` process for the live tests: a free
loopback port, a JSON client, and a server started and waited for once."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(url, body=None, timeout=120):
    """`(status, JSON body)` of a GET (`body` None) or a JSON POST."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def start(*flags: str, env=None) -> subprocess.Popen:
    """`attention-zoo serve FLAGS` as a user starts it, output captured,
    with the environment variables `env` added."""
    return subprocess.Popen(
        [sys.executable, "-m", "attention_zoo", "serve", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", **(env or {})},
    )


def wait_ready(url: str, process=None, seconds: float = 300) -> None:
    """Until `url`'s /readyz says 200; fails with the process's output if
    it ends first, or after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        assert process is None or process.poll() is None, process.communicate()
        try:
            if call(f"{url}/readyz", timeout=5)[0] == 200:
                return
        except OSError:  # not listening yet (URLError is an OSError)
            pass
        assert time.monotonic() < deadline, "the server never became ready"
        time.sleep(0.5)


def serve(*flags: str, env=None, seconds: float = 300):
    """A generator for a module fixture: yields `(process, url)` of a ready
    server on a free port with `flags` (and `env`), ready within
    `seconds`, and kills it afterwards."""
    port = free_port()
    process = start(*flags, "--port", str(port), env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(url, process, seconds)
        yield process, url
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()
