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

Scores are sacreBLEU's on the test set: BLEU and chrF of the output as a user
gets it against the raw references, case-sensitive with the default 13a
tokenization, then (`norm` columns) both sides lower-cased with punctuation
split off, the figures of earlier versions. For the default model the
post-processing table scores one greedy decoding of the test set the old way
(the model's lower-cased tokens, `<unk>` kept) and the new way (unknown
words copied from the source, truecased, detokenized) side by side, each
step alone too; the issue's quality target compares the two.

Then the decoder forms: the training throughput of the parallel-form decoder
(`ParallelAttentionDecoder`) against the attention-in-recurrence decoder
(`AttentionRNNDecoder`, Bahdanau placement), same sizes, `--throughput-steps`
batches each, and the decoding speed (greedy and beam 4, test set) of each.

Usage:

    python -m benchmarks.translation                  # 3 x 25 min budget + evaluation
    python -m benchmarks.translation --minutes 15
    python -m benchmarks.translation --quick          # smoke test: numbers corpus, ~2 min
"""

from __future__ import annotations

import datetime
import json
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import keras  # noqa: E402

from attention_zoo.applications.common import text as tokenizer  # noqa: E402
from attention_zoo.applications.translation import model as models  # noqa: E402
from attention_zoo.applications.translation.batches import BUCKETS, BucketedBatches
from attention_zoo.applications.translation.config import TrainConfig
from attention_zoo.applications.translation.corpus import load_corpus
from attention_zoo.applications.translation.evaluation import (
    format_ablation,
    postprocessing_ablation,
)
from attention_zoo.applications.translation.predictor import (
    MAX_SOURCE_TOKENS,
    Translator,
)
from attention_zoo.applications.translation.training import build_model, train
from benchmarks import flops, harness  # noqa: E402
from benchmarks.translation_decoding import (  # noqa: E402
    fixed_length_translate_fn,
    length_batches,
)
from benchmarks.translation_tutorial import run_tutorial  # noqa: E402

DECODE_STEPS = 40  # output tokens per sentence when timing the decoder forms


# ------------------------------------------------------------ our models


def run_ours(config, output, verbose, test_set=None):
    metrics = train(output, config, verbose=verbose)
    training = metrics["training"]
    extra = {}
    if test_set is not None:
        translator = Translator(output)
        extra["postprocessing"] = postprocessing_ablation(
            translator, test_set, beam_width=1
        )
    return {
        **extra,
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
    batches = BucketedBatches(
        [src_vocab.encode(p.source) for p in train_set],
        [tgt_vocab.encode(p.target) for p in train_set],
        config.batch_size,
    )
    model = build_model(config, len(src_vocab), len(tgt_vocab))
    # Warm-up: one batch of every bucket traces and compiles every shape.
    seen = {}
    for i, (length, _) in enumerate(batches.batches):
        seen.setdefault(length, i)
    for i in seen.values():
        x, y = batches[i]
        model.train_on_batch(x, y)
    steps = min(steps, len(batches))
    timed = [pair for _, b in batches.batches[:steps] for pair in b]
    tokens = sum(len(t) + 1 for _, t in timed)
    # The useful work of the timed batches: each pair at its own lengths
    # (the padding to the bucket is work the machine does, not the model).
    work = flops.TRAINING_FACTOR * sum(
        flops.sequence_to_sequence(model, len(s), len(t) + 1) for s, t in timed
    )
    start = time.perf_counter()
    for i in range(steps):
        x, y = batches[i]
        model.train_on_batch(x, y)
    seconds = time.perf_counter() - start
    result = {
        "tokens_per_second": tokens / seconds,
        "steps": steps,
        "flops_per_token": work / tokens,
        "flops_per_second": work / seconds,
    }
    # Decoding cost at a fixed output length: `<end>` is never chosen, so
    # every sentence takes DECODE_STEPS steps whatever the briefly trained
    # weights would say (their output lengths differ between the forms).
    sources = [src_vocab.encode(p.source)[:MAX_SOURCE_TOKENS] for p in splits[2]]
    batches_ = length_batches([s for s in sources if s])
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


# -------------------------------------------------------------------- main


def main(argv=None):
    parser = harness.argument_parser(__doc__)
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
    config = TrainConfig(epochs=args.epochs, max_minutes=args.minutes, **base)
    splits = load_corpus(config)
    print(
        f"# translation benchmark, {datetime.datetime.now():%Y-%m-%d %H:%M}\n\n"
        f"versions: {harness.versions_line()}; machine: {harness.machine_line()}; "
        f"corpus {config.corpus}: "
        f"{len(splits[0]):,} train / {len(splits[1]):,} validation / "
        f"{len(splits[2]):,} test pairs\n"
    )
    results = {}
    if args.only_decoder_forms:
        args.skip = ["tutorial", "none", "default"]
    if "default" not in args.skip:
        results["default"] = run_ours(
            config, output / "default", verbose, test_set=splits[2]
        )
    if "none" not in args.skip:
        none = TrainConfig(
            epochs=args.epochs, max_minutes=args.minutes, attention="none", **base
        )
        results["none"] = run_ours(none, output / "none", verbose)
    if "tutorial" not in args.skip:
        results["tutorial"] = run_tutorial(
            splits, args.minutes, args.epochs, BUCKETS[-1], verbose
        )
    (output / "benchmark.json").write_text(
        json.dumps(results, indent=1, default=str), encoding="utf-8"
    )

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
                    f"{r['greedy'].get('bleu_normalized', float('nan')):.2f}",
                    f"{r['greedy'].get('chrf_normalized', float('nan')):.2f}",
                    f"{r['greedy']['sentences_per_second']:.1f}",
                ]
            )
        harness.print_table(
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
                "greedy BLEU norm",
                "greedy chrF norm",
                "greedy sent/s",
            ],
            rows,
            numeric_columns=True,
        )
        print(f"BLEU signature: {results['default']['greedy']['bleu_signature']}")
        print(f"chrF signature: {results['default']['greedy']['chrf_signature']}\n")
        d = results["default"]
        print("### Post-processing of the default model (greedy, same decoding)\n")
        print(format_ablation(d["postprocessing"]) + "\n")
        before, after = d["postprocessing"][0]["bleu"], d["postprocessing"][-1]["bleu"]
        harness.print_table(
            ["target", "measured", "verdict"],
            [
                [
                    "readable output >= 3 BLEU (13a, cased) over the old output",
                    f"{after:.2f} vs {before:.2f}",
                    harness.verdict(after >= before + 3),
                ]
            ],
        )
        if "tutorial" in results:
            t = results["tutorial"]
            speed = d["tokens_per_second"] / t["tokens_per_second"]
            harness.print_table(
                ["target", "measured", "verdict"],
                [
                    [
                        "default greedy BLEU > tutorial",
                        f"{d['greedy']['bleu']:.2f} vs {t['greedy']['bleu']:.2f}",
                        harness.verdict(d["greedy"]["bleu"] > t["greedy"]["bleu"]),
                    ],
                    [
                        "default greedy chrF > tutorial",
                        f"{d['greedy']['chrf']:.2f} vs {t['greedy']['chrf']:.2f}",
                        harness.verdict(d["greedy"]["chrf"] > t["greedy"]["chrf"]),
                    ],
                    [
                        "train tokens/s >= 2x tutorial",
                        harness.ratio_text(
                            d["tokens_per_second"], t["tokens_per_second"]
                        ),
                        harness.verdict(speed >= 2.0),
                    ],
                ],
            )

    print("## Decoder forms (same sizes), training throughput and decoding\n")
    limit = harness.matmul_flops()
    rows = []
    for form in ("parallel", "recurrent"):
        form_config = TrainConfig(epochs=1, decoder=form, **base)
        t = throughput(form_config, splits, args.throughput_steps, verbose)
        rows.append(
            [
                form,
                f"{t['tokens_per_second']:,.0f}",
                f"{t['flops_per_token'] / 1e6:.2f}",
                f"{100 * t['flops_per_second'] / limit:.1f} %",
                f"{t['steps']}",
                f"{t['decode_1']:.1f}",
                f"{t['decode_4']:.1f}",
            ]
        )
    harness.print_table(
        [
            "decoder",
            "train tokens/s",
            "MFLOP a token",
            "share of the machine's limit",
            "batches timed",
            f"greedy sent/s ({DECODE_STEPS} tokens)",
            f"beam 4 sent/s ({DECODE_STEPS} tokens)",
        ],
        rows,
        numeric_columns=True,
    )
    print(
        "share of the machine's limit: the training's floating-point work a "
        "target token (3x the forward pass, `benchmarks/flops.py`: each "
        "pair at its own lengths) x tokens/s, over "
        f"{limit / 1e9:.1f} GFLOP/s, a 2048 x 2048 float32 matmul measured "
        "in this run\n"
    )
    print(
        f"load average (1, 5, 15 min): {harness.load_average()}; run folders in {output}"
    )


if __name__ == "__main__":
    main()
