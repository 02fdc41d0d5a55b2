"""The date normalizer's training settings: one field, one `train` flag."""

from __future__ import annotations

from dataclasses import dataclass, field

from attention_zoo.applications.common.config import (
    batch_size_field,
    distribute_field,
    epochs_field,
    finite_positive,
    integer_range,
    max_minutes_field,
    number_range,
    patience_field,
    seed_field,
)
from attention_zoo.applications.dates.model_names import ATTENTION_NAMES, MODELS


def _languages(value) -> str | None:
    """The `check` of `--languages`: a comma-separated subset of the
    generator's languages."""
    from attention_zoo.applications.dates.formats import LANGUAGES

    if value is None:
        return None
    names = value.split(",") if isinstance(value, str) else None
    if (
        not names
        or any(n not in LANGUAGES for n in names)
        or len(set(names)) < len(names)
    ):
        return f"must be distinct languages of {','.join(LANGUAGES)}, comma-separated"
    return None


# What a run learns to write: an ISO date (the shipped preset's), or a form
# of `forms.py` that the resolver computes against a reference
# (`forms_data`, docs/dates.md "The form target").
TARGETS = ("dates", "forms")
# Where a forms run's validity threshold is read: its validation split, or
# the whole validation pool the split's expressions are drawn from
# (`form_calibration`).
CALIBRATIONS = ("split", "pool")

EXAMPLE_INPUTS = ["3rd of May 1979", "Sept. 14, 2001", "jeudi 3 mai 1979", "23.09.1987"]


@dataclass
class TrainConfig:
    model: str = field(
        default="default",
        metadata={
            "choices": MODELS,
            "help": "the package's model (default), which also answers "
            "<invalid>, or classic, the deeplearning.ai Sequence Models course's "
            "(docs/dates.md)",
        },
    )
    attention: str = field(
        default="bahdanau",
        metadata={
            "choices": ATTENTION_NAMES,
            "help": "attention mechanism of the default model, described in "
            "docs/layers.md; classic has the course's own",
        },
    )
    epochs: int = epochs_field(10)
    batch_size: int = batch_size_field(128)
    n_train: int = field(
        default=30000,
        metadata={
            "flag": "--train-size",
            "check": integer_range(1, 1_000_000),
            "help": "generated training dates, from 1 to 1,000,000",
        },
    )
    n_validation: int = field(
        default=2000,
        metadata={
            "flag": "--validation-size",
            "check": integer_range(1, 1_000_000),
            "help": "generated validation dates, from 1 to 1,000,000, and "
            "--negatives non-dates per date",
        },
    )
    n_test: int = field(
        default=5000,
        metadata={
            "flag": "--test-size",
            "check": integer_range(1, 1_000_000),
            "help": "generated test dates, from 1 to 1,000,000",
        },
    )
    negatives: float = field(
        default=0.25,
        metadata={
            # 10 per date keeps the largest --train-size's non-dates to
            # 10,000,000 short strings, in reach of memory.
            "check": number_range(0, 10),
            "help": "generated non-dates per training date, from 0 to 10, which "
            "the default model learns to answer <invalid>; classic ignores it",
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
    languages: str | None = field(
        default=None,
        metadata={
            "check": _languages,
            "help": "comma-separated languages whose date formats to train on "
            "(default all 27: en,fr,de,es,it,pt,nl,pl,cs,sv,da,nb,fi,tr,hu,ro,id,"
            "vi,ru,uk,el,zh,ja,ko,ar,hi,he); all-numeric dates are always in. Validity then reads month words of these languages only",
        },
    )
    target: str = field(
        default="dates",
        metadata={
            "choices": TARGETS,
            "help": "what the model writes: dates, an ISO date of an absolute "
            "day (the default, as the shipped preset), or forms, a time "
            "expression's form (relative, partial, times, intervals, ...) "
            "that the resolver computes against --reference; default model only",
        },
    )
    calibration: str = field(
        default="split",
        metadata={
            "choices": CALIBRATIONS,
            "help": "forms target: the validity threshold from the validation "
            "split's dates (split, as the presets to forms63 trained) or from "
            "the whole validation pool, each text weighted by how often a split "
            "holds it (pool: the split's draw taken out; docs/dates.md)",
        },
    )
    max_minutes: float | None = max_minutes_field()
    # None: every epoch runs, as the published runs and presets trained.
    patience: int | None = patience_field(None)
    seed: int = seed_field()
    distribute: str | None = distribute_field()
    units: int = field(default=64, metadata={"cli": False})
