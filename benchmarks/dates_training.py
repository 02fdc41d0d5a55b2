"""Training and decoding of one model of `benchmarks.dates`.

`train` fits a variant until its validation exact match reaches `THRESHOLD`
(`TimeToAccuracy` stops it), `measure_decoding` times the compiled decoding
of the trained model on the validation set.
"""

from __future__ import annotations

import statistics
import sys
import time

import keras

from attention_zoo.applications.dates import data
from attention_zoo.applications.dates import model as models
from benchmarks import harness

THRESHOLD = 0.995  # validation exact match to reach
TARGET_RATIO = 10.0  # classic time / default time >= 10
# variant -> (model kind, the course's learning-rate decay)
VARIANTS = {
    "classic": ("classic", True),
    "classic_constant": ("classic", False),
    "default": ("default", False),
}
KINDS = tuple(VARIANTS)
BATCH_SIZE = {"classic": 100, "default": 128}  # classic: the course's
DECODE_REPEATS = 5


def tx(kind: str) -> int:
    """The input width of each model (the race's dates fit both)."""
    return data.TX_CLASSIC if kind == "classic" else data.TX


DECODE_MIN_SAMPLE_S = 0.2


class TimeToAccuracy(keras.callbacks.Callback):
    """Records epoch end times; stops once validation exact match >= threshold.

    `start` is the `time.perf_counter()` taken just before `model.fit`, so
    times include everything `fit` does before the first batch.
    """

    def __init__(self, start: float, threshold: float = THRESHOLD, label: str = ""):
        super().__init__()
        self.start = start
        self.threshold = threshold
        self.label = label
        self.monitor = None
        self.epoch_end_s = []
        self.scores = []
        self.reached_epoch = None  # 1-based
        self.reached_s = None

    def on_epoch_end(self, epoch, logs=None):
        elapsed = time.perf_counter() - self.start
        logs = logs or {}
        if self.monitor is None:
            names = [k for k in logs if k.startswith("val_") and "exact_match" in k]
            if len(names) != 1:
                raise KeyError(
                    "expected one validation exact-match metric in the logs. "
                    f"Received: {sorted(logs)}"
                )
            self.monitor = names[0]
            print(f"  {self.label} metrics: {sorted(logs)}", file=sys.stderr)
        score = float(logs[self.monitor])
        self.epoch_end_s.append(elapsed)
        self.scores.append(score)
        print(
            f"  {self.label} epoch {epoch + 1}: {self.monitor} {score:.4f}, "
            f"loss {float(logs['loss']):.4f}, {elapsed:.1f} s since fit start",
            file=sys.stderr,
            flush=True,
        )
        if score >= self.threshold and self.reached_epoch is None:
            self.reached_epoch = epoch + 1
            self.reached_s = elapsed
            self.model.stop_training = True


def train(variant, vocabulary, train_set, val_set, epochs, seed):
    kind, course_decay = VARIANTS[variant]

    def arrays(examples):
        return models.training_arrays(
            kind,
            vocabulary.encode([e.text for e in examples], tx(kind)),
            [e.iso for e in examples],
        )

    x, y = arrays(train_set)
    validation = arrays(val_set)
    keras.utils.set_random_seed(seed)  # same initial state whatever the order
    if kind == "classic":
        model = models.build_classic(len(vocabulary))
    else:
        model = models.build_default(len(vocabulary))
    models.compile_model(model, kind, course_decay=course_decay)
    load_before = harness.load_average()
    cpu_start = time.process_time()
    start = time.perf_counter()
    callback = TimeToAccuracy(start, label=variant)
    history = model.fit(
        x,
        y,
        validation_data=validation,
        batch_size=BATCH_SIZE[kind],
        epochs=epochs,
        verbose=0,
        callbacks=[callback],
    )
    fit_s = time.perf_counter() - start
    cpu_s = time.process_time() - cpu_start
    return {
        "model": model,
        "kind": kind,
        "variant": variant,
        "history_keys": sorted(history.history),
        "callback": callback,
        "fit_s": fit_s,
        "cpu_s": cpu_s,
        "epochs_run": len(callback.scores),
        "epoch_cap": epochs,
        "load": (load_before, harness.load_average()),
    }


def measure_decoding(model, kind, vocabulary, val_set):
    """Compiled predict on the whole validation set: seq/s and exact match."""
    source = vocabulary.encode([e.text for e in val_set], tx(kind))
    target = data.IsoVocabulary().encode([e.iso for e in val_set])
    predict = models.compiled(models.make_predict_fn(model, kind), tx(kind))

    def call():
        ids, attention, _ = predict(source)
        return keras.ops.convert_to_numpy(ids), keras.ops.convert_to_numpy(attention)

    start = time.perf_counter()
    ids, _ = call()  # warm-up: tracing and compilation
    first_call_s = time.perf_counter() - start
    exact = float((ids == target).all(axis=1).mean())
    samples = harness.sample_times(
        call, DECODE_REPEATS, warmup=0, min_sample_s=DECODE_MIN_SAMPLE_S
    )
    rates = [len(source) / seconds for seconds in samples]
    return {
        "seq_per_s": statistics.median(rates),
        "spread": (max(rates) - min(rates)) / 2,
        "exact": exact,
        "first_call_s": first_call_s,
    }
