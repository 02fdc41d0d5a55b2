"""The run-folder predictor base, the compile helper and the export folder."""

import json

import keras
import numpy as np
import pytest

from attention_zoo.applications.common import (
    InputError,
    RunPredictor,
    compile_function,
    export_folder,
)
from attention_zoo.applications.common.predictor import padded_size


class Doubler(RunPredictor):
    app = "doubler"
    required_files = ("config.json",)

    def check(self, item):
        if item < 0:
            raise InputError(f"negative input: {item}")


def test_predictor_reads_the_config_and_names_missing_files(tmp_path):
    with pytest.raises(FileNotFoundError, match="`attention-zoo doubler train`"):
        Doubler(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({"k": 1}))
    predictor = Doubler(tmp_path)
    assert predictor.config == {"k": 1}
    predictor.check_all([1, 2])
    with pytest.raises(InputError, match="negative input: -1"):
        predictor.check_all([1, -1])


def test_compiled_is_built_once_per_key(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    predictor = Doubler(tmp_path)
    made = []

    def make():
        made.append(1)
        return lambda x: (x * 2, keras.ops.ones_like(x))

    fn = predictor.compiled("double", make, (3,))
    assert predictor.compiled("double", make, (3,)) is fn
    assert len(made) == 1


def test_run_batches_returns_numpy_and_float32_attention():
    def fn(x):
        return x * 2, keras.ops.cast(x, "float16")

    inputs = np.arange(10, dtype="float32").reshape(5, 2)
    batches = list(RunPredictor.run_batches(fn, inputs, 2, lambda chunk: chunk))
    assert [len(chunk) for chunk, _, _ in batches] == [2, 2, 1]
    outputs = np.concatenate([o for _, o, _ in batches])
    np.testing.assert_array_equal(outputs, inputs * 2)
    assert all(a.dtype == np.float32 for _, _, a in batches)


def test_padded_size_is_the_next_power_of_two_up_to_the_maximum():
    assert [padded_size(n, 64) for n in (1, 2, 3, 5, 33, 64)] == [1, 2, 4, 8, 64, 64]
    assert padded_size(5, 6) == 6
    assert padded_size(100, 64) == 100  # more than a batch runs unpadded
    # Above 64, the next multiple of 64 within the batch size.
    assert [padded_size(n, 1000) for n in (65, 128, 129, 600, 961, 999)] == [
        128,
        128,
        192,
        640,
        1000,
        1000,
    ]


@pytest.mark.parametrize("as_array", [True, False], ids=["array", "list"])
def test_run_batches_pads_to_a_power_of_two_and_drops_the_repeats(as_array):
    """Calls of 1 to 20 inputs in batches of 8 run at 1, 2, 4 and 8 rows
    only, the last input repeated; each answer is its own input's."""
    shapes = set()

    def fn(x):
        shapes.add(int(x.shape[0]))
        return (x * 2,)

    for n in range(1, 21):
        inputs = np.arange(n, dtype="float32") + 1
        batches = list(
            RunPredictor.run_batches(
                fn,
                inputs if as_array else list(inputs),
                8,
                lambda chunk: np.asarray(chunk, "float32"),
            )
        )
        assert [len(chunk) for chunk, _ in batches] == [
            min(8, n - s) for s in range(0, n, 8)
        ]
        outputs = np.concatenate([o for _, o in batches])
        np.testing.assert_array_equal(outputs, 2 * inputs)
    assert shapes == {1, 2, 4, 8}


@pytest.mark.parametrize("dtype, shape", [("float32", (3,)), ("int32", (None,))])
def test_compile_function_runs_every_batch_size(dtype, shape):
    fn = compile_function(lambda x: x + 1, shape, dtype, jit_compile=False)
    for batch in (1, 4):
        x = np.zeros((batch, 3), dtype)
        np.testing.assert_array_equal(keras.ops.convert_to_numpy(fn(x)), x + 1)


def test_export_folder_needs_tensorflow(monkeypatch, tmp_path):
    monkeypatch.setattr(keras.backend, "backend", lambda: "jax")
    with pytest.raises(ValueError, match="needs KERAS_BACKEND=tensorflow"):
        export_folder(tmp_path / "saved", "dates")
    monkeypatch.setattr(keras.backend, "backend", lambda: "tensorflow")
    assert export_folder(tmp_path / "saved", "dates") == tmp_path / "saved"
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="an existing file"):
        export_folder(tmp_path / "file", "dates")


def test_text_predictors_take_str_bytes_and_numpy_strings():
    import numpy as np

    from attention_zoo.applications.common.predictor import as_texts

    assert as_texts(["a", b"f\xc3\xa9vrier", np.str_("b"), b"\xff"]) == [
        "a",
        "février",
        "b",
        "\ufffd",
    ]
    assert as_texts(np.array(["x", "y"])) == ["x", "y"]
    with pytest.raises(TypeError, match=r"inputs\[1\]=3 of type int"):
        as_texts(["a", 3])
