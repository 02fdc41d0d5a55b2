"""`attention-zoo serve`'s process from start to end: a port in use, a
signal at any moment, a model that fails to load; each ends in one line
(or none but the progress lines) and a status, never an abort or a server that loads forever."""

import re
import shutil
import signal
import socket
import time
import urllib.error

import pytest

from attention_zoo.presets import preset_folder
from tests.serving.live import call, free_port, start

pytestmark = pytest.mark.tf_only

PROGRESS = re.compile(
    r"attention-zoo serve: (dates \(preset dates_multilingual\): loaded"
    r"|dates: every search compiled at one shape) in \d+\.\d s.*"
)


def test_a_port_in_use_is_one_line_and_exit_2():
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        process = start("--preset", "dates_multilingual", "--port", str(port))
        _, err = process.communicate(timeout=300)
    assert process.returncode == 2, err
    assert err == (
        f"attention-zoo serve: error: cannot listen on 127.0.0.1:{port}: "
        "Address already in use\n"
    )


def wait_until(ready, process, seconds=300):
    deadline = time.monotonic() + seconds
    while not ready():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.1)


def accepts(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def answers(url: str) -> bool:
    try:
        return call(f"{url}/healthz", timeout=2)[0] == 200
    except (urllib.error.URLError, OSError):
        return False


@pytest.mark.parametrize("moment", ["after the bind", "while loading"])
def test_sigterm_at_any_moment_exits_0_quietly(moment):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    process = start("--preset", "dates_multilingual", "--port", str(port))
    try:
        if moment == "after the bind":
            wait_until(lambda: accepts(port), process)
            time.sleep(0.5)
        else:
            # The server answers and a thread loads the model (TensorFlow's
            # threads, which abort a Python shutdown that does not wait).
            wait_until(lambda: answers(url), process)
            assert call(f"{url}/readyz")[0] == 503
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 0, err
    # Nothing but the progress lines of loading (docs/serving.md, "Start-up").
    assert all(PROGRESS.fullmatch(line) for line in err.splitlines()), err


def test_a_model_that_fails_to_load_ends_the_command_in_one_line(tmp_path):
    broken = tmp_path / "dates_broken"
    shutil.copytree(preset_folder("dates_multilingual"), broken)
    weights = broken / "model.weights.h5"
    weights.write_bytes(weights.read_bytes()[:2000])  # a cut download
    process = start("--preset", str(broken), "--port", str(free_port()))
    try:  # before the fix it served 503 "still loading" forever
        _, err = process.communicate(timeout=300)
    finally:
        process.kill()
    assert process.returncode == 2, err
    assert err.count("\n") == 1, err
    assert err.startswith(
        f"attention-zoo serve: error: a model failed to load: preset {broken}: "
    )
    assert "model.weights.h5" in err
