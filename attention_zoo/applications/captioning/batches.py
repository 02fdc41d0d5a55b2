"""Teacher-forcing batches of (image input, caption) pairs."""

from __future__ import annotations

import random

import keras
import numpy as np

from attention_zoo.applications.common.text import END_ID, START_ID


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
            words[j, : len(ids) + 1] = [START_ID, *ids]
            labels[j, : len(ids) + 1] = [*ids, END_ID]
        x = self.inputs[np.asarray(rows)].astype("float32")
        return (x, words), {"logits": labels, "attention": labels}
