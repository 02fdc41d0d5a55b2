"""The callbacks every application's training shares, from its config."""

from __future__ import annotations

import keras
import pytest

from attention_zoo.applications import registry
from attention_zoo.applications.common.distribute import Distribution
from attention_zoo.applications.common.training import TimeBudget
from attention_zoo.applications.common.training_loop import TrainingRun


@pytest.mark.parametrize("name", registry.names())
def test_every_application_s_max_minutes_is_the_time_budget_of_fit(name, tmp_path):
    """`--max-minutes` reaches the training loop of every application (a
    tiny run stops at it in the test_tasks of dates and translation, and of
    summarization among the slow tests)."""
    app = registry.get(name)
    for max_minutes, seconds in ((0.5, [30.0]), (None, [])):
        config = app.config_class(max_minutes=max_minutes)
        run = TrainingRun(name, config, tmp_path, Distribution(), verbose=0)
        callbacks, budget = run.callbacks()
        budgets = [c for c in callbacks if isinstance(c, TimeBudget)]
        assert [b.seconds for b in budgets] == seconds
        assert budget is (budgets[0] if budgets else None)


@pytest.mark.parametrize("name", registry.names())
def test_every_application_s_patience_is_its_early_stopping(name, tmp_path):
    app = registry.get(name)
    config = app.config_class(patience=2)
    callbacks, _ = TrainingRun(name, config, tmp_path, Distribution(), 0).callbacks()
    stops = [c for c in callbacks if isinstance(c, keras.callbacks.EarlyStopping)]
    assert [(s.patience, s.restore_best_weights) for s in stops] == [(2, True)]


def test_dates_trains_every_epoch_unless_given_a_patience(tmp_path):
    config = registry.get("dates").config_class()
    callbacks, _ = TrainingRun("dates", config, tmp_path, Distribution(), 0).callbacks()
    assert not any(isinstance(c, keras.callbacks.EarlyStopping) for c in callbacks)
