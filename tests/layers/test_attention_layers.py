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


def test_numpy_integer_arguments_give_python_ints_in_the_config():
    import json

    import keras
    import numpy as np

    from attention_zoo.decoders import AttentionRNNDecoder
    from attention_zoo.encoders import BidirectionalRNNEncoder
    from attention_zoo.layers import (
        LocalAttention,
        MonotonicAttention,
        MonotonicChunkwiseAttention,
    )

    n = np.int64(3)
    objects = [
        BahdanauAttention(units=n),
        LuongAttention("concat", units=n),
        LuongAttention("location", max_length=n),
        LocalAttention("local-p", window=n, predictive_units=n),
        MonotonicAttention(units=n),
        MonotonicChunkwiseAttention(chunk_size=n, units=n),
        AttentionRNNDecoder(
            keras.layers.GRUCell(4), BahdanauAttention(4), attention_output_units=n
        ),
        BidirectionalRNNEncoder(units=n, num_layers=n),
    ]
    query = np.ones((2, 2, 4), "float32")
    value = np.ones((2, 3, 4), "float32")
    for layer in objects[:6]:  # the mechanisms also run
        assert tuple(layer(query, value).shape) == (2, 2, 4)
    for layer in objects:
        config = layer.get_config()
        json.dumps(config)  # NumPy integers are not JSON-serialisable
        for key in (
            "units",
            "max_length",
            "window",
            "predictive_units",
            "chunk_size",
            "attention_output_units",
            "num_layers",
        ):
            if config.get(key) is not None:
                assert type(config[key]) is int, (layer, key)
