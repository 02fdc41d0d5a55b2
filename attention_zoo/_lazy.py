"""A package's public names loaded on first use (PEP 562).

The `attention-zoo` command imports the package, the registry and its
parsers' declarations without Keras, so that `--help`, `--version` and an
argument error answer at once (docs/reliability.md, "The command answers
at once"); a package on that path whose `__init__` imported its modules
would import Keras with them. Such a
package names where each public name comes from instead, and this gives it
the module `__getattr__` and `__dir__` that load each one when first read.
"""

from __future__ import annotations

import importlib


def attributes(package: str, origins: dict[str, str], namespace: dict):
    """`(__getattr__, __dir__)` of the package `package`.

    Args:
        package: the package's name (its `__name__`).
        origins: each public name -> the module that defines it; a name
            whose module is `package.name` is that submodule itself.
        namespace: the package's `globals()`, where a name once loaded is
            kept as an ordinary attribute.
    """

    def __getattr__(name: str):
        if name not in origins:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(origins[name])
        value = (
            module if module.__name__ == f"{package}.{name}" else getattr(module, name)
        )
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(origins))

    return __getattr__, __dir__
