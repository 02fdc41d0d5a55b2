"""`attention-zoo serve` under concurrent clients, on loopback, against
the predictor's own batch throughput and against the same server without
micro-batching, in one run.

For each preset: the predictor in this process answers batches of 64
(inputs/s: the ceiling a server could reach); then the server runs as a
subprocess twice, micro-batched (`--max-batch 64 --max-wait-ms 5`) and not
(`--max-batch 1 --max-wait-ms 0`: one call per request), and at each
concurrency `c` that many client threads send one-input requests, each
waiting for its answer before the next, until `--requests` answers or
`--seconds` have passed (asyncio connections, not threads: `load`).

The clients share the two cores with the server, so each row also says
what an answer cost in CPU time: the server process's (from
`/proc/PID/stat`, Linux) and the clients' (this process), against the
predictor's own per answer in its batches. A server whose CPU per answer
is near the predictor's adds little; its rate then falls short of the
predictor's by the clients' share of the cores.

`--start` measures the start instead: `attention-zoo serve --preset
dates_multilingual bible_en_es` (the README's command) started twice with
one new compilation cache, the first start compiling, the second reading
the cache; each time the seconds to `/readyz` 200 and the server's CPU
seconds by then, the first answer to each option a request may ask for
right after ready (every beam width of `/v1/models`, `n_best`, each
preset) and the same request's steady p50/p99 once answered 20 times,
with the ratio of the first to the steady p99; and the machine's load.

Usage (needs `pip install ".[serve]"`):

    python -m benchmarks.serving
    python -m benchmarks.serving --presets dates_multilingual --requests 400
    python -m benchmarks.serving --start
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
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


def start_server(preset, flags: list, env=None) -> tuple:
    port = free_port()
    presets = [preset] if isinstance(preset, str) else list(preset)
    process = subprocess.Popen(
        [sys.executable, "-m", "attention_zoo", "serve", "--preset", *presets]
        + ["--port", str(port), *flags],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
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
    """(answers/s, latencies in s) of `concurrency` clients in a closed loop.

    The clients are asyncio connections writing HTTP/1.1 by hand, so that
    the load costs little CPU next to the server on the same cores (64
    threads of `http.client` spent about as much as the server they were
    measuring).
    """
    return asyncio.run(_load(port, app, inputs, concurrency, requests, seconds))


async def _load(port, app, inputs, concurrency, requests, seconds):
    latencies = []
    counter = iter(range(requests))
    stop = time.monotonic() + seconds
    head = (
        f"POST /v1/{app}/predict HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n"
    )
    bodies = [json.dumps({"inputs": [x]}).encode() for x in inputs]

    async def client():
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            for i in counter:
                if time.monotonic() > stop:
                    return
                body = bodies[i % len(bodies)]
                start = time.perf_counter()
                writer.write(head.format(len(body)).encode() + body)
                status, length = _response_head(await reader.readuntil(b"\r\n\r\n"))
                await reader.readexactly(length)
                if status != 200:
                    raise RuntimeError(f"HTTP {status}")
                latencies.append(time.perf_counter() - start)
        finally:
            writer.close()

    start = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(concurrency)))
    return len(latencies) / (time.perf_counter() - start), latencies


def _response_head(head: bytes) -> tuple[int, int]:
    """The status and Content-Length of a response's head."""
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            return status, int(value)
    raise RuntimeError(f"a response without Content-Length: {lines[0]}")


def predictor_rate(preset: str, inputs: list, batch: int = 64) -> tuple:
    """(inputs/s, CPU seconds per input) of the predictor in this process,
    in batches of `batch`."""
    from attention_zoo.applications import registry

    predictor = registry.from_preset(preset)
    chunk = (inputs * (batch // len(inputs) + 1))[:batch]
    predictor(chunk)  # compiles
    start, cpu, n = time.perf_counter(), time.process_time(), 0
    while time.perf_counter() - start < 5:
        predictor(chunk)
        n += batch
    cpu = time.process_time() - cpu
    return n / (time.perf_counter() - start), cpu / n


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) the process `pid` has used, None where
    /proc is not there to say."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return None
    # Fields 14 and 15 of proc(5), counted after the command's ")".
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def post(port: int, app: str, body: dict) -> float:
    """Seconds to the answer of one request (a failure raises)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    start = time.perf_counter()
    connection.request(
        "POST",
        f"/v1/{app}/predict",
        json.dumps(body),
        {"Content-Type": "application/json"},
    )
    response = connection.getresponse()
    response.read()
    if response.status != 200:
        raise RuntimeError(f"HTTP {response.status} for {body}")
    return time.perf_counter() - start


def options(port: int) -> list[tuple[str, dict]]:
    """`(app, extra body)` of every option /v1/models says a request may ask for."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", "/v1/models")
    out = []
    for model in json.loads(connection.getresponse().read())["models"]:
        if model["beam_widths"]:  # the request that names no option
            out.append((model["app"], {}))
        for width in model["beam_widths"] or [None]:
            for n_best in (False, True) if model["n_best"] else (False,):
                body = {"beam_width": width} if width else {}
                out.append(
                    (model["app"], {**body, **({"n_best": True} if n_best else {})})
                )
    return out


def start_figures(presets: list, repeats: int = 20) -> None:
    """The table of `--start` (module docstring)."""
    import tempfile

    from attention_zoo.applications import registry
    from attention_zoo.presets import PRESETS_DIR, read_metadata

    inputs = {}
    for preset in presets:
        app = registry.get(read_metadata(PRESETS_DIR / preset)["app"])
        slice_ = app.test_slice.inputs(PRESETS_DIR / preset / "test_slice.json")
        inputs[app.name] = slice_[:1]
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(
        "| start | seconds to ready | server CPU s to ready | app | option | "
        "first answer (ms) | steady p50 (ms) | steady p99 (ms) | first / p99 |"
    )
    print("|---|---:|---:|---|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "ATTENTION_ZOO_COMPILATION_CACHE": cache}
        for start in ("first (compiles)", "second (cache)"):
            began = time.perf_counter()
            process, port = start_server(presets, [], env)
            ready = f"{time.perf_counter() - began:.1f}"
            cpu = process_cpu(process.pid)
            cpu = "" if cpu is None else f"{cpu:.1f}"
            try:
                for app, extra in options(port):
                    body = {"inputs": inputs[app], **extra}
                    first = post(port, app, body)
                    steady = [post(port, app, body) for _ in range(repeats)]
                    p99 = statistics.quantiles(steady, n=100)[98]
                    print(
                        f"| {start} | {ready} | {cpu} | {app} | "
                        f"{json.dumps(extra) if extra else 'plain'} | "
                        f"{1000 * first:.0f} | {1000 * statistics.median(steady):.0f} | "
                        f"{1000 * p99:.0f} | {first / p99:.1f} |",
                        flush=True,
                    )
                    start, ready, cpu = "", "", ""  # said on the first row
            finally:
                process.terminate()
                process.wait(60)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


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
    parser.add_argument(
        "--start",
        action="store_true",
        help="time to ready and first answers per option instead (docstring)",
    )
    args = parser.parse_args(argv)
    if args.start:
        start_figures(args.presets)
        return
    from attention_zoo.applications import registry
    from attention_zoo.presets import PRESETS_DIR, read_metadata

    print(
        "| preset | server | concurrency | answers/s | p50 (ms) | p99 (ms) | "
        "share of the predictor's batch rate | server CPU ms / answer | "
        "clients' CPU ms / answer |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for preset in args.presets:
        app = registry.get(read_metadata(PRESETS_DIR / preset)["app"])
        inputs = app.test_slice.inputs(PRESETS_DIR / preset / "test_slice.json")
        ceiling, predictor_cpu = predictor_rate(preset, inputs)
        print(
            f"| {preset} | predictor, batches of 64 | | {ceiling:,.0f} | | | 100 % "
            f"| {1000 * predictor_cpu:.2f} (in process) | |",
            flush=True,
        )
        for mode, flags in MODES.items():
            process, port = start_server(preset, flags)
            try:
                for c in args.concurrency:
                    load(port, app.name, inputs, c, min(8, args.requests), 10)  # warm
                    server_cpu = process_cpu(process.pid)
                    client_cpu = time.process_time()
                    rate, latencies = load(
                        port, app.name, inputs, c, args.requests, args.seconds
                    )
                    client_cpu = time.process_time() - client_cpu
                    cuts = statistics.quantiles(latencies, n=100)
                    n = len(latencies)
                    server = ""
                    if server_cpu is not None:
                        server = (
                            f"{1000 * (process_cpu(process.pid) - server_cpu) / n:.2f}"
                        )
                    print(
                        f"| {preset} | {mode} | {c} | {rate:,.1f} | "
                        f"{1000 * statistics.median(latencies):.1f} | "
                        f"{1000 * cuts[98]:.1f} | {100 * rate / ceiling:.0f} % | "
                        f"{server} | {1000 * client_cpu / n:.2f} |",
                        flush=True,
                    )
            finally:
                process.terminate()
                process.wait(60)


if __name__ == "__main__":
    main()
