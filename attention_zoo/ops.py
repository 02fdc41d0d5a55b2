"""Backend-agnostic tensor helpers shared by every attention mechanism.

Only `keras.ops` is used here, so everything runs on TensorFlow, JAX and
PyTorch alike.

Fully-masked policy: a query row whose keys are *all* masked gets all-zero
attention weights (and therefore a zero context vector), never NaN and never a
uniform distribution over padding. The gradient through such a row is exactly
zero and finite on every backend.
"""

from __future__ import annotations

import keras
from keras import ops, tree


def large_negative_number(dtype) -> float:
    """A large negative number that is finite in `dtype`.

    Used to push masked scores out of a softmax. `float16` cannot hold `-1e9`
    (its largest finite value is 65504), every other float dtype can.
    """
    if keras.backend.standardize_dtype(dtype) == "float16":
        return -65504.0
    return -1e9


_LARGEST_FINITE = {"float32": 3.4028234663852886e38, "float64": 1.7976931348623157e308}


def at_least_float32(dtype) -> str:
    """`"float64"` for float64, else `"float32"`: the dtype to normalise in.

    Half precision loses the normalisation; float64 keeps its precision
    (on TensorFlow; JAX computes float64 only with `JAX_ENABLE_X64`, and
    Keras's matmul on PyTorch returns float32).
    """
    return (
        "float64" if keras.backend.standardize_dtype(dtype) == "float64" else "float32"
    )


def max_at_least(x, axis: int, floor: float):
    """The maximum of `x` along `axis` (kept, as size 1), and at least `floor`.

    An empty `x` (no query step, no key) gives `floor` in every slice along
    `axis`, or an empty result. It does the job of
    `ops.max(x, axis, keepdims=True, initial=floor)`, which Keras 3.15 on
    PyTorch computes with an `initial` tensor it creates on the CPU: with `x`
    on a GPU that fails ("Expected all tensors to be on the same device").

    Examples:
        >>> import numpy as np
        >>> x = np.array([[-3.0, -2.0], [1.0, 5.0]], "float32")
        >>> keras.ops.convert_to_numpy(max_at_least(x, -1, 0.0)).tolist()
        [[0.0], [5.0]]
        >>> empty = np.zeros((2, 0), "float32")
        >>> keras.ops.convert_to_numpy(max_at_least(empty, -1, 0.0)).tolist()
        [[0.0], [0.0]]
    """
    # Shapes are static on JAX and PyTorch, where reducing an empty tensor
    # fails; TensorFlow's reduction of a dynamically empty one gives the
    # lowest value, which `floor` then replaces.
    if any(dim == 0 for dim in x.shape):
        return ops.full_like(ops.sum(x, axis=axis, keepdims=True), floor)
    return ops.maximum(ops.max(x, axis=axis, keepdims=True), floor)


def masked_softmax(scores, mask=None, axis: int = -1):
    """Softmax over `axis` that gives masked positions exactly zero weight.

    The softmax is computed in float32 (float64 for float64 `scores`) and the
    result is cast back, so `mixed_float16` and `mixed_bfloat16` policies do not
    lose the normalisation. A slice along `axis` whose mask is entirely `False`
    gets all-zero weights (see the module docstring).

    Args:
        scores: float tensor of any rank.
        mask: optional boolean tensor broadcastable to `scores`; `True` marks a
            position that may be attended to.
        axis: the axis to normalise over.

    Scores of `+inf` or `-inf` (an overflowed dot product) count as the
    largest or lowest finite float32 (float64) value, so finite inputs always
    give finite weights; tied largest scores share the weight. A NaN score
    makes its slice NaN.

    Returns:
        A tensor of the shape and dtype of `scores`. Along `axis` it sums to 1
        where at least one position is unmasked, and to 0 otherwise.

    Examples:
        >>> import numpy as np
        >>> w = masked_softmax(
        ...     np.array([[0.0, 0.0, 5.0], [1.0, 2.0, 3.0]], "float32"),
        ...     mask=np.array([[True, True, False], [False, False, False]]),
        ... )
        >>> np.round(keras.ops.convert_to_numpy(w), 3).tolist()
        [[0.5, 0.5, 0.0], [0.0, 0.0, 0.0]]
    """
    dtype = scores.dtype
    work = at_least_float32(dtype)
    scores = ops.cast(scores, work)
    # A score that overflowed (a dot product of finite inputs around 1e20 in
    # float32) counts as the largest finite one: the softmax subtracts the
    # row's maximum, and inf - inf would make the whole row NaN. A NaN score
    # stays NaN.
    largest = _LARGEST_FINITE[work]
    scores = ops.where(ops.isinf(scores), ops.sign(scores) * largest, scores)
    if mask is not None:
        mask = ops.cast(mask, "bool")
        low = large_negative_number(work)
        # Shift by the largest *unmasked* score first, so that the unmasked
        # scores are <= 0 with a maximum of exactly 0 and the fixed filler
        # below lies under all of them, however negative they are (a row
        # of scores below -1e9 would otherwise lose to its own padding). A
        # finite filler rather than -inf keeps every intermediate finite (inf
        # - inf would give NaN values and gradients); the multiplication by
        # the mask below then gives masked positions exactly zero, and fully
        # masked slices (shifted by 0) all zeros. The shift does not change
        # the softmax, so it carries no gradient.
        lowest = -_LARGEST_FINITE["float32"]
        row_max = max_at_least(ops.where(mask, scores, lowest), axis, lowest)
        any_unmasked = ops.any(mask, axis=axis, keepdims=True)
        row_max = ops.stop_gradient(ops.where(any_unmasked, row_max, 0.0))
        scores = ops.where(mask, scores - row_max, low)
    if scores.shape[axis] == 1:
        # A one-step memory is legitimate here; `ops.softmax` would warn.
        weights = ops.ones_like(scores)
    else:
        weights = ops.softmax(scores, axis=axis)
    if mask is not None:
        weights = weights * ops.cast(mask, work)
    return ops.cast(weights, dtype)


def dot_scores(query, key):
    """`query @ key^T`: `(B, Tq, D)` and `(B, Tv, D)` give `(B, Tq, Tv)`, never NaN
    from an overflow.

    The terms of a float32 dot product of finite inputs around 1e20
    overflow; terms of both signs then add `+inf` and `-inf`, which some
    kernels make NaN (PyTorch's on CPU) and others keep infinite. Each row is
    scaled by its largest magnitude first, so every term stays finite, and
    the scales are multiplied back: a score past the dtype's range comes out
    as `+inf` or `-inf` (which `masked_softmax` reads as the largest or
    lowest finite score), never NaN. A NaN input still gives NaN.

    Examples:
        >>> import numpy as np
        >>> q = np.array([[[1e20, -1e20]]], "float32")
        >>> k = np.array([[[1e20, 1e20], [1e20, -1e20]]], "float32")
        >>> keras.ops.convert_to_numpy(dot_scores(q, k)).tolist()
        [[[0.0, inf]]]
    """
    q_scale = max_at_least(ops.abs(query), -1, 0.0)
    k_scale = max_at_least(ops.abs(key), -1, 0.0)
    q_scale = ops.where(q_scale > 0, q_scale, ops.ones_like(q_scale))
    k_scale = ops.where(k_scale > 0, k_scale, ops.ones_like(k_scale))
    unit = ops.matmul(query / q_scale, ops.transpose(key / k_scale, (0, 2, 1)))
    scale = q_scale * ops.transpose(k_scale, (0, 2, 1))  # (B, Tq, Tv), may be inf
    # A zero score times an infinite scale would be NaN: it is zero.
    return ops.where(ops.equal(unit, 0), ops.zeros_like(unit), unit * scale)


def sequence_mask(lengths, maxlen: int):
    """Boolean mask `(batch, maxlen)` that is `True` before each length.

    Args:
        lengths: integer tensor `(batch,)`.
        maxlen: static length of the mask.

    Examples:
        >>> m = sequence_mask(keras.ops.array([1, 3]), 4)
        >>> keras.ops.convert_to_numpy(m).tolist()
        [[True, False, False, False], [True, True, True, False]]
    """
    positions = ops.arange(maxlen, dtype="int32")
    lengths = ops.cast(lengths, "int32")
    return ops.less(positions[None, :], lengths[:, None])


def window_mask(centers, length, window: float):
    """Boolean mask `(..., length)` that is `True` within `window` of a centre.

    Position `s` of a row is `True` when `|s - center| <= window`; the centre
    may lie between positions (local-p attention predicts a real-valued one).

    Args:
        centers: float or integer tensor `(..., 1)`, one centre per row.
        length: number of positions (a static int or a scalar tensor).
        window: half-width `D` of the window `[center - D, center + D]`.

    Examples:
        >>> m = window_mask(keras.ops.array([[1.0], [3.5]]), 5, 1)
        >>> keras.ops.convert_to_numpy(m).tolist()
        [[True, True, True, False, False], [False, False, False, True, True]]
    """
    positions = ops.arange(length, dtype="float32")
    distance = ops.abs(positions - ops.cast(centers, "float32"))  # (..., length)
    return ops.less_equal(distance, float(window))


def masked_mean(x, mask=None, axis: int = 1):
    """Mean of `x` over `axis`, counting only positions where `mask` is True.

    A slice with no unmasked position gives zeros.

    Args:
        x: float tensor, e.g. `(batch, T, D)`.
        mask: optional boolean tensor of `x`'s shape without its last axis,
            e.g. `(batch, T)`.
        axis: the axis to average over.

    Examples:
        >>> x = keras.ops.array([[[1.0], [3.0], [100.0]]])
        >>> m = keras.ops.array([[True, True, False]])
        >>> keras.ops.convert_to_numpy(masked_mean(x, m)).tolist()
        [[2.0]]
    """
    if mask is None:
        return ops.mean(x, axis=axis)
    weights = ops.cast(mask, x.dtype)[..., None]
    total = ops.sum(x * weights, axis=axis)
    count = ops.sum(weights, axis=axis)
    return total / ops.maximum(count, ops.cast(1, x.dtype))


def scan(f, init, xs):
    """`jax.lax.scan` semantics on every backend: `f(carry, x) -> (carry, y)`.

    `keras.ops.scan` on TensorFlow (Keras 3.15) requires `y` to have the
    structure and shapes of `carry`, and XLA cannot compile its gradient
    (layers that scan over an unknown length say so: see
    `BaseAttention.supports_jit`).
    On TensorFlow a statically known length is unrolled; an unknown length
    (a SavedModel signature with `None` steps) uses `keras.ops.scan` with the
    outputs riding along in an extended carry, whose shapes come from one call
    of `f` on the first step. The other backends use `keras.ops.scan`.

    Examples:
        >>> def f(total, x):
        ...     total = total + x
        ...     return total, (total, 2 * x)
        >>> last, (totals, doubled) = scan(f, keras.ops.zeros(()), keras.ops.arange(4.0))
        >>> float(last), keras.ops.convert_to_numpy(doubled).tolist()
        (6.0, [0.0, 2.0, 4.0, 6.0])
    """
    length = tree.flatten(xs)[0].shape[0]
    if length == 0:
        # No step: the carry as given and empty outputs, whose shapes come
        # from one call of `f` on zeros (a sum over the empty axis has the
        # shape of one step, unknown dimensions included).
        x0 = tree.map_structure(
            lambda x: ops.cast(ops.zeros_like(ops.sum(x, axis=0)), x.dtype), xs
        )
        _, y0 = f(init, x0)
        return init, tree.map_structure(
            lambda y: ops.expand_dims(ops.zeros_like(y), 0)[:0], y0
        )
    if keras.backend.backend() == "jax":
        import jax

        leaves = tree.flatten(init) + tree.flatten(xs)
        if length is None or any(isinstance(x, jax.core.Tracer) for x in leaves):
            return ops.scan(f, init, xs)
        # Eager JAX: lax.scan would trace and compile the body again at
        # every call (a new closure each time); op-by-op steps are cached.
    elif keras.backend.backend() != "tensorflow":
        return ops.scan(f, init, xs)
    if length is not None:
        # A known length is unrolled: no while loop, so XLA can compile the
        # gradient (it cannot compile Keras's TensorArray loop) and CPU steps
        # skip the per-iteration overhead of tf.while_loop.
        carry, ys = init, []
        for t in range(length):
            carry, y = f(carry, tree.map_structure(lambda x, t=t: x[t], xs))
            ys.append(y)
        return carry, tree.map_structure(lambda *y: ops.stack(y, axis=0), *ys)
    first_x = tree.map_structure(lambda x: x[0], xs)
    _, first_y = f(init, first_x)
    zeros_y = tree.map_structure(ops.zeros_like, first_y)

    def extended(carry_and_y, x):
        carry, y = f(carry_and_y[0], x)
        return (carry, y), (carry, y)

    (carry, _), (_, ys) = ops.scan(extended, (init, zeros_y), xs)
    return carry, ys
