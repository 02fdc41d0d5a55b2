"""The feature grid `(B, H * W, C)` an attention decoder reads, from a feature map."""

from __future__ import annotations

import keras
from keras import ops


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

    Examples:
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

    Examples:
        >>> from attention_zoo.encoders import image_encoder
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
