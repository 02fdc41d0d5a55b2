"""Flags derived from a config dataclass, and the one-line error boundary."""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass, field

import pytest

from attention_zoo.applications.common import InputError
from attention_zoo.applications.common.cli import (
    OneLineParser,
    add_config_arguments,
    config_from_args,
    help_with_default,
    run_task,
)
from attention_zoo.applications.common.config import (
    check_config,
    finite_positive,
    integer_range,
    non_negative,
    positive,
    unit_interval,
)


@dataclass
class Config:
    epochs: int = field(default=6, metadata={"check": positive, "help": "passes"})
    n_train: int = field(default=100, metadata={"flag": "--train-size"})
    rate: float | None = None
    kind: str = field(default="a", metadata={"choices": ("a", "b")})
    download: bool = field(default=False, metadata={"help": "fetch it"})
    gate: bool = field(default=True, metadata={"flag": "--no-gate"})
    dropout: float = field(default=0.1, metadata={"check": unit_interval})
    warmup: float = field(default=1.0, metadata={"check": non_negative})
    weights: str | None = field(
        default="w", metadata={"type": lambda v: None if v == "none" else v}
    )
    corpus: str = field(default="bible", metadata={"group": "source", "default": None})
    pairs: str | None = field(default=None, metadata={"group": "source"})
    hidden: int = field(default=3, metadata={"cli": False})


def parse(argv):
    parser = argparse.ArgumentParser(prog="prog")
    add_config_arguments(parser, Config)
    return parser, parser.parse_args(argv)


def test_defaults_give_the_dataclass_defaults():
    parser, args = parse([])
    config = config_from_args(Config, args, parser, corpus="bible")
    assert config == Config()


def test_flags_set_their_fields():
    argv = "--epochs 2 --train-size 7 --rate 0.5 --kind b --download --no-gate "
    argv += "--weights none --pairs p.tsv"
    parser, args = parse(argv.split())
    config = config_from_args(Config, args, parser, corpus="tsv")
    assert config == Config(
        epochs=2,
        n_train=7,
        rate=0.5,
        kind="b",
        download=True,
        gate=False,
        weights=None,
        corpus="tsv",
        pairs="p.tsv",
    )


def test_help_names_flags_after_the_flag_and_keeps_metadata():
    parser, _ = parse([])
    text = parser.format_help()
    assert "--train-size TRAIN_SIZE" in text
    assert "--kind {a,b}" in text
    assert "fetch it" in text and "--no-gate" in text
    assert "--hidden" not in text
    with pytest.raises(SystemExit):
        parse(["--corpus", "x", "--pairs", "p"])  # one group: exclusive


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["--epochs", "0"],
            "--epochs must be a positive integer. Received: --epochs 0",
        ),
        (["--dropout", "1"], "--dropout must be in [0, 1). Received: --dropout 1.0"),
        (["--warmup", "-1"], "--warmup must be >= 0. Received: --warmup -1.0"),
    ],
)
def test_checks_report_the_flag_and_the_value(argv, message, capsys):
    parser, args = parse(argv)
    with pytest.raises(SystemExit) as exit_info:
        config_from_args(Config, args, parser)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_positive_lets_an_unset_flag_pass():
    assert positive(None) is None
    assert positive(1) is None
    assert positive(0) == "must be a positive integer"


@pytest.mark.parametrize(
    "error", [ValueError("bad"), InputError("bad"), FileNotFoundError("bad")]
)
def test_run_task_reports_expected_errors_in_one_line(error, capsys):
    def job():
        raise error

    assert run_task("app", "task", job) == 2
    assert capsys.readouterr().err == "attention-zoo app task: error: bad\n"


def test_run_task_returns_0_and_reports_other_errors_as_bugs(capsys, monkeypatch):
    assert run_task("app", "task", lambda: print("done")) == 0
    assert capsys.readouterr().out == "done\n"

    def job():
        raise RuntimeError("boom")

    # An unexpected error: one line that says where to report it, exit 1.
    monkeypatch.delenv("ATTENTION_ZOO_DEBUG", raising=False)
    assert run_task("app", "task", job) == 1
    err = capsys.readouterr().err
    assert err.startswith("attention-zoo app task: internal error: RuntimeError: boom")
    assert "report it" in err and "ATTENTION_ZOO_DEBUG=1" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert run_task("app", "task", job, errors=(RuntimeError,)) == 2
    capsys.readouterr()
    # ATTENTION_ZOO_DEBUG=1 adds the traceback.
    monkeypatch.setenv("ATTENTION_ZOO_DEBUG", "1")
    assert run_task("app", "task", job) == 1
    assert "Traceback" in capsys.readouterr().err


@pytest.mark.parametrize(
    "check, value, problem",
    [
        (finite_positive, float("inf"), "must be a finite positive number"),
        (finite_positive, float("nan"), "must be a finite positive number"),
        (finite_positive, 0.0, "must be a finite positive number"),
        (unit_interval, float("nan"), "must be in [0, 1)"),
        (None, float("-inf"), "must be a finite number"),
        (non_negative, float("inf"), "must be a finite number"),
    ],
)
def test_non_finite_and_out_of_range_values_are_refused(check, value, problem):
    @dataclass
    class Rates:
        rate: float = field(default=1.0, metadata={"check": check} if check else {})

    parser = OneLineParser(prog="prog")
    add_config_arguments(parser, Rates)
    with pytest.raises(ValueError, match=rf"`rate` {re.escape(problem)}\."):
        check_config(Rates(rate=value))
    args = argparse.Namespace(rate=value)
    with pytest.raises(SystemExit):
        config_from_args(Rates, args, parser)
    assert check_config(Rates(rate=0.5)) is None


def test_integer_range_bounds_both_ends():
    check = integer_range(1, 64)
    assert check(None) is None and check(1) is None and check(64) is None
    assert check(0) == check(65) == "must be an integer from 1 to 64"


def test_parser_errors_are_one_line(capsys):
    parser = OneLineParser(prog="prog")
    parser.add_argument("--n", type=int)
    with pytest.raises(SystemExit) as exit_info:
        parser.parse_args(["--n", "x"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("prog: error: argument --n")


def test_error_messages_are_one_line_and_cut(capsys):
    def job():
        raise FileNotFoundError("x" * 100_000 + "\nsecond line")

    assert run_task("app", "task", job) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 1000 and "second line" in err


@pytest.mark.parametrize(
    "default, expected",
    [
        (6, "passes (default 6)"),
        (2e-3, "passes (default 0.002)"),
        ("bible", "passes (default bible)"),
        # What None means, or what a switch does, is written by hand.
        (None, "passes"),
        (False, "passes"),
        (True, "passes"),
    ],
)
def test_help_ends_in_the_default(default, expected):
    assert help_with_default("passes", default) == expected
    said = "passes (default: all of them)"
    assert help_with_default(said, default) == said


def test_the_help_of_a_config_flag_says_its_default():
    parser, _ = parse([])
    text = " ".join(parser.format_help().split())
    assert "--epochs EPOCHS passes (default 6)" in text
    assert "--download fetch it" in text
