"""Train, evaluate, caption, plot and export a Show-Attend-Tell captioner.

A run folder holds everything the other tasks need:

    config.json          dataset, backbone, sizes, seed, caption length
    vocabulary.json      the caption words
    encoder.keras        the image encoder (frozen, or fine-tuned)
    model.keras          the caption model over the encoder's feature grid
    data/test.json       the held-out images (absolute paths) and captions (user data)
    metrics.json         training budget and speed; test BLEU-1..4 by beam
                         size, attention grounding (generated scenes)
    logs/                TensorBoard logs
    plots/*.png          attention overlays, one panel per generated word

Documented rules for inputs (CLI, `Captioner` and the SavedModel): an image
is decoded as RGB (alpha dropped, grayscale replicated, the first frame of
an animation) and resized to the encoder's square input, aspect ratio not
kept; empty or undecodable bytes and images of more than `MAX_PIXELS`
pixels are refused (the CLI exits with an error naming the file; the
SavedModel returns an empty caption, zero attention and `valid=False` for
that element and captions the rest).
"""

from __future__ import annotations

import json
import random
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import keras
import numpy as np

from attention_zoo import image_codec
from attention_zoo.applications.captioning import model as models
from attention_zoo.applications.captioning.captions import normalize_caption
from attention_zoo.applications.captioning.scene_generator import scene_splits
from attention_zoo.applications.captioning.scenes import SHAPES, Scene
from attention_zoo.applications.captioning.sources import (
    read_coco_json,
    read_flickr8k,
    split_images,
    tfds_coco_captions,
)
from attention_zoo.applications.common import (
    TimeBudget,
    check_run_folder,
    load_run_model,
    output_folder,
    start_run_folder,
    tensorboard_callbacks,
)
from attention_zoo.applications.translation.tokenizer import WordVocabulary

DATASETS = ("scenes", "flickr8k", "coco", "tfds")
# The grid the caption model attends over: each backbone's last feature map
# at stride 16 (14 x 14 at 224 px; InceptionV3: 17 x 17 at 299), the
# resolution of Show, Attend and Tell's VGG grid. Its features are more local
# than the stride-32 map's, which is what lets attention find the objects
# (docs/captioning.md measures both).
FEATURE_LAYERS = {
    "efficientnet_lite0": "block10_add",
    "resnet50": "conv4_block6_out",
    "mobilenet_v2": "block_12_add",
    "inception_v3": "mixed7",
}
MAX_CAPTION_TOKENS = 40
MAX_PIXELS = image_codec.MAX_PIXELS


@dataclass
class TrainConfig:
    dataset: str = "scenes"
    images_dir: str | None = None  # flickr8k / coco
    captions_file: str | None = None  # flickr8k token file / coco JSON
    tfds_data_dir: str | None = None
    download: bool = False
    n_train: int = 6000  # scenes; tfds: images per split at most
    n_validation: int = 500
    n_test: int = 1000
    backbone: str = "efficientnet_lite0"
    weights: str | None = "imagenet"
    image_size: int | None = None  # None: the backbone's default
    feature_layer: str | None = None  # None: FEATURE_LAYERS; "last": stride 32
    fine_tune_blocks: int = 0
    initial_state: str = "zeros"  # or "mean_memory", the paper's
    units: int = 256
    embedding_dim: int = 128
    attention_units: int = 128
    feature_units: int = 256
    dropout: float = 0.3
    context_dropout: float = 0.5  # not in the paper: see docs/captioning.md
    gate: bool = True
    position_embedding: bool = True
    doubly_stochastic: float = 0.0
    vocab_size: int = 5000
    batch_size: int = 64
    epochs: int = 15
    max_minutes: float | None = None
    learning_rate: float = 2e-3
    warmup_epochs: float = 1.0  # linear warm-up, at most half of the training
    patience: int = 3
    beam_width: int = 3
    alpha: float = 0.0
    seed: int = 0


class InputError(ValueError):
    """An input the command line refuses, with the reason."""


@dataclass
class Item:
    """One image (an array, or a file path) and its captions."""

    image: object
    captions: list[str]
    scene: Scene | None = None


# -------------------------------------------------------------------- data


def _scene_items(scenes):
    return [Item(s.image, [s.caption], s) for s in scenes]


def _file_items(items):
    return [Item(i.path, list(i.captions)) for i in items]


def load_dataset(config: TrainConfig):
    """`(train, validation, test)` lists of `Item` for the config's dataset."""
    if config.dataset not in DATASETS:
        raise ValueError(
            f"`dataset` must be one of {DATASETS}. Received: dataset={config.dataset!r}"
        )
    if config.dataset == "scenes":
        size = config.image_size or 224
        splits = scene_splits(
            config.n_train, config.n_validation, config.n_test, config.seed, size
        )
        return tuple(_scene_items(s) for s in splits)
    if config.dataset == "tfds":
        splits = []
        for split, n in (
            ("train", config.n_train),
            ("val", config.n_validation),
            ("test", config.n_test),
        ):
            examples = tfds_coco_captions(
                split, config.tfds_data_dir, config.download and split == "train", n
            )
            splits.append([Item(image, captions) for image, captions in examples])
        return tuple(splits)
    if not config.images_dir or not config.captions_file:
        raise ValueError(
            f"dataset {config.dataset!r} needs `images_dir` and `captions_file`"
        )
    read = read_flickr8k if config.dataset == "flickr8k" else read_coco_json
    items = read(config.images_dir, config.captions_file)
    train, validation, test = split_images(items, 0.05, 0.1, config.seed)
    return tuple(_file_items(s) for s in (train, validation, test))


def image_array(image, image_size: int) -> np.ndarray:
    """`(S, S, 3)` float32 in [0, 255] from an array, a file path or bytes.

    Files and bytes are decoded with `image_codec.decode_image` (RGB, alpha dropped);
    the resize is `keras.ops.image.resize` (bilinear, antialiased), the
    operation the SavedModel runs in its graph.
    """
    if isinstance(image, (str, Path)):
        image = image_codec.load_image(image)
    elif isinstance(image, (bytes, bytearray)):
        image = image_codec.decode_image(bytes(image))
    image = np.asarray(image)
    if image.shape[:2] != (image_size, image_size):
        image = keras.ops.convert_to_numpy(
            keras.ops.image.resize(
                image[None].astype("float32"),
                (image_size, image_size),
                interpolation="bilinear",
                antialias=True,
            )
        )[0]
    return image.astype("float32")


def image_batches(images, image_size: int, batch_size: int):
    """Yields `(B, S, S, 3)` float32 batches of `image_array`s."""
    for start in range(0, len(images), batch_size):
        yield np.stack(
            [image_array(i, image_size) for i in images[start : start + batch_size]]
        )


def extract_features(encoder, images, image_size: int, batch_size: int = 32):
    """The feature grids `(N, L, C)` of `images`, float16 to halve the memory."""
    fn = models.compiled(
        lambda x: encoder(x, training=False), (image_size, image_size, 3), False
    )
    out = []
    for batch in image_batches(images, image_size, batch_size):
        out.append(keras.ops.convert_to_numpy(fn(batch)).astype("float16"))
    return np.concatenate(out) if out else np.zeros((0, 1, 1), "float16")


class CaptionBatches(keras.utils.PyDataset):
    """Teacher-forcing batches of (image input, caption) pairs.

    `inputs` holds one row per image (cached features `(N, L, C)` or images
    `(N, S, S, 3)`); `pairs` are `(row, caption ids)`, so an image with five
    captions is stored once. Captions are padded to `length` (the longest
    caption plus `<end>`), one shape for every batch. Pairs are reshuffled
    each epoch when `shuffle`.
    """

    def __init__(self, inputs, pairs, batch_size, length, shuffle=True, seed=0, **kw):
        super().__init__(**kw)
        self.inputs, self.pairs = inputs, list(pairs)
        self.batch_size, self.length = batch_size, length
        self.shuffle, self.rng = shuffle, random.Random(seed)
        self.order = list(range(len(self.pairs)))
        self.on_epoch_end()

    def on_epoch_end(self):
        if self.shuffle:
            self.rng.shuffle(self.order)

    def __len__(self):
        return -(-len(self.pairs) // self.batch_size)

    def __getitem__(self, index):
        chosen = self.order[index * self.batch_size : (index + 1) * self.batch_size]
        rows = [self.pairs[i][0] for i in chosen]
        words = np.zeros((len(chosen), self.length), "int32")
        labels = np.zeros((len(chosen), self.length), "int32")
        for j, i in enumerate(chosen):
            ids = self.pairs[i][1][: self.length - 1]
            words[j, : len(ids) + 1] = [models.START_ID, *ids]
            labels[j, : len(ids) + 1] = [*ids, models.END_ID]
        x = self.inputs[np.asarray(rows)].astype("float32")
        return (x, words), {"logits": labels, "attention": labels}


# ----------------------------------------------------------------- loading


class Captioner:
    """A trained run: images in, captions and attention out."""

    def __init__(self, run_dir, beam_width: int | None = None):
        self.run_dir = check_run_folder(
            run_dir,
            "captioning",
            ("model.keras", "encoder.keras", "config.json", "vocabulary.json"),
        )
        self.config = json.loads((self.run_dir / "config.json").read_text())
        self.vocabulary = WordVocabulary.load(self.run_dir / "vocabulary.json")
        self.encoder = load_run_model(self.run_dir / "encoder.keras")
        self.model = load_run_model(self.run_dir / "model.keras")
        self.image_size = int(self.config["resolved_image_size"])
        self.grid_shape = tuple(self.config["grid_shape"])
        self.max_length = int(self.config["max_caption_length"])
        self.beam_width = beam_width or self.config["beam_width"]
        self._fns = {}

    def encode_fn(self):
        """The compiled encoder: images `(B, S, S, 3)` to features `(B, L, C)`."""
        if "encode" not in self._fns:
            self._fns["encode"] = models.compiled(
                lambda x: self.encoder(x, training=False),
                (self.image_size, self.image_size, 3),
                jit_compile=False,
            )
        return self._fns["encode"]

    def caption_fn(self, beam_width: int):
        """The compiled decoding function: features to tokens and attention."""
        if beam_width not in self._fns:
            fn = models.make_caption_fn(
                self.model,
                self.max_length,
                beam_width=beam_width,
                alpha=self.config["alpha"] if beam_width > 1 else 0.0,
            )
            shape = tuple(self.model.get_layer("features").output.shape[1:])
            self._fns[beam_width] = models.compiled(fn, shape)
        return self._fns[beam_width]

    def caption_features(self, features, beam_width=None, batch_size: int = 64):
        """Captions and attention `(T, L)` per row of cached features."""
        fn = self.caption_fn(beam_width or self.beam_width)
        return self._run(fn, features, batch_size, lambda b: b.astype("float32"))

    def caption_images(self, images, beam_width=None, batch_size: int = 32):
        """Captions and attention for arrays, file paths or encoded bytes."""
        fn, encode = self.caption_fn(beam_width or self.beam_width), self.encode_fn()
        return self._run(
            lambda x: fn(encode(x)),
            list(images),
            batch_size,
            lambda b: np.stack([image_array(i, self.image_size) for i in b]),
        )

    def _run(self, fn, inputs, batch_size, prepare):
        captions, attention = [], []
        for start in range(0, len(inputs), batch_size):
            tokens, weights = fn(prepare(inputs[start : start + batch_size]))
            tokens = keras.ops.convert_to_numpy(tokens)
            weights = keras.ops.convert_to_numpy(weights).astype("float32")
            for row, w in zip(tokens, weights):
                caption = self.vocabulary.decode(row)
                captions.append(caption)
                attention.append(w[: len(caption.split()) + 1] if caption else w[:1])
        return captions, attention


def read_image_file(path) -> bytes:
    """The bytes of an image file; InputError if it cannot be read as one."""
    path = Path(path)
    if path.is_dir():
        raise InputError(f"{path} is a folder, not an image file")
    if not path.is_file():
        raise InputError(f"image file not found: {path}")
    content = path.read_bytes()
    try:
        image_codec.decode_image(content)
    except ValueError as error:
        raise InputError(f"{path}: {error}") from None
    return content


# ------------------------------------------------------------------- train


def _check_config(config: TrainConfig):
    for name in (
        "units",
        "embedding_dim",
        "attention_units",
        "feature_units",
        "batch_size",
        "epochs",
        "beam_width",
        "n_train",
        "n_validation",
        "n_test",
    ):
        value = getattr(config, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(
                f"`{name}` must be a positive integer. Received: {value!r}"
            )
    if config.fine_tune_blocks < 0:
        raise ValueError(
            "`fine_tune_blocks` must be >= 0. Received: "
            f"fine_tune_blocks={config.fine_tune_blocks}"
        )
    if not config.doubly_stochastic >= 0:
        raise ValueError(
            "`doubly_stochastic` must be >= 0. Received: "
            f"doubly_stochastic={config.doubly_stochastic}"
        )
    if config.max_minutes is not None and not config.max_minutes > 0:
        raise ValueError(
            f"`max_minutes` must be positive. Received: {config.max_minutes}"
        )


def build_encoder(config: TrainConfig):
    from attention_zoo.encoders import image_encoder

    weights = config.weights
    if isinstance(weights, str) and weights.lower() == "none":
        weights = None
    layer = config.feature_layer or FEATURE_LAYERS.get(config.backbone)
    return image_encoder(
        config.backbone,
        weights=weights,
        image_size=config.image_size,
        trainable=False,
        feature_layer=None if layer == "last" else layer,
    )


def train(
    output, config: TrainConfig, verbose: int | None = None, feature_cache=None
) -> dict:
    """Load the data, fit the caption model, save the run folder, evaluate it.

    `feature_cache`, a dict the caller keeps, lets runs that differ only in
    the caption model (e.g. `doubly_stochastic`) share the frozen encoder's
    features: they are computed once per dataset, backbone and image size.
    """
    from attention_zoo.encoders import grid_shape, unfreeze_last_blocks

    if verbose is None:
        verbose = 1 if sys.stdout.isatty() else 2
    _check_config(config)
    output_folder(output)  # before the data, which can take long
    keras.utils.set_random_seed(config.seed)
    start = time.perf_counter()
    train_set, validation_set, test_set = load_dataset(config)
    data_seconds = time.perf_counter() - start
    run = start_run_folder(output, ("model.keras", "encoder.keras", "metrics.json"))
    encoder = build_encoder(config)
    image_size = int(encoder.input_shape[1])
    grid = grid_shape(encoder)
    # Words as BLEU's references have them (`evaluate` normalises those the
    # same way): "R&B" is "r & b" on both sides.
    vocabulary = WordVocabulary.from_texts(
        [normalize_caption(c) for item in train_set for c in item.captions],
        config.vocab_size,
    )
    vocabulary.save(run / "vocabulary.json")

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
    (run / "config.json").write_text(json.dumps(settings, indent=1))
    if config.dataset != "scenes":
        _write_items(run / "data" / "test.json", test_set)

    cached = config.fine_tune_blocks == 0
    key = tuple(
        getattr(config, name)
        for name in (
            "dataset", "images_dir", "captions_file", "n_train", "n_validation",
            "n_test", "seed", "backbone", "weights", "image_size", "feature_layer",
        )
    )  # fmt: skip
    feature_cache = {} if feature_cache is None else feature_cache
    start = time.perf_counter()
    if cached and key in feature_cache:
        train_inputs, validation_inputs, test_features = feature_cache[key]
    elif cached:
        train_inputs, validation_inputs, test_features = (
            extract_features(encoder, [i.image for i in items], image_size)
            for items in (train_set, validation_set, test_set)
        )
        feature_cache[key] = train_inputs, validation_inputs, test_features
    else:
        test_features = None
        train_inputs = np.stack([image_array(i.image, image_size) for i in train_set])
        validation_inputs = np.stack(
            [image_array(i.image, image_size) for i in validation_set]
        )
    feature_seconds = time.perf_counter() - start
    grid_size, channels = int(encoder.output_shape[1]), int(encoder.output_shape[2])
    caption_model = models.build_caption_model(
        grid_size,
        channels,
        len(vocabulary),
        units=config.units,
        embedding_dim=config.embedding_dim,
        attention_units=config.attention_units,
        feature_units=config.feature_units,
        dropout=config.dropout,
        context_dropout=config.context_dropout,
        gate=config.gate,
        position_embedding=config.position_embedding,
        initial_state=config.initial_state,
        seed=config.seed,
    )
    train_batches = CaptionBatches(
        train_inputs, train_pairs, config.batch_size, length, seed=config.seed
    )
    validation_batches = CaptionBatches(
        validation_inputs, validation_pairs, config.batch_size, length, shuffle=False
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
    models.compile_caption_model(
        trained,
        config.learning_rate,
        config.doubly_stochastic,
        decay_steps=total_steps,
        warmup_steps=warmup_steps,
    )
    if verbose:
        print(
            f"captioner: {caption_model.count_params():,} parameters over a "
            f"{grid[0]}x{grid[1]}x{channels} {config.backbone} grid "
            f"({'cached features' if cached else f'fine-tuning {config.fine_tune_blocks} blocks'}); "
            f"{len(train_set):,} training images ({len(train_pairs):,} captions), "
            f"{len(validation_set):,} validation, {len(test_set):,} test; "
            f"vocabulary {len(vocabulary)}; backend {keras.backend.backend()}"
        )
    callbacks = [
        keras.callbacks.EarlyStopping(
            patience=config.patience, restore_best_weights=True
        ),
        *tensorboard_callbacks(run / "logs"),
    ]
    budget = None
    if config.max_minutes:
        budget = TimeBudget(60 * config.max_minutes)
        callbacks.insert(0, budget)
    start = time.perf_counter()
    history = trained.fit(
        train_batches,
        validation_data=validation_batches if len(validation_pairs) else None,
        epochs=config.epochs,
        verbose=verbose,
        callbacks=callbacks,
    )
    seconds = time.perf_counter() - start
    encoder.save(run / "encoder.keras")
    caption_model.save(run / "model.keras")
    epochs = len(history.history.get("loss", []))
    training = {
        "data_seconds": round(data_seconds, 1),
        "feature_seconds": round(feature_seconds, 1),
        "seconds": round(seconds, 1),
        "epochs": epochs,
        "steps_per_second": round(epochs * len(train_batches) / seconds, 2),
        "warmup_steps": warmup_steps,
        "stopped_by_budget": bool(budget and budget.stopped),
        "parameters": caption_model.count_params(),
        "history": {k: [float(v) for v in vals] for k, vals in history.history.items()},
    }
    captioner = Captioner(run)
    metrics = {
        "training": training,
        "test": evaluate_items(captioner, test_set, features=test_features),
    }
    (run / "metrics.json").write_text(json.dumps(metrics, indent=1))
    plot(run, [i.image for i in test_set[:3]], run / "plots", captioner=captioner)
    return metrics


def _write_items(path, items):
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [
        # Resolved: a path typed relative to the training directory would
        # not be found by `evaluate` run from anywhere else.
        {"image": str(Path(i.image).resolve()), "captions": i.captions}
        for i in items
        if isinstance(i.image, (str, Path))
    ]
    path.write_text(json.dumps(rows, indent=0))


def test_items(run_dir) -> list[Item]:
    """The run's test images: regenerated scenes, tfds' test split, or the
    saved list of files."""
    run = Path(run_dir)
    config = json.loads((run / "config.json").read_text())
    if config["dataset"] == "scenes":
        # Layouts seen in train/validation are dropped from the test split,
        # so regenerate with the sizes training used.
        _, _, test = scene_splits(
            config["n_train"],
            config["n_validation"],
            config["n_test"],
            config["seed"],
            config["resolved_image_size"],
        )
        return _scene_items(test)
    if config["dataset"] == "tfds":
        examples = tfds_coco_captions(
            "test", config["tfds_data_dir"], max_examples=config["n_test"]
        )
        return [Item(image, captions) for image, captions in examples]
    path = run / "data" / "test.json"
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: this run kept no test images")
    return [Item(r["image"], r["captions"]) for r in json.loads(path.read_text())]


# ---------------------------------------------------------------- evaluate


def bleu_scores(hypotheses, references, max_order: int = 4) -> dict:
    """Corpus BLEU-1..`max_order` (0-1) with every reference of each image.

    sacreBLEU on the normalized, tokenized captions (`tokenize="none"`), no
    smoothing, closest reference length for the brevity penalty; images
    with fewer references are padded with None (sacreBLEU's variable
    reference count).
    """
    from sacrebleu.metrics import BLEU

    most = max((len(r) for r in references), default=1)
    streams = [[r[k] if k < len(r) else None for r in references] for k in range(most)]
    scores = {}
    for n in range(1, max_order + 1):
        bleu = BLEU(max_ngram_order=n, tokenize="none", smooth_method="none")
        scores[f"bleu{n}"] = bleu.corpus_score(list(hypotheses), streams).score / 100
    scores["signature"] = str(bleu.get_signature())
    return scores


def grounding(scenes, captions, attention, grid_shape) -> dict:
    """How often the attention peak of an object's noun lies in its box.

    For every generated word that names an object of the scene (its shape
    noun), the grid cell of highest attention at that step is a hit when
    its centre is inside the object's box: `grounding`. The same over the
    size and colour words before the noun too: `phrase_grounding`. Shape
    words naming no object of the scene are counted apart as
    `hallucinated_object_words`.
    """
    height, width = grid_shape

    def hit(weights, obj):
        row, col = divmod(int(np.argmax(weights)), width)
        x, y = (col + 0.5) / width, (row + 0.5) / height
        x0, y0, x1, y1 = obj.box
        return int(x0 <= x <= x1 and y0 <= y <= y1)

    hits = total = phrase_hits = phrase_total = hallucinated = 0
    for scene, caption, weights in zip(scenes, captions, attention):
        words = caption.split()
        named = scene.word_objects(words)
        hallucinated += sum(
            word in SHAPES and i not in named for i, word in enumerate(words)
        )
        hits += sum(hit(weights[i], obj) for i, obj in named.items())
        total += len(named)
        phrase = scene.word_objects(words, include_adjectives=True)
        phrase_hits += sum(hit(weights[i], obj) for i, obj in phrase.items())
        phrase_total += len(phrase)
    return {
        "grounding": hits / total if total else 0.0,
        "object_words": total,
        "phrase_grounding": phrase_hits / phrase_total if phrase_total else 0.0,
        "hallucinated_object_words": hallucinated,
    }


def attention_spread(attention, lengths) -> dict:
    """Mean per-step entropy (nats) and mean doubly stochastic penalty."""
    entropies, penalties = [], []
    for weights, n in zip(attention, lengths):
        w = np.asarray(weights[:n], "float64")
        if not len(w):
            continue
        entropies.append(float(-(w * np.log(np.clip(w, 1e-12, 1))).sum(-1).mean()))
        penalties.append(float(((1 - w.sum(0)) ** 2).sum()))
    return {
        "attention_entropy": float(np.mean(entropies)) if entropies else 0.0,
        "doubly_stochastic_penalty": float(np.mean(penalties)) if penalties else 0.0,
    }


def evaluate_items(
    captioner: Captioner, items, beam_widths=None, features=None
) -> dict:
    """BLEU-1..4 by beam size, speed, attention grounding and spread.

    `features`, if given, are the encoder's features of `items`.
    """
    beam_widths = beam_widths or [1, captioner.beam_width]
    references = [[normalize_caption(c) for c in _references(i)] for i in items]
    results = {"n": len(items)}
    if features is None:
        features = extract_features(
            captioner.encoder, [i.image for i in items], captioner.image_size
        )
    for width in dict.fromkeys(beam_widths):
        captioner.caption_features(features[:1], width)  # compile outside the clock
        start = time.perf_counter()
        captions, attention = captioner.caption_features(features, width)
        seconds = time.perf_counter() - start
        name = "greedy" if width == 1 else f"beam{width}"
        scores = bleu_scores(captions, references)
        scores["captions_per_second"] = round(len(items) / max(seconds, 1e-9), 1)
        scores.update(
            attention_spread(attention, [len(c.split()) + 1 for c in captions])
        )
        if items and items[0].scene is not None:
            scores.update(
                grounding(
                    [i.scene for i in items], captions, attention, captioner.grid_shape
                )
            )
        scores["examples"] = [
            {"references": r, "caption": c}
            for r, c in list(zip(references, captions))[:5]
        ]
        results[name] = scores
    return results


def _references(item: Item):
    return item.scene.references if item.scene is not None else item.captions


def evaluate(run_dir, beam_width: int | None = None) -> dict:
    captioner = Captioner(run_dir, beam_width=beam_width)
    return evaluate_items(captioner, test_items(run_dir))


def format_metrics(metrics: dict) -> str:
    lines = [f"test images: {metrics['n']:,}", ""]
    decoders = [k for k in metrics if k == "greedy" or k.startswith("beam")]
    grounded = all("grounding" in metrics[k] for k in decoders)
    header = "| decoding | BLEU-1 | BLEU-2 | BLEU-3 | BLEU-4 |"
    header += " grounding | phrase grounding |" if grounded else ""
    lines += [
        header + " captions/s |",
        "| --- |" + " ---: |" * (5 + 2 * grounded),
    ]
    for k in decoders:
        m = metrics[k]
        cells = [f"{m[f'bleu{n}']:.4f}" for n in range(1, 5)]
        if grounded:
            cells.append(f"{100 * m['grounding']:.2f} %")
            cells.append(f"{100 * m['phrase_grounding']:.2f} %")
        cells.append(str(m["captions_per_second"]))
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    lines.append(f"\nBLEU: {metrics[decoders[0]]['signature']}")
    return "\n".join(lines)


# ----------------------------------------------------------------- caption


def caption(run_dir, paths, beam_width: int | None = None, captioner=None):
    """`[(path, caption)]`; raises InputError for unreadable image files."""
    captioner = captioner or Captioner(run_dir, beam_width=beam_width)
    contents = [read_image_file(p) for p in paths]
    captions, _ = captioner.caption_images(contents, beam_width)
    return list(zip(paths, captions))


# -------------------------------------------------------------------- plot


def plot(run_dir, images, output_dir, beam_width=None, captioner=None) -> list[Path]:
    """One PNG per image: the image, then each word with its attention overlay."""
    from attention_zoo.plotting import save_image_attention_plot

    output_dir = output_folder(output_dir)
    captioner = captioner or Captioner(run_dir, beam_width=beam_width)
    images = [read_image_file(i) if isinstance(i, (str, Path)) else i for i in images]
    captions, attention = captioner.caption_images(images, beam_width)
    paths = []
    for i, (image, text, weights) in enumerate(zip(images, captions, attention)):
        # A caption cut at max_caption_length has no <end>.
        words = [*text.split(), "<end>"][: len(weights)]
        path = output_dir / f"attention_{i}.png"
        save_image_attention_plot(
            path,
            image_array(image, captioner.image_size).astype("uint8"),
            words,
            weights,
            captioner.grid_shape,
        )
        paths.append(path)
    return paths


# ------------------------------------------------------------------ export


def export(run_dir, output, beam_width: int | None = None) -> Path:
    """SavedModel: `serving_default(image_bytes: tf.string [None])`.

    Returns `text` (tf.string captions), `attention` (float32
    `(B, max_caption_length, H*W)`: the attention of each generated word,
    zero after `<end>`) and `valid` (bool: False for bytes that are empty,
    undecodable or over `MAX_PIXELS`, whose caption is "" and attention
    zero); an empty batch gives empty outputs. Decoding, RGB conversion and
    the resize run in the graph (`attention_zoo.export.decode_images`), then
    the encoder (plain graph) and beam search (XLA), then the words are
    joined.
    """
    import tensorflow as tf

    from attention_zoo.export import TokenTables, decode_images

    if keras.backend.backend() != "tensorflow":
        raise ValueError(
            "export writes a TensorFlow SavedModel and needs KERAS_BACKEND=tensorflow. "
            f"Received: {keras.backend.backend()}"
        )
    output = output_folder(output)
    captioner = Captioner(run_dir, beam_width=beam_width)
    fn, encode = captioner.caption_fn(captioner.beam_width), captioner.encode_fn()
    # Special tokens vanish from the joined text, except <unk>, as in
    # WordVocabulary.decode.
    words = [
        t if i >= 4 or i == models.UNK_ID else ""
        for i, t in enumerate(captioner.vocabulary.tokens)
    ]
    tables = TokenTables(["<pad>"], words)

    def caption_batch(images, valid):
        tokens, attention = fn(encode(images))
        attention = tf.cast(attention, tf.float32)
        attention = tf.where(valid[:, None, None], attention, tf.zeros_like(attention))
        text = tables.decode(
            tokens, separator=" ", stop_ids=(models.PAD_ID, models.END_ID)
        )
        return tf.where(valid, text, tf.constant("")), attention

    def no_caption():
        cells = captioner.grid_shape[0] * captioner.grid_shape[1]
        return (
            tf.zeros([0], tf.string),
            tf.zeros([0, captioner.max_length, cells], tf.float32),
        )

    def serve(image_bytes):
        images, valid = decode_images(image_bytes, captioner.image_size, MAX_PIXELS)
        # The encoder fails on a batch of 0 images ("Incompatible shapes:
        # [32] vs. [0,224,224,3]" in the EfficientNet stem): skip it.
        text, attention = tf.cond(
            tf.size(valid) > 0, lambda: caption_batch(images, valid), no_caption
        )
        return {"text": text, "attention": attention, "valid": valid}

    archive = keras.export.ExportArchive()
    archive.track(captioner.encoder)
    archive.track(captioner.model)
    archive.add_endpoint(
        "serving_default",
        serve,
        input_signature=[tf.TensorSpec([None], tf.string, name="image_bytes")],
    )
    archive.write_out(str(output), verbose=False)
    return Path(output)
