"""The static checks of an attention call: ranks, batch sizes, lengths, masks.

Shapes are tuples with `None` for what is unknown (symbolic dimensions); a
check passes where a size it compares is unknown.
"""

from __future__ import annotations


def check_value_given(name: str, value) -> None:
    """Refuse a missing memory by name: `layer(query, None)`.

    Args:
        name: the layer class, the start of the message.
        value: the memory tensor (or its shape, in `build`).
    """
    if value is None:
        raise ValueError(
            f"{name}: attention needs a value (memory) tensor. Received: value=None"
        )


def check_attention_shapes(
    name: str,
    query_shape,
    value_shape,
    key_shape,
    query_mask_shape=None,
    value_mask_shape=None,
    key_name: str = "key",
) -> None:
    """Raise a `ValueError` naming the argument for shapes that cannot be right.

    Args:
        name: the layer class, the start of every message.
        query_shape: `(B, Tq, Dq)` or `(B, Dq)`.
        value_shape: `(B, Tv, Dv)`.
        key_shape: `(B, Tv, Dk)`.
        query_mask_shape: `None`, or the shape of `query_mask`: the query's
            shape without its last axis.
        value_mask_shape: `None`, or the shape of `value_mask`: `(B, Tv)`.
        key_name: the name of the third tensor in the messages: `"key"` for a
            call, `"projected_key"` for `attend` and `step`.
    """
    query_shape, value_shape, key_shape = (
        tuple(query_shape),
        tuple(value_shape),
        tuple(key_shape),
    )
    if len(query_shape) not in (2, 3):
        raise ValueError(
            f"{name}: `query` must have rank 3 (batch_size, Tq, Dq) or rank "
            f"2 (batch_size, Dq) for a single step. Received: "
            f"query.shape={query_shape}"
        )
    for arg, shape, dims in (
        ("value", value_shape, "(batch_size, Tv, Dv)"),
        (key_name, key_shape, "(batch_size, Tv, Dk)"),
    ):
        if len(shape) != 3:
            raise ValueError(
                f"{name}: `{arg}` must have rank 3 {dims}. Received: "
                f"{arg}.shape={shape}"
            )
    batch_sizes = {
        arg: shape[0]
        for arg, shape in (
            ("query", query_shape),
            ("value", value_shape),
            (key_name, key_shape),
        )
        if shape[0] is not None
    }
    if len(set(batch_sizes.values())) > 1:
        received = ", ".join(f"{k}.shape[0]={v}" for k, v in batch_sizes.items())
        raise ValueError(
            f"{name}: `query`, `value` and `{key_name}` must have the same "
            f"batch size. Received: {received}"
        )
    if None not in (key_shape[1], value_shape[1]) and key_shape[1] != value_shape[1]:
        raise ValueError(
            f"{name}: `{key_name}` and `value` must have the same length "
            f"Tv. Received: {key_name}.shape={key_shape}, "
            f"value.shape={value_shape}"
        )
    expected_query_mask = query_shape[:-1]
    for arg, mask_shape, expected in (
        ("query_mask", query_mask_shape, expected_query_mask),
        ("value_mask", value_mask_shape, value_shape[:2]),
    ):
        if mask_shape is None:
            continue
        mask_shape = tuple(mask_shape)
        compatible = len(mask_shape) == len(expected) and all(
            a is None or b is None or a == b for a, b in zip(mask_shape, expected)
        )
        if not compatible:
            raise ValueError(
                f"{name}: `{arg}` must have shape {expected}. Received: "
                f"{arg}.shape={mask_shape}"
            )
