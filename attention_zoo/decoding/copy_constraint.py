"""Tokens a search must copy: each exactly as often as the source holds it.

`constrain_copies(step_fn, end_token, token_groups)` wraps a step function
(see `attention_zoo.decoding`) so that greedy search, sampling and beam
search keep a set of *groups* by construction (a translator's masked
placeholders: group `PH_PRINTF_1`, which the vocabulary ids
`ph_printf_1` and `` `ph_printf_1 `` both count for). `token_groups`
`(V,)` or `(V, S)` names the groups each id of the step's logits counts for
(-1: none; ids past `V`, a copy mechanism's source positions, count for
none). The wrapped step's state is `(inner_state, budget)`, `budget` int32
`(B, G)` (`copy_budget`): how many more times row `b` must emit group `g`.

The rules, applied to the logits of every step before the search sees them:

1. an id that counts for a group whose budget is 0 gets `NEG_INF` (no
   probability): a group the source does not hold (budget 0 from the
   start) is never emitted, and one it holds `n` times at most `n` times;
2. `end_token` gets `NEG_INF` while any budget is positive: a sequence
   ends only once it has emitted each group as often as the source holds
   it. The search's `max_length` stays the only other way out, and an
   output cut there lacks what it had not copied yet (a check downstream
   still sees it);
3. the id a step is fed (the one chosen at the step before) spends one of
   the budget of each group it counts for;
4. with `lift_owed` (the default), while `<end>` is blocked, each allowed
   id that pays an owed group gets at least the logit `<end>` had: where
   the model would end, what it still owes comes first. Without it a
   model that gives an owed placeholder little probability writes
   filler until `max_length` (on the `software_en_es` preset, a run-on
   of periods).

Why it holds: by rule 3, when step `t` chooses, `budget[b, g]` is `n_g`
minus the times a group-`g` id was chosen at steps before `t` (no id
counts for a group twice: `token_groups` is checked), never below 0 since
rule 1 let each of them be chosen only with budget left (rule 4 only
raises logits of allowed ids, so it changes none of this). Rule 1 then keeps
the count of `g` at most `n_g`, and rule 2 lets the sequence end only with
every budget at 0, i.e. each count exactly `n_g`. Some token is always
allowed: every id outside the groups, and `end_token` once no budget is
left. The order is free: `%2$s ... %1$s` keeps both. Beam search carries
the budget in the state, which it tiles per hypothesis and reorders with
the beam, so each hypothesis spends its own; a finished hypothesis is fed
`pad_token` (which must count for no group) and its logits are the
search's own. The searches' scores are then log-probabilities of the
constrained distribution (the allowed tokens renormalized).

Only `keras.ops`, so the wrapper runs inside the compiled searches on every
backend and traces into the exports. Per step it costs `S` gathers of a
`(B, V)` mask from the `(B, G)` budget.
"""

from __future__ import annotations

import numpy as np
from keras import ops

from attention_zoo._checks import checked_bool, is_int, static_shape
from attention_zoo.decoding._common import NEG_INF
from attention_zoo.decoding.step import StepFunction, shares_constants


def check_token_groups(token_groups, reserved=()) -> np.ndarray:
    """`token_groups` as int32 `(V, S)`, or a ValueError saying what is wrong.

    Args:
        token_groups: `(V,)` or `(V, S)` integers >= -1.
        reserved: ids that must count for no group (the search's start,
            end and pad tokens).
    """
    try:
        groups = np.asarray(token_groups)
    except (TypeError, ValueError):
        groups = np.asarray([])
    if groups.ndim == 1:
        groups = groups[:, None]
    received = str(np.asarray(token_groups, dtype=object).tolist())[:80]
    if (
        groups.ndim != 2
        or groups.size == 0
        or not np.issubdtype(groups.dtype, np.integer)
        or (groups < -1).any()
    ):
        raise ValueError(
            "`token_groups` must be integers >= -1 of shape (vocab_size,) or "
            f"(vocab_size, S). Received: token_groups={received}"
        )
    for row in groups:
        named = row[row >= 0]
        if len(set(named.tolist())) != len(named):
            raise ValueError(
                "An id of `token_groups` must count for a group at most once. "
                f"Received: a row {row.tolist()}"
            )
    for token in reserved:
        if 0 <= token < len(groups) and (groups[token] >= 0).any():
            raise ValueError(
                "The search's start, end and pad tokens must count for no "
                f"group. Received: token {token} in groups "
                f"{groups[token].tolist()}"
            )
    return groups.astype("int32")


def copy_budget(required, n_groups: int):
    """The budget `constrain_copies` starts from: int32 `(B, n_groups)`,
    the times each group appears in each row of `required`.

    Args:
        required: int `(B, N)`, the groups each row must copy (a source's
            tokens mapped to their groups); entries outside
            `[0, n_groups)` (-1 for a word) are ignored.
        n_groups: the number of groups, `G`.
    """
    if not is_int(n_groups) or n_groups < 1:
        raise ValueError(
            f"`n_groups` must be a positive integer. Received: n_groups={n_groups!r}"
        )
    if len(static_shape(required)) != 2:
        raise ValueError(
            "`required` must have shape (batch_size, N). Received: "
            f"required.shape={static_shape(required)}"
        )
    required = ops.cast(required, "int32")
    matches = ops.equal(
        ops.expand_dims(required, -1), ops.arange(int(n_groups), dtype="int32")
    )  # (B, N, G)
    return ops.sum(ops.cast(matches, "int32"), axis=1)


def constrain_copies(
    step_fn, end_token: int, token_groups, lift_owed: bool = True
) -> StepFunction:
    """`step_fn` whose logits follow the rules of this module.

    Args:
        step_fn: a step function (`attention_zoo.decoding`), a
            `StepFunction` or a plain callable; its declaration
            (`shares_constants_across_beams`) is kept.
        end_token: the id that ends a sequence (the search's `end_token`);
            it must count for no group.
        token_groups: int `(V,)` or `(V, S)`, the groups (`0 .. G - 1`)
            each id of the step's vocabulary counts for, -1 for none.
        lift_owed: rule 4 of the module docstring.

    Returns:
        A `StepFunction` whose state is `(inner_state, budget)`: the
        search's `initial_state` is `(step_fn's initial state,
        copy_budget(required, G))` with `G = max(token_groups) + 1`.
    """
    if not callable(step_fn):
        raise TypeError(f"`step_fn` must be callable. Received: step_fn={step_fn!r}")
    if not is_int(end_token) or end_token < 0:
        raise ValueError(
            f"`end_token` must be a non-negative integer. Received: end_token={end_token!r}"
        )
    end_token = int(end_token)
    lift_owed = checked_bool("constrain_copies", "lift_owed", lift_owed)
    groups = check_token_groups(token_groups, reserved=(end_token,))
    vocab, slots = groups.shape
    n_groups = max(int(groups.max()) + 1, 1)
    # Slot `n_groups` of the budget, always positive, stands for "no group".
    table = np.where(groups < 0, n_groups, groups).astype("int32")

    def fn(tokens, state, constants):
        inner, budget = state
        width = budget.shape[-1]
        if width is not None and width != n_groups:
            raise ValueError(
                f"The budget must have one entry per group of `token_groups`, "
                f"{n_groups}. Received: a budget of {width}"
            )
        tokens, budget = ops.cast(tokens, "int32"), ops.cast(budget, "int32")
        # Made within the trace, the tables are constants of the graph: a
        # tensor made before it would be captured, which tf2onnx turns into
        # inputs of the exported model.
        columns = [ops.convert_to_tensor(table[:, s]) for s in range(slots)]
        fed = ops.take(
            ops.convert_to_tensor(table), ops.minimum(tokens, vocab - 1), axis=0
        )  # (B, S)
        fed = ops.where(ops.expand_dims(tokens < vocab, -1), fed, n_groups)
        spent = ops.sum(
            ops.cast(
                ops.equal(
                    ops.expand_dims(fed, -1), ops.arange(n_groups, dtype="int32")
                ),
                "int32",
            ),
            axis=1,
        )  # (B, G)
        budget = ops.maximum(budget - spent, 0)
        logits, inner, trace = step_fn(tokens, inner, constants)
        logits = ops.cast(logits, "float32")
        batch = ops.shape(budget)[0]
        left = ops.concatenate([budget, ops.ones((batch, 1), "int32")], axis=1)
        blocked, pays = None, None
        for column in columns:
            slot = ops.take(left, column, axis=1)  # (B, V)
            empty = ops.equal(slot, 0)
            blocked = empty if blocked is None else ops.logical_or(blocked, empty)
            # The free slot is 1 too, but no real group's budget sits there.
            paying = ops.logical_and(slot > 0, column[None, :] < n_groups)
            pays = paying if pays is None else ops.logical_or(pays, paying)
        extra = logits.shape[-1] - vocab if logits.shape[-1] is not None else None
        if extra is None or extra > 0:  # a copy mechanism's source positions
            extra = ops.shape(logits)[-1] - vocab
            blocked, pays = (
                ops.concatenate([x, ops.zeros((batch, extra), "bool")], axis=1)
                for x in (blocked, pays)
            )
        elif extra < 0:
            raise ValueError(
                "`token_groups` names more ids than the step has logits. "
                f"Received: {vocab} ids for logits of {logits.shape[-1]}"
            )
        # A max, not `any`: a reduction every export lowers to builtins.
        owed = ops.max(budget, axis=-1, keepdims=True) > 0  # (B, 1)
        ids = ops.arange(ops.shape(blocked)[-1], dtype="int32")[None, :]
        if lift_owed:
            end_logit = ops.take(logits, ops.convert_to_tensor([end_token]), axis=1)
            lift = ops.logical_and(
                ops.logical_and(pays, owed), ops.logical_not(blocked)
            )
            logits = ops.where(lift, ops.maximum(logits, end_logit), logits)
        blocked = ops.logical_or(
            blocked, ops.logical_and(ops.equal(ids, end_token), owed)
        )
        return ops.where(blocked, NEG_INF, logits), (inner, budget), trace

    if isinstance(step_fn, StepFunction):
        return step_fn.with_fn(fn)
    return StepFunction(fn, shares_constants(step_fn))
