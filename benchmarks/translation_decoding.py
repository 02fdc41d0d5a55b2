"""Batching and timing translations for `benchmarks.translation`.

Sources are sorted by length and padded to a multiple of `DECODE_PAD`,
as `Translator` pads them, so that the compiled decoders see few shapes.
"""

from __future__ import annotations

import time

import keras
import numpy as np
from keras import ops

from attention_zoo.applications.common import text as tokenizer
from attention_zoo.applications.common.text import END_ID
from attention_zoo.applications.translation import model as models
from attention_zoo.applications.translation.predictor import (
    DECODE_PAD,
    MAX_SOURCE_TOKENS,
)


def pad_sources(ids: list) -> np.ndarray:
    """`(len(ids), width)` int32, zero-padded to a multiple of `DECODE_PAD`."""
    longest = max(1, max(len(i) for i in ids))
    width = DECODE_PAD * -(-longest // DECODE_PAD)
    batch = np.zeros((len(ids), width), "int32")
    for r, i in enumerate(ids):
        batch[r, : len(i)] = i
    return batch


def decode_texts(translate, src_vocab, tgt_vocab, texts, batch_size=64):
    """Greedy translations in input order, batched by length as Translator does."""
    order = sorted(range(len(texts)), key=lambda i: len(tokenizer.tokenize(texts[i])))
    out = [""] * len(texts)
    start = time.perf_counter()
    for first in range(0, len(texts), batch_size):
        rows = order[first : first + batch_size]
        ids = [src_vocab.encode(texts[i])[:MAX_SOURCE_TOKENS] for i in rows]
        tokens, _ = translate(pad_sources(ids))
        tokens = keras.ops.convert_to_numpy(tokens)
        for r, i in enumerate(rows):
            out[i] = tgt_vocab.decode(tokens[r]) if ids[r] else ""
    return out, time.perf_counter() - start


def length_batches(sources, batch_size=64):
    """Source id batches of similar length, padded as `Translator` pads them."""
    ordered = sorted(sources, key=len)
    return [
        pad_sources(ordered[first : first + batch_size])
        for first in range(0, len(ordered), batch_size)
    ]


def fixed_length_translate_fn(model, length, beam_width):
    """`make_translate_fn` with `<end>` masked out: `length` steps each."""
    never_end = ops.one_hot(END_ID, model.get_layer("logits").units) * -1e9

    def wrap_step(step):
        def step_fn(tokens, state, constants):
            logits, state, attention = step(tokens, state, constants)
            return logits + never_end, state, attention

        return step.with_fn(step_fn)

    translate = models.make_translate_fn(
        model, length, beam_width=beam_width, wrap_step=wrap_step
    )
    return lambda source_ids: translate(source_ids)[0]
