import keras
import numpy as np
import pytest

from attention_zoo.encoders import FeatureGrid, ImagePreprocessing, grid_shape
from tests.helpers import to_numpy

# The keras.applications backbones' own preprocess_input, in their modules.
KERAS_PREPROCESS = {
    "inception_v3": ("tf", keras.applications.inception_v3.preprocess_input),
    "mobilenet_v2": ("tf", keras.applications.mobilenet_v2.preprocess_input),
    "resnet50": ("caffe", keras.applications.resnet50.preprocess_input),
    "imagenet_utils_torch": (
        "torch",
        lambda x: keras.applications.imagenet_utils.preprocess_input(x, mode="torch"),
    ),
}


@pytest.mark.parametrize("name", list(KERAS_PREPROCESS))
def test_preprocessing_matches_keras_applications(name):
    mode, reference = KERAS_PREPROCESS[name]
    x = np.random.default_rng(0).uniform(0, 255, (2, 5, 6, 3)).astype("float32")
    expected = reference(x.copy())  # keras' version works in place on arrays
    layer = ImagePreprocessing(mode)
    np.testing.assert_allclose(to_numpy(layer(x)), expected, rtol=1e-6, atol=1e-4)
    as_uint8 = to_numpy(layer(x.astype("uint8")))
    np.testing.assert_allclose(as_uint8, to_numpy(layer(np.floor(x))), atol=1e-6)
    clone = ImagePreprocessing.from_config(layer.get_config())
    assert clone.mode == mode


@pytest.mark.parametrize("mode", ["tf", "caffe", "torch"])
def test_preprocessing_and_grid_survive_keras_saving(tmp_path, mode):
    images = keras.Input((8, 8, 3), name="images")
    x = ImagePreprocessing(mode)(images)
    x = keras.layers.Conv2D(4, 3, strides=2, padding="same")(x)
    model = keras.Model(images, FeatureGrid()(x))
    path = tmp_path / "model.keras"
    model.save(path)
    loaded = keras.saving.load_model(path)
    x = np.random.default_rng(0).integers(0, 256, (2, 8, 8, 3), dtype=np.uint8)
    np.testing.assert_array_equal(to_numpy(loaded(x)), to_numpy(model(x)))
    assert grid_shape(loaded) == (4, 4)
