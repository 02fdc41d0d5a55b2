"""The API reference renders every docstring example as highlighted code.

A docstring's `>>>` lines that Griffe does not read as an `Examples:` section
reach Markdown as text, where `>` opens a quote: the example renders as three
nested blockquotes with its lines run together. These tests read the built
site: the pages under `api/`, and `objects.inv`, which lists every object the
pages document and where.

The site is the one `$ATTENTION_ZOO_SITE_DIR` names (.ci/run builds it once
with `mkdocs build --strict` and points the tests at it), or else a
`mkdocs build --strict` of this checkout (about 20 s); without either (the
tests copied away from mkdocs.yml, or mkdocs not installed) they are skipped.
"""

from __future__ import annotations

import doctest
import html.parser
import importlib.util
import os
import pkgutil
import re
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SITE_ENV = "ATTENTION_ZOO_SITE_DIR"
# Elements that have no end tag in HTML.
VOID = frozenset(
    "area base br col embed hr img input link meta source track wbr".split()
)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    if os.environ.get(SITE_ENV):
        path = Path(os.environ[SITE_ENV])
        # Named but absent is a CI fault, not a reason to skip.
        assert (path / "objects.inv").is_file(), (
            f"{SITE_ENV} names no built site. Received: {SITE_ENV}={path}"
        )
        return path
    if not (ROOT / "mkdocs.yml").is_file():
        pytest.skip(f"no mkdocs.yml beside tests/ and no {SITE_ENV}")
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("mkdocs is not installed (the `docs` extra)")
    path = tmp_path_factory.mktemp("site")
    # The hooks import attention_zoo: this checkout's, not an installed one.
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            [str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p]
        ),
    }
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    return path


class _Page(html.parser.HTMLParser):
    """The blockquotes of a page and the lines of its highlighted code blocks.

    Code counts as highlighted inside `<div class="highlight"><pre><code>`;
    the source listings (`<details class="mkdocstrings-source">`) are left
    out, since they quote the docstrings, examples and all.
    """

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, set[str]]] = []
        self.blockquotes: list[str] = []
        self.code_lines: set[str] = set()
        self._code: list[str] | None = None
        self._quote: list[str] | None = None

    def _inside(self, tag: str, cls: str | None = None) -> bool:
        return any(t == tag and (cls is None or cls in c) for t, c in self.stack)

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        self.stack.append((tag, set((dict(attrs).get("class") or "").split())))
        if tag == "blockquote" and self._quote is None:
            self._quote = []
        if (
            tag == "code"
            and self._inside("pre")
            and self._inside("div", "highlight")
            and not self._inside("details", "mkdocstrings-source")
        ):
            self._code = []

    def handle_endtag(self, tag):
        if tag in VOID or not any(t == tag for t, _ in self.stack):
            return
        while self.stack:
            open_tag, _ = self.stack.pop()
            if open_tag == "code" and self._code is not None:
                self.code_lines.update(
                    line.strip() for line in "".join(self._code).splitlines()
                )
                self._code = None
            if open_tag == "blockquote" and not self._inside("blockquote"):
                self.blockquotes.append(" ".join("".join(self._quote).split()))
                self._quote = None
            if open_tag == tag:
                break

    def handle_data(self, data):
        if self._code is not None:
            self._code.append(data)
        if self._quote is not None:
            self._quote.append(data)


def read_page(site: Path, url: str) -> _Page:
    """The page at `url` (`api/layers/`), relative to the site."""
    page = _Page()
    page.feed((site / url / "index.html").read_text(encoding="utf-8"))
    return page


def api_pages(site: Path) -> dict[str, _Page]:
    return {
        f"api/{path.name}/": read_page(site, f"api/{path.name}/")
        for path in sorted((site / "api").iterdir())
        if (path / "index.html").is_file()
    }


def documented_objects(site: Path) -> dict[str, str]:
    """Every documented object's dotted path and the page that documents it."""
    data = (site / "objects.inv").read_bytes()
    # Four plain header lines, then the zlib-compressed inventory.
    body = zlib.decompress(data.split(b"\n", 4)[4]).decode()
    objects = {}
    for line in body.splitlines():
        name, role, _, url = line.split(" ", 4)[:4]
        if role.startswith("py:"):
            objects[name] = url.split("#", 1)[0]
    return objects


def test_api_pages_hold_no_blockquote(site):
    """No docstring quotes; a blockquote is a doctest Markdown has swallowed."""
    pages = api_pages(site)
    assert pages, f"no API page under {site / 'api'}"
    found = [
        f"{name}: {quote[:100]}"
        for name, page in pages.items()
        for quote in page.blockquotes
    ]
    assert not found, "blockquotes on API pages:\n" + "\n".join(found)


def test_every_docstring_example_is_highlighted_code(site):
    """Each `>>>` example of each documented object is in a code block of its page."""
    pages: dict[str, _Page] = {}
    parser = doctest.DocTestParser()
    checked, missing, seen = 0, [], set()
    for name, page_name in documented_objects(site).items():
        obj = pkgutil.resolve_name(name)
        doc = getattr(obj, "__doc__", None)
        # An alias documents the same object on the same page; a class's
        # attribute (a constant) has its type's docstring, not one of ours.
        if not isinstance(doc, str) or (id(obj), page_name) in seen:
            continue
        if isinstance(obj, (int, float, str, tuple, list, dict, frozenset)):
            continue
        seen.add((id(obj), page_name))
        for example in parser.get_examples(doc):
            first = example.source.splitlines()[0]
            # Griffe trims doctest flags from what it renders.
            first = re.sub(r"\s*#\s*doctest:.*$", "", first).strip()
            checked += 1
            if page_name not in pages:
                pages[page_name] = read_page(site, page_name)
            if f">>> {first}" not in pages[page_name].code_lines:
                missing.append(f"{page_name} {name}: >>> {first}")
    assert checked > 0, "the API pages document no docstring example"
    assert not missing, "examples not rendered as highlighted code:\n" + "\n".join(
        missing
    )


class _Loads(html.parser.HTMLParser):
    """What a page makes the browser fetch by itself: the `href` of each
    `<link>`, the `src` of each `<script>`, `<img>`, `<iframe>`, `<source>`."""

    ATTRIBUTES = {
        "link": "href",
        "script": "src",
        "img": "src",
        "iframe": "src",
        "source": "src",
    }

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        name = self.ATTRIBUTES.get(tag)
        value = dict(attrs).get(name) if name else None
        if value:
            self.urls.append(value)


# An absolute or protocol-relative URL names a host; the site has none of
# its own (no `site_url`), so any such URL is another host's.
_ELSEWHERE = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*:)?//", re.IGNORECASE)


def test_the_site_asks_no_other_host_for_anything(site):
    """No font, script, stylesheet or picture from elsewhere (Material loads
    Google Fonts unless `theme: font: false`): the site reads offline and
    tells no third party who reads it."""
    pages = sorted(site.rglob("*.html"))
    assert pages, f"no page under {site}"
    found = []
    for path in pages:
        parser = _Loads()
        parser.feed(path.read_text(encoding="utf-8"))
        found += [
            f"{path.relative_to(site)}: {url[:100]}"
            for url in parser.urls
            if _ELSEWHERE.match(url)
        ]
    for path in sorted(site.rglob("*.css")):
        text = path.read_text(encoding="utf-8", errors="replace")
        found += [
            f"{path.relative_to(site)}: {m.group(0)[:100]}"
            for m in re.finditer(
                r"(?:@import|url\()\s*['\"]?(?:https?:)?//[^)'\"\s]+", text
            )
        ]
    assert not found, "requests to other hosts:\n" + "\n".join(found[:20])
