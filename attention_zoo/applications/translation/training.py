"""Load the corpus, fit the model, write the run folder, evaluate it."""

from __future__ import annotations

import json
import time
from dataclasses import asdict

import keras

from attention_zoo.applications import common
from attention_zoo.applications.common.distribute import (
    prepare_training,
)
from attention_zoo.applications.common.text import WordVocabulary
from attention_zoo.applications.translation import model as models
from attention_zoo.applications.translation.batches import BUCKETS, BucketedBatches
from attention_zoo.applications.translation.config import TrainConfig
from attention_zoo.applications.translation.corpus import load_corpus, write_pairs
from attention_zoo.applications.translation.evaluation import evaluate_pairs
from attention_zoo.applications.translation.postprocess import Truecaser
from attention_zoo.applications.translation.predictor import (
    TRUECASE_FILE,
    Translator,
    plot,
)


class TokenCounter(keras.callbacks.Callback):
    """Target tokens (real ones, with `<end>`) of the batches trained on."""

    def __init__(self, dataset: BucketedBatches):
        super().__init__()
        self.dataset = dataset
        self.tokens = 0

    def on_train_batch_end(self, batch, logs=None):
        _, pairs = self.dataset.batches[batch]
        self.tokens += sum(len(t) + 1 for _, t in pairs)


def _check_config(config: TrainConfig):
    common.check_config(config)
    if config.attention not in models.ATTENTIONS:
        raise ValueError(
            f"`attention` must be one of {models.ATTENTIONS}. Received: "
            f"attention={config.attention!r}"
        )
    if config.decoder not in models.DECODERS:
        raise ValueError(
            f"`decoder` must be one of {models.DECODERS}. Received: "
            f"decoder={config.decoder!r}"
        )
    common.check_positive_integers(
        config, ("units", "embedding_dim", "batch_size", "epochs", "beam_width")
    )
    for name in ("source_vocab_size", "target_vocab_size"):
        if getattr(config, name) < 5:
            raise ValueError(
                f"`{name}` must be at least 5. Received: {getattr(config, name)}"
            )
    common.check_max_minutes(config.max_minutes)


def build_model(config: TrainConfig, source_vocab_size: int, target_vocab_size: int):
    """The compiled training model that `config` describes."""
    model = models.build_model(
        **common.config_arguments(
            config,
            models.build_model,
            source_vocab_size=source_vocab_size,
            target_vocab_size=target_vocab_size,
        )
    )
    return models.compile_model(model, config.learning_rate)


def train(output, config: TrainConfig, verbose: int | None = None) -> dict:
    """Load the corpus, fit the model, save the run folder, evaluate it."""
    verbose = common.fit_verbosity(verbose)
    _check_config(config)
    # --distribute: fails before anything is written; a worker other than
    # the chief trains into a temporary folder.
    distribution, output = prepare_training(config, output)
    common.check_train_output(
        output, "translation"
    )  # before the corpus, which can take long
    train_set, validation_set, test_set = load_corpus(config)
    with distribution.staged_run(output, "translation") as run:
        keras.utils.set_random_seed(config.seed)
        source_vocabulary = WordVocabulary.from_texts(
            [p.source for p in train_set], config.source_vocab_size
        )
        target_vocabulary = WordVocabulary.from_texts(
            [p.target for p in train_set], config.target_vocab_size
        )
        source_vocabulary.save(run / "source_vocabulary.json")
        target_vocabulary.save(run / "target_vocabulary.json")
        Truecaser.learn(p.target for p in train_set).save(run / TRUECASE_FILE)
        write_pairs(run / "data" / "validation.tsv", validation_set)
        write_pairs(run / "data" / "test.tsv", test_set)
        (run / "config.json").write_text(
            json.dumps(asdict(config), indent=1), encoding="utf-8"
        )

        def batches(pairs, seed, drop_remainder):
            return BucketedBatches(
                [source_vocabulary.encode(p.source) for p in pairs],
                [target_vocabulary.encode(p.target) for p in pairs],
                config.batch_size,
                seed=seed,
                drop_remainder=drop_remainder,
            )

        train_batches = batches(train_set, config.seed, True)
        validation_batches = batches(validation_set, config.seed + 1, False)
        if not len(train_batches):
            raise ValueError(
                f"no training batch: every bucket holds fewer than batch_size="
                f"{config.batch_size} training pairs of at most {BUCKETS[-1]} tokens"
            )
        with distribution.scope():
            model = build_model(config, len(source_vocabulary), len(target_vocabulary))
        if verbose:
            kept = sum(len(b) for b in train_batches.buckets.values())
            print(
                f"{model.name} model: {model.count_params():,} parameters; "
                f"{len(train_set):,} training pairs ({kept:,} of at most {BUCKETS[-1]} "
                f"tokens), {len(validation_set):,} validation, {len(test_set):,} test; "
                f"backend {keras.backend.backend()}"
            )
        counter = TokenCounter(train_batches)
        callbacks, budget = common.fit_callbacks(
            run,
            config.max_minutes,
            config.patience,
            first=[counter],
            extra=[
                keras.callbacks.ModelCheckpoint(
                    str(run / "checkpoints" / "best.keras"), save_best_only=True
                )
            ],
        )
        (run / "checkpoints").mkdir(exist_ok=True)
        start = time.perf_counter()
        with distribution.scope():
            history = model.fit(
                distribution.for_replicas(train_batches),
                validation_data=distribution.for_replicas(validation_batches),
                epochs=config.epochs,
                verbose=verbose,
                callbacks=callbacks,
            )
        seconds = time.perf_counter() - start
        # EarlyStopping(restore_best_weights=True) has put back the weights of the
        # best validation epoch, however training ended (patience, epochs or the
        # budget, which validates the epoch it cuts short too).
        model.save(run / "model.keras")
        training = {
            "seconds": round(seconds, 1),
            "epochs": len(history.history.get("loss", [])),
            "stopped_by_budget": bool(budget and budget.stopped),
            "target_tokens": counter.tokens,
            "target_tokens_per_second": round(counter.tokens / seconds, 1),
            "parameters": model.count_params(),
            "history": common.history_lists(history),
        }
        translator = Translator(run)
        metrics = {"training": training, "test": evaluate_pairs(translator, test_set)}
        (run / "metrics.json").write_text(
            json.dumps(metrics, indent=1), encoding="utf-8"
        )
        plot(
            run, [p.source for p in test_set[:3]], run / "plots", translator=translator
        )
    return metrics
