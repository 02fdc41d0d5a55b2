"""The explorer page in a real headless Chromium (Playwright driving the
Debian `chromium` that `.ci/run` installs): type a date, run it, and read
the heat map as a person would: a label for every token, each label in line
with its cells, a colour scale, hover linking tokens and cells both ways;
then the translator's n-best list. Every test also checks that the page
asked no other host for anything and logged no error.

One live server for the file: loading the two presets costs tens of seconds.
A second, of the forms preset alone, answers the reference field's tests:
it is the only preset whose answers depend on the reference, and a server
serves one model per application (`dates_multilingual` is the first's).
"""

import contextlib
import json
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


@contextlib.contextmanager
def live_server(presets, **options):
    """The URL of a server of `presets`, ready, in this process."""
    if CHROMIUM is None:
        pytest.skip("no chromium on PATH (apt-get install chromium)")
    import uvicorn

    from attention_zoo.serving import create_app

    port = free_port()
    config = uvicorn.Config(
        create_app(presets, max_batch=1, **options),
        port=port,
        log_level="warning",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(url)
        yield url
    finally:
        server.should_exit = True
        thread.join(30)


@pytest.fixture(scope="module")
def url():
    with live_server(["dates_multilingual", "bible_en_es"]) as url:
        yield url


@pytest.fixture(scope="module")
def forms_url():
    # Its tests ask one shape: the other shapes need not compile behind them.
    with live_server(["dates_expressions"], warm_in_background=False) as url:
        yield url


@pytest.fixture
def page(url):
    with explorer(url) as page:
        yield page


@pytest.fixture
def forms_page(forms_url):
    with explorer(forms_url) as page:
        yield page


@contextlib.contextmanager
def explorer(url):
    """The explorer, loaded; `page.seen` holds every URL it requested and
    every console error and uncaught exception, checked by `clean`, and
    `page.posted` the JSON body of every predict request."""
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        page.seen = {"requests": [], "errors": []}
        page.posted = []
        page.on("request", lambda r: page.seen["requests"].append(r.url))
        page.on(
            "request",
            lambda r: (
                r.url.endswith("/predict")
                and page.posted.append(json.loads(r.post_data))
            ),
        )
        page.on(
            "console",
            lambda m: m.type == "error" and page.seen["errors"].append(m.text),
        )
        page.on("pageerror", lambda e: page.seen["errors"].append(str(e)))
        page.goto(url)
        page.wait_for_function("document.querySelector('#model').options.length > 0")
        yield page
        browser.close()


def clean(page, url, refused=()):
    """No request to a host other than the server, no console error but
    Chromium's line for each of the `refused` statuses (a 4xx the page
    asked for, whose message it shows)."""
    ours = urllib.parse.urlsplit(url).netloc
    foreign = [
        u
        for u in page.seen["requests"]
        if urllib.parse.urlsplit(u).scheme in ("http", "https", "ws", "wss")
        and urllib.parse.urlsplit(u).netloc != ours
    ]
    assert not foreign, f"requests to other hosts: {foreign}"
    errors = list(page.seen["errors"])
    for status in refused:
        expected = f"the server responded with a status of {status}"
        assert any(expected in e for e in errors), errors
        errors = [e for e in errors if expected not in e]
    assert not errors, f"console errors: {errors}"


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


def run_and_wait(page, text):
    """Runs `text` with the fields as they are and waits for the page to
    show the server's answer or error."""
    page.fill("#text", text)
    with page.expect_response(lambda r: r.url.endswith("/predict")):
        page.click("#run")
    # The page says "Running…" from the click until it shows the answer.
    page.wait_for_function(
        "document.querySelector('#status').textContent !== 'Running…'"
    )


def test_the_reference_fields_show_for_a_model_that_takes_one(page, url):
    # The date normalizer takes a reference (its /v1/models entry says so);
    # the translator takes none: its fields are hidden and never sent.
    page.select_option("#model", "dates")
    assert page.is_visible("#reference") and page.is_visible("#prefer")
    assert "Reference date-time" in page.inner_text("#reference-input")
    page.fill("#reference", "2026-01-15T09:00:00")
    page.select_option("#prefer", "past")
    page.select_option("#model", "translation")
    assert page.is_hidden("#reference-input")
    ask(page, "translation", "The Lord is my shepherd.")
    assert page.is_hidden("#reference-used")
    assert "reference" not in page.posted[-1] and "prefer" not in page.posted[-1]
    # Back to the dates: both are sent. This preset reads absolute dates,
    # whose answers depend on no reference, and the page says so.
    page.select_option("#model", "dates")
    run_and_wait(page, "3rd of May 1979")
    assert page.posted[-1]["reference"] == "2026-01-15T09:00:00"
    assert page.posted[-1]["prefer"] == "past"
    assert page.inner_text("#output") == "1979-05-03"
    assert "no reference used" in page.inner_text("#reference-used")
    clean(page, url)


def test_a_bad_reference_shows_the_servers_error(page, url):
    page.select_option("#model", "dates")
    ask(page, "dates", "3rd of May 1979")  # an answer, which must go
    page.fill("#reference", "15/01/2026 9h")
    run_and_wait(page, "3rd of May 1979")
    status = page.inner_text("#status")
    assert status.startswith("Error 422: reference must be an ISO 8601"), status
    assert "Received: reference='15/01/2026 9h'" in status
    assert page.is_hidden("#result")
    clean(page, url, refused=[422])


def test_a_reference_typed_resolves_the_answer(forms_page, forms_url):
    page = forms_page
    assert page.is_visible("#reference-input")

    def answer(reference, prefer, output, used):
        page.fill("#reference", reference)
        if prefer:
            page.select_option("#prefer", prefer)
        run_and_wait(page, "in 3 days")
        assert page.inner_text("#output") == output
        assert page.inner_text("#reference-used") == f"resolved against {used}"

    answer("2026-01-15T09:00:00", None, "2026-01-18",
           "2026-01-15T09:00:00+00:00 · open texts: future")  # fmt: skip
    assert page.posted[-1]["reference"] == "2026-01-15T09:00:00"
    assert "prefer" not in page.posted[-1]  # the default: the server's own
    # Another reference, another day; the offset typed is kept.
    answer("2026-02-28T23:30:00-05:00", "past", "2026-03-03",
           "2026-02-28T23:30:00-05:00 · open texts: past")  # fmt: skip
    # Empty is now: nothing sent, and the answer says which now it used.
    page.fill("#reference", "  ")
    page.select_option("#prefer", "")
    run_and_wait(page, "in 3 days")
    assert "reference" not in page.posted[-1] and "prefer" not in page.posted[-1]
    used = page.inner_text("#reference-used")
    assert used.startswith("resolved against 20") and used.endswith(
        "+00:00 · open texts: future"
    )
    clean(page, forms_url)


def test_the_software_translator_shows_its_placeholders_and_attention():
    # Issue 58: the software preset is shown in the explorer as served.
    with live_server(["software_en_es"], warm_in_background=False) as url:
        with explorer(url) as page:
            ask(page, "translation", "Could not open %s: %s")
            assert page.text_content("#output").count("%s") == 2
            # The heat map reads the masked text, one typed token a placeholder.
            assert labels(page, "source").count("PH_PRINTF_1") == 1
            assert len(labels(page, "output")) >= 3
            check_aligned(page)
            clean(page, url)
