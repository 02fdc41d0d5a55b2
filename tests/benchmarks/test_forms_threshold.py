"""The arithmetic of `python -m benchmarks.forms_threshold` (no model): its
splits are drawn by `forms_data.draw`, and its weighted quantile is the
inverse distribution function."""

import json
import random

import numpy as np
import pytest

from attention_zoo.applications.dates import forms_data
from benchmarks.forms_threshold import main, redraw, weighted_quantile


def example(language, kind, i):
    return forms_data.FormExample(f"{kind} {i}", "year 2000", language, kind, "", "")


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


def test_a_run_that_is_not_a_forms_run_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--run", str(tmp_path / "none")])
    assert stop.value.code == 2
    assert "--run must be a run folder with a config.json" in capsys.readouterr().err
    (tmp_path / "config.json").write_text(json.dumps({"target": "iso"}))
    with pytest.raises(SystemExit) as stop:
        main(["--run", str(tmp_path)])
    assert stop.value.code == 2
    assert "--run must be a forms run" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--run", str(tmp_path), "--bootstrap", "0"])
    assert "--bootstrap must be at least 1. Received: 0" in capsys.readouterr().err
