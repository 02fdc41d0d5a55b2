"""Command-line flags derived from a training config, and the error boundary.

Every field of an application's `TrainConfig` dataclass is a flag of its
`train` task: `batch_size` is `--batch-size`, with the field's type and
default. The field's metadata refines it:

    flag      the flag's name when it is not the field's (`--train-size`)
    help      the help text
    choices   the values the flag accepts
    type      a function from the flag's string to the field's value
    default   the flag's default when it differs from the field's (the app
              then computes the field, e.g. from several flags)
    group     fields of one group name are mutually exclusive flags
    check     a function of the value that returns what is wrong with it
              ("must be a positive integer") or None; `positive` is one
    cli       False: no flag (the app sets the field, or keeps its default)

A bool field that defaults to False is a `store_true` flag; one that
defaults to True is a `store_false` flag named by its metadata (`--no-gate`).
"""

from __future__ import annotations

import dataclasses
import sys

OPTIONAL = " | None"
TYPES = {"int": int, "float": float, "str": None, "bool": bool}


def positive(value) -> str | None:
    """The `check` of a positive integer flag (None, an unset flag, passes)."""
    if value is not None and value < 1:
        return "must be a positive integer"
    return None


def unit_interval(value) -> str | None:
    """The `check` of a rate in [0, 1), such as a dropout."""
    return None if 0.0 <= value < 1.0 else "must be in [0, 1)"


def non_negative(value) -> str | None:
    """The `check` of a value that may be 0 but not negative."""
    return "must be >= 0" if value < 0 else None


def _flag_fields(config_class):
    for field in dataclasses.fields(config_class):
        if field.metadata.get("cli", True):
            flag = field.metadata.get("flag", "--" + field.name.replace("_", "-"))
            yield field, flag


def _field_type(field):
    name = field.type if isinstance(field.type, str) else field.type.__name__
    return TYPES[name.removesuffix(OPTIONAL)]


def add_config_arguments(parser, config_class) -> None:
    """Add a flag to `parser` for every field of the dataclass `config_class`."""
    groups = {}
    for field, flag in _flag_fields(config_class):
        meta = field.metadata
        target = parser
        if "group" in meta:
            if meta["group"] not in groups:
                groups[meta["group"]] = parser.add_mutually_exclusive_group()
            target = groups[meta["group"]]
        kwargs = {}
        if "help" in meta:
            kwargs["help"] = meta["help"]
        kind = _field_type(field)
        if kind is bool:
            # The dest is the field's, so `--no-gate` sets `gate`.
            action = "store_false" if field.default else "store_true"
            target.add_argument(flag, dest=field.name, action=action, **kwargs)
            continue
        kind = meta.get("type", kind)
        if kind is not None:
            kwargs["type"] = kind
        if "choices" in meta:
            kwargs["choices"] = meta["choices"]
        kwargs["default"] = meta.get("default", field.default)
        # argparse names the dest (and the help's metavar) after the flag.
        target.add_argument(flag, **kwargs)


def _dest(field, flag) -> str:
    if _field_type(field) is bool:
        return field.name
    return flag.lstrip("-").replace("-", "_")


def check_flags(parser, checks) -> None:
    """`parser.error` (exit 2) for the first `(flag, value, check)` refused."""
    for flag, value, check in checks:
        problem = check(value)
        if problem:
            parser.error(f"{flag} {problem}. Received: {flag} {value}")


def config_from_args(config_class, args, parser, **fields):
    """The `config_class` the parsed `args` describe, flag checks first.

    `fields` are fields the app computes itself; they win over the flags.
    """
    values = {}
    checks = []
    for field, flag in _flag_fields(config_class):
        value = getattr(args, _dest(field, flag))
        values[field.name] = value
        if "check" in field.metadata:
            checks.append((flag, value, field.metadata["check"]))
    check_flags(parser, checks)
    return config_class(**{**values, **fields})


def run_task(app: str, task: str, job, errors=()) -> int:
    """`job()`, with expected failures reported in one line (exit status 2).

    `ValueError` (the apps' `InputError` among them) and `OSError` (a
    missing file among them), plus the app's own `errors`, print
    `attention-zoo APP TASK: error: MESSAGE` on stderr instead of a
    traceback.

    Returns:
        0 when `job` returns, 2 when it raises one of those errors.
    """
    try:
        job()
    except (ValueError, OSError, *errors) as error:
        print(f"attention-zoo {app} {task}: error: {error}", file=sys.stderr)
        return 2
    return 0
