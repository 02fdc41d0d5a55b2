"""Load the corpus, fit the summarizer, write the run folder, evaluate it."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import asdict
from pathlib import Path

import keras
import numpy as np

from attention_zoo.applications.common.config import saved_config
from attention_zoo.applications.common.pairs_files import check_held_out
from attention_zoo.applications.common.run_folder import set_aside
from attention_zoo.applications.common.text import WordVocabulary
from attention_zoo.applications.common.text_domain import DOMAIN_FILE, TextDomain
from attention_zoo.applications.common.training import config_arguments
from attention_zoo.applications.common.training_loop import training_run
from attention_zoo.applications.summarization import data
from attention_zoo.applications.summarization import model as models
from attention_zoo.applications.summarization.config import (
    MAX_SOURCE_TOKENS,
    MAX_SUMMARY_TOKENS,
    TrainConfig,
)
from attention_zoo.applications.summarization.evaluation import evaluate_examples
from attention_zoo.applications.summarization.predictor import (
    THRESHOLD_QUANTILE,
    Summarizer,
    plot,
)
from attention_zoo.applications.summarization.text import (
    encode_sources,
    encode_summaries,
)

# Validation texts the validity thresholds are chosen on, at most.
THRESHOLD_TEXTS = 1000
# Texts each held-out split needs at least: a 0.2 % quantile of fewer
# scores is the lowest of them, and ROUGE of none is no score.
MIN_HELD_OUT = 5
SPLITS = ("validation", "test")
FLAGS = ("--validation-pairs", "--test-pairs")


def check(config: TrainConfig) -> None:
    """Raise ValueError for a corpus the settings do not describe."""
    if config.corpus not in ("debian", "tsv", "tfds"):
        raise ValueError(
            "`corpus` must be one of ('debian', 'tsv', 'tfds'). Received: "
            f"corpus={config.corpus!r}"
        )
    if config.corpus == "tsv" and not config.pairs:
        raise ValueError("corpus 'tsv' needs `pairs`, the path of the TSV file")
    if config.corpus == "tfds" and not config.tfds_name:
        raise ValueError("corpus 'tfds' needs `tfds_name`: gigaword or cnn_dailymail")


def _split_groups(examples):
    """A user's pairs split by a hash of each text (no text in two splits)."""
    return data.split_by_source(
        [
            data.Example(e.text, e.summary, hashlib.sha256(e.text.encode()).hexdigest())
            for e in examples
        ]
    )


def load_corpus(config: TrainConfig):
    """`(train, validation, test)` examples of the config's corpus; the
    given validation and test files replace their held-out splits. Held-out
    texts that are mostly training texts are refused, some are warned of
    (`pairs_files.check_held_out`)."""
    if config.corpus == "tfds":
        splits = [
            data.tfds_examples(
                config.tfds_name,
                split,
                config.tfds_data_dir,
                config.download and split == "train",
            )
            for split in ("train", "validation", "test")
        ]
    elif config.corpus == "tsv":
        splits = list(_split_groups(data.read_pairs(config.pairs)))
    else:
        splits = list(data.split_by_source(data.debian_examples()))
    given = (config.validation_pairs, config.test_pairs)
    for index, path in zip((1, 2), given):
        if path:
            splits[index] = data.read_pairs(path)
    # Shuffled, so that a smaller --train-size keeps a sample of the whole
    # corpus, not its alphabetical start.
    random.Random(config.seed).shuffle(splits[0])
    if config.n_train:
        splits[0] = splits[0][: config.n_train]
    if not splits[0]:
        raise ValueError("no training pair: the training split is empty")
    # The files a user gives (the Debian split is by source package, and
    # two packages may share a description).
    check_held_out(
        {e.text for e in splits[0]},
        {
            name: [e.text for e in s]
            for name, s, path in zip(SPLITS, splits[1:], given)
            if path
        },
        "text",
        dict(zip(SPLITS, FLAGS)),
    )
    return tuple(splits)


def check_held_out_sizes(validation_set, test_set) -> None:
    """Refuse held-out splits too small to choose the validity thresholds
    on and to score the run with (a file of one pair holds out nothing)."""
    counts = {"validation": len(validation_set), "test": len(test_set)}
    if min(counts.values()) < MIN_HELD_OUT:
        raise ValueError(
            f"too few held-out texts: {counts['validation']:,} validation and "
            f"{counts['test']:,} test texts; training needs at least "
            f"{MIN_HELD_OUT} of each (to stop early, choose the validity "
            "thresholds and score the run). Give more pairs (5 % of the texts "
            "of `--pairs` are held out for each), or `--validation-pairs` and "
            "`--test-pairs`"
        )


def training_arrays(examples, vocabulary, copy: bool):
    """`(inputs, labels)`: `[source, source_extended, decoder_input]` and the
    labels `(N, MAX_SUMMARY_TOKENS)` of `examples`."""
    texts = [e.text for e in examples]
    source, extended, _ = encode_sources(texts, vocabulary)
    decoder_input, labels = encode_summaries(
        [e.summary for e in examples], texts, vocabulary, MAX_SUMMARY_TOKENS, copy
    )
    return [source, extended, decoder_input], labels


def train(output, config: TrainConfig, verbose: int | None = None) -> dict:
    """Load the corpus, fit the model, save the run folder, evaluate it."""
    with training_run("summarization", output, config, verbose, check) as run:
        train_set, validation_set, test_set = load_corpus(config)
        check_held_out_sizes(validation_set, test_set)
        data.write_pairs(run.folder / "data" / "validation.tsv", validation_set)
        data.write_pairs(run.folder / "data" / "test.tsv", test_set)
        vocabulary = WordVocabulary.from_texts(
            [e.text for e in train_set] + [e.summary for e in train_set],
            config.vocab_size,
        )
        vocabulary.save(run.folder / "vocabulary.json")
        settings = {
            **asdict(config),
            "max_source_tokens": MAX_SOURCE_TOKENS,
            "max_summary_tokens": MAX_SUMMARY_TOKENS,
        }
        run.write_json("config.json", settings)
        x, labels = training_arrays(train_set, vocabulary, config.copy)
        xv, labels_v = training_arrays(validation_set, vocabulary, config.copy)
        head = "probabilities" if config.copy else "logits"

        def targets(values):
            return {head: values, **({"attention": values} if config.coverage else {})}

        with run.scope():
            model = models.build_model(
                **config_arguments(
                    config, models.build_model, vocab_size=len(vocabulary)
                )
            )
            models.compile_model(
                model,
                config.learning_rate,
                config.coverage_weight if config.coverage else 0.0,
            )
        if run.verbose:
            print(
                f"{model.name} model: {model.count_params():,} parameters, "
                f"vocabulary {len(vocabulary):,}; {len(train_set):,} training "
                f"texts, {len(validation_set):,} validation, {len(test_set):,} "
                f"test; backend {keras.backend.backend()}"
            )
        run.fit(
            model,
            x,
            targets(labels),
            validation_data=(xv, targets(labels_v)),
            batch_size=config.batch_size,
        )
        # EarlyStopping(restore_best_weights=True) has put back the best
        # validation epoch's weights.
        model.save(run.folder / "model.keras")
        fit_domain(config, train_set, validation_set).save(run.folder / DOMAIN_FILE)
        summarizer = Summarizer(run.folder)
        thresholds = choose_thresholds(summarizer, validation_set)
        settings.update(thresholds)
        run.write_json("config.json", settings)
        # The same summarizer evaluates with the thresholds just written (as
        # a new one reading config.json would): its compiled searches are
        # traced once in a training, not once per predictor.
        summarizer.score_threshold = thresholds.get(
            "score_threshold", summarizer.score_threshold
        )
        summarizer.max_unknown_share = thresholds.get(
            "max_unknown_share", summarizer.max_unknown_share
        )
        metrics = run.finish(evaluate_examples(summarizer, test_set))
        texts = [e.text for e in test_set[:3]]
        plot(run.folder, texts, run.folder / "plots", summarizer=summarizer)
    return metrics


def fit_domain(config: TrainConfig, train_set, validation_set) -> TextDomain:
    """The text domain of the training sources (`common.text_domain`),
    contrasted with the bible_en_es preset's for the debian corpus."""
    return TextDomain.fit_for(
        config,
        [e.text for e in train_set],
        [e.text for e in validation_set],
        auto="bible_en_es" if config.corpus == "debian" else "none",
    )


def calibrate(run_dir) -> list[str]:
    """Writes the run's validity thresholds (`config.json`) and text domain
    (`domain.json`) again from the corpus its `config.json` names. For a
    preset: `attention-zoo presets refresh`."""
    run_dir = Path(run_dir)
    with set_aside(run_dir / DOMAIN_FILE) as path:
        config = saved_config(TrainConfig, Summarizer(run_dir).config)
        train_set, validation_set, _ = load_corpus(config)
        fit_domain(config, train_set, validation_set).save(path)
    # The thresholds are those of the summarizer with its domain.
    settings = {**Summarizer(run_dir).config}
    settings.update(choose_thresholds(Summarizer(run_dir), validation_set))
    (run_dir / "config.json").write_text(
        json.dumps(settings, indent=1, ensure_ascii=False), encoding="utf-8"
    )
    return ["config.json", DOMAIN_FILE]


def choose_thresholds(summarizer: Summarizer, validation) -> dict:
    """The validity thresholds: the `THRESHOLD_QUANTILE` quantile of the
    validation texts' summary scores (the run's own search), and the
    `1 - THRESHOLD_QUANTILE` quantile of their shares of unknown words."""
    texts = [e.text for e in validation[:THRESHOLD_TEXTS] if e.text.split()]
    if not texts:
        return {}
    scores = [item["score"] for item in summarizer(texts)]
    shares = [summarizer.unknown_share(t) for t in texts]
    return {
        "score_threshold": float(np.quantile(scores, THRESHOLD_QUANTILE)),
        "max_unknown_share": float(np.quantile(shares, 1 - THRESHOLD_QUANTILE)),
    }
