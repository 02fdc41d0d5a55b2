"""Checks of an application's `TrainConfig`, with or without a command line.

A field's metadata names its `check`, a function of the value that returns
what is wrong with it or None; `check_config` runs them on a config built in
Python, `common.cli` on the flags. The fields every application's training
shares (`seed_field`, `epochs_field`, `max_minutes_field`, ...) are built
here too, so their checks and help lines are written once.
"""

from __future__ import annotations

import dataclasses
import math
import numbers

# The widest beam an application decodes with: the memory and time of a
# beam search grow with it, and wider beams gain nothing on these models.
MAX_BEAM_WIDTH = 64


def positive(value) -> str | None:
    """The `check` of a positive integer (None, an unset value, passes; a
    bool is no integer here)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        return "must be a positive integer"
    return None


def integer_range(low: int, high: int):
    """The `check` of an integer flag from `low` to `high` (a documented bound
    that keeps one call's memory and time in reach; None passes)."""

    def check(value) -> str | None:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            return f"must be an integer from {low} to {high}"
        if not low <= value <= high:
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


def problem(value, check) -> str | None:
    """What is wrong with `value`: its field's `check` first (it names the
    range, "a finite positive number"), then `finite` for any float."""
    return (check(value) if check else None) or finite(value)


def saved_config(config_class, settings):
    """The `config_class` a run's `config.json` (`settings`, a dict)
    describes: its fields, the keys training added beside them left out."""
    names = {f.name for f in dataclasses.fields(config_class)}
    return config_class(**{k: v for k, v in settings.items() if k in names})


def check_config(config) -> None:
    """Raise ValueError naming the first field of the dataclass `config`
    refused by its metadata's `check` (a float: by `finite` first).

    The Python API's form of the flag checks of `common.cli.config_from_args`.
    """
    for field in dataclasses.fields(config):
        value = getattr(config, field.name)
        wrong = problem(value, field.metadata.get("check"))
        if wrong:
            raise ValueError(
                f"`{field.name}` {wrong}. Received: {field.name}={value!r}"
            )


def seed_field():
    """The `seed` of every training: data splits, weights, dropout."""
    return dataclasses.field(
        default=0,
        metadata={"help": "random seed of the data, the initial weights and dropout"},
    )


def epochs_field(default: int):
    """The `epochs` of every training."""
    return dataclasses.field(
        default=default,
        metadata={
            "check": positive,
            "help": "passes over the training data at most; --patience and "
            "--max-minutes can end training sooner",
        },
    )


def batch_size_field(default: int):
    """The `batch_size` of every training (the global batch when distributed)."""
    return dataclasses.field(
        default=default,
        metadata={
            "check": integer_range(1, 4096),
            "help": "examples per training step, from 1 to 4096; the global "
            "batch with --distribute",
        },
    )


def max_minutes_field():
    """The wall-clock limit of every training (`training.TimeBudget`)."""
    return dataclasses.field(
        default=None,
        metadata={
            "check": finite_positive,
            "help": "wall-clock limit of fit in minutes (default: no limit); "
            "the epoch it cuts short is validated, and the run is saved as "
            "after the last epoch",
        },
    )


def patience_field(default: int | None):
    """The `patience` of every training's early stopping; None: none."""
    # A None default is explained by hand: the "(default X)" that
    # `common.cli` adds says nothing of what None means.
    unset = " (default: no early stopping, every epoch runs)"
    return dataclasses.field(
        default=default,
        metadata={
            # 0 stops at the first epoch that does not improve (Keras's
            # EarlyStopping); a patience past the epochs never stops.
            "check": integer_range(0, 10_000),
            "help": "epochs without a lower validation loss before training "
            "stops, keeping the best epoch's weights"
            + (unset if default is None else ""),
        },
    )


def beam_width_field(default: int):
    """The `beam_width` a run decodes with by default (`--beam-width`)."""
    return dataclasses.field(
        default=default,
        metadata={
            "check": integer_range(1, MAX_BEAM_WIDTH),
            "help": "beams of the run's beam search, from 1 (greedy) to "
            f"{MAX_BEAM_WIDTH}: its test scores and the default of its tasks' "
            "--beam-width",
        },
    )


def length_penalty_field(default: float):
    """The `alpha` field of a `TrainConfig` (`--length-penalty`, GNMT alpha)."""
    return dataclasses.field(
        default=default,
        metadata={
            "flag": "--length-penalty",
            "check": non_negative,
            "help": "GNMT length penalty alpha of beam search, >= 0; 0 is none",
        },
    )


# The shipped presets that keep a text domain (`common.text_domain`),
# "none" and "auto".
TEXT_DOMAIN_PRESETS = ("bible_en_es", "debian_synopsis", "none", "auto")


def contrast_with_field(auto: str):
    """The `contrast_with` field of a text application's `TrainConfig`: the
    shipped preset whose text domain is the background its own domain is
    contrasted with (`TextDomain.contrast`). "auto" is `auto` for the
    application's default corpus and "none" for any other: only there is
    the other preset known to be other text."""
    return dataclasses.field(
        default="auto",
        metadata={
            "choices": TEXT_DOMAIN_PRESETS,
            "help": "shipped preset whose texts stand for the other text "
            "this model should refuse: its domain check then needs more "
            "evidence for the training texts than for those (none: no such "
            f"check; auto: {auto} for the default corpus, none otherwise)",
        },
    )


def contrast_quantile_field(default: float):
    """The `contrast_quantile` field: the share of validation texts the
    contrast check keeps valid."""
    return dataclasses.field(
        default=default,
        metadata={
            "check": number_range(0.5, 1.0),
            "help": "share of the validation texts the --contrast-with check "
            "keeps valid, from 0.5 to 1",
        },
    )


# The engines of `--distribute` (`distribute`, which runs them).
DISTRIBUTIONS = ("mirrored", "multi-worker", "data-parallel")


def distribute_field():
    """The `distribute` field of every application's `TrainConfig`."""
    return dataclasses.field(
        default=None,
        metadata={
            "choices": DISTRIBUTIONS,
            "help": "train on several devices: mirrored (all local devices) or "
            "multi-worker (TF_CONFIG cluster) on TensorFlow, data-parallel on "
            "JAX; --batch-size is the global batch (default: one device; "
            "docs/scaling.md)",
        },
    )
