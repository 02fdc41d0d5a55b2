"""Images as arrays, and the image encoder's feature grids of them."""

from __future__ import annotations

from pathlib import Path

import keras
import numpy as np

from attention_zoo import image_codec
from attention_zoo.applications.captioning import model as models
from attention_zoo.applications.captioning.config import FEATURE_LAYERS, TrainConfig


def rgb_array(image) -> np.ndarray:
    """`(H, W, 3)` pixels in [0, 255] of what users hold: a file path, encoded
    bytes, a PIL image or an array `(H, W)`, `(H, W, 1|3|4)`.

    Files and bytes are decoded with `image_codec.decode_image` (RGB, alpha
    dropped); a PIL image is converted to RGB; an array's alpha is dropped
    and a single channel replicated.

    Raises:
        ValueError: naming what was received, for anything else.
    """
    if isinstance(image, (str, Path)):
        return image_codec.load_image(image)
    if isinstance(image, (bytes, bytearray)):
        return image_codec.decode_image(bytes(image))
    if hasattr(image, "convert") and hasattr(image, "mode"):  # a PIL image
        return np.asarray(image.convert("RGB"))
    array = np.asarray(image)
    if array.ndim == 2:
        array = array[..., None]
    if array.ndim != 3 or array.shape[-1] not in (1, 3, 4) or 0 in array.shape:
        raise ValueError(
            "`image` must be a path, bytes, a PIL image or an array (H, W) or "
            f"(H, W, 1|3|4). Received: {type(image).__name__} of shape "
            f"{getattr(array, 'shape', None)}"
        )
    if array.dtype.kind not in "uif" or not np.isfinite(array).all():
        raise ValueError(
            "`image` must hold finite numbers. Received: an array of dtype "
            f"{array.dtype}"
        )
    return np.repeat(array, 3, -1) if array.shape[-1] == 1 else array[..., :3]


def image_array(image, image_size: int) -> np.ndarray:
    """`(S, S, 3)` float32 in [0, 255] of an image `rgb_array` reads.

    The resize is `keras.ops.image.resize` (bilinear, antialiased), the
    operation the SavedModel runs in its graph.
    """
    image = rgb_array(image)
    if image.shape[:2] != (image_size, image_size):
        image = keras.ops.convert_to_numpy(
            keras.ops.image.resize(
                image[None].astype("float32"),
                (image_size, image_size),
                interpolation="bilinear",
                antialias=True,
            )
        )[0]
    return image.astype("float32")


def image_batches(images, image_size: int, batch_size: int):
    """Yields `(B, S, S, 3)` float32 batches of `image_array`s."""
    for start in range(0, len(images), batch_size):
        yield np.stack(
            [image_array(i, image_size) for i in images[start : start + batch_size]]
        )


def extract_features(encoder, images, image_size: int, batch_size: int = 32):
    """The feature grids `(N, L, C)` of `images`, float16 to halve the memory."""
    fn = models.compiled(
        lambda x: encoder(x, training=False), (image_size, image_size, 3), False
    )
    out = []
    for batch in image_batches(images, image_size, batch_size):
        out.append(keras.ops.convert_to_numpy(fn(batch)).astype("float16"))
    return np.concatenate(out) if out else np.zeros((0, 1, 1), "float16")


def build_encoder(config: TrainConfig):
    from attention_zoo.encoders import image_encoder

    weights = config.weights
    if isinstance(weights, str) and weights.lower() == "none":
        weights = None
    layer = config.feature_layer or FEATURE_LAYERS.get(config.backbone)
    return image_encoder(
        config.backbone,
        weights=weights,
        image_size=config.image_size,
        trainable=False,
        feature_layer=None if layer == "last" else layer,
    )
