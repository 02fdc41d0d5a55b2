"""The batches of `benchmarks/training_throughput.py`: the first training
batches of an epoch of each application's default data, read the way its
`train` reads them (`TrainConfig()`'s defaults), stored in one `.npz` of
plain arrays with the vocabulary sizes the models are built with, and read
back without pickles. A machine without the data (a lent GPU has neither
TensorFlow, the Bible modules nor apt's lists) trains on the file."""

from __future__ import annotations

import json
import os
import time

import numpy as np


def _translation_batches(n):
    from attention_zoo.applications.common.text import WordVocabulary
    from attention_zoo.applications.translation.batches import BucketedBatches
    from attention_zoo.applications.translation.config import TrainConfig
    from attention_zoo.applications.translation.corpus import load_corpus

    config = TrainConfig()
    train_set, _, _ = load_corpus(config)
    source = WordVocabulary.from_texts(
        [p.source for p in train_set], config.source_vocab_size
    )
    target = WordVocabulary.from_texts(
        [p.target for p in train_set], config.target_vocab_size
    )
    batches = BucketedBatches(
        [source.encode(p.source) for p in train_set],
        [target.encode(p.target) for p in train_set],
        config.batch_size,
        seed=config.seed,
        drop_remainder=True,
    )
    stored = [([*x], y) for x, y in (batches[i] for i in range(n))]
    return {"source_vocab_size": len(source), "target_vocab_size": len(target)}, stored


def _captioning_batches(n):
    from attention_zoo.applications.captioning.batches import CaptionBatches
    from attention_zoo.applications.captioning.captions import normalize_caption
    from attention_zoo.applications.captioning.config import (
        MAX_CAPTION_TOKENS,
        TrainConfig,
    )
    from attention_zoo.applications.captioning.dataset import load_dataset
    from attention_zoo.applications.captioning.features import (
        build_encoder,
        extract_features,
    )
    from attention_zoo.applications.common.text import WordVocabulary

    config = TrainConfig()
    train_set, _, _ = load_dataset(config)
    encoder = build_encoder(config)
    image_size = int(encoder.input_shape[1])
    vocabulary = WordVocabulary.from_texts(
        [normalize_caption(c) for item in train_set for c in item.captions],
        config.vocab_size,
    )
    pairs = [
        (row, vocabulary.encode(normalize_caption(c)))
        for row, item in enumerate(train_set)
        for c in item.captions
    ]
    length = min(MAX_CAPTION_TOKENS, max(len(ids) for _, ids in pairs) + 1)

    class Features:
        """The encoder's features of the rows a batch asks for, and only
        those: the stored batches need a few hundred of 6,000 images."""

        def __getitem__(self, rows):
            images = [train_set[r].image for r in rows]
            return extract_features(encoder, images, image_size)

    batches = CaptionBatches(
        Features(), pairs, config.batch_size, length, seed=config.seed
    )
    stored = []
    for i in range(n):
        (features, words), labels = batches[i]
        stored.append(([features.astype("float16"), words], labels["logits"]))
    shape = tuple(int(d) for d in encoder.output_shape[1:])
    return {"feature_shape": shape, "vocab_size": len(vocabulary)}, stored


def _summarization_batches(n):
    from attention_zoo.applications.common.text import WordVocabulary
    from attention_zoo.applications.summarization.config import TrainConfig
    from attention_zoo.applications.summarization.training import (
        load_corpus,
        training_arrays,
    )

    config = TrainConfig()
    train_set, _, _ = load_corpus(config)
    vocabulary = WordVocabulary.from_texts(
        [e.text for e in train_set] + [e.summary for e in train_set],
        config.vocab_size,
    )
    x, labels = training_arrays(train_set, vocabulary, config.copy)
    # `fit(shuffle=True)` of arrays: a permutation, then consecutive rows.
    order = np.random.default_rng(config.seed).permutation(len(labels))
    size = config.batch_size
    stored = []
    for i in range(n):
        rows = order[i * size : (i + 1) * size]
        stored.append(([part[rows] for part in x], labels[rows]))
    return {"vocab_size": len(vocabulary)}, stored


PREPARE = {
    "translation": _translation_batches,
    "captioning": _captioning_batches,
    "summarization": _summarization_batches,
}


def prepare(path, apps, n, image_batches):
    arrays, meta = {}, {}
    for app in apps:
        start = time.perf_counter()
        build, stored = PREPARE[app](image_batches if app == "captioning" else n)
        meta[app] = {
            "build": build,
            "batches": len(stored),
            "inputs": len(stored[0][0]),
        }
        for i, (x, y) in enumerate(stored):
            for j, part in enumerate(x):
                arrays[f"{app}/{i}/x{j}"] = np.asarray(part)
            arrays[f"{app}/{i}/y"] = np.asarray(y)
        print(f"{app}: {len(stored)} batches in {time.perf_counter() - start:.0f} s")
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), "uint8")
    np.savez_compressed(path, **arrays)
    print(f"wrote {path} ({os.path.getsize(path) / 2**20:.1f} MiB)")


def load(path):
    """`{app: (build arguments, [(x, labels), ...])}` of a `--prepare` file
    (plain arrays: `allow_pickle=False`)."""
    with np.load(path, allow_pickle=False) as f:
        meta = json.loads(bytes(f["meta"]).decode())
        out = {}
        for app, m in meta.items():
            batches = [
                (
                    [f[f"{app}/{i}/x{j}"] for j in range(m["inputs"])],
                    f[f"{app}/{i}/y"],
                )
                for i in range(m["batches"])
            ]
            out[app] = (m["build"], batches)
    return out
