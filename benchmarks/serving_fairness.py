"""What one heavy request costs another client's light one: the light
request's latency alone, then sent `--delay` seconds after a heavy
request (`--heavy` inputs at the preset's beam width, then 64 inputs at
beam width 64), against a real server (`attention-zoo serve`) on
loopback.

Usage (needs `pip install ".[serve]"`):

    python -m benchmarks.serving_fairness --preset shapes --max-batch 8
"""

from __future__ import annotations

import argparse
import base64
import http.client
import json
import threading
import time

from benchmarks.serving import start_server


def ask(port: int, app: str, body: dict) -> tuple[int, float]:
    """The status and seconds of one POST to `/v1/{app}/predict`."""
    start = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    connection.request(
        "POST",
        f"/v1/{app}/predict",
        json.dumps(body),
        {"content-type": "application/json"},
    )
    response = connection.getresponse()
    response.read()
    return response.status, time.monotonic() - start


def inputs_of(preset: str) -> list:
    """The preset's fixed inputs as the API takes them (images in base64)."""
    from attention_zoo.presets import fixed_inputs

    return [
        base64.b64encode(p.read_bytes()).decode() if hasattr(p, "read_bytes") else p
        for p in fixed_inputs(preset)
    ]


def beside(port, app, heavy: dict, light: dict, delay: float) -> tuple:
    """`(heavy status, heavy s, light status, light s)`, the light request
    sent `delay` seconds after the heavy one."""
    out = {}
    thread = threading.Thread(
        target=lambda: out.setdefault("heavy", ask(port, app, heavy))
    )
    thread.start()
    time.sleep(delay)
    light_answer = ask(port, app, light)
    thread.join()
    return (*out["heavy"], *light_answer)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="shapes")
    parser.add_argument("--max-batch", type=int, default=8)
    parser.add_argument("--heavy", type=int, default=256)
    parser.add_argument("--delay", type=float, default=1.0)
    args = parser.parse_args(argv)
    from attention_zoo.presets import read_metadata

    app = read_metadata(args.preset)["app"]
    inputs = inputs_of(args.preset)
    process, port = start_server(
        args.preset, ["--max-batch", str(args.max_batch), "--max-wait-ms", "5"]
    )
    try:
        light = {"inputs": inputs[:1]}
        ask(port, app, light)
        _, alone = ask(port, app, light)
        print(f"light request alone: {alone:.2f} s")
        print("| heavy request | its status | its seconds | light request's seconds |")
        print("|---|---:|---:|---:|")
        heavy = [inputs[i % len(inputs)] for i in range(args.heavy)]
        for name, body in (
            (f"{args.heavy} inputs, the preset's beam", {"inputs": heavy}),
            ("64 inputs, beam_width 64", {"inputs": heavy[:64], "beam_width": 64}),
        ):
            status, seconds, light_status, light_seconds = beside(
                port, app, body, light, args.delay
            )
            assert light_status == 200, light_status
            print(f"| {name} | {status} | {seconds:.2f} | {light_seconds:.2f} |")
    finally:
        process.kill()
        process.wait()


if __name__ == "__main__":
    main()
