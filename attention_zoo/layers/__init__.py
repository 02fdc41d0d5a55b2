"""Attention mechanisms, one class per file, on one shared base."""

from attention_zoo.layers.bahdanau_attention import BahdanauAttention
from attention_zoo.layers.base_attention import BaseAttention
from attention_zoo.layers.coverage_attention import CoverageAttention
from attention_zoo.layers.local_attention import LocalAttention
from attention_zoo.layers.location_sensitive_attention import (
    LocationSensitiveAttention,
)
from attention_zoo.layers.luong_attention import LuongAttention
from attention_zoo.layers.monotonic_attention import MonotonicAttention
from attention_zoo.layers.monotonic_chunkwise_attention import (
    MonotonicChunkwiseAttention,
)

__all__ = [
    "BaseAttention",
    "BahdanauAttention",
    "CoverageAttention",
    "LocalAttention",
    "LocationSensitiveAttention",
    "LuongAttention",
    "MonotonicAttention",
    "MonotonicChunkwiseAttention",
]
