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


def test_scan_of_unknown_length_compiles_its_gradient_with_xla_on_tensorflow():
    # Keras's scan (a tf.while_loop without maximum_iterations) failed under
    # XLA, which Keras's jit_compile="auto" picks on a TensorFlow GPU machine.
    if keras.backend.backend() != "tensorflow":
        pytest.skip("the while loop of an unknown length is TensorFlow's")
    import tensorflow as tf

    kernel = tf.Variable(np.eye(3, dtype="float32") * 0.5)

    def loss(xs):
        def f(carry, x):
            carry = keras.ops.tanh(keras.ops.matmul(carry, kernel) + x)
            return carry, (carry, 2.0 * x)

        last, (states, doubled) = zoo_ops.scan(f, keras.ops.zeros((2, 3)), xs)
        return keras.ops.sum(last) + keras.ops.sum(states**2) + keras.ops.sum(doubled)

    def value_and_gradient(xs):
        with tf.GradientTape() as tape:
            value = loss(xs)
        return value, tape.gradient(value, kernel)

    xs = np.random.default_rng(0).normal(size=(4, 2, 3)).astype("float32")
    signature = [tf.TensorSpec((None, 2, 3), tf.float32)]
    expected = value_and_gradient(xs)  # eager: the length is known, unrolled
    for jit in (False, True):
        fn = tf.function(value_and_gradient, input_signature=signature, jit_compile=jit)
        got = fn(xs)
        np.testing.assert_allclose(got[0], expected[0], rtol=1e-5)
        np.testing.assert_allclose(got[1], expected[1], rtol=1e-5, atol=1e-6)
