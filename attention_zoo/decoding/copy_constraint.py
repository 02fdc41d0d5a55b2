"""Tokens a search must copy: each exactly as often as the source holds it.

`constrain_copies(step_fn, end_token)` wraps a step function (see
`attention_zoo.decoding`) so that greedy search, sampling and beam search
keep a set of *controlled* tokens (a translator's masked placeholders,
`PH_PRINTF_1`) by construction. Its state is `(inner_state, budget)`:
`budget` int32 `(B, W)`, `W` the width of the step's logits, built by
`copy_budget` from the tokens each row must copy:

- `budget[b, v] == -1`: `v` is free (not controlled): nothing changes;
- `budget[b, v] == n >= 0`: row `b` may still emit the controlled `v`
  `n` more times.

The rules, applied to the logits of every step before the search sees them:

1. a controlled token with budget 0 gets `NEG_INF` (no probability): one
   the source does not hold (budget 0 from the start) is never emitted,
   and one it holds `n` times at most `n` times;
2. `end_token` gets `NEG_INF` while any budget is positive: a sequence
   ends only once it has emitted each controlled token as often as the
   source holds it. The search's `max_length` stays the only other way
   out, and an output cut there lacks what it had not copied yet (a
   check downstream still sees it);
3. the token a step is fed (the one chosen at the step before) spends one
   of its budget when that is positive.

Why it holds: by rule 3, when step `t` chooses, `budget[b, v]` is `n_v`
minus the times `v` was chosen at steps before `t`, never below 0. Rule 1
then keeps the count of `v` at most `n_v`, and rule 2 lets the sequence end
only with every budget at 0, i.e. each count exactly `n_v`. Some token is
always allowed: while a budget is positive that token is (controlled ids
exclude the search's own start, end and pad tokens, `copy_budget`), and
once none is, `end_token` is. The order is free: `%2$s ... %1$s` keeps
both. Beam search carries the budget in the state, which it tiles per
hypothesis and reorders with the beam, so each hypothesis spends its own;
a finished hypothesis is fed the free `pad_token` and its logits are the
search's own. The searches' scores are then log-probabilities of the
constrained distribution (the allowed tokens renormalized).

Only `keras.ops`, so the wrapper runs inside the compiled searches on every
backend and traces into the exports.
"""

from __future__ import annotations

import numpy as np
from keras import ops

from attention_zoo._checks import is_int, static_shape
from attention_zoo.decoding._common import NEG_INF
from attention_zoo.decoding.step import StepFunction, shares_constants

FREE = -1


def copy_budget(required, controlled_ids, vocab_size: int, width=None, reserved=()):
    """The budget `constrain_copies` starts from.

    Args:
        required: int `(B, Tx)`, the tokens each row must copy, in the ids
            of the step's logits; entries that are no controlled id (a
            word, padding, -1) are ignored.
        controlled_ids: the ids the constraint controls (Python ints in
            `[0, vocab_size)`): each gets the count of it in the row's
            `required`, 0 when absent (never emitted).
        vocab_size: the vocabulary the ids belong to.
        width: the width of the step's logits when larger than
            `vocab_size` (a copy mechanism's `vocab_size + Tx`, a tensor
            or an int), or None for `vocab_size`; the ids past
            `vocab_size` are free.
        reserved: ids the search feeds or ends with itself (start, end,
            pad), refused as controlled.

    Returns:
        int32 `(B, width)`: `FREE` (-1) for a free id, else the count.
    """
    if not is_int(vocab_size) or vocab_size < 1:
        raise ValueError(
            f"`vocab_size` must be a positive integer. Received: vocab_size={vocab_size!r}"
        )
    ids = sorted({i for i in controlled_ids}) if _all_ints(controlled_ids) else None
    if ids is None or any(i < 0 or i >= vocab_size for i in ids):
        raise ValueError(
            f"`controlled_ids` must be integers in [0, {vocab_size}). Received: "
            f"controlled_ids={str(list(controlled_ids))[:80]}"
        )
    clash = sorted(set(ids) & {int(r) for r in reserved})
    if clash:
        raise ValueError(
            "`controlled_ids` must not hold the search's start, end or pad token "
            f"(reserved={tuple(reserved)}). Received: controlled_ids holding {clash}"
        )
    if len(static_shape(required)) != 2:
        raise ValueError(
            "`required` must have shape (batch_size, Tx). Received: "
            f"required.shape={static_shape(required)}"
        )
    required = ops.cast(required, "int32")
    batch = ops.shape(required)[0]
    slots = len(ids)
    if slots:
        matches = ops.equal(
            ops.expand_dims(required, -1), ops.convert_to_tensor(ids, "int32")
        )  # (B, Tx, P)
        counts = ops.sum(ops.cast(matches, "int32"), axis=1)  # (B, P)
    else:
        counts = ops.zeros((batch, 0), "int32")
    # Each id's slot in `counts`, the free ones the extra last slot.
    slot = np.full((vocab_size,), slots, "int32")
    slot[ids] = np.arange(slots, dtype="int32")
    table = ops.concatenate([counts, ops.full((batch, 1), FREE, "int32")], axis=1)
    budget = ops.take(table, ops.convert_to_tensor(slot), axis=1)  # (B, V)
    if width is None:
        return budget
    if is_int(width) and width < vocab_size:
        raise ValueError(
            f"`width` must be at least `vocab_size` ({vocab_size}). Received: width={width}"
        )
    extra = ops.full((batch, width - vocab_size), FREE, "int32")
    return ops.concatenate([budget, extra], axis=1)


def _all_ints(values) -> bool:
    try:
        return all(is_int(v) for v in values)
    except TypeError:
        return False


def constrain_copies(step_fn, end_token: int) -> StepFunction:
    """`step_fn` whose logits follow the rules of this module.

    Args:
        step_fn: a step function (`attention_zoo.decoding`), a
            `StepFunction` or a plain callable; its declaration
            (`shares_constants_across_beams`) is kept.
        end_token: the id that ends a sequence (the search's `end_token`).

    Returns:
        A `StepFunction` whose state is `(inner_state, budget)`: the
        search's `initial_state` is `(step_fn's initial state,
        copy_budget(...))`.
    """
    if not callable(step_fn):
        raise TypeError(f"`step_fn` must be callable. Received: step_fn={step_fn!r}")
    if not is_int(end_token) or end_token < 0:
        raise ValueError(
            f"`end_token` must be a non-negative integer. Received: end_token={end_token!r}"
        )
    end_token = int(end_token)

    def fn(tokens, state, constants):
        inner, budget = state
        tokens = ops.cast(tokens, "int32")
        ids = ops.arange(ops.shape(budget)[-1], dtype="int32")[None, :]  # (1, W)
        fed = ops.equal(ids, ops.expand_dims(tokens, -1))  # (B, W)
        spent = ops.logical_and(fed, budget > 0)
        budget = budget - ops.cast(spent, "int32")
        logits, inner, trace = step_fn(tokens, inner, constants)
        logits = ops.cast(logits, "float32")
        width, expected = logits.shape[-1], budget.shape[-1]
        if width is not None and expected is not None and width != expected:
            raise ValueError(
                "The budget must have one entry per logit of the step. Received: "
                f"budget width {expected}, logits width {width}"
            )
        # A max, not `any`: a reduction every export lowers to builtins.
        owed = ops.max(budget, axis=-1, keepdims=True) > 0  # (B, 1)
        blocked = ops.logical_or(
            ops.equal(budget, 0), ops.logical_and(ops.equal(ids, end_token), owed)
        )
        return ops.where(blocked, NEG_INF, logits), (inner, budget), trace

    if isinstance(step_fn, StepFunction):
        return step_fn.with_fn(fn)
    return StepFunction(fn, shares_constants(step_fn))
