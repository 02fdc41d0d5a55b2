"""`attention-zoo serve` under concurrent clients, on loopback, against
the predictor's own batch throughput and against the same server without
micro-batching, in one run.

For each preset: the predictor in this process answers batches of 64
(inputs/s: the ceiling a server could reach); then the server runs as a
subprocess twice, micro-batched (`--max-batch 64 --max-wait-ms 5`) and not
(`--max-batch 1 --max-wait-ms 0`: one call per request), and at each
concurrency `c` that many client threads send one-input requests, each
waiting for its answer before the next, until `--requests` answers or
`--seconds` have passed.

Usage (needs `pip install 'attention-zoo[serve]'`):

    python -m benchmarks.serving
    python -m benchmarks.serving --presets dates_multilingual --requests 400
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

MODES = {
    "micro-batched": ["--max-batch", "64", "--max-wait-ms", "5"],
    "one call per request": ["--max-batch", "1", "--max-wait-ms", "0"],
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(preset: str, flags: list) -> tuple:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "attention_zoo", "serve", "--preset", preset]
        + ["--port", str(port), *flags],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/readyz")
            if connection.getresponse().status == 200:
                return process, port
        except OSError:
            pass
        if process.poll() is not None:
            raise RuntimeError(f"the server of {preset} exited")
        time.sleep(0.5)
    process.kill()
    raise RuntimeError(f"the server of {preset} never became ready")


def load(
    port: int, app: str, inputs: list, concurrency: int, requests: int, seconds: float
):
    """(answers/s, latencies in s) of `concurrency` clients in a closed loop."""
    latencies = []
    lock = threading.Lock()
    counter = iter(range(10**9))
    stop = time.monotonic() + seconds

    def client():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        while time.monotonic() < stop:
            with lock:
                i = next(counter)
            if i >= requests:
                return
            body = json.dumps({"inputs": [inputs[i % len(inputs)]]})
            start = time.perf_counter()
            connection.request(
                "POST", f"/v1/{app}/predict", body, {"content-type": "application/json"}
            )
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError(f"HTTP {response.status}")
            with lock:
                latencies.append(time.perf_counter() - start)

    threads = [threading.Thread(target=client) for _ in range(concurrency)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(latencies) / (time.perf_counter() - start), latencies


def predictor_rate(preset: str, inputs: list, batch: int = 64) -> float:
    from attention_zoo.applications import registry

    predictor = registry.from_preset(preset)
    chunk = (inputs * (batch // len(inputs) + 1))[:batch]
    predictor(chunk)  # compiles
    start, n = time.perf_counter(), 0
    while time.perf_counter() - start < 5:
        predictor(chunk)
        n += batch
    return n / (time.perf_counter() - start)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--presets", nargs="*", default=["dates_multilingual", "bible_en_es"]
    )
    parser.add_argument("--concurrency", nargs="*", type=int, default=[1, 8, 64])
    parser.add_argument(
        "--requests", type=int, default=300, help="answers per cell (default 300)"
    )
    parser.add_argument(
        "--seconds", type=float, default=20, help="time bound per cell (default 20)"
    )
    args = parser.parse_args(argv)
    from attention_zoo.applications import registry
    from attention_zoo.presets import PRESETS_DIR, read_metadata

    print(
        "| preset | server | concurrency | answers/s | p50 (ms) | p99 (ms) | "
        "share of the predictor's batch rate |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for preset in args.presets:
        app = registry.get(read_metadata(PRESETS_DIR / preset)["app"])
        inputs = app.test_slice.inputs(PRESETS_DIR / preset / "test_slice.json")
        ceiling = predictor_rate(preset, inputs)
        print(
            f"| {preset} | predictor, batches of 64 | | {ceiling:,.0f} | | | 100 % |",
            flush=True,
        )
        for mode, flags in MODES.items():
            process, port = start_server(preset, flags)
            try:
                for c in args.concurrency:
                    load(port, app.name, inputs, c, min(8, args.requests), 10)  # warm
                    rate, latencies = load(
                        port, app.name, inputs, c, args.requests, args.seconds
                    )
                    cuts = statistics.quantiles(latencies, n=100)
                    print(
                        f"| {preset} | {mode} | {c} | {rate:,.1f} | "
                        f"{1000 * statistics.median(latencies):.1f} | "
                        f"{1000 * cuts[98]:.1f} | {100 * rate / ceiling:.0f} % |",
                        flush=True,
                    )
            finally:
                process.terminate()
                process.wait(60)


if __name__ == "__main__":
    main()
