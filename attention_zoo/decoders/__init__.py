"""Step decoders: a declared protocol and its implementations.

`protocol` says what the decoding functions need from a decoder; the
attention RNN decoder (attention inside the recurrence), its parallel form,
Show-Attend-Tell's decoder and the fixed-context decoder (no attention)
implement it. `PointerGenerator` is copy attention: the output of any of
them mixed with a copy distribution over the source.
"""

from attention_zoo.decoders.attention_rnn_decoder import AttentionRNNDecoder
from attention_zoo.decoders.fixed_context_decoder import FixedContextDecoder
from attention_zoo.decoders.parallel_attention_decoder import ParallelAttentionDecoder
from attention_zoo.decoders.pointer_generator import (
    PointerGenerator,
    extended_source_ids,
)
from attention_zoo.decoders.protocol import StepDecoder, check_step_decoder
from attention_zoo.decoders.show_attend_tell_decoder import ShowAttendTellDecoder

__all__ = [
    "AttentionRNNDecoder",
    "FixedContextDecoder",
    "ParallelAttentionDecoder",
    "PointerGenerator",
    "ShowAttendTellDecoder",
    "StepDecoder",
    "check_step_decoder",
    "extended_source_ids",
]
