import keras
import numpy as np
import pytest

from attention_zoo.decoding.ranking import best_extensions, block_size
from tests.helpers import to_numpy


def reference(values, k, offset, scale):
    """NumPy: every extension's score, best first, ties to the lower
    hypothesis and then the lower token (a stable sort of the flat index).
    In float32, as the search ranks: which scores tie is float32's."""
    batch, hypotheses, vocab = values.shape
    scores = (offset[:, :, None] + values) / scale[:, :, None]
    flat = scores.reshape(batch, -1)
    order = np.argsort(-flat, axis=1, kind="stable")[:, :k]
    return (
        np.take_along_axis(flat, order, 1),
        order // vocab,
        order % vocab,
        np.take_along_axis(values.reshape(batch, -1), order, 1),
    )


def score(values, offset, scale):
    return (offset + values) / scale


@pytest.mark.parametrize("block", [None, 1, 2, 3, 4, 7, 13])
@pytest.mark.parametrize("k", [1, 3, 5])
def test_blocked_top_k_keeps_what_a_top_k_over_everything_keeps(block, k):
    rng = np.random.default_rng(block or 0)
    batch, hypotheses, vocab = 6, 4, 13
    # Small integers: many ties within and across hypotheses, exact in float32.
    values = rng.integers(-4, 4, size=(batch, hypotheses, vocab)).astype("float32")
    values[0] = -1e9  # a sequence of nothing but masked extensions
    offset = rng.integers(-3, 3, size=(batch, hypotheses)).astype("float32")
    offset[1] = 0.0  # equal hypotheses: ties decided by hypothesis, then token
    scale = rng.choice([1.0, 2.0, 4.0], size=(batch, hypotheses)).astype("float32")
    got = best_extensions(
        keras.ops.convert_to_tensor(values), k, score,
        [keras.ops.convert_to_tensor(offset), keras.ops.convert_to_tensor(scale)],
        block=block,
    )  # fmt: skip
    got = [to_numpy(x) for x in got]
    expected = reference(values, k, offset, scale)
    if keras.backend.backend() != "torch":
        for name, ours, theirs in zip(
            ("scores", "hypothesis", "token", "value"), got, expected
        ):
            np.testing.assert_array_equal(ours, theirs, err_msg=name)
        return
    # `torch.topk` lists equal values in no set order: the same scores, each
    # from a distinct extension whose value and score they are.
    scores, hypothesis, token, value = got
    np.testing.assert_array_equal(scores, expected[0])
    rows = np.arange(batch)[:, None]
    np.testing.assert_array_equal(value, values[rows, hypothesis, token])
    np.testing.assert_array_equal(
        scores, score(value, offset[rows, hypothesis], scale[rows, hypothesis])
    )
    assert all(len(set(zip(h, t))) == k for h, t in zip(hypothesis, token))


def test_blocked_top_k_compiles_with_the_backend():
    rng = np.random.default_rng(3)
    values = rng.normal(size=(5, 4, 1000)).astype("float32")
    offset = rng.normal(size=(5, 4)).astype("float32")
    scale = np.ones((5, 4), "float32")

    def run(values, offset, scale):
        return best_extensions(
            values, 4, score, [offset, scale], block=block_size(1000)
        )

    backend = keras.backend.backend()
    if backend == "tensorflow":
        import tensorflow as tf

        run = tf.function(run, jit_compile=True)
    elif backend == "jax":
        import jax

        run = jax.jit(run)
    got = run(*(keras.ops.convert_to_tensor(x) for x in (values, offset, scale)))
    for ours, expected in zip(got, reference(values, 4, offset, scale)):
        np.testing.assert_allclose(to_numpy(ours), expected, rtol=1e-6)


@pytest.mark.parametrize(
    "vocab, expected",
    [(5000, 50), (10000, 100), (30000, 150), (256, 16), (4999, 71), (7, 3)],
)
def test_block_size_is_a_divisor_near_the_square_root_or_pads(vocab, expected):
    assert block_size(vocab) == expected


def test_sizes_unknown_when_traced_take_one_top_k():
    if keras.backend.backend() != "tensorflow":
        pytest.skip("a trace with unknown sizes is TensorFlow's (tf.function)")
    import tensorflow as tf

    rng = np.random.default_rng(4)
    values = rng.normal(size=(3, 4, 300)).astype("float32")
    offset = rng.normal(size=(3, 4)).astype("float32")

    @tf.function(
        input_signature=[
            tf.TensorSpec((None, None, None), tf.float32),
            tf.TensorSpec((None, None), tf.float32),
        ]
    )
    def run(values, offset):
        # The block size is asked for; the sizes it needs are unknown here.
        return best_extensions(values, 4, lambda v, o: v + o, [offset], block=15)

    got = run(values, offset)
    expected = reference(values, 4, offset, np.ones_like(offset))
    for ours, theirs in zip(got, expected):
        np.testing.assert_array_equal(to_numpy(ours), theirs)
