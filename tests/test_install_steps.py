"""Every install command the documents give works today.

attention-zoo is not on PyPI yet, and its pyproject names no repository URL,
so the installs that work are from a clone (`pip install .`, with extras
`".[serve]"`, editable with `-e`) and from a wheel built there
(`dist/attention_zoo-*.whl`). `pip install attention-zoo` may appear only in
a section that also says how to install before it is published.
"""

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = ["README.md", "CONTRIBUTING.md", "docs"]

# `pip install ARGS` up to the end of the command: a backtick (inline code),
# `&&`, `;`, `|`, a closing parenthesis, a comment or the end of the line.
_PIP_INSTALL = re.compile(r"\bpip3? install((?:[ \t]+(?![#&;|])[^\s`&;|)]+)*)")
_OURS = re.compile(r"^attention[-_.]zoo\b", re.IGNORECASE)
_FROM_CLONE = re.compile(r"^\.(?:\[(?P<extras>[^\]]*)\])?$")
_FROM_WHEEL = re.compile(
    r"^(?:\S+/)?attention_zoo-[^/\s]*\.whl(?:\[(?P<extras>[^\]]*)\])?$"
)


def _documents():
    for name in DOCUMENTS:
        path = ROOT / name
        if path.is_dir():
            yield from sorted(path.rglob("*.md"))
        else:
            yield path


def _sections(text):
    """The text between one heading and the next (outside code blocks)."""
    sections, current, fenced = [], [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and re.match(r"#{1,6} ", line) and current:
            sections.append("\n".join(current))
            current = []
        current.append(line)
    sections.append("\n".join(current))
    return sections


def install_commands():
    """`(document, section, arguments)` of each `pip install` with arguments
    (a bare "after `pip install`" in prose names no command)."""
    found = []
    for path in _documents():
        for section in _sections(path.read_text("utf-8")):
            for match in _PIP_INSTALL.finditer(section):
                arguments = shlex.split(match.group(1))
                if arguments:
                    found.append((str(path.relative_to(ROOT)), section, arguments))
    return found


def _extras():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    return set(project["optional-dependencies"])


def problem(section, arguments, extras):
    """What is wrong with one `pip install ARGUMENTS`, or None."""
    for argument in arguments:
        if argument.startswith("-"):  # -e, -q, --upgrade
            continue
        local = _FROM_CLONE.match(argument) or _FROM_WHEEL.match(argument)
        if local:
            named = {e.strip() for e in (local["extras"] or "").split(",") if e}
            if named - extras:
                return f"extras {sorted(named - extras)} are not in pyproject.toml"
        elif "@" in argument or "git+" in argument:
            return "a URL install: pyproject.toml names no repository URL"
        elif _OURS.match(argument):
            # From PyPI: only beside the way to install before it is there.
            if "published" not in section or not re.search(
                r"pip install (?:-e )?[\"']?\.", section
            ):
                return (
                    "attention-zoo is not on PyPI yet: this section must also say "
                    "how to install from a clone (pip install .) before it is published"
                )
        # Anything else is another project's package on PyPI (build, keras-hub).
    return None


def test_the_documents_give_install_commands():
    commands = install_commands()
    assert len(commands) >= 8, commands
    assert any(doc == "docs/getting_started.md" for doc, _, _ in commands)


def test_every_install_command_works_before_publishing():
    extras = _extras()
    wrong = [
        f"{doc}: pip install {' '.join(arguments)}: {why}"
        for doc, section, arguments in install_commands()
        if (why := problem(section, arguments, extras))
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    ("command", "ok"),
    [
        ("pip install .", True),
        ('pip install ".[test,export,serve]"', True),
        ("pip install -e '.[docs]'", True),
        ("pip install dist/attention_zoo-*.whl", True),
        ("pip install build", True),
        ("pip install attention-zoo", False),
        ("pip install 'attention-zoo[serve]'", False),
        ('pip install ".[servers]"', False),
        ('pip install "attention-zoo[serve] @ git+https://example.org/a.git"', False),
    ],
)
def test_the_rule_itself(command, ok):
    """The checker refuses what failed on a fresh machine ("No matching
    distribution found") and an extra pyproject does not define."""
    (arguments,) = [
        shlex.split(m.group(1)) for m in _PIP_INSTALL.finditer(f"`{command}`")
    ]
    assert (problem("## Install", arguments, _extras()) is None) is ok


def test_pypi_name_passes_beside_the_install_from_a_clone():
    section = (
        "Not on PyPI yet: in a clone, `pip install .`; once a release is "
        "published, `pip install attention-zoo`."
    )
    assert problem(section, ["attention-zoo"], _extras()) is None
