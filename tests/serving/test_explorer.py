"""The explorer page in a real headless Chromium (Playwright driving the
Debian `chromium` that `.ci/run` installs): type a date, run it, read the
output and hover a token of the heat map."""

import os
import shutil
import threading

import pytest

from tests.serving.live import free_port, wait_ready

pytestmark = pytest.mark.tf_only
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright_api = pytest.importorskip("playwright.sync_api")
if CHROMIUM is None and os.environ.get("ATTENTION_ZOO_BROWSER_TESTS") == "1":
    raise RuntimeError("ATTENTION_ZOO_BROWSER_TESTS=1 but no chromium on PATH")


@pytest.fixture(scope="module")
def url():
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH (apt-get install chromium)")
    import uvicorn

    from attention_zoo.serving import create_app

    port = free_port()
    config = uvicorn.Config(
        create_app(["dates_multilingual", "bible_en_es"], max_batch=1),
        port=port,
        log_level="warning",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    wait_ready(url)
    yield url
    server.should_exit = True
    thread.join(30)


@pytest.fixture
def page(url):
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(url)
        page.wait_for_function("document.querySelector('#model').options.length > 1")
        yield page
        browser.close()


def test_typing_a_date_shows_the_output_and_its_attention(page, tmp_path):
    page.fill("#text", "3rd of May 1979")
    page.click("#run")
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#output") == "1979-05-03"
    assert "valid" in page.inner_text("#meta")
    outputs = page.query_selector_all("#output-tokens .token")
    sources = page.query_selector_all("#source-tokens .token")
    assert [o.inner_text() for o in outputs] == list("1979-05-03")
    assert len(sources) == len("3rd of may 1979")
    # Hover the first digit of the year: it looks at the year's digits.
    outputs[0].hover()
    weights = [float(s.get_attribute("data-weight")) for s in sources]
    assert max(range(len(weights)), key=weights.__getitem__) >= 11
    assert "active" in outputs[0].get_attribute("class")
    width = page.evaluate("document.querySelector('#heatmap').width")
    assert width == 12 * len(sources)
    assert page.is_hidden("#n-best-box")  # greedy: one hypothesis
    page.screenshot(path=str(tmp_path / "explorer.png"), full_page=True)


def test_a_beam_search_shows_its_n_best_list(page):
    page.select_option("#model", "translation")
    assert page.input_value("#beam") == "4"  # the preset's beam width
    page.fill("#text", "The Lord is my shepherd.")
    page.click("#run")
    page.wait_for_selector("#n-best-box:not([hidden])")
    output = page.inner_text("#output")
    hypotheses = [li.inner_text() for li in page.query_selector_all("#n-best li")]
    assert len(hypotheses) == 4 and hypotheses[0].startswith(output + " (score ")
