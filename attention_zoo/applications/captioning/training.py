"""Load the data, fit the caption model, write the run folder, evaluate it."""

from __future__ import annotations

import time
from dataclasses import asdict
from pathlib import Path

import keras
import numpy as np

from attention_zoo.applications.captioning import model as models
from attention_zoo.applications.captioning.batches import CaptionBatches
from attention_zoo.applications.captioning.captions import normalize_caption
from attention_zoo.applications.captioning.config import MAX_CAPTION_TOKENS, TrainConfig
from attention_zoo.applications.captioning.dataset import load_dataset, write_items
from attention_zoo.applications.captioning.domain import (
    DOMAIN_FILE,
    MAX_IMAGES,
    ImageDomain,
)
from attention_zoo.applications.captioning.evaluation import evaluate_items
from attention_zoo.applications.captioning.features import (
    build_encoder,
    extract_features,
    image_array,
)
from attention_zoo.applications.captioning.predictor import Captioner, plot
from attention_zoo.applications.common.config import saved_config
from attention_zoo.applications.common.run_folder import set_aside
from attention_zoo.applications.common.text import WordVocabulary
from attention_zoo.applications.common.training import config_arguments
from attention_zoo.applications.common.training_loop import training_run

# The settings that make two runs' frozen-encoder features the same.
FEATURE_KEY = (
    "dataset", "images_dir", "captions_file", "n_train", "n_validation",
    "n_test", "seed", "backbone", "weights", "image_size", "feature_layer",
)  # fmt: skip


def check(config: TrainConfig) -> None:
    """Raise ValueError for captioning settings that do not go together (the
    fields' own checks run first)."""
    if config.distribute and config.fine_tune_blocks:
        # The encoder is built, and extracts features, outside the scope.
        raise ValueError(
            "--distribute trains the caption model on cached features; it "
            "cannot fine-tune the encoder. Received: distribute="
            f"{config.distribute!r}, fine_tune_blocks={config.fine_tune_blocks}"
        )


def _inputs(config, encoder, splits, image_size, feature_cache):
    """`(train, validation)` model inputs and the test features (or None).

    Cached features of the frozen encoder, shared through `feature_cache`
    by runs of the same `FEATURE_KEY`; images when the encoder fine-tunes.
    """
    train_set, validation_set, test_set = splits
    if config.fine_tune_blocks:
        return (
            np.stack([image_array(i.image, image_size) for i in train_set]),
            np.stack([image_array(i.image, image_size) for i in validation_set]),
            None,
        )
    key = tuple(getattr(config, name) for name in FEATURE_KEY)
    if key not in feature_cache:
        feature_cache[key] = tuple(
            extract_features(encoder, [i.image for i in items], image_size)
            for items in splits
        )
    return feature_cache[key]


def _caption_model(config, encoder, vocabulary):
    return models.build_caption_model(
        **config_arguments(
            config,
            models.build_caption_model,
            feature_shape=tuple(encoder.output_shape[1:]),
            vocab_size=len(vocabulary),
        )
    )


def calibrate(run_dir) -> list[str]:
    """Writes the run's `domain.json` again (`captioning.domain`): the
    features of its training and validation images, read again from the
    data its `config.json` names, through its encoder. For a preset, whose
    weights are those its run trained: `attention-zoo presets refresh`."""
    with set_aside(Path(run_dir) / DOMAIN_FILE) as path:
        captioner = Captioner(run_dir)
        config = saved_config(TrainConfig, captioner.config)
        train_set, validation_set, _ = load_dataset(config)
        features = [
            extract_features(
                captioner.encoder, [i.image for i in items], captioner.image_size
            )
            for items in (train_set[:MAX_IMAGES], validation_set)
        ]
        ImageDomain.fit(*features).save(path)
    return [DOMAIN_FILE]


def train(
    output, config: TrainConfig, verbose: int | None = None, feature_cache=None
) -> dict:
    """Load the data, fit the caption model, save the run folder, evaluate it.

    `feature_cache`, a dict the caller keeps, lets runs that differ only in
    the caption model (e.g. `doubly_stochastic`) share the frozen encoder's
    features: they are computed once per dataset, backbone and image size.
    """
    from attention_zoo.encoders import grid_shape, unfreeze_last_blocks

    with training_run("captioning", output, config, verbose, check) as run:
        start = time.perf_counter()
        train_set, validation_set, test_set = load_dataset(config)
        data_seconds = time.perf_counter() - start
        encoder = build_encoder(config)
        image_size = int(encoder.input_shape[1])
        grid = grid_shape(encoder)
        # Words as BLEU's references have them (`evaluate` normalises those the
        # same way): "R&B" is "r & b" on both sides.
        vocabulary = WordVocabulary.from_texts(
            [normalize_caption(c) for item in train_set for c in item.captions],
            config.vocab_size,
        )
        vocabulary.save(run.folder / "vocabulary.json")

        def pairs(items):
            return [
                (row, vocabulary.encode(normalize_caption(c)))
                for row, item in enumerate(items)
                for c in item.captions
            ]

        train_pairs, validation_pairs = pairs(train_set), pairs(validation_set)
        if not train_pairs:
            raise ValueError("no training caption: the training split is empty")
        length = min(MAX_CAPTION_TOKENS, max(len(ids) for _, ids in train_pairs) + 1)
        settings = {
            **asdict(config),
            "resolved_image_size": image_size,
            "grid_shape": list(grid),
            "max_caption_length": length,
        }
        run.write_json("config.json", settings)
        if config.dataset != "scenes":
            write_items(run.folder / "data" / "test.json", test_set)

        cached = config.fine_tune_blocks == 0
        start = time.perf_counter()
        train_inputs, validation_inputs, test_features = _inputs(
            config,
            encoder,
            (train_set, validation_set, test_set),
            image_size,
            {} if feature_cache is None else feature_cache,
        )
        feature_seconds = time.perf_counter() - start
        with run.scope():
            caption_model = _caption_model(config, encoder, vocabulary)
        train_batches = CaptionBatches(
            train_inputs, train_pairs, config.batch_size, length, seed=config.seed
        )
        validation_batches = CaptionBatches(
            validation_inputs,
            validation_pairs,
            config.batch_size,
            length,
            shuffle=False,
        )
        if cached:
            trained = caption_model
        else:
            unfreeze_last_blocks(encoder, config.fine_tune_blocks)
            trained = models.build_end_to_end_model(encoder, caption_model)
        total_steps = config.epochs * len(train_batches)
        warmup_steps = min(
            round(config.warmup_epochs * len(train_batches)), total_steps // 2
        )
        with run.scope():
            models.compile_caption_model(
                trained,
                config.learning_rate,
                config.doubly_stochastic,
                decay_steps=total_steps,
                warmup_steps=warmup_steps,
            )
        if run.verbose:
            channels = int(encoder.output_shape[2])
            print(
                f"captioner: {caption_model.count_params():,} parameters over a "
                f"{grid[0]}x{grid[1]}x{channels} {config.backbone} grid "
                f"({'cached features' if cached else f'fine-tuning {config.fine_tune_blocks} blocks'}); "
                f"{len(train_set):,} training images ({len(train_pairs):,} captions), "
                f"{len(validation_set):,} validation, {len(test_set):,} test; "
                f"vocabulary {len(vocabulary)}; backend {keras.backend.backend()}"
            )
        run.fit(
            trained,
            train_batches,
            validation_data=validation_batches if len(validation_pairs) else None,
        )
        encoder.save(run.folder / "encoder.keras")
        caption_model.save(run.folder / "model.keras")
        if cached:
            domain_features = (train_inputs, validation_inputs)
        else:
            domain_features = tuple(
                extract_features(encoder, [i.image for i in items], image_size)
                for items in (train_set[:MAX_IMAGES], validation_set)
            )
        ImageDomain.fit(*domain_features).save(run.folder / DOMAIN_FILE)
        captioner = Captioner(run.folder)
        metrics = run.finish(
            evaluate_items(captioner, test_set, features=test_features),
            data_seconds=round(data_seconds, 1),
            feature_seconds=round(feature_seconds, 1),
            steps_per_second=round(
                run.training["epochs"] * len(train_batches) / run.training["seconds"], 2
            ),
            warmup_steps=warmup_steps,
            parameters=caption_model.count_params(),
        )
        plot(
            run.folder,
            [i.image for i in test_set[:3]],
            run.folder / "plots",
            captioner=captioner,
        )
    return metrics
