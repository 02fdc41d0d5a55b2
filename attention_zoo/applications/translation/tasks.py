"""Train, evaluate, translate, plot and export a translation model.

A run folder holds everything the other tasks need:

    config.json                       corpus, model flags, sizes, seed
    source_vocabulary.json, target_vocabulary.json
    truecase.json                     {lower: cased} of the training targets
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
    ABLATION,
    LENGTH_BUCKETS,
    ablation,
    evaluate,
    evaluate_pairs,
    format_ablation,
    format_metrics,
    length_bucket,
    postprocessing_ablation,
)
from attention_zoo.applications.translation.export import export
from attention_zoo.applications.translation.lines import (
    FORMATS,
    read_lines,
    translate_lines,
)
from attention_zoo.applications.translation.postprocess import (
    Truecaser,
    cased_tokens,
    detokenize,
)
from attention_zoo.applications.translation.predictor import (
    DECODE_PAD,
    MAX_OUTPUT_TOKENS,
    MAX_SOURCE_TOKENS,
    TRUECASE_FILE,
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
    "ABLATION",
    "FORMATS",
    "TRUECASE_FILE",
    "Truecaser",
    "ablation",
    "cased_tokens",
    "detokenize",
    "format_ablation",
    "postprocessing_ablation",
    "read_lines",
    "translate_lines",
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
