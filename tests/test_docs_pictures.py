"""Pictures first: the README and the docs' home page open with an
attention picture, and each application page and the serving page show
their picture before any table, so that a reader sees what the model does
before the figures about it."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")
# The pages that show a picture, before any table.
PAGES = ["dates", "translation", "captioning", "summarization", "serving"]


def first_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def picture_line(lines) -> int | None:
    return next((i for i, line in enumerate(lines) if IMAGE.search(line)), None)


@pytest.mark.parametrize("document", ["README.md", "docs/index.md"])
def test_the_front_pages_open_with_an_attention_picture(document):
    lines = first_lines(ROOT / document)
    # Under the title, before any paragraph: the first thing read.
    body = [line for line in lines[1:] if line.strip()]
    assert body and IMAGE.match(body[0]), f"{document} does not open with a picture"
    image = IMAGE.match(body[0]).group(1)
    assert "attention" in image and (ROOT / document).parent.joinpath(image).is_file()


@pytest.mark.parametrize("page", PAGES)
def test_each_page_shows_its_picture_before_any_table(page):
    path = ROOT / "docs" / f"{page}.md"
    lines = first_lines(path)
    picture = picture_line(lines)
    assert picture is not None, f"docs/{page}.md shows no picture"
    table = next((i for i, line in enumerate(lines) if TABLE_RULE.match(line)), None)
    assert table is None or picture < table, (
        f"docs/{page}.md: its picture (line {picture + 1}) comes after a table"
        f" (line {table + 1})"
    )
    image = IMAGE.search(lines[picture]).group(1)
    assert (path.parent / image).is_file(), image
