"""Load the corpus, fit the model, write the run folder, evaluate it."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import keras

from attention_zoo.applications.common.config import saved_config
from attention_zoo.applications.common.run_folder import set_aside
from attention_zoo.applications.common.text import WordVocabulary, tokenize
from attention_zoo.applications.common.text_domain import DOMAIN_FILE, TextDomain
from attention_zoo.applications.common.training import config_arguments
from attention_zoo.applications.common.training_loop import training_run
from attention_zoo.applications.translation import masking, shortlist
from attention_zoo.applications.translation import model as models
from attention_zoo.applications.translation.attention_plot import plot
from attention_zoo.applications.translation.batches import BUCKETS, BucketedBatches
from attention_zoo.applications.translation.config import TrainConfig
from attention_zoo.applications.translation.corpus import load_corpus, write_pairs
from attention_zoo.applications.translation.evaluation import evaluate_pairs
from attention_zoo.applications.translation.postprocess import Truecaser
from attention_zoo.applications.translation.predictor import (
    MAX_SOURCE_TOKENS,
    TRUECASE_FILE,
    Translator,
)


def fit_domain(config: TrainConfig, train_set, validation_set) -> TextDomain:
    """The text domain of the training sources (`common.text_domain`),
    contrasted with the debian_synopsis preset's for the bible corpus."""
    return TextDomain.fit_for(
        config,
        [p.source for p in train_set],
        [p.source for p in validation_set],
        auto="debian_synopsis" if config.corpus == "bible" else "none",
    )


def calibrate(run_dir) -> list[str]:
    """Writes the run's `domain.json` again (`common.text_domain`) from the
    corpus its `config.json` names, split as its training split it. For a
    preset: `attention-zoo presets refresh`."""
    with set_aside(Path(run_dir) / DOMAIN_FILE) as path:
        config = saved_config(TrainConfig, Translator(run_dir).config)
        train_set, validation_set, _ = load_corpus(config)
        fit_domain(config, train_set, validation_set).save(path)
    return [DOMAIN_FILE]


class TokenCounter(keras.callbacks.Callback):
    """Target tokens (real ones, with `<end>`) of the batches trained on."""

    def __init__(self, dataset: BucketedBatches):
        super().__init__()
        self.dataset = dataset
        self.tokens = 0

    def on_train_batch_end(self, batch, logs=None):
        _, pairs = self.dataset.batches[batch]
        self.tokens += sum(len(pair[1]) + 1 for pair in pairs)


def check(config: TrainConfig) -> None:
    """Raise ValueError for settings of the translation model that do not
    go together (its fields' own checks run first)."""
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
    masking.resolve(config)  # a wrong `placeholders` raises ValueError
    if config.copy and config.attention == "none":
        raise ValueError(
            "`copy` needs attention to copy by. Received: copy=True, attention='none'"
        )
    if config.copy and config.shortlist:
        raise ValueError(
            "`shortlist` is not for copy attention, whose outputs include the "
            "source's positions. Received: copy=True, shortlist=True"
        )


def build_model(config: TrainConfig, source_vocab_size: int, target_vocab_size: int):
    """The compiled training model that `config` describes."""
    model = models.build_model(
        **config_arguments(
            config,
            models.build_model,
            source_vocab_size=source_vocab_size,
            target_vocab_size=target_vocab_size,
        )
    )
    return models.compile_model(model, config.learning_rate)


def train(output, config: TrainConfig, verbose: int | None = None) -> dict:
    """Load the corpus, fit the model, save the run folder, evaluate it."""
    with training_run("translation", output, config, verbose, check) as run:
        config = masking.resolve(config)
        train_set, validation_set, test_set = load_corpus(config)
        # The held-out files and the domain keep the raw messages: the
        # translator masks what it reads itself.
        write_pairs(run.folder / "data" / "validation.tsv", validation_set)
        write_pairs(run.folder / "data" / "test.tsv", test_set)
        domain = fit_domain(config, train_set, validation_set)
        if config.placeholders == "mask":
            train_set = masking.masked_pairs(train_set)
            validation_set = masking.masked_pairs(validation_set)
            vocabulary = masking.vocabulary
        else:
            vocabulary = WordVocabulary.from_texts
        source_vocabulary = vocabulary(
            [p.source for p in train_set], config.source_vocab_size
        )
        target_vocabulary = vocabulary(
            [p.target for p in train_set], config.target_vocab_size
        )
        source_vocabulary.save(run.folder / "source_vocabulary.json")
        target_vocabulary.save(run.folder / "target_vocabulary.json")
        Truecaser.learn(p.target for p in train_set).save(run.folder / TRUECASE_FILE)
        run.write_json("config.json", asdict(config))

        def batches(pairs, seed, drop_remainder):
            targets = [target_vocabulary.encode(p.target) for p in pairs]
            return BucketedBatches(
                [source_vocabulary.encode(p.source) for p in pairs],
                targets,
                config.batch_size,
                seed=seed,
                drop_remainder=drop_remainder,
                copy=copy_ids(pairs, targets) if config.copy else None,
            )

        def copy_ids(pairs, targets):
            """`(source_extended, labels)` per pair (`model.extended_ids`)."""
            size = len(target_vocabulary)
            out = []
            for pair, target in zip(pairs, targets):
                source = tokenize(pair.source)
                out.append(
                    (
                        models.extended_ids(source, target_vocabulary.index, size),
                        models.extended_labels(
                            target, tokenize(pair.target), source, size
                        ),
                    )
                )
            return out

        train_batches = batches(train_set, config.seed, True)
        validation_batches = batches(validation_set, config.seed + 1, False)
        if not len(train_batches):
            raise ValueError(
                f"no training batch: every bucket holds fewer than batch_size="
                f"{config.batch_size} training pairs of at most {BUCKETS[-1]} tokens"
            )
        with run.scope():
            model = build_model(config, len(source_vocabulary), len(target_vocabulary))
        if run.verbose:
            kept = sum(len(b) for b in train_batches.buckets.values())
            print(
                f"{model.name} model: {model.count_params():,} parameters; "
                f"{len(train_set):,} training pairs ({kept:,} of at most {BUCKETS[-1]} "
                f"tokens), {len(validation_set):,} validation, {len(test_set):,} test; "
                f"backend {keras.backend.backend()}"
            )
        counter = TokenCounter(train_batches)
        (run.folder / "checkpoints").mkdir(exist_ok=True)
        checkpoint = keras.callbacks.ModelCheckpoint(
            str(run.folder / "checkpoints" / "best.keras"), save_best_only=True
        )
        run.fit(
            model,
            train_batches,
            validation_data=validation_batches,
            first_callbacks=[counter],
            extra_callbacks=[checkpoint],
        )
        # EarlyStopping(restore_best_weights=True) has put back the weights of
        # the best validation epoch, however training ended (patience, epochs
        # or the budget, which validates the epoch it cuts short too).
        model.save(run.folder / "model.keras")
        domain.save(run.folder / DOMAIN_FILE)
        if config.shortlist:
            learn_shortlist(run.folder, train_set)
        seconds = run.training["seconds"]
        translator = Translator(run.folder)
        metrics = run.finish(
            evaluate_pairs(translator, test_set),
            target_tokens=counter.tokens,
            target_tokens_per_second=round(counter.tokens / seconds, 1),
        )
        plot(
            run.folder,
            [p.source for p in test_set[:3]],
            run.folder / "plots",
            translator=translator,
        )
    return metrics


def learn_shortlist(run_dir, train_set=None) -> Path:
    """Learns the shortlist of the run in `run_dir` from its training
    sentences (`shortlist.learn`) and writes it there; `train_set`: its
    training pairs, masked as it trained on them (default: loaded again
    from the corpus its config names)."""
    translator = Translator(run_dir, shortlist=False)
    if translator.copy:
        raise ValueError(
            f"{run_dir} has copy attention: a shortlist is not for copying runs"
        )
    if train_set is None:
        config = masking.resolve(saved_config(TrainConfig, translator.config))
        train_set = load_corpus(config)[0]
        if config.placeholders == "mask":
            train_set = masking.masked_pairs(train_set)
    sources = [p.source for p in train_set]
    learned = shortlist.learn(translator, sources, MAX_SOURCE_TOKENS)
    return shortlist.save(run_dir, learned)
