"""The explorer page in a real headless Chromium (Playwright driving the
Debian `chromium` that `.ci/run` installs): type a date, run it, and read
the heat map as a person would: a label for every token, each label in line
with its cells, a colour scale, hover linking tokens and cells both ways;
then the translator's n-best list. Every test also checks that the page
asked no other host for anything and logged no error.

One live server for the file: loading the two presets costs tens of seconds.
"""

import os
import shutil
import threading
import urllib.parse
import urllib.request

import pytest

from tests.serving.live import free_port, wait_ready

pytestmark = pytest.mark.tf_only
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright_api = pytest.importorskip("playwright.sync_api")
if CHROMIUM is None and os.environ.get("ATTENTION_ZOO_BROWSER_TESTS") == "1":
    raise RuntimeError("ATTENTION_ZOO_BROWSER_TESTS=1 but no chromium on PATH")

# A label's centre and its cells' centre may differ by this many pixels
# (rounding of the layout; a misaligned column is off by a cell, 20+ px).
ALIGNED_PX = 2.0
# Centres and sizes of the heat map's labels and cells, in CSS pixels.
GEOMETRY = """() => {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return {x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height};
  };
  const table = document.querySelector('#heatmap');
  return {
    cols: [...table.querySelectorAll('th.source .label')].map(box),
    rows: [...table.querySelectorAll('th.output .label')].map(box),
    cells: [...table.tBodies[0].rows].map(
      (tr) => [...tr.querySelectorAll('td.cell')].map(box)),
  };
}"""


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
    """The explorer, loaded; `page.seen` holds every URL it requested and
    every console error and uncaught exception, checked by `clean`."""
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        page.seen = {"requests": [], "errors": []}
        page.on("request", lambda r: page.seen["requests"].append(r.url))
        page.on(
            "console",
            lambda m: m.type == "error" and page.seen["errors"].append(m.text),
        )
        page.on("pageerror", lambda e: page.seen["errors"].append(str(e)))
        page.goto(url)
        page.wait_for_function("document.querySelector('#model').options.length > 1")
        yield page
        browser.close()


def clean(page, url):
    """No request to a host other than the server, no console error."""
    ours = urllib.parse.urlsplit(url).netloc
    foreign = [
        u
        for u in page.seen["requests"]
        if urllib.parse.urlsplit(u).scheme in ("http", "https", "ws", "wss")
        and urllib.parse.urlsplit(u).netloc != ours
    ]
    assert not foreign, f"requests to other hosts: {foreign}"
    assert not page.seen["errors"], f"console errors: {page.seen['errors']}"


def ask(page, app, text):
    page.select_option("#model", app)
    page.fill("#text", text)
    page.click("#run")
    # A search's first n-best request compiles it: seconds, more on a busy
    # machine.
    page.wait_for_selector("#result:not([hidden])", timeout=300_000)
    page.wait_for_function(
        "document.querySelector('#output').textContent !== ''"
        " && document.querySelectorAll('#heatmap td.cell').length > 0"
    )


def labels(page, kind):
    return page.eval_on_selector_all(
        f"#heatmap th.{kind} .label", "els => els.map(e => e.textContent)"
    )


def check_aligned(page):
    """Each column's label centred over its cells, each row's label level
    with its cells, and each cell at least as tall as a line of its text."""
    geometry = page.evaluate(GEOMETRY)
    cols, rows, cells = geometry["cols"], geometry["rows"], geometry["cells"]
    assert len(cells) == len(rows) and all(len(r) == len(cols) for r in cells)
    for c, label in enumerate(cols):
        off = max(abs(row[c]["x"] - label["x"]) for row in cells)
        assert off <= ALIGNED_PX, f"column {c}: label {off:.1f} px off its cells"
    for r, label in enumerate(rows):
        off = max(abs(cell["y"] - label["y"]) for cell in cells[r])
        assert off <= ALIGNED_PX, f"row {r}: label {off:.1f} px off its cells"
    text_height = max(label["h"] for label in rows)
    assert all(cell["h"] >= text_height - 1 for row in cells for cell in row)
    assert all(cell["w"] >= text_height - 1 for row in cells for cell in row)
    return geometry


def test_the_heat_map_labels_every_token_in_line_with_its_cells(page, url, tmp_path):
    ask(page, "dates", "3rd of May 1979")
    assert page.inner_text("#output") == "1979-05-03"
    assert "valid" in page.inner_text("#meta")
    assert labels(page, "output") == list("1979-05-03")
    assert labels(page, "source") == ["␣" if c == " " else c for c in "3rd of may 1979"]
    check_aligned(page)
    # The colour scale: a bar with its range, the largest weight at its end.
    assert page.is_visible("#legend-bar")
    assert page.inner_text("#legend-min") == "0"
    top = float(page.inner_text("#legend-max").split()[0])
    weights = page.eval_on_selector_all(
        "#heatmap td.cell", "els => els.map(e => Number(e.title.split(': ')[1]))"
    )
    assert abs(top - max(weights)) < 1e-3 and 0 < top <= 1
    background = page.eval_on_selector(
        "#legend-bar", "e => getComputedStyle(e).backgroundImage"
    )
    assert background.startswith("linear-gradient")
    assert page.is_hidden("#n-best-box")  # greedy: one hypothesis
    page.screenshot(path=str(tmp_path / "explorer.png"), full_page=True)
    clean(page, url)


def test_hovering_links_tokens_and_cells_both_ways(page, url):
    ask(page, "dates", "3rd of May 1979")
    outputs = page.query_selector_all("#heatmap th.output")
    sources = page.query_selector_all("#heatmap th.source")
    # An output token: its row lights up and the source tokens are shaded by
    # its weights; the year's first digit looks at the year's digits.
    outputs[0].hover()
    assert "linked" in outputs[0].get_attribute("class")
    row = page.query_selector_all("#heatmap tbody tr:nth-child(1) td.cell")
    assert all("row-on" in c.get_attribute("class") for c in row)
    weights = [float(s.get_attribute("data-weight")) for s in sources]
    assert max(range(len(weights)), key=weights.__getitem__) >= 11
    # A source token: its column lights up, the output tokens are shaded.
    sources[12].hover()
    assert "linked" in sources[12].get_attribute("class")
    assert "linked" not in outputs[0].get_attribute("class")
    column = page.query_selector_all("#heatmap td.cell[data-col='12']")
    assert len(column) == len(outputs)
    assert all("col-on" in c.get_attribute("class") for c in column)
    assert all(o.get_attribute("data-weight") is not None for o in outputs)
    # A cell: its output token and its source token, and the weight read out.
    cell = page.query_selector("#heatmap td.cell[data-row='2'][data-col='13']")
    cell.hover()
    linked = page.eval_on_selector_all(
        "#heatmap th.linked", "els => els.map(e => e.textContent)"
    )
    assert linked == ["7", "7"]  # the source's 7 (column), the output's 7 (row)
    assert "linked" in page.get_attribute("#heatmap th.output[data-row='2']", "class")
    assert "linked" in page.get_attribute("#heatmap th.source[data-col='13']", "class")
    assert "“7” ← “7”" in page.inner_text("#readout")
    # The keyboard reaches the same: a focused token lights its row. (The
    # pointer leaves the map first: focusing scrolls, and the cell that
    # scrolls under a resting pointer is hovered, as it should be.)
    page.mouse.move(0, 0)
    page.focus("#heatmap th.output[data-row='5']")
    assert "linked" in page.get_attribute("#heatmap th.output[data-row='5']", "class")
    clean(page, url)


def test_a_beam_search_shows_its_n_best_list_in_its_order(page, url):
    page.select_option("#model", "translation")
    assert page.input_value("#beam") == "4"  # the preset's beam width
    ask(page, "translation", "The Lord is my shepherd.")
    page.wait_for_selector("#n-best-box:not([hidden])")
    output = page.inner_text("#output")
    items = page.query_selector_all("#n-best li")
    assert len(items) == 4
    assert items[0].query_selector(".hypothesis").inner_text() == output
    # The list is ordered as its heading says (the ranking score), and each
    # line shows both scores, which the key explains.
    assert "best ranking score first" in page.inner_text("#n-best-box h3")
    ranking = [float(i.get_attribute("data-ranking")) for i in items]
    # Recomputed from float32 scores per token: in order up to rounding.
    assert all(a >= b - 1e-4 for a, b in zip(ranking, ranking[1:])), ranking
    for item, value in zip(items, ranking):
        scores = item.query_selector(".scores").inner_text()
        assert f"ranking {value:.3f}" in scores and "per token " in scores
    key = page.inner_text("#n-best-key")
    assert "ranking" in key and "per token" in key and "length penalty" in key
    # Word tokens stand upright, each still centred over its column.
    assert labels(page, "source") == ["The", "Lord", "is", "my", "shepherd", "."]
    assert labels(page, "output")[-1] == "<end>"
    check_aligned(page)
    clean(page, url)


def test_the_favicon_is_served_and_linked(page, url):
    assert page.get_attribute("link[rel=icon]", "href") == "/favicon.ico"
    with urllib.request.urlopen(f"{url}/favicon.ico", timeout=30) as response:
        assert response.status == 200
        assert response.headers["content-type"] == "image/png"
        assert response.read(8) == b"\x89PNG\r\n\x1a\n"
    clean(page, url)
