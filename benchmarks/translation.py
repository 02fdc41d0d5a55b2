"""Bible en->es translation at a fixed wall-clock budget: attention_zoo's
default model against the TensorFlow NMT tutorial architecture, plus the
no-attention baseline, trained in one run on the same split.

Models (all trained with `model.fit`, masked cross-entropy, early stopping
on validation loss with the best weights restored, the same time budget):

- `tutorial`: the architecture of the TensorFlow tutorial "Neural machine
  translation with attention" (tensorflow.org/text/tutorials/nmt_with_attention):
  5,000-token vocabularies, 256 units, Embedding(256, mask_zero) +
  bidirectional GRU(256) merged by sum; decoder Embedding(256) + GRU(256)
  (zero initial state) + one-head `MultiHeadAttention(key_dim=256)`
  cross-attention + Add + LayerNormalization + Dense; Adam 1e-3, batch 64 of
  shuffled pairs padded to the longest in the batch, greedy decoding. The
  tokenization is this package's (lower case, punctuation split off), so
  only the models differ.
- `default`: `attention-zoo translation train` with its defaults
  (`--attention bahdanau --decoder parallel`), length-bucketed batches.
- `none`: the same with `--attention none` (fixed context).

The budget covers `model.fit` only (including its validation passes); the
test-set evaluation runs afterwards. Training throughput is real target
tokens (with `<end>`) of the batches trained on, over the `fit` wall time.

Then the decoder forms: the training throughput of the parallel-form decoder
(`ParallelAttentionDecoder`) against the attention-in-recurrence decoder
(`AttentionRNNDecoder`, Bahdanau placement), same sizes, `--throughput-steps`
batches each, and the decoding speed (greedy and beam 4, test set) of each.

Usage:

    python benchmarks/translation.py                  # 3 x 25 min budget + evaluation
    python benchmarks/translation.py --minutes 15
    python benchmarks/translation.py --quick          # smoke test: numbers corpus, ~2 min
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import keras  # noqa: E402
import numpy as np  # noqa: E402
from keras import ops  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from _common import (  # noqa: E402
    backend_version,
    cpu_model,
    load_average,
    print_table,
    verdict,
)

from attention_zoo.applications.translation import model as models  # noqa: E402
from attention_zoo.applications.translation import tasks, tokenizer  # noqa: E402
from attention_zoo.decoding import greedy_search  # noqa: E402
from attention_zoo.losses import MaskedSequenceCrossEntropy  # noqa: E402
from attention_zoo.metrics import corpus_scores  # noqa: E402

TUTORIAL_UNITS = 256
TUTORIAL_VOCABULARY = 5000
TUTORIAL_BATCH = 64
DECODE_STEPS = 40  # output tokens per sentence when timing the decoder forms


# ---------------------------------------------------------------- tutorial


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
        loss=MaskedSequenceCrossEntropy(pad_token=models.PAD_ID),
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
        mask = ops.not_equal(source_ids, models.PAD_ID)
        context = enc_rnn(enc_emb(source_ids), mask=mask)
        state = [ops.zeros((ops.shape(source_ids)[0], dec_rnn.units))]
        start = ops.full((ops.shape(source_ids)[0],), models.START_ID, "int32")
        out = greedy_search(
            step_fn,
            state,
            start,
            models.END_ID,
            max_length,
            constants=(context, mask),
            pad_token=models.PAD_ID,
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
            decoder_input[i, : len(t) + 1] = [models.START_ID, *t]
            labels[i, : len(t) + 1] = [*t, models.END_ID]
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
    budget = tasks.TimeBudget(60 * minutes)
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
    translate = models.compiled(tutorial_translate_fn(model, tasks.MAX_OUTPUT_TOKENS))
    hypotheses, decode_seconds = _decode(
        translate, src_vocab, tgt_vocab, [p.source for p in test_set]
    )
    references = [tokenizer.normalize(p.target) for p in test_set]
    scores = corpus_scores(hypotheses, references, tokenized=True)
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


def _decode(translate, src_vocab, tgt_vocab, texts, batch_size=64):
    """Greedy translations in input order, batched by length as Translator does."""
    order = sorted(range(len(texts)), key=lambda i: len(tokenizer.tokenize(texts[i])))
    out = [""] * len(texts)
    start = time.perf_counter()
    for first in range(0, len(texts), batch_size):
        rows = order[first : first + batch_size]
        ids = [src_vocab.encode(texts[i])[: tasks.MAX_SOURCE_TOKENS] for i in rows]
        width = tasks.DECODE_PAD * max(
            1, -(-max(len(i) for i in ids) // tasks.DECODE_PAD)
        )
        source = np.zeros((len(ids), width), "int32")
        for r, i in enumerate(ids):
            source[r, : len(i)] = i
        tokens, _ = translate(source)
        tokens = keras.ops.convert_to_numpy(tokens)
        for r, i in enumerate(rows):
            out[i] = tgt_vocab.decode(tokens[r]) if ids[r] else ""
    return out, time.perf_counter() - start


# ------------------------------------------------------------ our models


def run_ours(config, output, verbose):
    metrics = tasks.train(output, config, verbose=verbose)
    training = metrics["training"]
    return {
        "parameters": training["parameters"],
        "epochs": training["epochs"],
        "seconds": training["seconds"],
        "tokens_per_second": training["target_tokens_per_second"],
        "best_val_loss": min(training["history"]["val_loss"]),
        **{k: v for k, v in metrics["test"].items() if k != "n"},
    }


def throughput(config, splits, steps, verbose):
    """Training tokens/s of one model over `steps` batches (after a warm-up)."""
    train_set = splits[0]
    keras.utils.set_random_seed(0)
    src_vocab = tokenizer.WordVocabulary.from_texts(
        [p.source for p in train_set], config.source_vocab_size
    )
    tgt_vocab = tokenizer.WordVocabulary.from_texts(
        [p.target for p in train_set], config.target_vocab_size
    )
    batches = tasks.BucketedBatches(
        [src_vocab.encode(p.source) for p in train_set],
        [tgt_vocab.encode(p.target) for p in train_set],
        config.batch_size,
    )
    model = tasks.build_model(config, len(src_vocab), len(tgt_vocab))
    # Warm-up: one batch of every bucket traces and compiles every shape.
    seen = {}
    for i, (length, _) in enumerate(batches.batches):
        seen.setdefault(length, i)
    for i in seen.values():
        x, y = batches[i]
        model.train_on_batch(x, y)
    steps = min(steps, len(batches))
    tokens = sum(len(t) + 1 for _, b in batches.batches[:steps] for _, t in b)
    start = time.perf_counter()
    for i in range(steps):
        x, y = batches[i]
        model.train_on_batch(x, y)
    seconds = time.perf_counter() - start
    result = {"tokens_per_second": tokens / seconds, "steps": steps}
    # Decoding cost at a fixed output length: `<end>` is never chosen, so
    # every sentence takes DECODE_STEPS steps whatever the briefly trained
    # weights would say (their output lengths differ between the forms).
    sources = [src_vocab.encode(p.source)[: tasks.MAX_SOURCE_TOKENS] for p in splits[2]]
    batches_ = _length_batches([s for s in sources if s])
    for width in (1, 4):
        fn = models.compiled(fixed_length_translate_fn(model, DECODE_STEPS, width))
        for source in batches_:  # warm-up: compile every shape
            keras.ops.convert_to_numpy(fn(source))
        start = time.perf_counter()
        for source in batches_:
            keras.ops.convert_to_numpy(fn(source))
        seconds = time.perf_counter() - start
        result[f"decode_{width}"] = sum(len(b) for b in batches_) / seconds
    return result


def fixed_length_translate_fn(model, length, beam_width):
    """`make_translate_fn` with `<end>` masked out: `length` steps each."""
    never_end = ops.one_hot(models.END_ID, model.get_layer("logits").units) * -1e9

    def wrap_step(step):
        def step_fn(tokens, state, constants):
            logits, state, attention = step(tokens, state, constants)
            return logits + never_end, state, attention

        step_fn.shares_constants_across_beams = step.shares_constants_across_beams
        return step_fn

    translate = models.make_translate_fn(
        model, length, beam_width=beam_width, wrap_step=wrap_step
    )
    return lambda source_ids: translate(source_ids)[0]


def _length_batches(sources, batch_size=64):
    """Source id batches of similar length, padded as `Translator` pads them."""
    ordered = sorted(sources, key=len)
    out = []
    for first in range(0, len(ordered), batch_size):
        chunk = ordered[first : first + batch_size]
        width = tasks.DECODE_PAD * -(-max(len(s) for s in chunk) // tasks.DECODE_PAD)
        batch = np.zeros((len(chunk), width), "int32")
        for r, s in enumerate(chunk):
            batch[r, : len(s)] = s
        out.append(batch)
    return out


# -------------------------------------------------------------------- main


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=25.0)
    parser.add_argument("--epochs", type=int, default=100)
    parser.add_argument("--throughput-steps", type=int, default=60)
    parser.add_argument("--output", default=None, help="folder for the run folders")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--skip", nargs="*", default=[], choices=("default", "tutorial", "none")
    )
    parser.add_argument(
        "--only-decoder-forms",
        action="store_true",
        help="run only the parallel vs recurrent decoder comparison",
    )
    args = parser.parse_args(argv)
    verbose = 2
    output = Path(args.output or tempfile.mkdtemp(prefix="translation_bench_"))
    output.mkdir(parents=True, exist_ok=True)
    base = {}
    if args.quick:
        args.minutes, args.epochs, args.throughput_steps = 0.5, 3, 10
        base = {
            "corpus": "numbers",
            "n_pairs": 3000,
            "source_vocab_size": 300,
            "target_vocab_size": 300,
        }
    config = tasks.TrainConfig(epochs=args.epochs, max_minutes=args.minutes, **base)
    splits = tasks.load_corpus(config)
    print(
        f"# translation benchmark, {datetime.datetime.now():%Y-%m-%d %H:%M}\n\n"
        f"backend {backend_version()}, keras {keras.__version__}, CPU {cpu_model()}, "
        f"{os.cpu_count()} cores; corpus {config.corpus}: "
        f"{len(splits[0]):,} train / {len(splits[1]):,} validation / "
        f"{len(splits[2]):,} test pairs\n"
    )
    results = {}
    if args.only_decoder_forms:
        args.skip = ["tutorial", "none", "default"]
    if "default" not in args.skip:
        results["default"] = run_ours(config, output / "default", verbose)
    if "none" not in args.skip:
        none = tasks.TrainConfig(
            epochs=args.epochs, max_minutes=args.minutes, attention="none", **base
        )
        results["none"] = run_ours(none, output / "none", verbose)
    if "tutorial" not in args.skip:
        results["tutorial"] = run_tutorial(
            splits, args.minutes, args.epochs, tasks.BUCKETS[-1], verbose
        )
    (output / "benchmark.json").write_text(json.dumps(results, indent=1, default=str))

    if "default" in results:
        print(f"\n## Same budget ({args.minutes:g} min of fit), test set\n")
        rows = []
        for name, r in results.items():
            beams = [k for k in r if k.startswith("beam")]
            beam = r[beams[0]] if beams else None
            rows.append(
                [
                    name,
                    f"{r['parameters']:,}",
                    str(r["epochs"]),
                    f"{r['best_val_loss']:.3f}",
                    f"{r['tokens_per_second']:,.0f}",
                    f"{r['greedy']['bleu']:.2f}",
                    f"{r['greedy']['chrf']:.2f}",
                    f"{beam['bleu']:.2f}" if beam else "-",
                    f"{beam['chrf']:.2f}" if beam else "-",
                    f"{r['greedy']['sentences_per_second']:.1f}",
                ]
            )
        print_table(
            [
                "model",
                "params",
                "epochs",
                "best val loss",
                "train tok/s",
                "greedy BLEU",
                "greedy chrF",
                "beam4 BLEU",
                "beam4 chrF",
                "greedy sent/s",
            ],
            rows,
            numeric_columns=True,
        )
        print(f"BLEU signature: {results['default']['greedy']['bleu_signature']}")
        print(f"chrF signature: {results['default']['greedy']['chrf_signature']}\n")
        if "tutorial" in results:
            d, t = results["default"], results["tutorial"]
            speed = d["tokens_per_second"] / t["tokens_per_second"]
            print_table(
                ["target", "measured", "verdict"],
                [
                    [
                        "default greedy BLEU > tutorial",
                        f"{d['greedy']['bleu']:.2f} vs {t['greedy']['bleu']:.2f}",
                        verdict(d["greedy"]["bleu"] > t["greedy"]["bleu"]),
                    ],
                    [
                        "default greedy chrF > tutorial",
                        f"{d['greedy']['chrf']:.2f} vs {t['greedy']['chrf']:.2f}",
                        verdict(d["greedy"]["chrf"] > t["greedy"]["chrf"]),
                    ],
                    [
                        "train tokens/s >= 2x tutorial",
                        f"{speed:.2f}x",
                        verdict(speed >= 2.0),
                    ],
                ],
            )

    print("## Decoder forms (same sizes), training throughput and decoding\n")
    rows = []
    for form in ("parallel", "recurrent"):
        form_config = tasks.TrainConfig(epochs=1, decoder=form, **base)
        t = throughput(form_config, splits, args.throughput_steps, verbose)
        rows.append(
            [
                form,
                f"{t['tokens_per_second']:,.0f}",
                f"{t['steps']}",
                f"{t['decode_1']:.1f}",
                f"{t['decode_4']:.1f}",
            ]
        )
    print_table(
        [
            "decoder",
            "train tokens/s",
            "batches timed",
            f"greedy sent/s ({DECODE_STEPS} tokens)",
            f"beam 4 sent/s ({DECODE_STEPS} tokens)",
        ],
        rows,
        numeric_columns=True,
    )
    print(f"load average (1, 5, 15 min): {load_average()}; run folders in {output}")


if __name__ == "__main__":
    main()
