"""Teacher-forcing batches of similar lengths."""

from __future__ import annotations

import random

import keras
import numpy as np

from attention_zoo.applications.common.text import END_ID, START_ID

# Training batches pad both sides to the smallest of these that fits, so a
# compiled training step sees one shape per bucket.
BUCKETS = (8, 16, 24, 32, 40, 48, 56, 64)


def _bucket(length):
    for b in BUCKETS:
        if length <= b:
            return b
    return None


class BucketedBatches(keras.utils.PyDataset):
    """Teacher-forcing batches grouped by length.

    Each pair goes to the smallest bucket of `BUCKETS` holding its source
    and its target plus `<end>`; a batch holds `batch_size` pairs of one
    bucket, padded to the bucket length. Every epoch reshuffles the pairs
    within buckets and the order of the batches; the remainder of each
    bucket (fewer than `batch_size` pairs, a different one each epoch) is
    left out, so a compiled step sees only `len(BUCKETS)` shapes. With
    `drop_remainder=False` (validation) every pair is kept.

    With `copy` (`(source_extended, labels)` per pair, for copy attention:
    `model.extended_ids`, `model.extended_labels`), a batch is `(source,
    source_extended, decoder_input)` and the extended labels.
    """

    def __init__(
        self,
        sources,
        targets,
        batch_size: int,
        seed: int = 0,
        drop_remainder: bool = True,
        copy=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.batch_size = batch_size
        self.drop_remainder = drop_remainder
        self.rng = random.Random(seed)
        self.buckets = {}
        self.copy = copy is not None
        extra = copy if copy is not None else [None] * len(sources)
        for s, t, c in zip(sources, targets, extra):
            b = _bucket(max(len(s), len(t) + 1))
            if b is not None and len(s) > 0:
                self.buckets.setdefault(b, []).append((s, t, c))
        self.on_epoch_end()

    def on_epoch_end(self):
        self.batches = []
        for length, pairs in self.buckets.items():
            self.rng.shuffle(pairs)
            last = len(pairs) - (self.batch_size - 1 if self.drop_remainder else 0)
            for i in range(0, last, self.batch_size):
                self.batches.append((length, pairs[i : i + self.batch_size]))
        self.rng.shuffle(self.batches)
        # Keras's TensorFlow adapter takes the batch shapes from the first two
        # batches: give them different lengths so the length axis stays None.
        for i, (length, _) in enumerate(self.batches[1:], 1):
            if length != self.batches[0][0]:
                self.batches[1], self.batches[i] = self.batches[i], self.batches[1]
                break

    def __len__(self):
        return len(self.batches)

    def __getitem__(self, index):
        length, pairs = self.batches[index]
        n = len(pairs)
        source = np.zeros((n, length), "int32")
        decoder_input = np.zeros((n, length), "int32")
        labels = np.zeros((n, length), "int32")
        extended = np.zeros((n, length), "int32")
        for i, (s, t, c) in enumerate(pairs):
            source[i, : len(s)] = s
            decoder_input[i, : len(t) + 1] = [START_ID, *t]
            labels[i, : len(t) + 1] = [*(t if c is None else c[1]), END_ID]
            if c is not None:
                extended[i, : len(s)] = c[0]
        if self.copy:
            return (source, extended, decoder_input), labels
        return (source, decoder_input), labels
