"""Encoders that produce the memory attention layers read."""

from attention_zoo.encoders.bidirectional_rnn_encoder import BidirectionalRNNEncoder
from attention_zoo.encoders.efficientnet_lite0 import efficientnet_lite0
from attention_zoo.encoders.image_encoder import (
    FeatureGrid,
    ImagePreprocessing,
    backbone_blocks,
    grid_shape,
    image_encoder,
    unfreeze_last_blocks,
)

__all__ = [
    "BidirectionalRNNEncoder",
    "FeatureGrid",
    "ImagePreprocessing",
    "backbone_blocks",
    "efficientnet_lite0",
    "grid_shape",
    "image_encoder",
    "unfreeze_last_blocks",
]
