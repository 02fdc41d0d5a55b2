"""docs/benchmarks.md stays a summary; its raw outputs are pages beside it."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SUMMARY = ROOT / "docs" / "benchmarks.md"
RAW = ROOT / "docs" / "benchmarks"


def test_the_benchmarks_page_is_a_summary():
    """Current figures with their commands, at most about 400 lines; the
    history is in git, the raw outputs in docs/benchmarks/."""
    lines = SUMMARY.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 400, f"docs/benchmarks.md has {len(lines)} lines, over 400"


def test_every_raw_output_page_is_linked_and_in_the_navigation():
    if not RAW.is_dir() or not (ROOT / "mkdocs.yml").is_file():
        pytest.skip("docs/benchmarks/ or mkdocs.yml not beside tests/")
    pages = {p.name for p in RAW.glob("*.md")}
    linked = set(
        re.findall(r"\]\(benchmarks/([\w.-]+\.md)", SUMMARY.read_text("utf-8"))
    )
    navigation = set(
        re.findall(
            r"benchmarks/([\w.-]+\.md)", (ROOT / "mkdocs.yml").read_text("utf-8")
        )
    )
    assert pages, "no raw output page in docs/benchmarks/"
    assert linked <= pages, f"linked but missing: {sorted(linked - pages)}"
    assert pages <= linked, (
        f"not linked from docs/benchmarks.md: {sorted(pages - linked)}"
    )
    assert pages <= navigation, f"not in mkdocs.yml's nav: {sorted(pages - navigation)}"
