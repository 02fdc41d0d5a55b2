"""What the applications that decode with beam search share on the command
line: the `beam_width` / `alpha` config fields and the `--beam-width` check
of the tasks that read a model."""

from __future__ import annotations

from dataclasses import field

from attention_zoo.applications.common.cli import (
    MAX_BEAM_WIDTH,
    check_flags,
    integer_range,
    non_negative,
)


def beam_width_field(default: int):
    """The `beam_width` field of a `TrainConfig` (`--beam-width`)."""
    return field(default=default, metadata={"check": integer_range(1, MAX_BEAM_WIDTH)})


def length_penalty_field(default: float):
    """The `alpha` field of a `TrainConfig` (`--length-penalty`, GNMT alpha)."""
    return field(
        default=default,
        metadata={
            "flag": "--length-penalty",
            "check": non_negative,
            "help": "GNMT alpha",
        },
    )


def check_beam_width_flag(parser, args) -> None:
    """`--beam-width`, where the task has it, within 1..MAX_BEAM_WIDTH."""
    beam_width = getattr(args, "beam_width", None)
    check_flags(
        parser, [("--beam-width", beam_width, integer_range(1, MAX_BEAM_WIDTH))]
    )
