"""The captioner's training settings: one field, one `train` flag."""

from __future__ import annotations

from dataclasses import dataclass, field

from attention_zoo.applications.common.config import (
    batch_size_field,
    beam_width_field,
    distribute_field,
    epochs_field,
    finite_positive,
    integer_range,
    length_penalty_field,
    max_minutes_field,
    non_negative,
    patience_field,
    positive,
    seed_field,
    unit_interval,
)

BACKBONES = ("efficientnet_lite0", "inception_v3", "resnet50", "mobilenet_v2")
DATASETS = ("scenes", "flickr8k", "coco", "tfds")
# The grid the caption model attends over: each backbone's last feature map
# at stride 16 (14 x 14 at 224 px; InceptionV3: 17 x 17 at 299), the
# resolution of Show, Attend and Tell's VGG grid. Its features are more local
# than the stride-32 map's, which is what lets attention find the objects
# (docs/captioning.md measures both).
FEATURE_LAYERS = {
    "efficientnet_lite0": "block10_add",
    "resnet50": "conv4_block6_out",
    "mobilenet_v2": "block_12_add",
    "inception_v3": "mixed7",
}
MAX_CAPTION_TOKENS = 40


def _weights(value: str) -> str | None:
    return None if value.lower() == "none" else value


@dataclass
class TrainConfig:
    # `attention-zoo captioning train` sets these three from --flickr8k,
    # --coco or --tfds.
    dataset: str = field(default="scenes", metadata={"cli": False})
    images_dir: str | None = field(  # flickr8k / coco
        default=None, metadata={"cli": False}
    )
    captions_file: str | None = field(  # flickr8k token file / coco JSON
        default=None, metadata={"cli": False}
    )
    tfds_data_dir: str | None = field(
        default=None,
        metadata={
            "help": "tensorflow_datasets data folder of --tfds (default: "
            "tensorflow_datasets' own, ~/tensorflow_datasets)"
        },
    )
    download: bool = field(
        default=False,
        metadata={"help": "let tensorflow_datasets download coco_captions (network)"},
    )
    n_train: int = field(  # scenes; tfds: images per split at most
        default=6000,
        metadata={
            "check": positive,
            "help": "training images: generated scenes, or --tfds images at most",
        },
    )
    n_validation: int = field(
        default=500,
        metadata={
            "check": positive,
            "help": "validation images: generated scenes, or --tfds images at most",
        },
    )
    n_test: int = field(
        default=1000,
        metadata={
            "check": positive,
            "help": "test images: generated scenes, or --tfds images at most",
        },
    )
    backbone: str = field(
        default="efficientnet_lite0",
        metadata={"choices": BACKBONES, "help": "ImageNet CNN that reads the image"},
    )
    weights: str | None = field(
        default="imagenet",
        metadata={
            "type": _weights,
            "help": "backbone weights: imagenet (offline for efficientnet_lite0), "
            "none, or a .weights.h5 path",
        },
    )
    image_size: int | None = field(  # None: the backbone's default
        default=None,
        metadata={
            "check": positive,
            "help": "side in pixels of the square image the backbone reads "
            "(default: the backbone's, 224; 299 for inception_v3)",
        },
    )
    feature_layer: str | None = field(  # None: FEATURE_LAYERS; "last": stride 32
        default=None,
        metadata={
            "help": "backbone layer of the grid (default: the stride-16 map, "
            "14x14 at 224 px; 'last' for the final 7x7 map)"
        },
    )
    initial_state: str = field(  # or "mean_memory", the paper's
        default="zeros",
        metadata={
            "choices": ("zeros", "mean_memory"),
            "help": "decoder state before the first word: zeros, or mean_memory, "
            "the paper's MLP of the mean feature",
        },
    )
    fine_tune_blocks: int = field(
        default=0,
        metadata={
            "check": integer_range(0, 1000),
            "help": "backbone blocks trained too, counted from the last, from 0 "
            "to 1000; above 0 the features are not cached",
        },
    )
    units: int = field(
        default=256, metadata={"check": positive, "help": "LSTM units of the decoder"}
    )
    embedding_dim: int = field(
        default=128,
        metadata={
            "check": positive,
            "help": "word vector size, also the deep output's",
        },
    )
    attention_units: int = field(
        default=128,
        metadata={"check": positive, "help": "units of the additive attention score"},
    )
    feature_units: int = field(
        default=256,
        metadata={
            "check": positive,
            "help": "size the grid features are projected to",
        },
    )
    dropout: float = field(
        default=0.3,
        metadata={
            "check": unit_interval,
            "help": "dropout rate of the decoder's inputs and outputs, in [0, 1)",
        },
    )
    context_dropout: float = field(  # not in the paper: see docs/captioning.md
        default=0.5,
        metadata={
            "check": unit_interval,
            "help": "fraction of training steps at which the LSTM does not see "
            "the attention context, in [0, 1); 0 is the paper's decoder",
        },
    )
    gate: bool = field(
        default=True,
        metadata={
            "flag": "--no-gate",
            "help": "drop the beta gate on the context (default: the paper's gate)",
        },
    )
    position_embedding: bool = field(
        default=True,
        metadata={
            "flag": "--no-position-embedding",
            "help": "no learned embedding of grid positions (default: one is "
            "added to each position's feature)",
        },
    )
    doubly_stochastic: float = field(
        default=0.0,
        metadata={
            "check": non_negative,
            "help": "lambda of the doubly stochastic attention term, >= 0; the "
            "paper's is 1",
        },
    )
    vocab_size: int = field(default=5000, metadata={"cli": False})
    batch_size: int = batch_size_field(64)
    epochs: int = epochs_field(15)
    max_minutes: float | None = max_minutes_field()
    learning_rate: float = field(
        default=2e-3,
        metadata={
            "check": finite_positive,
            "help": "Adam's peak rate, after the warm-up",
        },
    )
    warmup_epochs: float = field(  # linear warm-up, at most half of the training
        default=1.0,
        metadata={
            "check": non_negative,
            "help": "epochs of linear learning-rate warm-up before the cosine "
            "decay, at most half of --epochs",
        },
    )
    patience: int = patience_field(3)
    beam_width: int = beam_width_field(3)
    alpha: float = length_penalty_field(0.0)
    seed: int = seed_field()
    distribute: str | None = distribute_field()
