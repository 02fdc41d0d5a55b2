"""Encoders that produce the memory attention layers read."""

from attention_zoo.encoders.bidirectional_rnn_encoder import BidirectionalRNNEncoder

__all__ = ["BidirectionalRNNEncoder"]
