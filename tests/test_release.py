"""The package is ready to publish: its metadata, changelog and release workflow.

`python -m build` and `twine check --strict` run in CI (.ci/run) and in the
release workflow; these checks read the files those start from.
"""

import re
from pathlib import Path

import pytest

from attention_zoo.version import __version__

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def project():
    tomllib = pytest.importorskip("tomllib")
    return tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]


def test_metadata_is_complete(project):
    for field in ("name", "description", "readme", "requires-python", "license",
                  "license-files", "authors", "keywords", "classifiers"):
        assert project.get(field), f"pyproject.toml [project] lacks {field}"
    assert project["readme"] == {"file": "README.md", "content-type": "text/markdown"}
    for path in project["license-files"]:
        assert (ROOT / path).is_file(), f"license file {path} is missing"
    assert "Apache License" in (ROOT / "LICENSE").read_text("utf-8")


def test_classifiers_say_python_versions_os_and_topics(project):
    classifiers = project["classifiers"]
    assert "Programming Language :: Python :: 3.11" in classifiers  # CI's
    floor = re.fullmatch(r">=3\.(\d+)", project["requires-python"])
    assert floor, project["requires-python"]
    assert f"Programming Language :: Python :: 3.{floor[1]}" in classifiers
    for prefix in ("Operating System ::", "Topic ::", "Development Status ::",
                   "Intended Audience ::"):
        assert any(c.startswith(prefix) for c in classifiers), prefix


def test_the_version_is_written_in_one_place(project):
    """pyproject reads attention_zoo/version.py; nothing else states it."""
    assert "version" not in project and "version" in project["dynamic"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    stated = re.compile(r"__version__\s*=")
    others = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "attention_zoo").rglob("*.py")
        if p.name != "version.py" and stated.search(p.read_text("utf-8"))
    ]
    assert not others, others


def test_the_changelog_has_the_current_version():
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert "## [Unreleased]" in text  # Keep a Changelog's top section
    entry = re.search(
        rf"^## \[{re.escape(__version__)}\] - (\d{{4}}-\d\d-\d\d|Unreleased)$",
        text,
        re.M,
    )
    assert entry, f"CHANGELOG.md has no '## [{__version__}] - DATE' entry"


def test_release_workflow_publishes_a_tag_with_trusted_publishing():
    yaml = pytest.importorskip("yaml")
    workflow = yaml.safe_load((ROOT / ".github/workflows/release.yml").read_text())
    # YAML 1.1 reads the key `on` as True.
    trigger = workflow.get("on", workflow.get(True))
    assert trigger["push"]["tags"], trigger
    jobs = workflow["jobs"]
    (publish,) = [
        job for job in jobs.values()
        if any("pypa/gh-action-pypi-publish" in s.get("uses", "") for s in job["steps"])
    ]
    assert publish["permissions"]["id-token"] == "write"
    assert "password" not in str(publish)  # trusted publishing: no token
    runs = " ".join(s.get("run", "") for job in jobs.values() for s in job["steps"])
    assert "python -m build" in runs and "twine check" in runs
