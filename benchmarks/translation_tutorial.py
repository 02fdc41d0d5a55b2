"""The TensorFlow NMT tutorial's model, trained as the tutorial trains it.

`build_tutorial` is the architecture of "Neural machine translation with
attention" (tensorflow.org/text/tutorials/nmt_with_attention), trained on
`ShuffledBatches` (shuffled pairs padded to the longest of the batch);
`run_tutorial` trains it within a time budget and scores its greedy
translations of the test set. `benchmarks.translation` compares it with
attention_zoo's models.
"""

from __future__ import annotations

import random
import tempfile
import time

import keras
import numpy as np
from keras import ops

from attention_zoo.applications.common import text as tokenizer
from attention_zoo.applications.common.text import END_ID, PAD_ID, START_ID
from attention_zoo.applications.common.training import TimeBudget
from attention_zoo.applications.translation import model as models
from attention_zoo.applications.translation.predictor import MAX_OUTPUT_TOKENS
from attention_zoo.decoding import greedy_search
from attention_zoo.losses import MaskedSequenceCrossEntropy
from attention_zoo.metrics import corpus_scores
from benchmarks.translation_decoding import decode_texts

TUTORIAL_UNITS = 256
TUTORIAL_VOCABULARY = 5000
TUTORIAL_BATCH = 64


def build_tutorial(source_vocab_size, target_vocab_size, units=TUTORIAL_UNITS):
    """The tutorial's encoder, decoder and cross-attention as a functional model."""
    source = keras.Input((None,), dtype="int32", name="source")
    decoder_input = keras.Input((None,), dtype="int32", name="decoder_input")
    x = keras.layers.Embedding(
        source_vocab_size, units, mask_zero=True, name="enc_emb"
    )(source)
    context = keras.layers.Bidirectional(
        keras.layers.GRU(
            units, return_sequences=True, recurrent_initializer="glorot_uniform"
        ),
        merge_mode="sum",
        name="enc_rnn",
    )(x)
    y = keras.layers.Embedding(
        target_vocab_size, units, mask_zero=True, name="dec_emb"
    )(decoder_input)
    y = keras.layers.GRU(
        units,
        return_sequences=True,
        recurrent_initializer="glorot_uniform",
        name="dec_rnn",
    )(y)
    attended = keras.layers.MultiHeadAttention(1, units, name="mha")(
        query=y, value=context
    )
    y = keras.layers.LayerNormalization(name="layernorm")(
        keras.layers.Add(name="add")([y, attended])
    )
    logits = keras.layers.Dense(target_vocab_size, name="logits")(y)
    model = keras.Model([source, decoder_input], logits, name="tutorial")
    model.compile(
        keras.optimizers.Adam(1e-3),
        loss=MaskedSequenceCrossEntropy(pad_token=PAD_ID),
    )
    return model


def tutorial_translate_fn(model, max_length):
    """Greedy decoding with the tutorial's trained layers, one GRU step at a time."""
    enc_emb, enc_rnn = model.get_layer("enc_emb"), model.get_layer("enc_rnn")
    dec_emb, dec_rnn = model.get_layer("dec_emb"), model.get_layer("dec_rnn")
    mha, add = model.get_layer("mha"), model.get_layer("add")
    layernorm, dense = model.get_layer("layernorm"), model.get_layer("logits")

    def step_fn(tokens, state, constants):
        context, mask = constants
        h, new_state = dec_rnn.cell(dec_emb(tokens), state)
        attended, scores = mha(
            query=h[:, None, :],
            value=context,
            attention_mask=mask[:, None, :],
            return_attention_scores=True,
        )
        y = layernorm(add([h, attended[:, 0]]))
        return dense(y), list(new_state), scores[:, 0, 0]

    def translate(source_ids):
        source_ids = ops.cast(source_ids, "int32")
        mask = ops.not_equal(source_ids, PAD_ID)
        context = enc_rnn(enc_emb(source_ids), mask=mask)
        state = [ops.zeros((ops.shape(source_ids)[0], dec_rnn.units))]
        start = ops.full((ops.shape(source_ids)[0],), START_ID, "int32")
        out = greedy_search(
            step_fn,
            state,
            start,
            END_ID,
            max_length,
            constants=(context, mask),
            pad_token=PAD_ID,
        )
        return out["tokens"], out["attention"]

    return translate


class ShuffledBatches(keras.utils.PyDataset):
    """The tutorial's input: shuffled pairs, each batch padded to its longest."""

    def __init__(self, sources, targets, batch_size, seed=0, **kwargs):
        super().__init__(**kwargs)
        self.pairs = [(s, t) for s, t in zip(sources, targets) if s]
        self.batch_size = batch_size
        self.rng = random.Random(seed)
        self.on_epoch_end()

    def on_epoch_end(self):
        self.rng.shuffle(self.pairs)
        # Keras's TensorFlow adapter takes the batch shapes from the first two
        # batches: make their lengths differ so the length axis stays None.
        first = self._lengths(0)
        for i in range(1, len(self)):
            if self._lengths(i) != first:
                n = self.batch_size
                a, b = slice(n, 2 * n), slice(i * n, (i + 1) * n)
                self.pairs[a], self.pairs[b] = self.pairs[b], self.pairs[a]
                break

    def _lengths(self, index):
        pairs = self.batch(index)
        return max(len(s) for s, _ in pairs), max(len(t) for _, t in pairs)

    def __len__(self):
        return len(self.pairs) // self.batch_size

    def batch(self, index):
        return self.pairs[index * self.batch_size : (index + 1) * self.batch_size]

    def __getitem__(self, index):
        pairs = self.batch(index)
        s_len = max(len(s) for s, _ in pairs)
        t_len = max(len(t) for _, t in pairs) + 1
        source = np.zeros((len(pairs), s_len), "int32")
        decoder_input = np.zeros((len(pairs), t_len), "int32")
        labels = np.zeros((len(pairs), t_len), "int32")
        for i, (s, t) in enumerate(pairs):
            source[i, : len(s)] = s
            decoder_input[i, : len(t) + 1] = [START_ID, *t]
            labels[i, : len(t) + 1] = [*t, END_ID]
        return (source, decoder_input), labels


class TutorialTokens(keras.callbacks.Callback):
    def __init__(self, dataset):
        super().__init__()
        self.dataset, self.tokens = dataset, 0

    def on_train_batch_end(self, batch, logs=None):
        self.tokens += sum(len(t) + 1 for _, t in self.dataset.batch(batch))


def run_tutorial(splits, minutes, epochs, max_train_tokens, verbose):
    train_set, validation_set, test_set = splits
    keras.utils.set_random_seed(0)
    src_vocab = tokenizer.WordVocabulary.from_texts(
        [p.source for p in train_set], TUTORIAL_VOCABULARY
    )
    tgt_vocab = tokenizer.WordVocabulary.from_texts(
        [p.target for p in train_set], TUTORIAL_VOCABULARY
    )

    def batches(pairs, seed):
        kept = [
            p
            for p in pairs
            if len(tokenizer.tokenize(p.source)) <= max_train_tokens
            and len(tokenizer.tokenize(p.target)) < max_train_tokens
        ]
        return ShuffledBatches(
            [src_vocab.encode(p.source) for p in kept],
            [tgt_vocab.encode(p.target) for p in kept],
            TUTORIAL_BATCH,
            seed=seed,
        )

    train_batches, validation_batches = (
        batches(train_set, 0),
        batches(validation_set, 1),
    )
    model = build_tutorial(len(src_vocab), len(tgt_vocab))
    counter = TutorialTokens(train_batches)
    budget = TimeBudget(60 * minutes)
    best = tempfile.mktemp(suffix=".keras")
    start = time.perf_counter()
    history = model.fit(
        train_batches,
        validation_data=validation_batches,
        epochs=epochs,
        verbose=verbose,
        callbacks=[
            budget,
            counter,
            keras.callbacks.EarlyStopping(patience=3, restore_best_weights=True),
            keras.callbacks.ModelCheckpoint(best, save_best_only=True),
        ],
    )
    seconds = time.perf_counter() - start
    if budget.stopped:
        model.load_weights(best)
    translate = models.compiled(tutorial_translate_fn(model, MAX_OUTPUT_TOKENS))
    hypotheses, decode_seconds = decode_texts(
        translate, src_vocab, tgt_vocab, [p.source for p in test_set]
    )
    # Scored as `evaluate_pairs` scores ours: the output as it is (here
    # lower-cased tokens) against the raw references, cased, 13a; then both
    # sides normalized.
    references = [tokenizer.normalize(p.target) for p in test_set]
    normalized = corpus_scores(hypotheses, references, tokenized=True)
    scores = corpus_scores(hypotheses, [p.target for p in test_set])
    scores["bleu_normalized"] = normalized["bleu"]
    scores["chrf_normalized"] = normalized["chrf"]
    return {
        "parameters": model.count_params(),
        "epochs": len(history.history["loss"]),
        "seconds": seconds,
        "tokens_per_second": counter.tokens / seconds,
        "best_val_loss": min(history.history["val_loss"]),
        "greedy": {
            **scores,
            "sentences_per_second": len(test_set) / decode_seconds,
        },
    }
