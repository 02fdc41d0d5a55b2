"""Encoders that produce the memory attention layers read."""

from attention_zoo.encoders.backbone_blocks import (
    backbone_blocks,
    unfreeze_last_blocks,
)
from attention_zoo.encoders.bidirectional_rnn_encoder import BidirectionalRNNEncoder
from attention_zoo.encoders.efficientnet_lite0 import efficientnet_lite0
from attention_zoo.encoders.feature_grid import FeatureGrid, grid_shape
from attention_zoo.encoders.image_encoder import image_encoder
from attention_zoo.encoders.image_preprocessing import ImagePreprocessing

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
