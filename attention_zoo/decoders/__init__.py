"""Attention RNN decoders: attention inside the recurrence, and the parallel form."""

from attention_zoo.decoders.attention_rnn_decoder import (
    AttentionRNNDecoder,
    ParallelAttentionDecoder,
)

__all__ = ["AttentionRNNDecoder", "ParallelAttentionDecoder"]
