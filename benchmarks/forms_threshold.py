"""How much of a forms run's validity threshold is the draw of its
validation split: `python -m benchmarks.forms_threshold --run RUN`.

A forms run (`attention-zoo dates train --target forms`) sets its
threshold to the `THRESHOLD_QUANTILE` quantile of the scores of its
validation split's dates (`training.choose_threshold`, `--validation-size`
of them), a quantile set by the split's few lowest scores, unless it
was trained with `--calibration pool`. The split
is drawn from a validation pool that training never reads, its
expressions by `forms_data.draw` (a language uniformly, a kind by the
square root of its pool, a text of it) and, for the other half, the
split's absolute days. This script scores the whole pool and prints:

- the threshold the run recorded, and the split's estimator recomputed
  (they agree for a run of `--calibration split`: the run and this code
  read alike);
- the pool's threshold (`form_calibration.pool_threshold`, the one a
  run trained with `--calibration pool` records): the quantile over
  every expression of the pool, each weighted by how often splits drawn
  again as the run drew its own hold it, beside the split's generated
  days (absolute days, and impossible ones with their form) with their
  share of the split: the draw of the expressions is taken out of it;
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
import sys
from pathlib import Path

import numpy as np

from attention_zoo.applications.dates import forms_data
from attention_zoo.applications.dates.form_calibration import (
    pool_threshold,
    redraw,
    split_parts,
)
from attention_zoo.applications.dates.predictor import THRESHOLD_QUANTILE, Normalizer


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
    days, expressions = split_parts(split)
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
    normalizer = Normalizer(run)
    scores = {}

    def score(texts):
        new = [t for t in dict.fromkeys(texts) if t not in scores]
        if new:
            scores.update(zip(new, normalizer.decode(new)[2]))
        return [scores[t] for t in texts]

    expr_scores = np.array(score([e.text for e in examples]))
    day_scores = np.array(score([e.text for e in days]))
    split_scores = [*day_scores, *score([e.text for e in expressions])]
    recomputed = float(np.quantile(split_scores, THRESHOLD_QUANTILE))
    pooled_threshold = pool_threshold(score, pool, split, seed=config["seed"])
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
    calibration = config.get("calibration", "split")
    print(
        f"recorded threshold  {recorded:.3f} (--calibration {calibration}; the "
        f"split's estimator recomputed: {recomputed:.3f})"
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
