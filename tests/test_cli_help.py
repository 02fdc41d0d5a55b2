"""Every `--help` page of `attention-zoo` explains every flag it lists.

The pages are walked from `build_parser()`: the top level, `demo`, every
application and each of its tasks, `presets` and its tasks. A flag (an
option or a positional argument) needs a help line; one with a default
(other than None or a switch's False) says it, as "(default ...)" or the
value itself; one with choices shows them, in argparse's `{a,b}` or in its
help; every command and task has its line in its parent's list.
"""

from __future__ import annotations

import argparse

import pytest

from attention_zoo.applications import registry
from attention_zoo.cli import build_parser

# The flags every application's `train` takes, from the fields every
# `TrainConfig` shares (`common.config`, `common.distribute`).
SHARED_TRAIN_FLAGS = (
    "--epochs",
    "--batch-size",
    "--learning-rate",
    "--max-minutes",
    "--patience",
    "--seed",
    "--distribute",
)


def help_pages(parser, path=None):
    """`(path, parser)` of `parser` and of every subcommand below it."""
    path = path or (parser.prog,)
    yield " ".join(path), parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, subparser in action.choices.items():
                yield from help_pages(subparser, (*path, name))


def _flag_name(action) -> str:
    return "/".join(action.option_strings) or action.metavar or action.dest


def unexplained(parser) -> list[str]:
    """What the help pages of `parser` leave unsaid, one line per flag."""
    problems = []
    for page, subparser in help_pages(parser):
        for action in subparser._actions:
            flag = f"{page} {_flag_name(action)}"
            if isinstance(action, argparse._HelpAction):
                continue
            if isinstance(action, argparse._SubParsersAction):
                # argparse lists a subcommand only if it was added with help.
                lines = {c.dest: c.help for c in action._choices_actions}
                problems += [
                    f"{page} {name}: no help line"
                    for name in action.choices
                    if not lines.get(name)
                ]
                continue
            text = action.help or ""
            if not text.strip() or text == argparse.SUPPRESS:
                problems.append(f"{flag}: no help")
                continue
            default = action.default
            said = "(default" in text or str(default) in text
            if default not in (None, False, argparse.SUPPRESS) and not said:
                problems.append(f"{flag}: help does not say its default {default!r}")
            if action.choices is not None and action.metavar is not None:
                shown = f"{text} {action.metavar}"
                missing = [str(c) for c in action.choices if str(c) not in shown]
                if missing:
                    problems.append(f"{flag}: choices not shown: {missing}")
    return problems


@pytest.fixture(scope="module")
def parser():
    return build_parser()


def test_every_flag_of_every_page_is_explained(parser):
    assert unexplained(parser) == []


def test_the_walk_reaches_every_page(parser):
    pages = {page for page, _ in help_pages(parser)}
    assert {"attention-zoo", "attention-zoo demo", "attention-zoo presets"} <= pages
    assert {"attention-zoo presets list", "attention-zoo presets build"} <= pages
    for app in registry.applications():
        for task in app.command.tasks:
            assert f"attention-zoo {app.name} {task}" in pages


def test_every_application_s_train_takes_the_shared_flags(parser):
    pages = dict(help_pages(parser))
    for app in registry.applications():
        train = pages[f"attention-zoo {app.name} train"]
        flags = {flag for action in train._actions for flag in action.option_strings}
        missing = [flag for flag in SHARED_TRAIN_FLAGS if flag not in flags]
        assert not missing, f"{app.name} train lacks {missing}"


def test_config_flags_end_in_the_default_of_their_field(parser):
    pages = dict(help_pages(parser))
    # As printed, lines joined again.
    text = " ".join(pages["attention-zoo dates train"].format_help().split())
    assert "(default 128)" in text  # --batch-size, from the field's default
    assert "{bahdanau,luong," in text  # --attention lists the mechanisms
    assert "(default: no limit)" in text  # --max-minutes: None, said by hand


def test_a_task_s_beam_width_says_that_its_default_is_the_run_s(parser):
    pages = dict(help_pages(parser))
    (action,) = [
        action
        for action in pages["attention-zoo translation translate"]._actions
        if "--beam-width" in action.option_strings
    ]
    assert "default: the run's or preset's beam width" in action.help
    assert "4 unless given" in action.help  # translation's TrainConfig default


def test_the_check_finds_what_a_page_leaves_unsaid():
    """A page with each kind of gap: the walk above would fail on it."""
    parser = argparse.ArgumentParser(prog="prog")
    tasks = parser.add_subparsers(dest="task")
    tasks.add_parser("quiet")
    task = tasks.add_parser("loud", help="a task")
    task.add_argument("names", nargs="*")
    task.add_argument("--size", type=int, default=3, help="how many")
    task.add_argument("--kind", choices=("a", "b"), metavar="KIND", help="which")
    task.add_argument("--said", type=int, default=3, help="how many (default 3)")
    task.add_argument("--shown", choices=("a", "b"), help="which")
    assert unexplained(parser) == [
        "prog quiet: no help line",
        "prog loud names: no help",
        "prog loud --size: help does not say its default 3",
        "prog loud --kind: choices not shown: ['a', 'b']",
    ]
