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


@pytest.mark.tf_only  # JAX and PyTorch trace (or call) their step their own way
def test_fit_traces_the_train_step_once(tmp_path):
    """`TrainingRun.fit` builds the optimizer before `fit`: on TensorFlow,
    a first trace that creates the optimizer's variables is traced again
    (twice the compile time of every training)."""
    import numpy as np

    config = registry.get("dates").config_class(epochs=2)
    run = TrainingRun("dates", config, tmp_path, Distribution(), 0)
    with run.scope():
        inputs = keras.Input((3,))
        model = keras.Model(inputs, keras.layers.Dense(1)(inputs))
        model.compile("adam", "mse")
    traces = []
    step = model.train_step
    model.train_step = lambda data: traces.append(1) or step(data)
    x = np.zeros((8, 3), "float32")
    run.fit(model, x, np.zeros((8, 1), "float32"), batch_size=4)
    assert len(traces) == 1
