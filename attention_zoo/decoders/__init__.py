"""Attention RNN decoders: attention inside the recurrence, and the parallel form."""

from attention_zoo.decoders.attention_rnn_decoder import AttentionRNNDecoder
from attention_zoo.decoders.parallel_attention_decoder import ParallelAttentionDecoder
from attention_zoo.decoders.show_attend_tell_decoder import ShowAttendTellDecoder

__all__ = ["AttentionRNNDecoder", "ParallelAttentionDecoder", "ShowAttendTellDecoder"]
