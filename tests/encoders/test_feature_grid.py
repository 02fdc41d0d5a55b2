import keras
import numpy as np
import pytest

from attention_zoo.encoders import FeatureGrid, grid_shape
from tests.helpers import to_numpy


def test_feature_grid_is_a_row_major_reshape():
    layer = FeatureGrid()
    x = np.random.default_rng(0).normal(size=(2, 3, 4, 5)).astype("float32")
    np.testing.assert_array_equal(to_numpy(layer(x)), x.reshape(2, 12, 5))
    assert layer.compute_output_shape((None, 3, 4, 5)) == (None, 12, 5)
    assert layer.compute_output_shape((None, None, 4, 5)) == (None, None, 5)
    clone = FeatureGrid.from_config(layer.get_config())
    assert clone.get_config() == layer.get_config()


def test_feature_grid_with_unknown_image_size():
    inputs = keras.Input((None, None, 4))
    model = keras.Model(inputs, FeatureGrid()(inputs))
    assert model.output_shape == (None, None, 4)
    x = np.arange(2 * 3 * 2 * 4, dtype="float32").reshape(2, 3, 2, 4)
    np.testing.assert_array_equal(to_numpy(model(x)), x.reshape(2, 6, 4))
    with pytest.raises(ValueError, match="any size"):
        grid_shape(model)
