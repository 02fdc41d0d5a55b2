"""`form_calibration`: a forms run's threshold read off its whole
validation pool, each text weighted as the run's split is drawn, so the
threshold is the expected split's and not one draw's."""

import random

import numpy as np
import pytest

from attention_zoo.applications.dates import data, forms_data
from attention_zoo.applications.dates.config import TrainConfig
from attention_zoo.applications.dates.form_calibration import (
    pool_threshold,
    redraw,
    split_parts,
    weighted_quantile,
)
from attention_zoo.applications.dates.predictor import THRESHOLD_QUANTILE
from attention_zoo.applications.dates.training import check


def example(language, kind, i, form="year 2000"):
    return forms_data.FormExample(
        f"{language} {kind} {i}", form, language, kind, "", ""
    )


POOL = {
    ("en", "year"): [example("en", "year", i) for i in range(9)],
    ("en", "month"): [example("en", "month", i) for i in range(1)],
    ("fr", "year"): [example("fr", "year", i) for i in range(4)],
    ("fr", "empty"): [],
}


def test_the_splits_are_drawn_again_as_the_run_drew_its_own():
    examples = [e for key in sorted(POOL) for e in POOL[key]]
    draws = redraw(POOL, 5, 30, seed=0)
    assert len(draws) == 30
    for drawn in draws:
        assert len(drawn) == len(set(drawn.tolist())) == 5  # without replacement
    assert [examples[i] for i in draws[3]] == forms_data.draw(
        POOL, 5, random.Random("0/3"), replace=False
    )
    assert all((a == b).all() for a, b in zip(draws, redraw(POOL, 5, 30, seed=0)))
    assert any((a != b).any() for a, b in zip(draws, redraw(POOL, 5, 30, seed=1)))


def test_the_weighted_quantile_inverts_the_distribution_function():
    values = np.random.default_rng(0).normal(size=501)
    for q in (0.0, 0.002, 0.3, 0.5, 1.0):
        expected = np.quantile(values, q, method="inverted_cdf")
        assert weighted_quantile(values, np.ones_like(values), q) == expected
    # A weight counts as that many copies of its value.
    assert weighted_quantile([1.0, 2.0, 3.0], [1, 0, 8], 0.2) == 3.0
    assert weighted_quantile([1.0, 2.0, 3.0], [2, 0, 8], 0.2) == 1.0
    with pytest.raises(ValueError, match="q must be in"):
        weighted_quantile([1.0], [1.0], 1.5)
    with pytest.raises(ValueError, match="one shape"):
        weighted_quantile([1.0, 2.0], [1.0], 0.5)


# A pool of 20 languages, each of a few kinds of 30-300 texts; each
# expression's score is fixed by a hash of it, 1 % of them far lower: the
# tail the quantile reads. Generated days score high.
LANGUAGES = [f"l{i}" for i in range(20)]
BIG = {
    (lang, kind): [example(lang, kind, i) for i in range(size)]
    for lang in LANGUAGES
    for kind, size in (("relative", 300), ("time", 80), ("holiday", 30))
}


def score_of(text: str) -> float:
    if text.startswith(("day ", "32 jan")):
        return -0.01
    u = random.Random(text).random()
    return -1.0 - 100 * (u - 0.99) if u > 0.99 else -0.1 * u


def score(texts):
    return [score_of(t) for t in texts]


def split_of(seed: int, n: int = 1000, n_days: int = 1000):
    """A validation split as a run draws one: `n` pool expressions and
    `n_days` generated days (absolute ones and an impossible one)."""
    expressions = forms_data.draw(BIG, n, random.Random(seed), replace=False)
    days = [
        forms_data.FormExample(
            f"day {seed} {i}", "date 2000 1 1", "en", forms_data.ABSOLUTE, "", ""
        )
        for i in range(n_days - 1)
    ]
    impossible = forms_data.FormExample(
        f"32 jan {seed}", "<invalid>", "en", data.NON_DATE, "", ""
    )
    return [*days, impossible, *expressions]


@pytest.mark.parametrize("n_days", [1000, 400])
def test_the_pool_threshold_is_the_weighted_quantile_of_the_pool_and_the_days(n_days):
    split = split_of(0, n_days=n_days)
    days, expressions = split_parts(split)
    assert len(days) == n_days and len(expressions) == 1000
    share = 1000 / (1000 + n_days)  # the expressions' share of the split
    examples = [e for key in sorted(BIG) for e in BIG[key]]
    held = np.bincount(
        np.concatenate(redraw(BIG, 1000, 300, 0)), minlength=len(examples)
    )
    expected = weighted_quantile(
        score([e.text for e in examples] + [e.text for e in days]),
        np.concatenate(
            [held / held.sum() * share, np.full(n_days, (1 - share) / n_days)]
        ),
        THRESHOLD_QUANTILE,
    )
    assert pool_threshold(score, BIG, split) == expected


def test_the_pool_threshold_moves_less_with_the_split_than_the_split_quantile():
    split_thresholds, pool_thresholds = [], []
    for seed in range(8):
        split = split_of(seed)
        days, expressions = split_parts(split)
        split_thresholds.append(
            np.quantile(score([e.text for e in days + expressions]), THRESHOLD_QUANTILE)
        )
        # The days are the run's own; the pool is the same for every split.
        pool_thresholds.append(pool_threshold(score, BIG, [*days, *expressions]))
    # The split's quantile is its draw's few lowest expressions; the pool's
    # is every split's, the same whichever split the run drew.
    assert len(set(pool_thresholds)) == 1
    assert np.std(split_thresholds) > 0.05
    assert min(split_thresholds) < pool_thresholds[0] < max(split_thresholds)


def test_a_split_without_days_or_expressions_or_outside_the_pool_is_refused():
    days, expressions = split_parts(split_of(0))
    for split, received in ((expressions, "0 days"), (days, "0 expressions")):
        with pytest.raises(
            ValueError, match=f"split must hold .* Received: .*{received}"
        ):
            pool_threshold(score, BIG, split)
    stranger = example("xx", "year", 0)
    with pytest.raises(ValueError, match="pool must hold every expression of split"):
        pool_threshold(score, BIG, [*days, stranger])


def test_the_pool_calibration_is_the_forms_targets():
    check(TrainConfig(target="forms", calibration="pool"))
    with pytest.raises(
        ValueError, match="the dates target has none. Received: target='dates'"
    ):
        check(TrainConfig(calibration="pool"))
    with pytest.raises(
        ValueError, match="`calibration` must be one of .* Received: calibration='all'"
    ):
        check(TrainConfig(target="forms", calibration="all"))
