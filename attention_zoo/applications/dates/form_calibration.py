"""A forms run's validity threshold read off its whole validation pool
(`attention-zoo dates train --target forms --calibration pool`).

The threshold is the `THRESHOLD_QUANTILE` quantile of the scores of
dates like those the model will be asked (`training.choose_threshold`).
At 0.002 of a 2,000-date validation split it is set by the split's
four lowest scores, so it moves with the draw of the split's
expressions as much as with the model: two runs of one model differ
by their draws (`benchmarks/forms_threshold.py` measures how much).

The split's expressions are a draw of the validation pool
(`forms_data.draw`: a language uniformly, a kind by the square root of
its size, a text of it), which training never reads. Reading the whole
pool takes the draw out: each expression weighs how often `DRAWS`
splits drawn again as the run drew its own hold it, so the weighted
scores are the distribution the split is one sample of; the split's
generated days (absolute days, and impossible ones with their form)
keep their share of the split. The quantile of that mixture is the
expected split's over the draw of its expressions, not one draw's (the
days stay the run's own). It is the inverse of the weighted distribution
function, as `np.quantile(..., method="inverted_cdf")`, where the
split's estimator interpolates between two order statistics: the two
differ by at most one order statistic on one split.
"""

from __future__ import annotations

import random

import numpy as np

from attention_zoo.applications.dates import data, forms_data
from attention_zoo.applications.dates.predictor import THRESHOLD_QUANTILE

# Splits drawn again to weigh the pool: enough that every expression a
# split can hold is held by some (a pool is a few thousand texts).
DRAWS = 300

# The split's kinds that are not pool expressions: `data.make_splits`'s
# days, with the impossible ones ("the 32 of jan 1993", a non-date with a
# form).
GENERATED = (forms_data.ABSOLUTE, data.NON_DATE)


def redraw(pool: dict, n: int, times: int, seed: int) -> list[np.ndarray]:
    """`times` draws of `n` expressions of `pool` as the run drew its
    split (`forms_data.draw` without replacement), each as indices into
    the pool's examples in key order."""
    examples = [e for key in sorted(pool) for e in pool[key]]
    index = {id(e): i for i, e in enumerate(examples)}
    return [
        np.array([index[id(e)] for e in forms_data.draw(pool, n, rng, replace=False)])
        for rng in (random.Random(f"{seed}/{i}") for i in range(times))
    ]


def weighted_quantile(values, weights, q: float) -> float:
    """The smallest value whose cumulative weight (in value order) reaches
    `q` of the total: the inverse of the weighted distribution function."""
    values = np.asarray(values, "float64")
    weights = np.asarray(weights, "float64")
    if values.shape != weights.shape or values.size == 0:
        raise ValueError(
            "values and weights must be non-empty and of one shape. Received: "
            f"{values.shape} and {weights.shape}"
        )
    if not 0 <= q <= 1:
        raise ValueError(f"q must be in [0, 1]. Received: q={q!r}")
    order = np.argsort(values, kind="stable")
    cumulative = np.cumsum(weights[order])
    index = np.searchsorted(cumulative, q * cumulative[-1])
    return float(values[order][min(index, values.size - 1)])


def split_parts(split) -> tuple[list, list]:
    """The validation split's dates as (generated days, pool expressions)."""
    days = [e for e in split if e.is_date and e.kind in GENERATED]
    expressions = [e for e in split if e.is_date and e.kind not in GENERATED]
    return days, expressions


def pool_threshold(score, pool: dict, split, seed: int = 0) -> float:
    """The threshold over `pool` (`{(language, kind): [FormExample]}`) and
    the generated days of `split` (the run's validation examples): the
    pool's expressions weighted as `DRAWS` splits drawn at `seed` hold
    them, in all the share of expressions in `split`, and the days the
    rest. `score(texts)` returns one score per text (`Normalizer.decode`'s
    third output)."""
    days, expressions = split_parts(split)
    if not days or not expressions:
        raise ValueError(
            "split must hold generated days and pool expressions. Received: "
            f"{len(days)} days and {len(expressions)} expressions"
        )
    examples = [e for key in sorted(pool) for e in pool[key]]
    pooled = {e.text for e in examples}
    outside = [e.text for e in expressions if e.text not in pooled]
    if outside:
        raise ValueError(
            "pool must hold every expression of split (the pool it was drawn "
            f"from). Received: a pool of {len(examples)} texts without "
            f"{len(outside)} of the split's (first: {outside[0]!r})"
        )
    draws = redraw(pool, len(expressions), DRAWS, seed)
    held = np.bincount(np.concatenate(draws), minlength=len(examples))
    share = len(expressions) / (len(expressions) + len(days))
    weights = np.concatenate(
        [held / held.sum() * share, np.full(len(days), (1 - share) / len(days))]
    )
    scores = np.concatenate(
        [
            np.asarray(score([e.text for e in examples]), "float64"),
            np.asarray(score([e.text for e in days]), "float64"),
        ]
    )
    return weighted_quantile(scores, weights, THRESHOLD_QUANTILE)
