"""The date normalizer's training settings: one field, one `train` flag."""

from __future__ import annotations

from dataclasses import dataclass, field

from attention_zoo.applications.common.config import (
    finite_positive,
    integer_range,
    number_range,
    positive,
)
from attention_zoo.applications.common.distribute import distribute_field

EXAMPLE_INPUTS = ["3rd of May 1979", "Sept. 14, 2001", "jeudi 3 mai 1979", "23.09.1987"]


@dataclass
class TrainConfig:
    model: str = field(default="default", metadata={"choices": ("default", "classic")})
    attention: str = field(
        default="bahdanau",
        metadata={
            "help": "attention mechanism of the default model: bahdanau (default) "
            "or another name of attention_zoo.applications.dates.model.ATTENTIONS "
            "(see docs/layers.md)"
        },
    )
    epochs: int = field(default=10, metadata={"check": positive})
    batch_size: int = field(default=128, metadata={"check": integer_range(1, 4096)})
    n_train: int = field(
        default=30000,
        metadata={"flag": "--train-size", "check": integer_range(1, 1_000_000)},
    )
    n_validation: int = field(
        default=2000,
        metadata={
            "flag": "--validation-size",
            "check": integer_range(1, 1_000_000),
        },
    )
    n_test: int = field(
        default=5000,
        metadata={"flag": "--test-size", "check": integer_range(1, 1_000_000)},
    )
    negatives: float = field(
        default=0.25,
        metadata={
            # 10 per date keeps the largest --train-size's non-dates to
            # 10,000,000 short strings, in reach of memory.
            "check": number_range(0, 10),
            "help": "generated non-dates per training date, from 0 to 10, which "
            "the default model learns to answer <invalid> (default 0.25; "
            "classic ignores it)",
        },
    )
    learning_rate: float | None = field(
        default=None,
        metadata={
            "check": finite_positive,
            "help": "Adam's initial rate (default: 5e-3 for classic; for default "
            "3e-3, or 1e-2 with --attention monotonic or mocha)",
        },
    )
    seed: int = 0
    distribute: str | None = distribute_field()
    units: int = field(default=64, metadata={"cli": False})
