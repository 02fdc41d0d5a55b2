"""Train, evaluate, predict, plot and export the date normalizer.

A run folder holds everything the other tasks need:

    config.json        model kind, sizes, seed
    vocabulary.json    the input characters
    data/{train,validation,test}.json   the generated splits
    model.keras        the trained model
    metrics.json       test metrics, overall and per format, family, language
    logs/              TensorBoard logs
    plots/*.png        attention heatmaps of a few test dates
"""

from __future__ import annotations

import collections
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import keras
import numpy as np

from attention_zoo.applications.common import (
    check_run_folder,
    load_run_model,
    output_folder,
    start_run_folder,
    tensorboard_callbacks,
)
from attention_zoo.applications.dates import data
from attention_zoo.applications.dates import model as models

EXAMPLE_INPUTS = ["3rd of May 1979", "Sept. 14, 2001", "jeudi 3 mai 1979", "23.09.1987"]


@dataclass
class TrainConfig:
    model: str = "default"
    epochs: int = 6
    batch_size: int = 128
    n_train: int = 30000
    n_validation: int = 2000
    n_test: int = 5000
    seed: int = 0
    learning_rate: float | None = None
    units: int = 64
    attention: str = "bahdanau"
    distribute: str | None = None


class InputError(ValueError):
    """An input the command line refuses, with the reason."""


# ----------------------------------------------------------------- loading


class Normalizer:
    """A trained run: text in, ISO dates and attention out."""

    def __init__(self, run_dir):
        self.run_dir = check_run_folder(
            run_dir, "dates", ("model.keras", "config.json", "vocabulary.json")
        )
        self.config = json.loads((self.run_dir / "config.json").read_text())
        self.kind = self.config["model"]
        self.vocabulary = data.CharVocabulary.from_json(
            json.loads((self.run_dir / "vocabulary.json").read_text())
        )
        self.iso = data.IsoVocabulary()
        self.model = load_run_model(self.run_dir / "model.keras")
        self._predict = models.compiled(models.make_predict_fn(self.model, self.kind))

    def check(self, text: str) -> None:
        """Raise `InputError` for inputs the model cannot read."""
        normalized = data.normalize(text)
        if not normalized:
            raise InputError(
                f"empty input: {text!r} has no characters besides whitespace"
            )
        if len(normalized) > data.TX:
            raise InputError(
                f"input too long: {text!r} has {len(normalized)} characters once "
                f"normalized; the model reads at most {data.TX}"
            )

    def predict_ids(self, texts, batch_size: int = 1000):
        ids, attention = [], []
        for start in range(0, len(texts), batch_size):
            source = self.vocabulary.encode(texts[start : start + batch_size])
            i, a = self._predict(source)
            ids.append(keras.ops.convert_to_numpy(i))
            attention.append(keras.ops.convert_to_numpy(a).astype("float32"))
        return np.concatenate(ids), np.concatenate(attention)

    def predict(self, texts, batch_size: int = 1000):
        """ISO strings and attention `(N, TY, TX)` for `texts`."""
        ids, attention = self.predict_ids(list(texts), batch_size)
        return self.iso.decode(ids), attention


# ------------------------------------------------------------------- train


def _strategy(distribute):
    if distribute is None:
        return None
    if distribute != "mirrored":
        raise ValueError(
            f"`distribute` must be 'mirrored' or None. Received: {distribute!r}"
        )
    if keras.backend.backend() != "tensorflow":
        raise ValueError(
            "--distribute mirrored needs the TensorFlow backend (tf.distribute). "
            f"Received: KERAS_BACKEND={keras.backend.backend()}"
        )
    import tensorflow as tf

    return tf.distribute.MirroredStrategy()


class EpochTimer(keras.callbacks.Callback):
    """Wall-clock seconds of every epoch, validation included."""

    def on_train_begin(self, logs=None):
        self.seconds = []

    def on_epoch_begin(self, epoch, logs=None):
        self._start = time.perf_counter()

    def on_epoch_end(self, epoch, logs=None):
        self.seconds.append(time.perf_counter() - self._start)


def train(output: str | Path, config: TrainConfig, verbose: int | None = None) -> dict:
    """Generate data, fit the model, save the run folder, evaluate it.

    `verbose` is Keras's: by default a progress bar on a terminal and one
    line per epoch otherwise.
    """
    if verbose is None:
        verbose = 1 if sys.stdout.isatty() else 2
    if config.model not in models.MODELS:
        raise ValueError(
            f"`model` must be one of {models.MODELS}. Received: {config.model!r}"
        )
    if config.attention not in models.ATTENTIONS:
        raise ValueError(
            f"`attention` must be one of {tuple(models.ATTENTIONS)}. Received: "
            f"{config.attention!r}"
        )
    if config.model == "classic" and config.attention != "bahdanau":
        raise ValueError(
            "`attention` selects the mechanism of the default model; the "
            "classic model has the course's own attention. Received: "
            f"model='classic', attention={config.attention!r}"
        )
    if config.learning_rate is not None and not config.learning_rate > 0:
        raise ValueError(
            f"`learning_rate` must be positive. Received: learning_rate={config.learning_rate}"
        )
    strategy = _strategy(config.distribute)  # fails before anything is written
    run = start_run_folder(output, ("model.keras", "metrics.json"))
    (run / "data").mkdir(parents=True, exist_ok=True)
    keras.utils.set_random_seed(config.seed)
    train_set, val_set, test_set = data.make_splits(
        config.n_train, config.n_validation, config.n_test, seed=config.seed
    )
    for name, examples in (
        ("train", train_set),
        ("validation", val_set),
        ("test", test_set),
    ):
        data.save_examples(run / "data" / f"{name}.json", examples)
    vocabulary = data.CharVocabulary.from_texts([e.text for e in train_set])
    (run / "vocabulary.json").write_text(
        json.dumps(vocabulary.to_json(), ensure_ascii=False)
    )
    (run / "config.json").write_text(
        json.dumps({**asdict(config), "tx": data.TX, "ty": data.TY})
    )
    iso = data.IsoVocabulary()

    def arrays(examples):
        return models.training_arrays(
            config.model,
            vocabulary.encode([e.text for e in examples]),
            iso.encode([e.iso for e in examples]),
        )

    x, y = arrays(train_set)
    validation = arrays(val_set)
    scope = strategy.scope() if strategy else _null_scope()
    with scope:
        if config.model == "classic":
            model = models.build_classic(len(vocabulary))
        else:
            model = models.build_default(
                len(vocabulary), units=config.units, attention=config.attention
            )
        steps = -(-len(train_set) // config.batch_size) * config.epochs
        models.compile_model(
            model,
            config.model,
            config.learning_rate,
            total_steps=steps,
            attention=config.attention,
        )
    if verbose:
        replicas = strategy.num_replicas_in_sync if strategy else 1
        print(
            f"{config.model} model: {model.count_params():,} parameters, "
            f"{len(train_set):,} training dates, backend {keras.backend.backend()}, "
            f"{replicas} replica(s)"
        )
    epoch_timer = EpochTimer()
    start = time.perf_counter()
    history = model.fit(
        x,
        y,
        validation_data=validation,
        batch_size=config.batch_size,
        epochs=config.epochs,
        verbose=verbose,
        callbacks=[*tensorboard_callbacks(run / "logs"), epoch_timer],
    )
    seconds = time.perf_counter() - start
    model.save(run / "model.keras")
    normalizer = Normalizer(run)
    metrics = evaluate_examples(normalizer, test_set)
    metrics["training"] = {
        "seconds": round(seconds, 1),
        "epochs": config.epochs,
        "epoch_seconds": [round(t, 2) for t in epoch_timer.seconds],
        "history": {k: [float(v) for v in vals] for k, vals in history.history.items()},
        "replicas": strategy.num_replicas_in_sync if strategy else 1,
    }
    (run / "metrics.json").write_text(json.dumps(metrics, indent=1))
    texts = [e.text for e in test_set[:3]] + EXAMPLE_INPUTS[:1]
    plot(run, texts, run / "plots", normalizer=normalizer)
    return metrics


class _null_scope:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


# ---------------------------------------------------------------- evaluate


def evaluate_examples(normalizer: Normalizer, examples) -> dict:
    """Exact match, character accuracy, and exact match per format/family/language."""
    predictions, _ = normalizer.predict([e.text for e in examples])
    exact = np.array([p == e.iso for p, e in zip(predictions, examples)])
    chars = np.array(
        [
            sum(a == b for a, b in zip(p.ljust(data.TY), e.iso)) / data.TY
            for p, e in zip(predictions, examples)
        ]
    )

    def breakdown(key):
        groups = collections.defaultdict(list)
        for hit, e in zip(exact, examples):
            groups[getattr(e, key)].append(hit)
        return {
            k: {"n": len(v), "exact_match": float(np.mean(v))}
            for k, v in sorted(groups.items())
        }

    return {
        "n": len(examples),
        "exact_match": float(exact.mean()),
        "character_accuracy": float(chars.mean()),
        "by_language": breakdown("language"),
        "by_family": breakdown("family"),
        "by_format": breakdown("format_name"),
        "errors": [
            {"text": e.text, "expected": e.iso, "predicted": p}
            for p, e, hit in zip(predictions, examples, exact)
            if not hit
        ][:50],
    }


def evaluate(run_dir) -> dict:
    normalizer = Normalizer(run_dir)
    test_set = data.load_examples(Path(run_dir) / "data" / "test.json")
    return evaluate_examples(normalizer, test_set)


def format_metrics(metrics: dict, per_format: bool = True) -> str:
    lines = [
        f"test dates: {metrics['n']:,}",
        f"exact match: {100 * metrics['exact_match']:.2f} %",
        f"character accuracy: {100 * metrics['character_accuracy']:.2f} %",
        "",
        "| language | n | exact match |",
        "| --- | ---: | ---: |",
    ]
    lines += [
        f"| {k} | {v['n']} | {100 * v['exact_match']:.2f} % |"
        for k, v in metrics["by_language"].items()
    ]
    lines += ["", "| family | n | exact match |", "| --- | ---: | ---: |"]
    lines += [
        f"| {k} | {v['n']} | {100 * v['exact_match']:.2f} % |"
        for k, v in metrics["by_family"].items()
    ]
    if per_format:
        lines += ["", "| format | n | exact match |", "| --- | ---: | ---: |"]
        lines += [
            f"| `{k}` | {v['n']} | {100 * v['exact_match']:.2f} % |"
            for k, v in metrics["by_format"].items()
        ]
    return "\n".join(lines)


# ----------------------------------------------------------------- predict


def predict(run_dir, texts, normalizer: Normalizer | None = None):
    """`[(text, iso, is_calendar_date, unknown_characters)]`; raises InputError."""
    normalizer = normalizer or Normalizer(run_dir)
    for text in texts:
        normalizer.check(text)
    isos, _ = normalizer.predict(list(texts))
    return [
        (text, iso, data.is_calendar_date(iso), normalizer.vocabulary.unknown(text))
        for text, iso in zip(texts, isos)
    ]


# -------------------------------------------------------------------- plot


def plot(
    run_dir, texts, output_dir, normalizer: Normalizer | None = None
) -> list[Path]:
    """One attention heatmap PNG per text: input characters x output characters."""
    from attention_zoo.plotting import save_attention_plot

    normalizer = normalizer or Normalizer(run_dir)
    for text in texts:
        normalizer.check(text)
    isos, attention = normalizer.predict(list(texts))
    paths = []
    output_dir = output_folder(output_dir)
    for i, (text, iso) in enumerate(zip(texts, isos)):
        source = list(data.normalize(text))[: data.TX]
        path = output_dir / f"attention_{i}.png"
        save_attention_plot(
            path, attention[i], source, list(iso), title=f"{text!r} -> {iso}"
        )
        paths.append(path)
    return paths


# ------------------------------------------------------------------ export


def export(run_dir, output) -> Path:
    """SavedModel: `serving_default(text: tf.string [None])` -> `text`, `attention`.

    The string preprocessing (`data.normalize`, character lookup with
    `<unk>` for unseen characters) runs in the graph. Documented rule for
    inputs the model cannot read: an empty input, or one longer than TX
    characters once normalized, gives the empty string and all-zero
    attention.
    """
    import tensorflow as tf

    from attention_zoo.export import TokenTables, normalize_strings

    if keras.backend.backend() != "tensorflow":
        raise ValueError(
            "export writes a TensorFlow SavedModel and needs KERAS_BACKEND=tensorflow. "
            f"Received: {keras.backend.backend()}"
        )
    output = output_folder(output)
    normalizer = Normalizer(run_dir)
    predict_fn = models.make_predict_fn(normalizer.model, normalizer.kind)
    output_tokens = [t if len(t) == 1 else "" for t in data.IsoVocabulary.tokens]
    tables = TokenTables(normalizer.vocabulary.tokens, output_tokens, unknown_id=1)

    def serve(text):
        normalized = normalize_strings(text)
        ids, lengths = tables.encode_chars(normalized, data.TX)
        valid = tf.logical_and(lengths > 0, lengths <= data.TX)
        iso_ids, attention = predict_fn(ids)
        attention = tf.cast(attention, tf.float32)
        attention = tf.where(valid[:, None, None], attention, tf.zeros_like(attention))
        stops = (data.IsoVocabulary.pad_id, data.IsoVocabulary.end_id)
        decoded = tf.where(
            valid, tables.decode(iso_ids, stop_ids=stops), tf.constant("")
        )
        return {"text": decoded, "attention": attention}

    archive = keras.export.ExportArchive()
    archive.track(normalizer.model)
    archive.track(tables.input_table)  # a lookup table is saved only if tracked
    archive.add_endpoint(
        "serving_default",
        serve,
        input_signature=[tf.TensorSpec([None], tf.string, name="text")],
    )
    archive.write_out(str(output), verbose=False)
    return Path(output)
