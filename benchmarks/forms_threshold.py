"""How much of a forms run's validity threshold is the draw of its
validation split: `python -m benchmarks.forms_threshold --run RUN`.

A forms run (`attention-zoo dates train --target forms`) sets its
threshold to the `THRESHOLD_QUANTILE` quantile of the scores of its
validation split's dates (`training.choose_threshold`, `--validation-size`
of them), a quantile set by the split's few lowest scores. The split
is drawn from a validation pool that training never reads, its
expressions by `forms_data.draw` (a language uniformly, a kind by the
square root of its pool, a text of it) and, for the other half, the
split's absolute days. This script scores the whole pool and prints:

- the threshold the run recorded, and the same estimator recomputed on
  its split (they must agree: the run and this code read alike);
- the pool's threshold: the quantile over every expression of the pool,
  each weighted by how often the splits drawn again below hold it,
  beside the split's generated days (absolute days, and impossible ones
  with their form) with half the weight in all, as in the split: the
  draw of the expressions is taken out of it;
- the split estimator's spread: `--bootstrap` splits drawn again as the
  run drew its own (`forms_data.draw` at other seeds, the days
  resampled), the mean, standard deviation and 5th and 95th percentiles
  of their thresholds, and where the recorded one falls.

A threshold far from the pool's, or at an end of the spread, is the
split's draw; two runs whose pool thresholds differ as much as their
recorded ones differ in their models. The pool is rebuilt from the code
with the run's seed: a run trained on another generator is refused
(its split's texts are not all in the pool).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

from attention_zoo.applications.dates import data, forms_data
from attention_zoo.applications.dates.predictor import THRESHOLD_QUANTILE, Normalizer


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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", required=True, help="a forms run's folder")
    parser.add_argument("--bootstrap", type=int, default=300, help="splits drawn again")
    parser.add_argument("--seed", type=int, default=0, help="the bootstrap's seed")
    args = parser.parse_args(argv)
    if args.bootstrap < 1:
        parser.error(f"--bootstrap must be at least 1. Received: {args.bootstrap}")
    run = Path(args.run)
    if not (run / "config.json").is_file():
        parser.error(f"--run must be a run folder with a config.json. Received: {run}")
    config = json.loads((run / "config.json").read_text(encoding="utf-8"))
    if config.get("target") != "forms":
        parser.error(
            f"--run must be a forms run. Received: {run} ({config.get('target')})"
        )
    languages = config["languages"].split(",") if config.get("languages") else None
    chosen = [x for x in (languages or forms_data.LOCALES) if x in forms_data.LOCALES]
    pool = forms_data.split_pools(chosen, config["seed"], config["tx"])["validation"]
    split = forms_data.load_examples(run / "data" / "validation.json")
    # The split's other half: `data.make_splits`'s days, with the
    # impossible ones ("the 32 of jan 1993", a non-date with a form).
    generated = (forms_data.ABSOLUTE, data.NON_DATE)
    days = [e for e in split if e.is_date and e.kind in generated]
    expressions = [e for e in split if e.is_date and e.kind not in generated]
    pooled = {e.text for examples in pool.values() for e in examples}
    missing = [e.text for e in expressions if e.text not in pooled]
    if missing:
        print(
            f"{run} was trained on another generator: {len(missing)} of its "
            f"validation expressions are not in this code's pool "
            f"(first: {missing[0]!r})",
            file=sys.stderr,
        )
        return 2
    examples = [e for key in sorted(pool) for e in pool[key]]
    draws = redraw(pool, len(expressions), args.bootstrap, args.seed)
    # How often each expression is in a split: its weight in the pool.
    weights = np.bincount(np.concatenate(draws), minlength=len(examples))
    normalizer = Normalizer(run)
    _, _, expr_scores = normalizer.decode([e.text for e in examples])
    _, _, day_scores = normalizer.decode([e.text for e in days])
    # The split's own expressions are pool texts, scored already.
    score_of = dict(zip((e.text for e in examples), expr_scores))
    split_scores = [*day_scores, *(score_of[e.text] for e in expressions)]
    recomputed = float(np.quantile(split_scores, THRESHOLD_QUANTILE))
    pooled_threshold = weighted_quantile(
        np.concatenate([expr_scores, day_scores]),
        np.concatenate(
            [weights / weights.sum() / 2, np.full(len(days), 0.5 / len(days))]
        ),
        THRESHOLD_QUANTILE,
    )
    rng = np.random.default_rng(args.seed)
    spread = np.array(
        [
            np.quantile(
                np.concatenate(
                    [
                        expr_scores[drawn],
                        day_scores[rng.choice(len(days), len(days), replace=True)],
                    ]
                ),
                THRESHOLD_QUANTILE,
            )
            for drawn in draws
        ]
    )
    recorded = config["score_threshold"]
    print(
        f"run {run}: {len(split_scores):,} validation dates, of them "
        f"{len(expressions):,} expressions from a pool of {len(examples):,}"
    )
    print(
        f"recorded threshold  {recorded:.3f} (recomputed on its split: {recomputed:.3f})"
    )
    print(f"the pool's          {pooled_threshold:.3f}")
    print(
        f"splits drawn again  mean {spread.mean():.3f}, sd {spread.std():.3f}, "
        f"5th-95th percentile {np.percentile(spread, 5):.3f} to "
        f"{np.percentile(spread, 95):.3f} ({args.bootstrap} draws, seed {args.seed}); "
        f"the recorded one is below {np.mean(spread > recorded):.0%} of them"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
