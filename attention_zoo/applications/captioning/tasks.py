"""Train, evaluate, caption, plot and export a Show-Attend-Tell captioner.

A run folder holds everything the other tasks need:

    config.json          dataset, backbone, sizes, seed, caption length
    vocabulary.json      the caption words
    encoder.keras        the image encoder (frozen, or fine-tuned)
    model.keras          the caption model over the encoder's feature grid
    data/test.json       the held-out images (absolute paths) and captions (user data)
    metrics.json         training budget and speed; test BLEU-1..4 by beam
                         size, attention grounding (generated scenes)
    logs/                TensorBoard logs
    plots/*.png          attention overlays, one panel per generated word

The rules for inputs are `predictor`'s docstring.
"""

from attention_zoo.applications.captioning.batches import CaptionBatches
from attention_zoo.applications.captioning.config import (
    BACKBONES,
    DATASETS,
    FEATURE_LAYERS,
    MAX_CAPTION_TOKENS,
    TrainConfig,
)
from attention_zoo.applications.captioning.dataset import (
    Item,
    load_dataset,
    test_items,
)
from attention_zoo.applications.captioning.evaluation import (
    attention_spread,
    bleu_scores,
    evaluate,
    evaluate_items,
    format_metrics,
    grounding,
)
from attention_zoo.applications.captioning.export import export
from attention_zoo.applications.captioning.features import (
    build_encoder,
    extract_features,
    image_array,
    image_batches,
)
from attention_zoo.applications.captioning.predictor import (
    MAX_PIXELS,
    Captioner,
    caption,
    plot,
    read_image_file,
)
from attention_zoo.applications.captioning.training import train
from attention_zoo.applications.common import InputError

__all__ = [
    "BACKBONES",
    "DATASETS",
    "FEATURE_LAYERS",
    "MAX_CAPTION_TOKENS",
    "MAX_PIXELS",
    "CaptionBatches",
    "Captioner",
    "InputError",
    "Item",
    "TrainConfig",
    "attention_spread",
    "bleu_scores",
    "build_encoder",
    "caption",
    "evaluate",
    "evaluate_items",
    "export",
    "extract_features",
    "format_metrics",
    "grounding",
    "image_array",
    "image_batches",
    "load_dataset",
    "plot",
    "read_image_file",
    "test_items",
    "train",
]
