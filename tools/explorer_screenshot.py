"""Take the picture of the attention explorer that docs/serving.md shows:
start `attention-zoo serve` with the date normalizer, open the page in
headless Chromium (Playwright), run "3rd of May 1979", hover the first
digit of the answer's year and screenshot the page.

Usage (from the repository root; needs the `serve` extra, playwright and a
Chromium, e.g. `apt-get install chromium`):

    python tools/explorer_screenshot.py                 # docs/img/explorer.png
    python tools/explorer_screenshot.py --output x.png  # elsewhere

Run it after the explorer's page changes, so that the picture shows it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "docs" / "img" / "explorer.png"
INPUT = "3rd of May 1979"
# Loading and warming up a preset takes a while on a busy 2-core machine.
READY_TIMEOUT_S = 900


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped (exit code {server.returncode})")
        try:
            with urllib.request.urlopen(f"{url}/readyz", timeout=5):
                return
        except (urllib.error.URLError, OSError):
            time.sleep(1)
    raise SystemExit(f"the server was not ready after {READY_TIMEOUT_S} s")


def screenshot(url: str, output: Path, chromium: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1000, "height": 900})
        page.goto(url)
        page.wait_for_function("document.querySelector('#model').options.length > 0")
        page.select_option("#model", "dates")
        page.fill("#text", INPUT)
        page.click("#run")
        page.wait_for_selector("#heatmap td.cell")
        # The first digit of the year: its row and the characters it reads.
        page.hover("#heatmap th.output[data-row='0']")
        page.mouse.move(0, 0)  # no pointer over the picture; the row stays lit
        output.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(output), full_page=True)
        browser.close()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("no chromium on PATH (apt-get install chromium)")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "attention_zoo", "serve", "--preset",
         "dates_multilingual", "--port", str(port)],
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"},
    )  # fmt: skip
    try:
        wait_ready(url, server)
        screenshot(url, args.output, chromium)
    finally:
        server.terminate()
        server.wait(30)
    print(args.output)


if __name__ == "__main__":
    main()
