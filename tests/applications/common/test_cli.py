"""Flags derived from a config dataclass, and the one-line error boundary."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

import pytest

from attention_zoo.applications.common import InputError
from attention_zoo.applications.common.cli import (
    add_config_arguments,
    config_from_args,
    non_negative,
    positive,
    run_task,
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


def test_run_task_returns_0_and_lets_other_errors_through(capsys):
    assert run_task("app", "task", lambda: print("done")) == 0
    assert capsys.readouterr().out == "done\n"

    def job():
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        run_task("app", "task", job)
    assert run_task("app", "task", job, errors=(RuntimeError,)) == 2
