"""Command-line flags derived from a training config, and the error boundary.

Every field of an application's `TrainConfig` dataclass is a flag of its
`train` task: `batch_size` is `--batch-size`, with the field's type and
default. The field's metadata refines it:

    flag      the flag's name when it is not the field's (`--train-size`)
    help      what the flag means, with its unit ("examples per training
              step"); "(default X)" is added from the default unless the
              help says "(default" itself, which it must where the default
              is None or True (what None means, what `--no-gate` turns off)
    choices   the values the flag accepts
    type      a function from the flag's string to the field's value
    default   the flag's default when it differs from the field's (the app
              then computes the field, e.g. from several flags)
    group     fields of one group name are mutually exclusive flags
    check     a function of the value that returns what is wrong with it
              ("must be a positive integer") or None (`common.config`:
              `positive`, `finite_positive`, `unit_interval`,
              `integer_range(1, 64)`, ...). Every float value is checked to
              be finite first. The same checks run without argparse
              (`common.config.check_config`).
    cli       False: no flag (the app sets the field, or keeps its default)

A bool field that defaults to False is a `store_true` flag; one that
defaults to True is a `store_false` flag named by its metadata (`--no-gate`).
"""

from __future__ import annotations

import argparse
import dataclasses

from attention_zoo.applications.common.config import problem
from attention_zoo.applications.common.errors import run_guarded

OPTIONAL = " | None"
TYPES = {"int": int, "float": float, "str": None, "bool": bool}


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr (exit 2), the
    usage left to `--help`, as every other error of the command line."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def add_listing(commands, listing, task_help: bool = True) -> dict:
    """Adds the command of an application's `CommandListing` and a parser
    per task, without flags: its name, lines and tasks, all of
    `attention-zoo NAME --help`.

    Args:
        commands: the subparsers of the `attention-zoo` command.
        listing: the application's `common.application.CommandListing`.
        task_help: False: the tasks take no `--help` either (the command's
            first look at its arguments, before the task's own flags are
            known: `attention_zoo.cli`).

    Returns:
        The parser of each task, by name.
    """
    parser = commands.add_parser(
        listing.name, help=listing.help, description=listing.description
    )
    subparsers = parser.add_subparsers(dest="task", metavar="TASK", required=True)
    return {
        name: subparsers.add_parser(name, help=line, add_help=task_help)
        for name, line in listing.tasks.items()
    }


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
        default = meta.get("default", field.default)
        if "help" in meta:
            kwargs["help"] = help_with_default(meta["help"], default)
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
        kwargs["default"] = default
        # argparse names the dest (and the help's metavar) after the flag.
        target.add_argument(flag, **kwargs)


def help_with_default(text: str, default) -> str:
    """`text` ending in "(default X)" for a flag whose default is `default`.

    Unchanged where `text` says "(default" already (a default the app
    computes, or one worth a sentence) and where X would say nothing: None,
    and the False and True of a switch (`--download`, `--no-gate`).
    Written into the text rather than left to argparse's `%(default)s`,
    so the help the parser holds (and a test reads) is the one printed.
    """
    if "(default" in text or default is None or isinstance(default, bool):
        return text
    shown = f"{default:g}" if isinstance(default, float) else default
    return f"{text} (default {shown})"


def _dest(field, flag) -> str:
    if _field_type(field) is bool:
        return field.name
    return flag.lstrip("-").replace("-", "_")


def check_flags(parser, checks) -> None:
    """`parser.error` (exit 2) for the first `(flag, value, check)` refused.

    A float value must be finite whatever its check (which may be None).
    """
    for flag, value, check in checks:
        wrong = problem(value, check)
        if wrong:
            parser.error(f"{flag} {wrong}. Received: {flag} {value}")


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


def train_job(train, config_class, args, parser, report, fields=None):
    """The `train` job of an application, for `run_task`.

    It builds the `config_class` the flags describe (`config_from_args`,
    so the flags are checked before any data is read), trains it into
    `--output` with `train(output, config)` and prints the run folder and
    `report(metrics)` of the metrics `train` returns.

    Args:
        train: the application's training function (`Application.train`).
        config_class: its `TrainConfig` dataclass.
        args: the parsed arguments.
        parser: the parser, for flag errors.
        report: a function of `train`'s metrics to the text printed.
        fields: a function of `args` to the config fields the app computes
            from several flags (`config_from_args`'s `fields`), or None.

    Returns:
        The job, a function of no arguments.
    """

    def job():
        computed = fields(args) if fields is not None else {}
        config = config_from_args(config_class, args, parser, **computed)
        metrics = train(args.output, config)
        print(f"\nrun folder: {args.output}")
        print(report(metrics))

    return job


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
