"""Constructor arguments shared by the attention RNN decoders: the cell and
the mechanisms, deserialised from a config and checked."""

from __future__ import annotations

import keras

from attention_zoo._checks import checked_bool, checked_seed, is_int, is_rate
from attention_zoo.layers.base_attention import BaseAttention

STYLES = ("bahdanau", "luong")
INITIAL_STATES = ("zeros", "mean_memory")


def as_list(x):
    """`x` as a list: a list or tuple copied, anything else wrapped."""
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _deserialize(x):
    return keras.saving.deserialize_keras_object(x) if isinstance(x, dict) else x


def cell_and_attention(owner: str, cell, attention):
    """`(cell, attention)`, deserialised where configs, or a ValueError.

    Args:
        owner: the class name errors start with.
        cell: a Keras RNN cell without dropout, or its config.
        attention: a `BaseAttention`, its config, or a non-empty list of
            either.

    Returns:
        The cell and the attention (a list stays a list).
    """
    cell = _deserialize(cell)
    if isinstance(attention, (list, tuple)):
        attention = [_deserialize(a) for a in attention]
        if not attention:
            raise ValueError(
                f"{owner}: `attention` must be an attention layer or a non-empty "
                "list of them. Received: attention=[]"
            )
    else:
        attention = _deserialize(attention)
    for mechanism in as_list(attention):
        if not isinstance(mechanism, BaseAttention):
            raise ValueError(
                f"{owner}: `attention` must be an attention layer of "
                f"attention_zoo (a BaseAttention) or a list of them. Received: "
                f"attention={attention!r}"
            )
    if not hasattr(cell, "state_size") or not hasattr(cell, "units"):
        raise ValueError(
            f"{owner}: `cell` must be a Keras RNN cell with `units` and "
            f"`state_size` (GRUCell, LSTMCell, SimpleRNNCell). Received: "
            f"cell={cell!r}"
        )
    if getattr(cell, "dropout", 0) or getattr(cell, "recurrent_dropout", 0):
        raise ValueError(
            f"{owner}: dropout inside the cell is not supported; pass "
            f"`dropout` to the decoder. Received: cell.dropout="
            f"{getattr(cell, 'dropout', 0)}, cell.recurrent_dropout="
            f"{getattr(cell, 'recurrent_dropout', 0)}"
        )
    return cell, attention


def checked_placement(owner: str, style, input_feeding, attention_output_units):
    """`(style, input_feeding, attention_output_units)` checked, or a ValueError."""
    name = owner
    if style not in STYLES:
        raise ValueError(
            f"{name}: `style` must be one of {STYLES}. Received: style={style!r}"
        )
    input_feeding = checked_bool(name, "input_feeding", input_feeding)
    if input_feeding and style != "luong":
        raise ValueError(
            f"{name}: `input_feeding` needs style='luong'. Received: "
            f"style={style!r}, input_feeding={input_feeding}"
        )
    if attention_output_units is not None and (
        not is_int(attention_output_units) or attention_output_units <= 0
    ):
        raise ValueError(
            f"{name}: `attention_output_units` must be a positive integer. "
            f"Received: attention_output_units={attention_output_units!r}"
        )
    units = None if attention_output_units is None else int(attention_output_units)
    return style, input_feeding, units


def checked_common(owner: str, initial_state, dropout, seed):
    """`(initial_state, dropout, seed)` checked, or a ValueError naming one."""
    name = owner
    if initial_state not in INITIAL_STATES:
        raise ValueError(
            f"{name}: `initial_state` must be one of {INITIAL_STATES}. "
            f"Received: initial_state={initial_state!r}"
        )
    if not is_rate(dropout):
        raise ValueError(
            f"{name}: `dropout` must be a float in [0, 1). Received: dropout={dropout}"
        )
    return initial_state, float(dropout), checked_seed(name, seed)
