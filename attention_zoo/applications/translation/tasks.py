"""Train, evaluate, translate, plot and export a translation model.

A run folder holds everything the other tasks need:

    config.json                       corpus, model flags, sizes, seed
    source_vocabulary.json, target_vocabulary.json
    data/{validation,test}.tsv        the held-out pairs (book, source, target)
    model.keras                       the trained model (best validation loss)
    checkpoints/                      the best model so far, written each epoch
    metrics.json                      training budget and throughput; test scores
    logs/                             TensorBoard logs
    plots/*.png                       attention heatmaps of a few test sentences

Documented rules for inputs (in `Translator`, the CLI and the SavedModel):
an empty input (no token once normalized) translates to the empty string
with no attention; a source longer than `MAX_SOURCE_TOKENS` tokens is cut to
its first `MAX_SOURCE_TOKENS`; words outside the source vocabulary, in any
script, are read as `<unk>`; an output stops at `<end>` or after
`MAX_OUTPUT_TOKENS` tokens.
"""

from __future__ import annotations

import csv
import json
import math
import os
import random
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import keras
import numpy as np

from attention_zoo.applications.common import (
    TimeBudget,
    check_run_folder,
    load_run_model,
    output_folder,
    start_run_folder,
    tensorboard_callbacks,
)
from attention_zoo.applications.translation import data, tokenizer
from attention_zoo.applications.translation import model as models

MAX_SOURCE_TOKENS = 128
MAX_OUTPUT_TOKENS = 160
# Training batches pad both sides to the smallest of these that fits, so a
# compiled training step sees one shape per bucket.
BUCKETS = (8, 16, 24, 32, 40, 48, 56, 64)
# Decoding batches pad the source to a multiple of this.
DECODE_PAD = 32
LENGTH_BUCKETS = ((0, 10), (10, 20), (20, 30), (30, 40), (40, 50), (50, 60), (60, None))
EXAMPLE_SENTENCES = [
    "In the beginning God created the heavens and the earth.",
    "Jesus wept.",
]
CORPORA = ("bible", "numbers", "tsv", "tfds")


@dataclass
class TrainConfig:
    corpus: str = "bible"
    pairs: str | None = None  # the TSV file of corpus="tsv"
    tfds_name: str | None = None  # the dataset of corpus="tfds"
    tfds_data_dir: str | None = None
    download: bool = False
    n_pairs: int = 20000  # corpus="numbers"
    attention: str = "bahdanau"
    decoder: str = "parallel"
    units: int = 96
    embedding_dim: int = 128
    output_units: int | None = 128
    dropout: float = 0.2
    source_vocab_size: int = 5000
    target_vocab_size: int = 5000
    batch_size: int = 64
    epochs: int = 10
    max_minutes: float | None = None
    learning_rate: float = 2e-3
    patience: int = 3
    beam_width: int = 4
    alpha: float = 0.6
    seed: int = 0


class InputError(ValueError):
    """An input the command line refuses, with the reason."""


# -------------------------------------------------------------------- data


def load_corpus(config: TrainConfig):
    """`(train, validation, test)` lists of `data.Pair` for the config's corpus."""
    if config.corpus not in CORPORA:
        raise ValueError(
            f"`corpus` must be one of {CORPORA}. Received: corpus={config.corpus!r}"
        )
    if config.corpus == "bible":
        return data.split_by_book(data.bible_pairs())
    if config.corpus == "numbers":
        pairs = data.number_pairs(config.n_pairs, seed=config.seed)
        return _random_split(pairs, config.seed)
    if config.corpus == "tsv":
        if not config.pairs:
            raise ValueError("corpus 'tsv' needs `pairs`, the path of the TSV file")
        return _random_split(data.read_tsv_pairs(config.pairs), config.seed)
    if not config.tfds_name:
        raise ValueError(
            "corpus 'tfds' needs `tfds_name`, e.g. 'ted_hrlr_translate/pt_to_en'"
        )
    splits = []
    for split in ("train", "validation", "test"):
        splits.append(
            data.tfds_pairs(
                config.tfds_name,
                split=split,
                data_dir=config.tfds_data_dir,
                download=config.download and split == "train",
            )
        )
    return tuple(splits)


def _random_split(pairs, seed, held_out: float = 0.05):
    """Seeded train/validation/test split with no source string in two splits."""
    by_source = {}
    for p in pairs:
        by_source.setdefault(p.source, []).append(p)
    sources = sorted(by_source)
    random.Random(seed).shuffle(sources)
    n = max(1, int(len(sources) * held_out))
    pick = lambda keys: [p for k in keys for p in by_source[k]]  # noqa: E731
    return pick(sources[2 * n :]), pick(sources[:n]), pick(sources[n : 2 * n])


def _write_pairs(path, pairs):
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, delimiter="\t")
        writer.writerows((p.book, p.source, p.target) for p in pairs)


def read_pairs(path):
    with Path(path).open(encoding="utf-8", newline="") as f:
        return [data.Pair(s, t, b) for b, s, t in csv.reader(f, delimiter="\t")]


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
    """

    def __init__(
        self,
        sources,
        targets,
        batch_size: int,
        seed: int = 0,
        drop_remainder: bool = True,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.batch_size = batch_size
        self.drop_remainder = drop_remainder
        self.rng = random.Random(seed)
        self.buckets = {}
        for s, t in zip(sources, targets):
            b = _bucket(max(len(s), len(t) + 1))
            if b is not None and len(s) > 0:
                self.buckets.setdefault(b, []).append((s, t))
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
        for i, (s, t) in enumerate(pairs):
            source[i, : len(s)] = s
            decoder_input[i, : len(t) + 1] = [models.START_ID, *t]
            labels[i, : len(t) + 1] = [*t, models.END_ID]
        return (source, decoder_input), labels


# ----------------------------------------------------------------- loading


class Translator:
    """A trained run: text in, translations and attention out."""

    def __init__(
        self, run_dir, beam_width: int | None = None, alpha: float | None = None
    ):
        self.run_dir = check_run_folder(
            run_dir,
            "translation",
            (
                "model.keras",
                "config.json",
                "source_vocabulary.json",
                "target_vocabulary.json",
            ),
        )
        self.config = json.loads((self.run_dir / "config.json").read_text())
        self.source_vocabulary = tokenizer.WordVocabulary.load(
            self.run_dir / "source_vocabulary.json"
        )
        self.target_vocabulary = tokenizer.WordVocabulary.load(
            self.run_dir / "target_vocabulary.json"
        )
        self.model = load_run_model(self.run_dir / "model.keras")
        self._fns = {}
        self.beam_width = beam_width or self.config["beam_width"]
        self.alpha = self.config["alpha"] if alpha is None else alpha

    def translate_fn(self, beam_width: int):
        """The compiled decoding function for `beam_width` (1 = greedy)."""
        if beam_width not in self._fns:
            self._fns[beam_width] = models.compiled(
                models.make_translate_fn(
                    self.model,
                    MAX_OUTPUT_TOKENS,
                    beam_width=beam_width,
                    alpha=self.alpha if beam_width > 1 else 0.0,
                )
            )
        return self._fns[beam_width]

    def encode(self, texts):
        """Source ids `(N, T)` padded to a multiple of `DECODE_PAD`, and lengths."""
        ids = [self.source_vocabulary.encode(t)[:MAX_SOURCE_TOKENS] for t in texts]
        lengths = np.array([len(i) for i in ids])
        width = DECODE_PAD * max(1, math.ceil(max(lengths, default=0) / DECODE_PAD))
        out = np.zeros((len(ids), width), "int32")
        for row, i in enumerate(ids):
            out[row, : len(i)] = i
        return out, lengths

    def translate_ids(self, texts, beam_width: int | None = None, batch_size: int = 64):
        """Output ids `(N, MAX_OUTPUT_TOKENS)` and attention, in input order.

        Texts are decoded in batches of similar length; an empty input gets
        all-padding ids and zero attention.
        """
        texts = list(texts)
        beam_width = beam_width or self.beam_width
        fn = self.translate_fn(beam_width)
        order = sorted(
            range(len(texts)), key=lambda i: len(tokenizer.tokenize(texts[i]))
        )
        ids = np.zeros((len(texts), MAX_OUTPUT_TOKENS), "int32")
        attention = [None] * len(texts)
        for start in range(0, len(texts), batch_size):
            rows = order[start : start + batch_size]
            source, lengths = self.encode([texts[i] for i in rows])
            tokens, weights = fn(source)
            tokens = keras.ops.convert_to_numpy(tokens)
            weights = keras.ops.convert_to_numpy(weights).astype("float32")
            for j, i in enumerate(rows):
                if lengths[j] == 0:
                    attention[i] = np.zeros((MAX_OUTPUT_TOKENS, 0), "float32")
                    continue
                ids[i] = tokens[j]
                attention[i] = weights[j, :, : lengths[j]]
        return ids, attention

    def translate(self, texts, beam_width: int | None = None, batch_size: int = 64):
        """Translations (normalized, space-separated words) and attention per text."""
        ids, attention = self.translate_ids(texts, beam_width, batch_size)
        return [self.target_vocabulary.decode(row) for row in ids], attention

    def check(self, text: str) -> None:
        """Raise `InputError` for inputs the command line refuses (empty ones)."""
        if not tokenizer.tokenize(text):
            raise InputError(f"empty input: {text!r} has no words once normalized")


# ------------------------------------------------------------------- train


class TokenCounter(keras.callbacks.Callback):
    """Target tokens (real ones, with `<end>`) of the batches trained on."""

    def __init__(self, dataset: BucketedBatches):
        super().__init__()
        self.dataset = dataset
        self.tokens = 0

    def on_train_batch_end(self, batch, logs=None):
        _, pairs = self.dataset.batches[batch]
        self.tokens += sum(len(t) + 1 for _, t in pairs)


def _check_config(config: TrainConfig):
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
    for name in ("units", "embedding_dim", "batch_size", "epochs", "beam_width"):
        value = getattr(config, name)
        if not isinstance(value, int) or value < 1:
            raise ValueError(
                f"`{name}` must be a positive integer. Received: {value!r}"
            )
    for name in ("source_vocab_size", "target_vocab_size"):
        if getattr(config, name) < 5:
            raise ValueError(
                f"`{name}` must be at least 5. Received: {getattr(config, name)}"
            )
    if config.max_minutes is not None and not config.max_minutes > 0:
        raise ValueError(
            f"`max_minutes` must be positive. Received: {config.max_minutes}"
        )


def build_model(config: TrainConfig, source_vocab_size: int, target_vocab_size: int):
    """The compiled training model that `config` describes."""
    model = models.build_model(
        source_vocab_size,
        target_vocab_size,
        attention=config.attention,
        decoder=config.decoder,
        units=config.units,
        embedding_dim=config.embedding_dim,
        dropout=config.dropout,
        seed=config.seed,
        output_units=config.output_units,
    )
    return models.compile_model(model, config.learning_rate)


def train(output, config: TrainConfig, verbose: int | None = None) -> dict:
    """Load the corpus, fit the model, save the run folder, evaluate it."""
    if verbose is None:
        verbose = 1 if sys.stdout.isatty() else 2
    _check_config(config)
    output_folder(output)  # before the corpus, which can take long
    train_set, validation_set, test_set = load_corpus(config)
    run = start_run_folder(
        output, ("model.keras", "metrics.json", "checkpoints/best.keras")
    )
    keras.utils.set_random_seed(config.seed)
    source_vocabulary = tokenizer.WordVocabulary.from_texts(
        [p.source for p in train_set], config.source_vocab_size
    )
    target_vocabulary = tokenizer.WordVocabulary.from_texts(
        [p.target for p in train_set], config.target_vocab_size
    )
    source_vocabulary.save(run / "source_vocabulary.json")
    target_vocabulary.save(run / "target_vocabulary.json")
    _write_pairs(run / "data" / "validation.tsv", validation_set)
    _write_pairs(run / "data" / "test.tsv", test_set)
    (run / "config.json").write_text(json.dumps(asdict(config), indent=1))

    def batches(pairs, seed, drop_remainder):
        return BucketedBatches(
            [source_vocabulary.encode(p.source) for p in pairs],
            [target_vocabulary.encode(p.target) for p in pairs],
            config.batch_size,
            seed=seed,
            drop_remainder=drop_remainder,
        )

    train_batches = batches(train_set, config.seed, True)
    validation_batches = batches(validation_set, config.seed + 1, False)
    if not len(train_batches):
        raise ValueError(
            f"no training batch: every bucket holds fewer than batch_size="
            f"{config.batch_size} training pairs of at most {BUCKETS[-1]} tokens"
        )
    model = build_model(config, len(source_vocabulary), len(target_vocabulary))
    if verbose:
        kept = sum(len(b) for b in train_batches.buckets.values())
        print(
            f"{model.name} model: {model.count_params():,} parameters; "
            f"{len(train_set):,} training pairs ({kept:,} of at most {BUCKETS[-1]} "
            f"tokens), {len(validation_set):,} validation, {len(test_set):,} test; "
            f"backend {keras.backend.backend()}"
        )
    counter = TokenCounter(train_batches)
    callbacks = [
        counter,
        keras.callbacks.EarlyStopping(
            patience=config.patience, restore_best_weights=True
        ),
        keras.callbacks.ModelCheckpoint(
            str(run / "checkpoints" / "best.keras"), save_best_only=True
        ),
        *tensorboard_callbacks(run / "logs"),
    ]
    budget = None
    if config.max_minutes:
        budget = TimeBudget(60 * config.max_minutes)
        callbacks.insert(0, budget)
    (run / "checkpoints").mkdir(exist_ok=True)
    start = time.perf_counter()
    history = model.fit(
        train_batches,
        validation_data=validation_batches,
        epochs=config.epochs,
        verbose=verbose,
        callbacks=callbacks,
    )
    seconds = time.perf_counter() - start
    # EarlyStopping(restore_best_weights=True) has put back the weights of the
    # best validation epoch, however training ended (patience, epochs or the
    # budget, which validates the epoch it cuts short too).
    model.save(run / "model.keras")
    training = {
        "seconds": round(seconds, 1),
        "epochs": len(history.history.get("loss", [])),
        "stopped_by_budget": bool(budget and budget.stopped),
        "target_tokens": counter.tokens,
        "target_tokens_per_second": round(counter.tokens / seconds, 1),
        "parameters": model.count_params(),
        "history": {k: [float(v) for v in vals] for k, vals in history.history.items()},
    }
    translator = Translator(run)
    metrics = {"training": training, "test": evaluate_pairs(translator, test_set)}
    (run / "metrics.json").write_text(json.dumps(metrics, indent=1))
    plot(run, [p.source for p in test_set[:3]], run / "plots", translator=translator)
    return metrics


# ---------------------------------------------------------------- evaluate


def length_bucket(n: int) -> str:
    for low, high in LENGTH_BUCKETS:
        if n >= low and (high is None or n < high):
            return f"{low}-{high - 1}" if high is not None else f"{low}+"
    raise AssertionError(n)


def evaluate_pairs(translator: Translator, pairs, beam_widths=None) -> dict:
    """sacreBLEU BLEU and chrF, greedy and beam, overall and by source length.

    Hypotheses and references are compared in the tokenizer's normalized
    form (lower case, punctuation split off), as the model writes them.
    """
    from attention_zoo.metrics import corpus_scores

    beam_widths = beam_widths or [1, translator.beam_width]
    references = [tokenizer.normalize(p.target) for p in pairs]
    lengths = [len(tokenizer.tokenize(p.source)) for p in pairs]
    results = {"n": len(pairs)}
    for width in dict.fromkeys(beam_widths):
        start = time.perf_counter()
        hypotheses, _ = translator.translate([p.source for p in pairs], width)
        seconds = time.perf_counter() - start
        name = "greedy" if width == 1 else f"beam{width}"
        scores = corpus_scores(hypotheses, references, tokenized=True)
        scores["sentences_per_second"] = round(len(pairs) / seconds, 1)
        if width > 1:
            scores["alpha"] = translator.alpha
        buckets = {}
        for low, _ in LENGTH_BUCKETS:
            label = length_bucket(low)
            rows = [i for i, n in enumerate(lengths) if length_bucket(n) == label]
            if rows:
                s = corpus_scores(
                    [hypotheses[i] for i in rows],
                    [references[i] for i in rows],
                    tokenized=True,
                )
                buckets[label] = {"n": len(rows), "bleu": s["bleu"], "chrf": s["chrf"]}
        scores["by_source_length"] = buckets
        scores["examples"] = [
            {"source": p.source, "reference": r, "translation": h}
            for p, r, h in list(zip(pairs, references, hypotheses))[:5]
        ]
        results[name] = scores
    return results


def evaluate(run_dir, beam_width: int | None = None) -> dict:
    translator = Translator(run_dir, beam_width=beam_width)
    return evaluate_pairs(translator, read_pairs(Path(run_dir) / "data" / "test.tsv"))


def decodings(metrics: dict) -> list[str]:
    """The decodings an evaluation holds: "greedy", "beam4", ..."""
    return [k for k in metrics if k == "greedy" or k.startswith("beam")]


def format_metrics(metrics: dict) -> str:
    lines = [f"test sentences: {metrics['n']:,}", ""]
    decoders = decodings(metrics)
    lines += [
        "| decoding | BLEU | chrF | sentences/s |",
        "| --- | ---: | ---: | ---: |",
    ]
    for k in decoders:
        m = metrics[k]
        lines.append(
            f"| {k} | {m['bleu']:.2f} | {m['chrf']:.2f} | {m['sentences_per_second']} |"
        )
    for k in decoders:
        lines.append(f"\n{k} BLEU: {metrics[k]['bleu_signature']}")
        lines.append(f"{k} chrF: {metrics[k]['chrf_signature']}")
    return "\n".join(lines)


def run_labels(run_dirs) -> list[str]:
    """A distinct short name per run folder, for comparison tables and plots.

    Each is the shortest tail of the folder's absolute path that no other
    folder shares: `["x/cmpA/run", "x/cmpB/run", "y"]` gives `["cmpA/run",
    "cmpB/run", "y"]`. A folder given twice is told apart by " (2)".
    """
    paths = [Path(os.path.abspath(r)).parts for r in run_dirs]
    labels = []
    for path in paths:
        others = [p for p in paths if p != path]
        n = 1
        while n < len(path) and any(p[-n:] == path[-n:] for p in others):
            n += 1
        labels.append(str(Path(*path[-n:])))
    seen = {}
    for i, label in enumerate(labels):
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            labels[i] = f"{label} ({seen[label]})"
    return labels


def _check_decoding(named_metrics: dict, decoding: str):
    missing = [name for name, m in named_metrics.items() if decoding not in m]
    if missing:
        raise ValueError(
            f"runs {missing} were not evaluated with {decoding} decoding. "
            f"Received: decoding={decoding!r}"
        )


def compare_runs(named_metrics: dict) -> str:
    """BLEU by source length of several evaluated runs, one table per decoding.

    A decoding only some runs hold (runs trained with different beam
    widths, evaluated at their own) is named below the tables, not compared.
    """
    held = {name: decodings(m) for name, m in named_metrics.items()}
    shared = [
        d for d in next(iter(held.values())) if all(d in h for h in held.values())
    ]
    parts = [
        f"BLEU by source length ({d})\n\n{compare_lengths(named_metrics, d)}\n"
        for d in shared
    ]
    unshared = {name: [d for d in h if d not in shared] for name, h in held.items()}
    if any(unshared.values()):
        only = "; ".join(f"{name}: {', '.join(d)}" for name, d in unshared.items() if d)
        parts.append(
            f"Not compared, as not every run holds them: {only}. Pass --beam-width "
            "to evaluate every run at the same beam width.\n"
        )
    return "\n".join(parts)


def compare_lengths(named_metrics: dict, decoding: str = "greedy") -> str:
    """Markdown table of BLEU by source length for several evaluated runs."""
    _check_decoding(named_metrics, decoding)
    names = list(named_metrics)
    labels = [length_bucket(low) for low, _ in LENGTH_BUCKETS]
    lines = [
        "| source words | n | " + " | ".join(names) + " |",
        "| --- | ---: |" + " ---: |" * len(names),
    ]
    for label in labels:
        cells = [
            named_metrics[n][decoding]["by_source_length"].get(label) for n in names
        ]
        if not any(cells):
            continue
        # Runs evaluated on different test sets count different sentences
        # here: then each run's count, in the runs' order.
        counts = [c["n"] if c else 0 for c in cells]
        count = counts[0] if len(set(counts)) == 1 else " / ".join(map(str, counts))
        values = [f"{c['bleu']:.2f}" if c else "" for c in cells]
        lines.append(f"| {label} | {count} | " + " | ".join(values) + " |")
    return "\n".join(lines)


def plot_lengths(named_metrics: dict, path, decoding: str = "greedy") -> Path:
    """BLEU by source length, one line per run (Bahdanau et al. 2015, Figure 2)."""
    _check_decoding(named_metrics, decoding)
    from matplotlib.figure import Figure  # no pyplot: see attention_zoo.plotting

    labels = [length_bucket(low) for low, _ in LENGTH_BUCKETS]
    fig = Figure(figsize=(6, 4))
    ax = fig.subplots()
    for name, metrics in named_metrics.items():
        buckets = metrics[decoding]["by_source_length"]
        xs = [i for i, label in enumerate(labels) if label in buckets]
        ax.plot(xs, [buckets[labels[i]]["bleu"] for i in xs], marker="o", label=name)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_xlabel("source sentence length (words)")
    ax.set_ylabel(f"BLEU ({decoding})")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    return path


# --------------------------------------------------------------- translate


def translate(run_dir, texts, beam_width: int | None = None, translator=None):
    """`[(text, translation, unknown_words)]`; raises InputError for empty text."""
    translator = translator or Translator(run_dir, beam_width=beam_width)
    for text in texts:
        translator.check(text)
    translations, _ = translator.translate(list(texts), beam_width)
    vocabulary = translator.source_vocabulary
    return [
        (
            text,
            translation,
            [w for w in tokenizer.tokenize(text) if w not in vocabulary.index],
        )
        for text, translation in zip(texts, translations)
    ]


# -------------------------------------------------------------------- plot


def plot(run_dir, texts, output_dir, beam_width=None, translator=None) -> list[Path]:
    """One attention heatmap PNG per text: source words x target words."""
    from attention_zoo.plotting import save_attention_plot

    output_dir = output_folder(output_dir)
    translator = translator or Translator(run_dir, beam_width=beam_width)
    for text in texts:
        translator.check(text)
    translations, attention = translator.translate(list(texts), beam_width)
    paths = []
    for i, (text, translation) in enumerate(zip(texts, translations)):
        source = tokenizer.tokenize(text)[:MAX_SOURCE_TOKENS]
        target = (
            [*translation.split(" "), tokenizer.END] if translation else [tokenizer.END]
        )[: len(attention[i])]  # a translation cut at the limit has no <end>
        path = output_dir / f"attention_{i}.png"
        save_attention_plot(path, attention[i], source, target)
        paths.append(path)
    return paths


# ------------------------------------------------------------------ export


def export(run_dir, output, beam_width: int | None = None) -> Path:
    """SavedModel: `serving_default(text: tf.string [None])` -> `text`, `attention`.

    Tokenization (`tokenizer.normalize`, word lookup with `<unk>`) runs in
    the graph, then beam search (`beam_width`, default the run's) compiled
    with XLA as `Translator` runs it, then detokenization. `attention` is
    float32 `(B, MAX_OUTPUT_TOKENS, Tx)` with `Tx` the batch's source
    length padded to a multiple of `DECODE_PAD`. The input rules of the
    module docstring hold: an empty input gives "" and zero attention.
    """
    import tensorflow as tf

    from attention_zoo.export import TokenTables, normalize_strings, split_punctuation

    if keras.backend.backend() != "tensorflow":
        raise ValueError(
            "export writes a TensorFlow SavedModel and needs KERAS_BACKEND=tensorflow. "
            f"Received: {keras.backend.backend()}"
        )
    output = output_folder(output)
    translator = Translator(run_dir, beam_width=beam_width)
    fn = translator.translate_fn(translator.beam_width)
    output_tokens = [
        t if i >= len(tokenizer.SPECIALS) or t == tokenizer.UNK else ""
        for i, t in enumerate(translator.target_vocabulary.tokens)
    ]
    tables = TokenTables(
        translator.source_vocabulary.tokens, output_tokens, unknown_id=models.UNK_ID
    )

    def serve(text):
        normalized = normalize_strings(
            split_punctuation(text, tokenizer.PUNCTUATION_CLASS)
        )
        ids, lengths = tables.encode_words(normalized, MAX_SOURCE_TOKENS)
        lengths = tf.minimum(lengths, MAX_SOURCE_TOKENS)
        longest = tf.reduce_max(tf.concat([lengths, [0]], 0))
        width = DECODE_PAD * tf.maximum(1, (longest + DECODE_PAD - 1) // DECODE_PAD)
        ids = ids[:, :width]  # padded as Translator.encode pads
        tokens, attention = fn(ids)
        valid = lengths > 0
        attention = tf.cast(attention, tf.float32)
        attention = tf.where(valid[:, None, None], attention, tf.zeros_like(attention))
        decoded = tables.decode(
            tokens, separator=" ", stop_ids=(models.PAD_ID, models.END_ID)
        )
        return {
            "text": tf.where(valid, decoded, tf.constant("")),
            "attention": attention,
        }

    archive = keras.export.ExportArchive()
    archive.track(translator.model)
    archive.track(tables.input_table)
    archive.add_endpoint(
        "serving_default",
        serve,
        input_signature=[tf.TensorSpec([None], tf.string, name="text")],
    )
    archive.write_out(str(output), verbose=False)
    return Path(output)
