"""What one request may cost the others, against a real server process
(reliability round 4, items 1 and 2): a beam width outside the few
compiled at start is refused, a large request is answered in chunks that
another client's request goes between, and images decode off the event
loop, so that /healthz answers while a large one is decoded."""

import base64
import io
import threading
import time

import numpy as np
import pytest

from attention_zoo.presets import fixed_inputs
from tests.serving.live import call, serve

pytestmark = pytest.mark.tf_only

MAX_BATCH = 4


@pytest.fixture(scope="module")
def server():
    flags = ["--preset", "shapes", "--max-batch", str(MAX_BATCH), "--max-wait-ms", "5"]
    for _, url in serve(*flags):
        yield url


def _image(i: int = 0) -> str:
    return base64.b64encode(fixed_inputs("shapes")[i].read_bytes()).decode()


def _timed(url, body, out: dict, key: str):
    start = time.monotonic()
    out[key] = call(f"{url}/v1/captioning/predict", body)
    out[key + "_seconds"] = time.monotonic() - start
    out[key + "_done"] = time.monotonic()


def test_only_the_beam_widths_compiled_at_start_are_served(server):
    (model,) = call(f"{server}/v1/models")[1]["models"]
    assert model["beam_width"] == 3 and model["beam_widths"] == [1, 3]
    status, body = call(
        f"{server}/v1/captioning/predict", {"inputs": [_image()], "beam_width": 64}
    )
    assert status == 422 and body["field"] == "beam_width"
    assert "1 or 3" in body["error"] and "beam_width=64" in body["error"]
    # Greedy search was compiled at start at every batch size: no request
    # waits for a compilation (5-10 s each on 2 cores).
    for size in (1, 2, 3, 4):
        start = time.monotonic()
        status, body = call(
            f"{server}/v1/captioning/predict",
            {"inputs": [_image()] * size, "beam_width": 1},
        )
        assert status == 200 and len(body["answers"]) == size
        assert time.monotonic() - start < 3, (size, time.monotonic() - start)


def test_another_clients_request_goes_between_the_chunks_of_a_large_one(server):
    images = [_image(i % 3) for i in range(96)]
    out = {}
    heavy = threading.Thread(
        target=_timed, args=(server, {"inputs": images}, out, "heavy")
    )
    heavy.start()
    time.sleep(1.0)  # the large request is being answered
    _timed(server, {"inputs": [_image(1)]}, out, "light")
    heavy.join(300)
    status, body = out["heavy"]
    assert status == 200 and len(body["answers"]) == 96
    expected = [
        a["output"]
        for a in call(f"{server}/v1/captioning/predict", {"inputs": images[:3]})[1][
            "answers"
        ]
    ]
    assert [a["output"] for a in body["answers"][:6]] == expected * 2
    assert out["light"][0] == 200
    # Answered while the large request was still running, not after it.
    assert out["light_done"] < out["heavy_done"], out
    assert out["light_seconds"] < out["heavy_seconds"] / 3, out


@pytest.fixture(scope="module")
def large_png():
    from PIL import Image

    # 6,300 x 6,300 pixels (under MAX_PIXELS), 130 KB compressed: slow
    # enough to decode that a decode on the event loop shows in /healthz.
    pixels = np.zeros((6300, 6300, 3), "uint8")
    pixels[::7, :, 0] = 255
    pixels[:, ::5, 1] = 200
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "PNG", compress_level=1)
    return base64.b64encode(buffer.getvalue()).decode()


def test_healthz_answers_while_large_images_are_decoded(server, large_png):
    out = {}
    request = threading.Thread(
        target=_timed, args=(server, {"inputs": [large_png] * 2}, out, "large")
    )
    request.start()
    waits = []
    deadline = time.monotonic() + 4
    while time.monotonic() < deadline and request.is_alive():
        start = time.monotonic()
        assert call(f"{server}/healthz", timeout=30)[0] == 200
        waits.append(time.monotonic() - start)
        time.sleep(0.05)
    request.join(300)
    assert out["large"][0] == 200, out["large"]
    # A loop blocked by the decodes would make most answers wait for one
    # (about 0.5 s each on an idle core) and answer few; one slow answer in
    # ten is left to the scheduler of two cores shared with another test
    # worker (it once delayed one answer of 70 by 0.62 s).
    slow = [w for w in waits if w >= 0.25]
    assert len(waits) >= 5 and len(slow) <= max(1, len(waits) // 10), waits
