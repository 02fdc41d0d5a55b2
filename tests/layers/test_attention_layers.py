"""The core mechanisms (Bahdanau, Luong's four scores) through the battery."""

from __future__ import annotations

from attention_zoo.layers import BahdanauAttention, LuongAttention
from tests.layers.battery import MAX_LENGTH, AttentionLayerBattery


class TestCoreMechanisms(AttentionLayerBattery):
    MECHANISMS = {
        "bahdanau": lambda **kw: BahdanauAttention(units=6, **kw),
        "bahdanau_normalize": lambda **kw: BahdanauAttention(
            units=6, normalize=True, **kw
        ),
        "luong_dot": lambda **kw: LuongAttention(score_mode="dot", **kw),
        "luong_dot_scaled": lambda **kw: LuongAttention("dot", use_scale=True, **kw),
        "luong_general": lambda **kw: LuongAttention(score_mode="general", **kw),
        "luong_concat": lambda **kw: LuongAttention(score_mode="concat", units=7, **kw),
        "luong_location": lambda **kw: LuongAttention(
            score_mode="location", max_length=MAX_LENGTH, use_scale=True, **kw
        ),
    }
