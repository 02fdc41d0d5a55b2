"""The block layout of EfficientNet-Lite0, read by the model and its weights.

`attention_zoo.encoders.efficientnet_lite0` builds its blocks from it and
`attention_zoo.encoders.efficientnet_lite0_weights` maps the PyTorch blocks to
them; it lives in its own module so that each of those imports it, not the
other.
"""

from __future__ import annotations

from collections.abc import Iterator

# (repeats, kernel size, stride, expand ratio, input filters, output filters)
# of the seven stages: `efficientnet_lite_builder.py` of the official code.
STAGES = (
    (1, 3, 1, 1, 32, 16),
    (2, 3, 2, 6, 16, 24),
    (2, 5, 2, 6, 24, 40),
    (3, 3, 2, 6, 40, 80),
    (3, 5, 1, 6, 80, 112),
    (4, 5, 2, 6, 112, 192),
    (1, 3, 1, 6, 192, 320),
)
NUM_BLOCKS = sum(stage[0] for stage in STAGES)  # 16


def block_configs() -> Iterator[tuple[int, int, int, int, int]]:
    """Yields `(kernel, stride, expand, filters_in, filters_out)` of each block.

    Examples:
        >>> configs = list(block_configs())
        >>> len(configs) == NUM_BLOCKS, configs[0], configs[-1]
        (True, (3, 1, 1, 32, 16), (3, 1, 6, 192, 320))
    """
    for repeats, kernel, stride, expand, filters_in, filters_out in STAGES:
        for repeat in range(repeats):
            if repeat == 0:
                yield kernel, stride, expand, filters_in, filters_out
            else:
                yield kernel, 1, expand, filters_out, filters_out
