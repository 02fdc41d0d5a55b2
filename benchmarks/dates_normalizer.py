"""The date normalizer as a user meets it: `python -m benchmarks.dates --normalizer`.

Four tables, each on a trained run folder (`--run`, trained first with
`attention-zoo dates train` defaults, or by this script into a temporary
folder with the `--train-size`/`--epochs` given):

1. Non-dates: the share of the hand-written `non_dates.txt` flagged invalid
   (target >= 99 %), with the reasons, beside the share of the run's test
   dates that stay valid (target >= 99.5 %).
2. Hand-written real dates (`real_dates.tsv`): exact match, valid, per
   language (target >= 98 % exact).
3. Leave one family out: for each format family, a default model trained
   on the other families (plus non-dates) and tested on that family.
4. Serving speed: the exported SavedModel (loaded with plain
   `tf.saved_model.load`) against the in-process compiled predictor, one
   string (p50) and batches of 1,000 (dates/s).
"""

from __future__ import annotations

import collections
import itertools
import statistics
import tempfile
import time
from pathlib import Path

import keras
import numpy as np

from attention_zoo.applications.dates import data
from attention_zoo.applications.dates import model as models
from attention_zoo.applications.dates.config import TrainConfig
from attention_zoo.applications.dates.evaluation import evaluate_non_dates
from attention_zoo.applications.dates.export import export
from attention_zoo.applications.dates.predictor import Normalizer
from attention_zoo.applications.dates.training import train
from benchmarks import harness
from benchmarks.flops import sequence_to_sequence
from tests.applications.dates.hand_written import read_non_dates, read_real_dates


def test_examples(run) -> list:
    """The run's test examples, or the slice a preset ships with."""
    from attention_zoo.applications.common.preset_build import SLICE_FILE

    path = Path(run) / "data" / "test.json"
    return data.load_examples(path if path.is_file() else Path(run) / SLICE_FILE)


def non_date_rows(normalizer, run) -> list:
    non_dates = evaluate_non_dates(normalizer, read_non_dates())
    test = test_examples(run)
    _, valid, _, _ = normalizer.scored([e.text for e in test])
    reasons = ", ".join(f"{k}: {v}" for k, v in non_dates["reasons"].items())
    accepted = "; ".join(
        f"{a['text']!r} -> {a['predicted']}" for a in non_dates["accepted"][:8]
    )
    return (
        [
            [
                f"non-dates flagged invalid (n = {non_dates['n']})",
                f"{100 * non_dates['flagged']:.2f} %",
                ">= 99 %",
                harness.verdict(non_dates["flagged"] >= 0.99),
            ],
            [
                f"run's test dates still valid (n = {len(test)})",
                f"{100 * valid.mean():.2f} %",
                ">= 99.5 %",
                harness.verdict(valid.mean() >= 0.995),
            ],
        ],
        reasons,
        accepted,
    )


def real_date_rows(normalizer) -> tuple[list, list, float]:
    rows = read_real_dates()
    isos, valid, _, _ = normalizer.scored([text for _, _, text in rows])
    exact = np.array([p == iso for p, (iso, _, _) in zip(isos, rows)])
    groups = collections.defaultdict(list)
    for hit, ok, (_, language, _) in zip(exact, valid, rows):
        groups[language].append((hit, ok))
    table = [
        [
            language,
            str(len(v)),
            f"{100 * np.mean([h for h, _ in v]):.1f}",
            f"{100 * np.mean([o for _, o in v]):.1f}",
        ]
        for language, v in sorted(groups.items())
    ]
    table.append(
        [
            "all",
            str(len(rows)),
            f"{100 * exact.mean():.1f}",
            f"{100 * valid.mean():.1f}",
        ]
    )
    misses = [
        f"{text!r} -> {p or '<invalid>'} (expected {iso})"
        for p, (iso, _, text) in zip(isos, rows)
        if p != iso
    ]
    return table, misses, float(exact.mean())


def _exact_match(predict, vocabulary, examples) -> float:
    ids = keras.ops.convert_to_numpy(
        predict(vocabulary.encode([e.text for e in examples]))[0]
    )
    isos = data.IsoVocabulary().decode(ids)
    return float(np.mean([p == e.iso for p, e in zip(isos, examples)]))


def leave_one_family_out(train_size, epochs, test_size, seed) -> list:
    """Per family: exact match of a model trained without it, tested on it,
    and (the control) on as many new dates of the families it trained on."""
    rows = []
    for family in data.FAMILIES:
        others = [f for f in data.FAMILIES if f != family]
        train, val, _ = data.make_splits(
            train_size, 200, 0, seed=seed, negatives=0.25, families=others
        )
        seen = {data.normalize(e.text) for e in train + val}
        test = data.generate(test_size, seed + 7, exclude=seen, families=[family])
        control = data.generate(test_size, seed + 8, exclude=seen, families=others)
        vocabulary = data.CharVocabulary.from_texts(
            [e.text for e in train if e.is_date]
        )
        keras.utils.set_random_seed(seed)
        model = models.build_default(len(vocabulary))
        steps = -(-len(train) // 128) * epochs
        models.compile_model(model, "default", total_steps=steps)
        x, y = models.training_arrays(
            "default",
            vocabulary.encode([e.text for e in train]),
            [e.iso for e in train],
        )
        start = time.perf_counter()
        model.fit(x, y, batch_size=128, epochs=epochs, verbose=0)
        seconds = time.perf_counter() - start
        predict = models.compiled(models.make_predict_fn(model, "default"))
        exact, exact_seen = (
            _exact_match(predict, vocabulary, examples) for examples in (test, control)
        )
        unk = np.mean([bool(vocabulary.unknown(e.text)) for e in test])
        rows.append(
            [
                family,
                str(len(test)),
                f"{100 * exact:.1f}",
                f"{100 * exact_seen:.1f}",
                f"{100 * unk:.0f}",
                f"{seconds:.0f}",
            ]
        )
        print(
            f"  left out {family}: {100 * exact:.1f} % (seen families "
            f"{100 * exact_seen:.1f} %)",
            flush=True,
        )
    return rows


def load_saved_model(run, folder) -> tuple:
    """`(loaded, serving_default)`: the run exported into `folder` and
    loaded with plain `tf.saved_model.load`, as a server would. Keep
    `loaded` alive while calling its signature."""
    import tensorflow as tf

    export(run, Path(folder) / "saved")
    loaded = tf.saved_model.load(str(Path(folder) / "saved"))
    return loaded, loaded.signatures["serving_default"]


def serving_rows(normalizer, run, seed) -> list:
    import tensorflow as tf

    test = [e.text for e in test_examples(run)]
    batch = (test * (1000 // len(test) + 1))[:1000]
    with tempfile.TemporaryDirectory() as folder:
        loaded, serve = load_saved_model(run, folder)  # loaded: kept alive
        one = tf.constant(batch[:1])
        many = tf.constant(batch)

        def saved(x):
            return lambda: serve(text=x)["valid"].numpy()

        def local(texts):
            return lambda: normalizer.scored(texts)[1]

        # The SavedModel reads the batch's longest input rounded up to a
        # multiple of 8 (export.py); the in-process predictor all of tx.
        longest = max(len(data.normalize(t)) for t in batch)
        widths = {
            "SavedModel": min(normalizer.tx, max(8, -(-longest // 8) * 8)),
            "in-process compiled predictor": normalizer.tx,
        }
        cases = {
            "SavedModel": (saved(one), saved(many)),
            "in-process compiled predictor": (local(batch[:1]), local(batch)),
        }
        limit = harness.matmul_flops()
        rows = []
        for name, (single, thousand) in cases.items():
            single_s = statistics.median(harness.sample_times(single, 200, warmup=3))
            batch_s = statistics.median(
                harness.sample_times(thousand, 7, warmup=2, min_sample_s=0.2)
            )
            counted = ["n/a", "n/a"]  # the count is the default model's
            if normalizer.kind == "default":
                flops = sequence_to_sequence(
                    normalizer.model, widths[name], data.TY + 1
                )
                counted = [
                    f"{widths[name]}: {flops / 1e6:.2f}",
                    f"{100 * flops * 1000 / batch_s / limit:.1f} %",
                ]
            rows.append(
                [name, f"{1000 * single_s:.2f}", f"{1000 / batch_s:,.0f}", *counted]
            )
    print(f"Machine's limit: a 2048 x 2048 float32 matmul, {limit / 1e9:.1f} GFLOP/s.")
    return rows


def serving_ab_rows(run, baseline) -> list:
    """One string (p50) and batches of 1,000 through the SavedModels of
    `run` and `baseline` (each a run, exported here, or a SavedModel
    folder), sampled in turn (`harness.time_interleaved`) on
    the same inputs, `run`'s test dates: an A/B of two runs or presets on
    this machine, whose absolute speed moves 2x from day to day."""
    import tensorflow as tf

    test = [e.text for e in test_examples(run)]
    batch = tf.constant((test * (1000 // len(test) + 1))[:1000])
    singles = [tf.constant([t]) for t in test[:200]]

    def load(path, folder):
        # A SavedModel folder as it is (exported by another version of the
        # code: the A/B then includes its graph's rules), or a run to export.
        if (Path(path) / "saved_model.pb").is_file():
            loaded = tf.saved_model.load(str(path))
            return loaded, loaded.signatures["serving_default"]
        return load_saved_model(path, folder)

    with tempfile.TemporaryDirectory() as folder:
        served = {
            name: load(path, Path(folder) / name)
            for name, path in (("run", run), ("baseline", baseline))
        }
        one, many = {}, {}
        for name, (_, serve) in served.items():
            calls = itertools.count()

            def single(serve=serve, calls=calls):
                return serve(text=singles[next(calls) % len(singles)])["valid"].numpy()

            one[name] = single
            many[name] = lambda serve=serve: serve(text=batch)["valid"].numpy()
        single_t = harness.time_interleaved(one, repeats=200, warmup=3, min_sample_s=0)
        batch_t = harness.time_interleaved(many, repeats=9, min_sample_s=0.2)
    rows = []
    for name, path in (("run", run), ("baseline", baseline)):
        rows.append(
            [
                f"{name}: {path}",
                f"{1000 * single_t[name].median:.2f}",
                f"{1000 / batch_t[name].median:,.0f}",
                harness.ratio_text(batch_t["baseline"].median, batch_t[name].median),
            ]
        )
    return rows


def run_normalizer(args) -> None:
    harness.print_facts(
        harness.run_facts() + [f"load average: {harness.load_average()}"]
    )
    with tempfile.TemporaryDirectory() as temporary:
        run = args.run
        if run is None:
            run = Path(temporary) / "run"
            config = TrainConfig(
                n_train=args.train_size, epochs=args.epochs, seed=args.seed
            )
            print(f"training {config}", flush=True)
            train(run, config, verbose=0)
        normalizer = Normalizer(run)
        print(f"\nrun: {run}; threshold {normalizer.threshold:.3f}\n")
        rows, reasons, accepted = non_date_rows(normalizer, run)
        harness.print_table(["", "measured", "target", "result"], rows)
        print(
            f"Reasons: {reasons}.\n\nAccepted non-dates (first 8): {accepted or 'none'}\n"
        )
        table, misses, exact = real_date_rows(normalizer)
        harness.print_table(
            ["language", "n", "exact match, %", "valid, %"], table, True
        )
        print(
            f"Target >= 98 % exact: {harness.verdict(exact >= 0.98)}. Misses ({len(misses)}):\n"
        )
        for miss in misses:
            print(f"- {miss}")
        print()
        if args.serving:
            harness.print_table(
                [
                    "",
                    "one string, p50 ms",
                    "batch of 1,000, dates/s",
                    "width read: MFLOP a date",
                    "share of the machine's limit",
                ],
                serving_rows(normalizer, run, args.seed),
                True,
            )
            print("Targets (SavedModel): p50 <= 3 ms, >= 20,000 dates/s.\n")
        if args.baseline:
            harness.print_table(
                [
                    "SavedModel",
                    "one string, p50 ms",
                    "batch of 1,000, dates/s",
                    "batch, x baseline",
                ],
                serving_ab_rows(run, args.baseline),
                True,
            )
    if args.lofo:
        print(
            f"Leave one family out: {args.lofo_train_size} training dates of the other "
            f"families (+25 % non-dates), {args.lofo_epochs} epoch(s), "
            f"{args.lofo_test_size} test dates of the family left out and as many "
            "of the families trained on (the control)\n"
        )
        rows = leave_one_family_out(
            args.lofo_train_size, args.lofo_epochs, args.lofo_test_size, args.seed
        )
        harness.print_table(
            [
                "family left out",
                "n",
                "exact match, %",
                "control: seen families, %",
                "inputs with unseen characters, %",
                "fit s",
            ],
            rows,
            True,
        )
