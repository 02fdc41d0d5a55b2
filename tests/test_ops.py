import keras
import numpy as np
import pytest

from attention_zoo import ops as zoo_ops
from tests import numpy_reference as ref
from tests.helpers import to_numpy


def test_masked_softmax_matches_reference():
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(3, 4, 7)).astype("float32") * 5
    mask = rng.random((3, 4, 7)) < 0.5
    mask[0, 0] = False  # one fully masked row
    got = to_numpy(zoo_ops.masked_softmax(scores, mask))
    np.testing.assert_allclose(got, ref.masked_softmax(scores, mask), atol=1e-6)
    assert (got[0, 0] == 0).all()


def test_masked_softmax_without_mask_is_softmax():
    scores = np.array([[1.0, 2.0, 3.0]], "float32")
    np.testing.assert_allclose(
        to_numpy(zoo_ops.masked_softmax(scores)), ref.masked_softmax(scores), atol=1e-6
    )


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_masked_softmax_keeps_dtype_and_is_finite(dtype):
    scores = keras.ops.cast(np.array([[300.0, -300.0, 0.0]]), dtype)
    mask = np.array([[True, True, False]])
    out = zoo_ops.masked_softmax(scores, mask)
    assert keras.backend.standardize_dtype(out.dtype) == dtype
    out = to_numpy(keras.ops.cast(out, "float32"))
    np.testing.assert_allclose(out, [[1.0, 0.0, 0.0]], atol=1e-3)


def test_masked_softmax_scores_below_the_mask_filler():
    # Unmasked scores far below the finite filler of masked positions still
    # get the weight: the padding must not win a row of very negative scores.
    scores = np.array([[-2e9, -3e9, 0.0], [-5e9, -5e9, 7.0]], "float32")
    mask = np.array([[True, True, False], [True, True, False]])
    got = to_numpy(zoo_ops.masked_softmax(scores, mask))
    np.testing.assert_allclose(got, [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0]], atol=1e-6)
    np.testing.assert_allclose(got, ref.masked_softmax(scores, mask), atol=1e-6)


@pytest.mark.parametrize("masked", [False, True], ids=["no_mask", "mask"])
def test_masked_softmax_of_overflowed_scores_is_finite(masked):
    # A score past the float32 range (inf) counts as the largest finite one:
    # before, inf - inf inside the softmax made the whole row NaN.
    inf = np.inf
    scores = np.array([[inf, 1.0, -inf, 0.0], [inf, inf, 2.0, -inf]], "float32")
    mask = np.array([[True, True, True, False], [True, True, True, True]])
    got = to_numpy(zoo_ops.masked_softmax(scores, mask if masked else None))
    assert np.isfinite(got).all()
    np.testing.assert_allclose(got.sum(-1), 1.0, atol=1e-6)
    np.testing.assert_allclose(got[1], [0.5, 0.5, 0.0, 0.0], atol=1e-6)
    assert got[0, 0] == pytest.approx(1.0)


def test_masked_softmax_propagates_nan_scores():
    scores = np.array([[np.nan, 1.0, 0.0], [1.0, 2.0, 3.0]], "float32")
    got = to_numpy(zoo_ops.masked_softmax(scores, np.ones((2, 3), bool)))
    assert np.isnan(got[0]).all()
    assert np.isfinite(got[1]).all()


@pytest.mark.parametrize(
    "shape", [(2, 3, 4), (2, 3, 1), (2, 3, 0), (2, 0, 4), (0, 3, 4)]
)
@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_max_at_least_is_the_floored_maximum_and_defined_when_empty(shape, dtype):
    x = np.random.default_rng(0).normal(size=shape).astype(dtype) * 3
    floor = -1.0
    got = zoo_ops.max_at_least(keras.ops.convert_to_tensor(x), -1, floor)
    assert keras.backend.standardize_dtype(got.dtype) == dtype
    expected = np.maximum(np.max(x, axis=-1, keepdims=True, initial=floor), floor)
    np.testing.assert_array_equal(to_numpy(got), expected)


def test_max_at_least_propagates_nan():
    x = np.array([[np.nan, 1.0], [2.0, 3.0]], "float32")
    got = to_numpy(zoo_ops.max_at_least(x, -1, 0.0))
    assert np.isnan(got[0, 0]) and got[1, 0] == 3.0


def test_max_at_least_of_a_dynamically_empty_axis_in_a_tf_function():
    if keras.backend.backend() != "tensorflow":
        pytest.skip("only TensorFlow traces with unknown lengths")
    import tensorflow as tf

    fn = tf.function(
        lambda x: zoo_ops.max_at_least(x, -1, -5.0),
        input_signature=[tf.TensorSpec((2, None), "float32")],
    )
    np.testing.assert_array_equal(fn(np.zeros((2, 0), "float32")), [[-5.0], [-5.0]])
    np.testing.assert_array_equal(
        fn(np.full((2, 3), -9.0, "float32")), [[-5.0], [-5.0]]
    )


def test_large_negative_number_is_finite_in_dtype():
    assert zoo_ops.large_negative_number("float16") == -65504.0
    assert np.isfinite(np.float16(zoo_ops.large_negative_number("float16")))
    assert zoo_ops.large_negative_number("float32") == -1e9


def test_sequence_mask():
    mask = zoo_ops.sequence_mask(np.array([0, 2, 3]), 3)
    assert to_numpy(mask).tolist() == [
        [False, False, False],
        [True, True, False],
        [True, True, True],
    ]
