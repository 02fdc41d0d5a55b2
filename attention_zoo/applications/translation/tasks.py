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

The rules for inputs are `predictor`'s docstring.
"""

from attention_zoo.applications.common import InputError, TimeBudget, decodings
from attention_zoo.applications.translation.batches import BUCKETS, BucketedBatches
from attention_zoo.applications.translation.comparison import (
    compare_lengths,
    compare_runs,
    plot_lengths,
    run_labels,
)
from attention_zoo.applications.translation.config import (
    CORPORA,
    EXAMPLE_SENTENCES,
    TrainConfig,
)
from attention_zoo.applications.translation.corpus import load_corpus, read_pairs
from attention_zoo.applications.translation.evaluation import (
    LENGTH_BUCKETS,
    evaluate,
    evaluate_pairs,
    format_metrics,
    length_bucket,
)
from attention_zoo.applications.translation.export import export
from attention_zoo.applications.translation.predictor import (
    DECODE_PAD,
    MAX_OUTPUT_TOKENS,
    MAX_SOURCE_TOKENS,
    Translator,
    plot,
    translate,
)
from attention_zoo.applications.translation.training import (
    TokenCounter,
    build_model,
    train,
)

__all__ = [
    "BUCKETS",
    "BucketedBatches",
    "CORPORA",
    "DECODE_PAD",
    "EXAMPLE_SENTENCES",
    "InputError",
    "LENGTH_BUCKETS",
    "MAX_OUTPUT_TOKENS",
    "MAX_SOURCE_TOKENS",
    "TimeBudget",
    "TokenCounter",
    "TrainConfig",
    "Translator",
    "build_model",
    "compare_lengths",
    "compare_runs",
    "decodings",
    "evaluate",
    "evaluate_pairs",
    "export",
    "format_metrics",
    "length_bucket",
    "load_corpus",
    "plot",
    "plot_lengths",
    "read_pairs",
    "run_labels",
    "train",
    "translate",
]
