"""The translation model's training settings: one field, one `train` flag."""

from __future__ import annotations

from dataclasses import dataclass, field

from attention_zoo.applications.common.config import (
    beam_width_field,
    finite_positive,
    integer_range,
    length_penalty_field,
    positive,
    unit_interval,
)
from attention_zoo.applications.common.distribute import distribute_field

CORPORA = ("bible", "numbers", "tsv", "tfds")
EXAMPLE_SENTENCES = [
    "In the beginning God created the heavens and the earth.",
    "Jesus wept.",
]


@dataclass
class TrainConfig:
    # `attention-zoo translation train` sets `corpus` from whichever of
    # --corpus, --pairs and --tfds is given.
    corpus: str = field(
        default="bible",
        metadata={
            "group": "corpus",
            "choices": ("bible", "numbers"),
            "default": None,
            "help": "offline corpus (default bible; numbers: num2words pairs)",
        },
    )
    pairs: str | None = field(  # the TSV file of corpus="tsv"
        default=None,
        metadata={
            "group": "corpus",
            "help": "tab-separated pairs file (source, target)",
        },
    )
    validation_pairs: str | None = field(
        default=None,
        metadata={
            "help": "TSV file of validation pairs (default: held out of the "
            "corpus: random pairs of --pairs, whole books of the Bible)"
        },
    )
    test_pairs: str | None = field(
        default=None,
        metadata={"help": "TSV file of test pairs (default: held out as above)"},
    )
    tfds_name: str | None = field(  # the dataset of corpus="tfds"
        default=None,
        metadata={
            "group": "corpus",
            "flag": "--tfds",
            "help": "tensorflow_datasets name, e.g. ted_hrlr_translate/pt_to_en",
        },
    )
    tfds_data_dir: str | None = None
    download: bool = field(
        default=False,
        metadata={
            "help": "let tensorflow_datasets download and prepare --tfds (network)"
        },
    )
    n_pairs: int = field(default=20000, metadata={"cli": False})  # corpus="numbers"
    attention: str = field(
        default="bahdanau", metadata={"choices": ("bahdanau", "luong", "none")}
    )
    decoder: str = field(
        default="parallel",
        metadata={
            "choices": ("parallel", "recurrent"),
            "help": "parallel: attention after the cell, all steps at once; "
            "recurrent: attention inside the recurrence (Bahdanau's placement for "
            "--attention bahdanau, Luong's with input feeding for --attention luong)",
        },
    )
    units: int = field(
        default=96, metadata={"check": positive, "help": "encoder units per direction"}
    )
    embedding_dim: int = field(default=128, metadata={"check": positive})
    output_units: int | None = field(
        default=128,
        metadata={
            "help": "size of the attentional state before the softmax (Luong forms)"
        },
    )
    dropout: float = field(default=0.2, metadata={"check": unit_interval})
    # At least the 4 special words and one more.
    source_vocab_size: int = field(
        default=5000, metadata={"check": integer_range(5, 1_000_000)}
    )
    target_vocab_size: int = field(
        default=5000, metadata={"check": integer_range(5, 1_000_000)}
    )
    batch_size: int = field(default=64, metadata={"check": integer_range(1, 4096)})
    epochs: int = field(default=10, metadata={"check": positive})
    max_minutes: float | None = field(
        default=None,
        metadata={"check": finite_positive, "help": "wall-clock budget of fit"},
    )
    learning_rate: float = field(default=2e-3, metadata={"check": finite_positive})
    patience: int = field(default=3, metadata={"help": "early stopping"})
    beam_width: int = beam_width_field(4)
    alpha: float = length_penalty_field(0.6)
    seed: int = 0
    distribute: str | None = distribute_field()
