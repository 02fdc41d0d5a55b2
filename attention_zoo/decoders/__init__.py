"""Attention RNN decoders: attention inside the recurrence, and the parallel form."""

from attention_zoo.decoders.attention_rnn_decoder import (
    AttentionRNNDecoder,
    ParallelAttentionDecoder,
)
from attention_zoo.decoders.show_attend_tell_decoder import ShowAttendTellDecoder

__all__ = ["AttentionRNNDecoder", "ParallelAttentionDecoder", "ShowAttendTellDecoder"]
