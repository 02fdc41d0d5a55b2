"""docs/design.md's map of the package matches the package's tree.

The map is the tables of its "Map of the package" section: one row per
module, one per package (a folder with an `__init__.py`, written with a
trailing `/`), the path in backticks in the row's first cell. The tree is
the installed package's (`attention_zoo.__file__`), so the test reads the
same modules whether it runs from a checkout or, as CI does, beside an
installed wheel with a copy of docs/.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import attention_zoo

PACKAGE = Path(attention_zoo.__file__).parent
DESIGN = Path(__file__).resolve().parents[1] / "docs" / "design.md"
SECTION = "## Map of the package"
ROW = re.compile(r"^\|\s*`(attention_zoo/[^`]*)`\s*\|", re.MULTILINE)


def map_section(text: str) -> str:
    """The text of the map section: from its heading to the next `## `."""
    start = text.index(SECTION) + len(SECTION)
    following = text.find("\n## ", start)
    return text[start:] if following < 0 else text[start:following]


def listed_paths(text: str) -> list[str]:
    """The paths the map's rows name, in order (duplicates kept)."""
    return ROW.findall(map_section(text))


def tree_paths(package: Path) -> set[str]:
    """Every module (`a/b.py`) and package (`a/b/`) of the package at `package`."""
    paths = set()
    for path in package.rglob("*.py"):
        relative = path.relative_to(package.parent).as_posix()
        if path.name == "__init__.py":
            paths.add(relative[: -len("__init__.py")])
        else:
            paths.add(relative)
    return paths


def suggested_row(package: Path, path: str) -> str:
    """A map row for `path`: its module docstring's first sentence as the job."""
    source = package.parent / path
    if path.endswith("/"):
        source = source / "__init__.py"
    doc = ast.get_docstring(ast.parse(source.read_text(encoding="utf-8"))) or ""
    first = " ".join(doc.split("\n\n")[0].split())
    return f"| `{path}` | {first or 'JOB'} |"


def map_problems(text: str, package: Path) -> list[str]:
    """What differs between the map in `text` and the tree at `package`."""
    listed = listed_paths(text)
    tree = tree_paths(package)
    problems = [
        f"listed twice: {path}"
        for path in sorted({p for p in listed if listed.count(p) > 1})
    ]
    problems += [
        f"listed but not in the tree: {path}" for path in sorted(set(listed) - tree)
    ]
    problems += [
        f"missing from the map, add: {suggested_row(package, path)}"
        for path in sorted(tree - set(listed))
    ]
    return problems


@pytest.fixture(scope="module")
def design_text() -> str:
    if not DESIGN.is_file():
        pytest.skip(f"no docs/design.md beside tests/ ({DESIGN})")
    return DESIGN.read_text(encoding="utf-8")


def test_the_map_lists_every_module_and_package_and_nothing_else(design_text):
    assert listed_paths(design_text), f"no map rows under {SECTION!r}"
    problems = map_problems(design_text, PACKAGE)
    assert not problems, "docs/design.md's map of the package:\n" + "\n".join(problems)


def test_the_check_finds_a_missing_a_stale_and_a_doubled_row(tmp_path):
    """The comparison itself, on a small tree and a map that is wrong thrice."""
    package = tmp_path / "attention_zoo"
    (package / "layers").mkdir(parents=True)
    (package / "__init__.py").write_text('"""Root."""\n')
    (package / "ops.py").write_text('"""Helpers. More."""\n')
    (package / "layers" / "__init__.py").write_text("")
    (package / "layers" / "dense.py").write_text('"""A layer."""\n')
    text = (
        "# Design\n\n## Map of the package\n\n| path | job |\n| --- | --- |\n"
        "| `attention_zoo/` | root |\n| `attention_zoo/layers/` | layers |\n"
        "| `attention_zoo/layers/dense.py` | a layer |\n"
        "| `attention_zoo/layers/dense.py` | again |\n"
        "| `attention_zoo/gone.py` | moved away |\n\n"
        "## Next section\n\n| `attention_zoo/elsewhere.py` | not in the map |\n"
    )
    assert map_problems(text, package) == [
        "listed twice: attention_zoo/layers/dense.py",
        "listed but not in the tree: attention_zoo/gone.py",
        "missing from the map, add: | `attention_zoo/ops.py` | Helpers. More. |",
    ]
    fixed = text.replace(
        "| `attention_zoo/gone.py` | moved away |", "| `attention_zoo/ops.py` | x |"
    )
    fixed = fixed.replace("| `attention_zoo/layers/dense.py` | again |\n", "")
    assert map_problems(fixed, package) == []
