"""The blocks of a backbone, and unfreezing the last ones for fine-tuning."""

from __future__ import annotations

import re

import keras

from attention_zoo._checks import is_int


def backbone_blocks(model: keras.Model) -> dict[str, list[keras.layers.Layer]]:
    """The blocks of a backbone, in order, with their layers.

    A block is the unit that `unfreeze_last_blocks` counts:

    - `efficientnet_lite0`: `"stem"`, the 16 MBConv blocks `"block0"` to
      `"block15"`, then `"head"` (1x1 convolution to 1280 channels).
    - `resnet50`: `"stem"` (`conv1`, `pool1`), then the 16 residual blocks
      `"conv2_block1"` to `"conv5_block3"`.
    - `mobilenet_v2`: `"stem"` (`Conv1`), the 17 inverted residual blocks
      `"block_0"` (`expanded_conv`) to `"block_16"`, then `"head"`
      (`Conv_1`, to 1280 channels).
    - `inception_v3`: `"stem"` (the five convolutions and two max-poolings
      before the first Inception module), then the 11 Inception modules
      `"mixed0"` to `"mixed10"`, each ending in the concatenation of that
      name. The last two, `n=2`, are the "top 2 inception blocks" of the
      Keras fine-tuning guide.

    A backbone built with its classifier has one more block, `"top"`
    (pooling and dense layer); encoders from `image_encoder` have none.

    Args:
        model: an encoder from `image_encoder` (its nested backbone is used) or
            a backbone model itself.

    Returns:
        An ordered dict from block name to the list of its layers; layers in
        no block (input, rescaling) are left out.

    Examples:
        >>> from attention_zoo.encoders import image_encoder
        >>> encoder = image_encoder("efficientnet_lite0", weights=None, image_size=32)
        >>> blocks = backbone_blocks(encoder)
        >>> len(blocks), list(blocks)[:2], list(blocks)[-2:]
        (18, ['stem', 'block0'], ['block15', 'head'])
    """
    backbone = _find_backbone(model)
    names = {layer.name for layer in backbone.layers}
    if {"stem_conv", "block0_dwconv"} <= names:
        key = _prefix_blocks(r"(stem|block\d+|head)_", {})
    elif {"conv1_conv", "conv2_block1_out"} <= names:
        key = _prefix_blocks(r"(conv\d_block\d+)_", {}, stem=r"(conv1|pool1)_")
    elif {"Conv1", "block_1_expand"} <= names:
        key = _prefix_blocks(
            r"(block_\d+)_",
            {"Conv1": "stem", "bn_Conv1": "stem", "Conv1_relu": "stem"},
            zero=r"expanded_conv_",
            head=r"(Conv_1|Conv_1_bn|out_relu)$",
        )
    elif "mixed0" in names:
        key = _inception_blocks(backbone)
    else:
        raise ValueError(
            "backbone_blocks: not a backbone of `image_encoder` "
            "(efficientnet_lite0, resnet50, mobilenet_v2, inception_v3). "
            f"Received: model={model.name!r}"
        )
    blocks = {}
    for layer in backbone.layers:
        block = key(layer)
        if block is None and blocks:
            block = "top"  # Pooling and classifier after the last block.
        if block is not None:
            blocks.setdefault(block, []).append(layer)
    return blocks


def unfreeze_last_blocks(encoder: keras.Model, n: int) -> list[str]:
    """Makes the last `n` blocks of the backbone trainable, for fine-tuning.

    Every other backbone layer is frozen, and batch normalisation layers stay
    frozen even inside the unfrozen blocks: a frozen `BatchNormalization`
    runs in inference mode with its ImageNet statistics, as the Keras
    transfer-learning guide recommends (small fine-tuning batches would
    otherwise overwrite them). `n=0` freezes the whole backbone. See
    `backbone_blocks` for what a block is for each backbone. Compile the
    model again after calling this.

    Args:
        encoder: an encoder from `image_encoder`, or a backbone model itself.
        n: int, number of blocks to unfreeze, from `0` to the number of
            blocks.

    Returns:
        The names of the unfrozen blocks, in order.

    Examples:
        >>> from attention_zoo.encoders import image_encoder
        >>> encoder = image_encoder("efficientnet_lite0", weights=None, image_size=32)
        >>> unfreeze_last_blocks(encoder, 2)
        ['block15', 'head']
        >>> for weight in encoder.trainable_weights:
        ...     print(weight.path)
        block15_expand_conv/kernel
        block15_dwconv/kernel
        block15_project_conv/kernel
        head_conv/kernel
    """
    blocks = backbone_blocks(encoder)
    if not is_int(n) or not (0 <= n <= len(blocks)):
        raise ValueError(
            f"unfreeze_last_blocks: `n` must be an int from 0 to {len(blocks)} "
            f"(the number of blocks of {_find_backbone(encoder).name!r}). "
            f"Received: n={n!r}"
        )
    backbone = _find_backbone(encoder)
    encoder.trainable = True
    backbone.trainable = n > 0
    names = list(blocks)[len(blocks) - int(n) :]
    unfrozen = {id(layer) for name in names for layer in blocks[name]}
    if n > 0:
        for layer in backbone.layers:
            layer.trainable = id(layer) in unfrozen and not isinstance(
                layer, keras.layers.BatchNormalization
            )
    return names


def _find_backbone(model):
    nested = [layer for layer in model.layers if isinstance(layer, keras.Model)]
    return nested[0] if nested else model


def _prefix_blocks(pattern, exact, stem=None, zero=None, head=None):
    """Maps a layer to its block from its name."""

    def key(layer):
        name = layer.name
        if name in exact:
            return exact[name]
        if stem is not None and re.match(stem, name):
            return "stem"
        if zero is not None and re.match(zero, name):
            return "block_0"
        if head is not None and re.match(head, name):
            return "head"
        match = re.match(pattern, name)
        return match.group(1) if match else None

    return key


def _inception_blocks(backbone):
    """Blocks of InceptionV3 by position: each module ends at its `mixed{k}`.

    Layer names inside the modules are automatic (`conv2d_57`) and change
    with the models built before, so positions are used instead; Keras lists
    a functional model's layers so that each module's layers sit between
    the previous module's concatenation and its own.
    """
    layers = backbone.layers
    first = next(i for i, layer in enumerate(layers) if layer.name == "mixed0")
    # The stem ends with the last max-pooling before the first module.
    stem_end = max(
        i
        for i, layer in enumerate(layers[:first])
        if isinstance(layer, keras.layers.MaxPooling2D)
    )
    assignment = {}
    block, count = "stem", 0
    for i, layer in enumerate(layers):
        if i > stem_end and block == "stem":
            block = "mixed0"
        if re.fullmatch(r"mixed\d+", layer.name):
            assignment[id(layer)] = layer.name
            count = int(layer.name[5:]) + 1
            block = f"mixed{count}"
            continue
        if count <= 10 and not isinstance(layer, keras.layers.InputLayer):
            assignment[id(layer)] = block
    return lambda layer: assignment.get(id(layer))
