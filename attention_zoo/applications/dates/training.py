"""Generate the dates, fit the model, write the run folder, evaluate it."""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from pathlib import Path

import keras
import numpy as np

from attention_zoo.applications.common import (
    DiskSpaceGuard,
    StopOnDivergence,
    check_config,
    config_arguments,
    fit_verbosity,
    history_lists,
    tensorboard_callbacks,
)
from attention_zoo.applications.common.distribute import (
    backup_callbacks,
    prepare_training,
)
from attention_zoo.applications.common.run_folder import training_backup_dir
from attention_zoo.applications.dates import data
from attention_zoo.applications.dates import model as models
from attention_zoo.applications.dates.config import EXAMPLE_INPUTS, TrainConfig
from attention_zoo.applications.dates.evaluation import evaluate_examples
from attention_zoo.applications.dates.predictor import (
    THRESHOLD_QUANTILE,
    Normalizer,
    plot,
)

# The most non-dates a training generates, as many as the largest
# --train-size: memory for the strings stays well under a gigabyte.
MAX_NEGATIVES = 1_000_000


class EpochTimer(keras.callbacks.Callback):
    """Wall-clock seconds of every epoch, validation included."""

    def on_train_begin(self, logs=None):
        self.seconds = []

    def on_epoch_begin(self, epoch, logs=None):
        self._start = time.perf_counter()

    def on_epoch_end(self, epoch, logs=None):
        self.seconds.append(time.perf_counter() - self._start)


def train(output: str | Path, config: TrainConfig, verbose: int | None = None) -> dict:
    """Generate data, fit the model, save the run folder, evaluate it.

    `verbose` is Keras's: by default a progress bar on a terminal and one
    line per epoch otherwise.
    """
    verbose = fit_verbosity(verbose)
    check_config(config)
    if config.model not in models.MODELS:
        raise ValueError(
            f"`model` must be one of {models.MODELS}. Received: {config.model!r}"
        )
    if config.attention not in models.ATTENTIONS:
        raise ValueError(
            f"`attention` must be one of {tuple(models.ATTENTIONS)}. Received: "
            f"{config.attention!r}"
        )
    if config.model == "classic" and config.attention != "bahdanau":
        raise ValueError(
            "`attention` selects the mechanism of the default model; the "
            "classic model has the course's own attention. Received: "
            f"model='classic', attention={config.attention!r}"
        )
    if config.n_train * config.negatives > MAX_NEGATIVES:
        raise ValueError(
            f"--negatives times --train-size must be at most {MAX_NEGATIVES:,} "
            "generated non-dates (the bound of every generated size). Received: "
            f"--negatives {config.negatives} --train-size {config.n_train}"
        )
    if config.learning_rate is not None and not config.learning_rate > 0:
        raise ValueError(
            f"`learning_rate` must be positive. Received: learning_rate={config.learning_rate}"
        )
    # --distribute: fails before anything is written; a worker other than
    # the chief trains into a temporary folder.
    distribution, output = prepare_training(config, output)
    with distribution.staged_run(output, "dates") as run:
        (run / "data").mkdir(parents=True, exist_ok=True)
        keras.utils.set_random_seed(config.seed)
        default = config.model == "default"
        tx = data.TX if default else data.TX_CLASSIC
        train_set, val_set, test_set = data.make_splits(
            config.n_train,
            config.n_validation,
            config.n_test,
            seed=config.seed,
            negatives=config.negatives if default else 0.0,
            max_length=tx,
        )
        for name, examples in (
            ("train", train_set),
            ("validation", val_set),
            ("test", test_set),
        ):
            data.save_examples(run / "data" / f"{name}.json", examples)
        # Dates only: characters seen only in non-dates (other scripts, emoji)
        # stay <unk>, which the model learns to read as "not a date".
        vocabulary = data.CharVocabulary.from_texts(
            [e.text for e in train_set if e.is_date]
        )
        (run / "vocabulary.json").write_text(
            json.dumps(vocabulary.to_json(), ensure_ascii=False), encoding="utf-8"
        )
        run_config = {**asdict(config), "tx": tx, "ty": data.TY}
        (run / "config.json").write_text(json.dumps(run_config), encoding="utf-8")

        def arrays(examples):
            return models.training_arrays(
                config.model,
                vocabulary.encode([e.text for e in examples], tx),
                [e.iso for e in examples],
            )

        x, y = distribution.for_replicas(arrays(train_set))
        validation = distribution.for_replicas(arrays(val_set))
        with distribution.scope():
            if config.model == "classic":
                model = models.build_classic(len(vocabulary))
            else:
                model = models.build_default(
                    **config_arguments(
                        config, models.build_default, input_vocab_size=len(vocabulary)
                    )
                )
            steps = -(-len(train_set) // config.batch_size) * config.epochs
            models.compile_model(
                model,
                config.model,
                config.learning_rate,
                total_steps=steps,
                attention=config.attention,
            )
            if verbose:
                print(
                    f"{config.model} model: {model.count_params():,} parameters, "
                    f"{sum(1 for e in train_set if e.is_date):,} training dates + "
                    f"{sum(1 for e in train_set if not e.is_date):,} non-dates, "
                    f"backend {keras.backend.backend()}, "
                    f"{distribution.replicas} replica(s)"
                )
            epoch_timer = EpochTimer()
            start = time.perf_counter()
            history = model.fit(
                x,
                y,
                validation_data=validation,
                batch_size=distribution.local_batch_size(config.batch_size),
                epochs=config.epochs,
                verbose=verbose,
                callbacks=[
                    *tensorboard_callbacks(run / "logs"),
                    epoch_timer,
                    StopOnDivergence(),
                    DiskSpaceGuard(run),
                    *backup_callbacks(training_backup_dir(run)),
                ],
            )
        seconds = time.perf_counter() - start
        model.save(run / "model.keras")
        normalizer = Normalizer(run)
        threshold = choose_threshold(normalizer, val_set)
        run_config["score_threshold"] = threshold
        (run / "config.json").write_text(json.dumps(run_config), encoding="utf-8")
        normalizer.threshold = threshold
        metrics = evaluate_examples(normalizer, test_set)
        metrics["training"] = {
            "seconds": round(seconds, 1),
            "epochs": config.epochs,
            "epoch_seconds": [round(t, 2) for t in epoch_timer.seconds],
            "history": history_lists(history),
            "replicas": distribution.replicas,
        }
        (run / "metrics.json").write_text(
            json.dumps(metrics, indent=1), encoding="utf-8"
        )
        texts = [e.text for e in test_set[:3]] + EXAMPLE_INPUTS[:1]
        plot(run, texts, run / "plots", normalizer=normalizer)
    return metrics


def choose_threshold(normalizer: Normalizer, validation) -> float:
    """The validity threshold: the `THRESHOLD_QUANTILE` quantile of the
    scores of the validation dates (non-dates left out), so about 99.8 % of
    dates like them pass it."""
    _, _, scores = normalizer.predict_ids([e.text for e in validation if e.is_date])
    return float(np.quantile(scores, THRESHOLD_QUANTILE))
