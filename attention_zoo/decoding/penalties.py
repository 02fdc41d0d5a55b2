"""The GNMT length and coverage penalties of beam search (Wu et al. 2016)."""

from __future__ import annotations

from keras import ops

from attention_zoo._checks import checked_real


def length_penalty(lengths, alpha: float):
    """GNMT length penalty `((5 + |Y|) / 6) ** alpha` (Wu et al. 2016, eq. 14).

    `alpha`: a finite float >= 0.
    """
    alpha = checked_real("length_penalty", "alpha", alpha, minimum=0.0)
    lengths = ops.cast(lengths, "float32")
    return ops.power((5.0 + lengths) / 6.0, alpha)


def coverage_penalty(coverage, memory_mask, beta: float, epsilon: float = 1e-10):
    """GNMT coverage penalty `beta * sum_j log(min(sum_t a_tj, 1))`.

    Sums over the source positions `j` where `memory_mask` (optional,
    broadcastable to `coverage`) is True (Wu et al. 2016, eq. 14).
    Coverages are floored at `epsilon` so that a position never attended
    costs `beta * log(epsilon)` rather than minus infinity. `beta`: a
    finite float >= 0; `epsilon`: a finite float in `(0, 1]`.
    """
    beta = checked_real("coverage_penalty", "beta", beta, minimum=0.0)
    epsilon = checked_real(
        "coverage_penalty", "epsilon", epsilon, 0.0, 1.0, open_minimum=True
    )
    logs = ops.log(ops.clip(coverage, epsilon, 1.0))
    if memory_mask is not None:
        logs = ops.where(memory_mask, logs, 0.0)
    return beta * ops.sum(logs, axis=-1)
