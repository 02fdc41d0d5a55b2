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
              ("must be a positive integer") or None; `positive`,
              `finite_positive`, `unit_interval`, `integer_range(1, 64)`
              are some. Every float value is checked to be finite first.
    cli       False: no flag (the app sets the field, or keeps its default)

A bool field that defaults to False is a `store_true` flag; one that
defaults to True is a `store_false` flag named by its metadata (`--no-gate`).
"""

from __future__ import annotations

import argparse
import dataclasses
import math

from attention_zoo.applications.common.errors import run_guarded

OPTIONAL = " | None"
# The widest beam the command line decodes with: the memory and time of a
# beam search grow with it, and wider beams gain nothing on these models.
MAX_BEAM_WIDTH = 64
TYPES = {"int": int, "float": float, "str": None, "bool": bool}


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr (exit 2), the
    usage left to `--help`, as every other error of the command line."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def positive(value) -> str | None:
    """The `check` of a positive integer flag (None, an unset flag, passes)."""
    if value is not None and value < 1:
        return "must be a positive integer"
    return None


def integer_range(low: int, high: int):
    """The `check` of an integer flag from `low` to `high` (a documented bound
    that keeps one call's memory and time in reach; None passes)."""

    def check(value) -> str | None:
        if value is not None and not low <= value <= high:
            return f"must be an integer from {low} to {high}"
        return None

    return check


def finite(value) -> str | None:
    """The check every float value gets: NaN and infinities are refused."""
    if isinstance(value, float) and not math.isfinite(value):
        return "must be a finite number"
    return None


def finite_positive(value) -> str | None:
    """The `check` of a finite positive number, such as a learning rate."""
    if value is not None and not 0 < value < math.inf:
        return "must be a finite positive number"
    return None


def unit_interval(value) -> str | None:
    """The `check` of a rate in [0, 1), such as a dropout."""
    return None if 0.0 <= value < 1.0 else "must be in [0, 1)"


def non_negative(value) -> str | None:
    """The `check` of a value that may be 0 but not negative."""
    return "must be >= 0" if value < 0 else None


def number_range(low: float, high: float):
    """The `check` of a number from `low` to `high` (a documented bound that
    keeps the memory of what it sizes in reach)."""

    def check(value) -> str | None:
        if value is not None and not low <= value <= high:
            return f"must be a number from {low:g} to {high:g}"
        return None

    return check


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


def _problem(value, check) -> str | None:
    # The field's own check first: it names the range ("a finite positive
    # number"); `finite` covers a float field without one.
    return (check(value) if check else None) or finite(value)


def check_flags(parser, checks) -> None:
    """`parser.error` (exit 2) for the first `(flag, value, check)` refused.

    A float value must be finite whatever its check (which may be None).
    """
    for flag, value, check in checks:
        problem = _problem(value, check)
        if problem:
            parser.error(f"{flag} {problem}. Received: {flag} {value}")


def check_config(config) -> None:
    """Raise ValueError naming the first field of the dataclass `config`
    refused by its metadata's `check` (a float: by `finite` first).

    The Python API's form of the flag checks of `config_from_args`.
    """
    for field in dataclasses.fields(config):
        value = getattr(config, field.name)
        problem = _problem(value, field.metadata.get("check"))
        if problem:
            raise ValueError(
                f"`{field.name}` {problem}. Received: {field.name}={value!r}"
            )


def config_from_args(config_class, args, parser, **fields):
    """The `config_class` the parsed `args` describe, flag checks first.

    `fields` are fields the app computes itself; they win over the flags.
    """
    values = {}
    checks = []
    for field, flag in _flag_fields(config_class):
        value = getattr(args, _dest(field, flag))
        values[field.name] = value
        checks.append((flag, value, field.metadata.get("check")))
    check_flags(parser, checks)
    return config_class(**{**values, **fields})


def train_job(tasks, config_class, args, parser, report, fields=None):
    """The `train` job of an application, for `run_task`.

    It builds the `config_class` the flags describe (`config_from_args`,
    so the flags are checked before any data is read), trains it into
    `--output` with `tasks.train(output, config)` and prints the run folder
    and `report(metrics)` of the metrics `tasks.train` returns.

    Args:
        tasks: the application's `tasks` module.
        config_class: its `TrainConfig` dataclass.
        args: the parsed arguments.
        parser: the parser, for flag errors.
        report: a function of `tasks.train`'s metrics to the text printed.
        fields: a function of `args` to the config fields the app computes
            from several flags (`config_from_args`'s `fields`), or None.

    Returns:
        The job, a function of no arguments.
    """

    def train():
        computed = fields(args) if fields is not None else {}
        config = config_from_args(config_class, args, parser, **computed)
        metrics = tasks.train(args.output, config)
        print(f"\nrun folder: {args.output}")
        print(report(metrics))

    return train


def run_task(app: str, task: str, job, errors=()) -> int:
    """`job()` inside the CLI's error boundary (`errors.run_guarded`).

    Expected failures (`ValueError`, the apps' `InputError` and
    `MalformedFileError` among them; `OSError`, a missing file or a full
    disk among them; `ImportError` of an optional package; the app's own
    `errors`) print `attention-zoo APP TASK: error: MESSAGE`, one line on
    stderr, and give 2; any other exception one line that says where to
    report it, and 1.

    Returns:
        The command's exit status.
    """
    return run_guarded(f"attention-zoo {app} {task}", job, errors)
