"""Train, evaluate, predict, plot and export the date normalizer.

A run folder holds everything the other tasks need:

    config.json        model kind, sizes, seed, Tx, the validity threshold
    vocabulary.json    the input characters
    data/{train,validation,test}.json   the generated splits
    model.keras        the trained model
    metrics.json       test metrics, overall and per format, family, language
    logs/              TensorBoard logs
    plots/*.png        attention heatmaps of a few test dates
"""

from attention_zoo.applications.common import InputError
from attention_zoo.applications.dates.config import EXAMPLE_INPUTS, TrainConfig
from attention_zoo.applications.dates.evaluation import (
    evaluate,
    evaluate_examples,
    evaluate_non_dates,
    format_metrics,
)
from attention_zoo.applications.dates.export import export
from attention_zoo.applications.dates.predictor import (
    Normalizer,
    Prediction,
    plot,
    predict,
)
from attention_zoo.applications.dates.training import EpochTimer, train

__all__ = [
    "EXAMPLE_INPUTS",
    "EpochTimer",
    "InputError",
    "Normalizer",
    "Prediction",
    "TrainConfig",
    "evaluate",
    "evaluate_examples",
    "evaluate_non_dates",
    "export",
    "format_metrics",
    "plot",
    "predict",
    "train",
]
