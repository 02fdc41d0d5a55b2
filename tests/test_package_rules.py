"""Rules of the package's layout that a change could break silently."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import attention_zoo

PACKAGE = Path(attention_zoo.__file__).parent
SOURCES = sorted(PACKAGE.rglob("*.py"))
# A file past this many lines is asking to be split (house style).
MAX_LINES = 400
# The benchmarks beside the package, in a source checkout.
BENCHMARKS = sorted((PACKAGE.parent / "benchmarks").glob("*.py"))


def test_the_package_sources_are_found():
    assert len(SOURCES) > 50


def test_no_source_file_is_over_400_lines():
    long = {
        str(p.relative_to(PACKAGE)): n
        for p in SOURCES
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"files over {MAX_LINES} lines: {long}"


def test_private_keras_names_come_from_the_compatibility_module_alone():
    private = re.compile(r"^\s*(from|import)\s+keras\.src\b", re.MULTILINE)
    users = [
        str(p.relative_to(PACKAGE))
        for p in SOURCES
        if p.name != "_keras_compat.py" and private.search(p.read_text("utf-8"))
    ]
    assert not users, f"keras.src imported outside _keras_compat.py: {users}"


def test_the_library_imports_tensorflow_only_in_the_export_helpers():
    """The layers, decoders and decoding run on every backend; TensorFlow is
    imported by the SavedModel export helpers and the applications."""
    imports = re.compile(r"^\s*(from|import)\s+tensorflow\b", re.MULTILINE)
    allowed = ("applications", "export", "presets")
    # _quiet_startup imports TensorFlow on its own backend only, to silence
    # its start-up logging before Keras imports it.
    users = [
        str(p.relative_to(PACKAGE))
        for p in SOURCES
        if p.relative_to(PACKAGE).parts[0] not in allowed
        and p.name != "_quiet_startup.py"
        and imports.search(p.read_text("utf-8"))
    ]
    assert not users, f"TensorFlow imported by library modules: {users}"


_MODE_CHARACTERS = set("rwxabt+U")


def _argument(call: ast.Call, index: int, name: str):
    """The node of the argument at position `index` or keyword `name`."""
    if len(call.args) > index:
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == name), None)


def _text_mode(mode, default: str = "r") -> bool:
    """Whether `mode` (a node, or None for `default`) opens a text file."""
    if mode is None:
        return "b" not in default
    if isinstance(mode, ast.Constant) and isinstance(mode.value, str):
        # A string that is no mode is another `open`'s argument (an image's
        # path given to `Image.open`).
        return set(mode.value) <= _MODE_CHARACTERS and "b" not in mode.value
    return False  # a mode computed at run time: not decidable here


def locale_encoded_calls(source: str) -> list[str]:
    """The calls in `source` that read or write text in the locale's encoding.

    `Path.read_text()`, `Path.write_text(text)`, `open`, `io.open`,
    `Path.open`, `os.fdopen` in text mode, `io.TextIOWrapper` and text-mode
    temporary files without `encoding=` decode and encode with the locale's
    encoding (latin-1 under such a locale, ASCII under `LC_ALL=C`, cp1252 on
    Windows), so a UTF-8 file reads as other characters. Subprocesses in
    text mode are left out: another program writes in the locale's encoding.
    """
    found = []
    for call in ast.walk(ast.parse(source)):
        if not isinstance(call, ast.Call):
            continue
        function = call.func
        name = getattr(function, "attr", getattr(function, "id", None))
        owner = getattr(getattr(function, "value", None), "id", None)
        if name == "read_text":
            bare = _argument(call, 0, "encoding") is None
        elif name == "write_text":
            bare = _argument(call, 1, "encoding") is None
        elif name in ("open", "fdopen") and (
            isinstance(function, ast.Name) or owner in ("io", "codecs", "os")
        ):
            # open(file, mode, buffering, encoding); os.open takes flags.
            mode = _argument(call, 1, "mode")
            bare = (
                not (name == "open" and owner == "os")
                and _text_mode(mode)
                and _argument(call, 3, "encoding") is None
            )
        elif name == "open":  # Path.open(mode, buffering, encoding)
            mode = _argument(call, 0, "mode")
            bare = _text_mode(mode) and _argument(call, 2, "encoding") is None
        elif name == "TextIOWrapper":
            bare = _argument(call, 1, "encoding") is None
        elif name in ("TemporaryFile", "NamedTemporaryFile"):
            mode = _argument(call, 0, "mode")
            bare = _text_mode(mode, "w+b") and _argument(call, 2, "encoding") is None
        else:
            continue
        if bare:
            found.append(f"line {call.lineno}: {ast.unparse(call)[:80]}")
    return found


def test_text_files_are_read_and_written_as_utf8():
    """Every text file of the package and the benchmarks names its encoding.

    The shipped presets' vocabularies are UTF-8: read in a latin-1 locale,
    "février" was three unknown characters and `3 février 1979` came out
    as 1979-04-03 (docs/reliability.md, "Text files are UTF-8, whatever the
    locale").
    """
    bare = {
        str(p.relative_to(PACKAGE.parent)): calls
        for p in SOURCES + BENCHMARKS
        if (calls := locale_encoded_calls(p.read_text(encoding="utf-8")))
    }
    assert not bare, f"text read or written without encoding=: {bare}"


def test_the_encoding_rule_finds_every_kind_of_bare_call():
    bare = [
        "Path(p).read_text()",
        "p.write_text(text)",
        "open(p)",
        "open(p, 'w')",
        "open(p, mode='a+')",
        "io.open(p, 'rt')",
        "p.open()",
        "p.open('w', newline='')",
        "os.fdopen(fd, 'w')",
        "io.TextIOWrapper(buffer)",
        "tempfile.NamedTemporaryFile('w')",
    ]
    for call in bare:
        assert locale_encoded_calls(call), call
    named = [
        "p.read_text(encoding='utf-8')",
        "p.read_text('utf-8')",
        "p.write_text(text, encoding='utf-8')",
        "p.read_bytes()",
        "open(p, 'rb')",
        "open(p, 'w', encoding='utf-8')",
        "open(p, 'r', -1, 'utf-8')",
        "p.open('rb')",
        "p.open(encoding='utf-8', newline='')",
        "os.open(p, os.O_WRONLY)",
        "os.fdopen(fd, 'wb')",
        "Image.open(io.BytesIO(data))",
        "Image.open('cat.png')",
        "archive.open(names[0])",
        "io.TextIOWrapper(buffer, 'utf-8')",
        "tempfile.NamedTemporaryFile()",
    ]
    for call in named:
        assert not locale_encoded_calls(call), call


# The package's layers, bottom to top (docs/design.md, "The stack"): a
# module imports modules of its own layer and of the layers below, never of
# one above, not even lazily inside a function. A module belongs to the
# layer of the longest prefix that names it; a module no prefix names is the
# library (`presets/` and `export/` included).
LAYERS = (
    ("library", ()),
    # Knows no application and not the registry: it is handed the
    # application (`Application`) it works for.
    ("application skeleton", ("attention_zoo.applications.common",)),
    # The applications, the registry that lists them, the demo.
    ("applications", ("attention_zoo.applications",)),
    # `attention-zoo serve`: serves the applications' predictors.
    ("server", ("attention_zoo.serving",)),
    # The composition root: the command builds its pages from the registry
    # and starts the server.
    ("command", ("attention_zoo.cli", "attention_zoo.__main__")),
)


def module_names(root: Path) -> dict[str, Path]:
    """The dotted name of every module of the package whose folder is `root`.

    `root/sub/mod.py` is `pkg.sub.mod`; `root/sub/__init__.py` is `pkg.sub`.
    """
    names = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return names


def import_graph(root: Path) -> dict[str, set[str]]:
    """Each module of the package at `root` -> the package's modules it imports.

    Every `import` and `from ... import` of the package's modules counts,
    at module level and inside functions alike; relative imports are
    resolved against the importing module's package. The rules of an edge:

    - `import pkg.a.b` is an edge to `pkg.a.b`, not to the packages `pkg`
      and `pkg.a` that Python initialises first: every module would
      otherwise depend on `pkg/__init__.py`, which imports its subpackages,
      and every import would look like a cycle.
    - `from pkg.a import b` is an edge to the module `pkg.a.b` when `b` is a
      module, and to the package `pkg.a` (its `__init__.py`) when `b` is a
      name defined or re-exported there. So a submodule of `pkg.a` that
      imports a sibling by its module (`from pkg.a import b`,
      `from .b import name`) is no cycle with `pkg.a`'s `__init__`, while
      one that imports a name from `pkg.a` itself is.

    Imports made from strings (`importlib.import_module`) are not seen.
    """
    modules = module_names(root)
    top = root.name
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - node.level + 1]
                    base = ".".join(parts + ([node.module] if node.module else []))
                for alias in node.names:
                    submodule = f"{base}.{alias.name}"
                    targets.add(submodule if submodule in modules else base)
        graph[name] = {t for t in targets if t == top or t.startswith(top + ".")}
    return graph


def find_cycle(graph: dict[str, set[str]], modules) -> list[str] | None:
    """An import cycle among `modules`, as a chain `[a, b, ..., a]`, or None.

    Only the edges of `graph` between two of `modules` count. A depth-first
    search in sorted order, so the same graph reports the same cycle.
    """
    modules = set(modules)
    done, path, position = set(), [], {}

    def visit(module):
        position[module] = len(path)
        path.append(module)
        for target in sorted(graph.get(module, set()) & modules):
            if target in position:
                return path[position[target] :] + [target]
            if target not in done and (cycle := visit(target)):
                return cycle
        del position[path.pop()]
        done.add(module)
        return None

    for module in sorted(modules):
        if module not in done and (cycle := visit(module)):
            return cycle
    return None


def in_layer(module: str, prefixes) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def test_the_package_has_no_import_cycle():
    graph = import_graph(PACKAGE)
    cycle = find_cycle(graph, graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_nothing_outside_an_application_imports_it():
    """An application is reached through the registry alone (which names
    its module as a string): the skeleton, the command, the presets and the
    other applications never import it, so adding one is its folder and
    one line of `registry.MODULES`."""
    from attention_zoo.applications import registry

    graph = import_graph(PACKAGE)
    packages = [m.rpartition(".")[0] for m in registry.MODULES]
    found = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        for target in targets
        for package in packages
        if in_layer(target, (package,)) and not in_layer(module, (package,))
    )
    assert not found, f"modules importing an application: {found}"


def layer_of(module: str, layers) -> int:
    """The index in `layers` of the layer of `module`: that of the longest
    prefix naming it, 0 (the first layer) when none does."""
    named = [
        (len(prefix), index)
        for index, (_, prefixes) in enumerate(layers)
        for prefix in prefixes
        if in_layer(module, (prefix,))
    ]
    return max(named)[1] if named else 0


def upward_imports(graph: dict[str, set[str]], layers) -> list[str]:
    """Every import of `graph` from a lower layer of `layers` to a higher
    one, as `module (layer) -> target (layer)`, sorted. No module is
    excused."""
    found = []
    for module, targets in graph.items():
        low = layer_of(module, layers)
        for target in targets:
            if (high := layer_of(target, layers)) > low:
                found.append(
                    f"{module} ({layers[low][0]}) -> {target} ({layers[high][0]})"
                )
    return sorted(found)


def test_no_module_imports_a_layer_above_its_own():
    """The stack's rule (docs/design.md): each layer imports only its own
    and those below; the command line is the composition root on top."""
    graph = import_graph(PACKAGE)
    found = upward_imports(graph, LAYERS)
    assert not found, "imports up the stack:\n" + "\n".join(found)


def test_every_layer_names_modules_of_the_package():
    """A layer whose modules moved would silently join the library."""
    graph = import_graph(PACKAGE)
    empty = [
        prefix
        for _, prefixes in LAYERS
        for prefix in prefixes
        if not any(in_layer(module, (prefix,)) for module in graph)
    ]
    assert not empty, f"layer prefixes naming no module: {empty}"


def test_the_layer_rule_names_each_import_up_the_stack(tmp_path):
    files = {
        "__init__.py": "",
        "lib.py": "def later():\n    from pkg.app import run\n",
        "old.py": "import pkg.app.base\n",
        "app/__init__.py": "from pkg.app.base import run\nfrom pkg import lib\n",
        "app/base.py": "from .. import lib\n",
        "app/core/__init__.py": "from pkg.app import base\n",
        "cli.py": "from pkg.app import run\nfrom . import lib\n",
    }
    for name, text in files.items():
        (tmp_path / "pkg" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "pkg" / name).write_text(text, encoding="utf-8")
    layers = (
        ("library", ()),
        ("core", ("pkg.app.core",)),
        ("app", ("pkg.app",)),
        ("top", ("pkg.cli",)),
    )
    graph = import_graph(tmp_path / "pkg")
    assert [layer_of(m, layers) for m in ("pkg", "pkg.app.core", "pkg.app")] == [
        0,
        1,
        2,
    ]
    # Down the stack and within a layer is allowed; a lazy import up the
    # stack counts as one at the top, and the longest prefix decides.
    assert upward_imports(graph, layers) == [
        "pkg.app.core (core) -> pkg.app.base (app)",
        "pkg.lib (library) -> pkg.app (app)",
        "pkg.old (library) -> pkg.app.base (app)",
    ]


def test_the_import_graph_resolves_each_kind_of_import(tmp_path):
    files = {
        "__init__.py": "from pkg.sub import Thing\nimport os\n",
        "ops.py": "def later():\n    from pkg.sub.b import helper\n",
        "sub/__init__.py": "from .a import Thing\n",
        "sub/a.py": "from . import b\nfrom .. import ops\n",
        "sub/b.py": "import pkg.ops as o\nfrom pkg.sub import Thing\n",
    }
    for name, text in files.items():
        (tmp_path / "pkg" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "pkg" / name).write_text(text, encoding="utf-8")
    graph = import_graph(tmp_path / "pkg")
    assert graph == {
        "pkg": {"pkg.sub"},
        "pkg.ops": {"pkg.sub.b"},
        "pkg.sub": {"pkg.sub.a"},
        "pkg.sub.a": {"pkg.sub.b", "pkg.ops"},
        "pkg.sub.b": {"pkg.ops", "pkg.sub"},
    }
    # An import inside a function closes a cycle as well as one at the top.
    assert find_cycle(graph, graph) == ["pkg.ops", "pkg.sub.b", "pkg.ops"]
    graph["pkg.ops"] = set()
    # b takes a name from its own package's __init__, which imports a, which
    # imports b: a cycle, reported as a chain.
    assert find_cycle(graph, graph) == ["pkg.sub", "pkg.sub.a", "pkg.sub.b", "pkg.sub"]
    assert find_cycle(graph, ["pkg", "pkg.sub", "pkg.sub.a", "pkg.ops"]) is None
