"""The ImageNet input normalisation of the `keras.applications` backbones, as a layer."""

from __future__ import annotations

import keras
import numpy as np
from keras import ops

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

    Examples:
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


def _check_image_shape(input_shape, name):
    if len(input_shape) != 4 or input_shape[-1] != 3:
        raise ValueError(
            f"{name}: expected RGB images (batch, height, width, 3). Received: "
            f"input_shape={tuple(input_shape)}"
        )
