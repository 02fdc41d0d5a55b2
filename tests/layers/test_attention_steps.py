"""The step mixin's contract with `BaseAttention`, and the rule of `supports_jit`."""

from __future__ import annotations

import ast
from pathlib import Path

import keras
import numpy as np
import pytest

from attention_zoo.layers import (
    BahdanauAttention,
    LocalAttention,
    LocationSensitiveAttention,
    attention_steps,
    base_attention,
)
from attention_zoo.layers.attention_steps import AttentionSteps

ON_TENSORFLOW = keras.backend.backend() == "tensorflow"


@pytest.mark.parametrize(
    "make, stateful_scan",
    [
        (lambda: LocationSensitiveAttention(4), True),
        (lambda: BahdanauAttention(4), False),
        # local-m has a state but places every step's window at once.
        (lambda: LocalAttention("local-m", window=2), False),
    ],
    ids=["stateful_scan", "stateless", "stateful_without_scan"],
)
@pytest.mark.parametrize("length", [5, None], ids=["known", "unknown"])
def test_supports_jit_is_off_for_a_stateful_scan_over_an_unknown_length_on_tf(
    make, stateful_scan, length
):
    # The rule: a mechanism that scans its steps, called on a query of
    # unknown length, runs them in a tf.while_loop on TensorFlow, and XLA
    # cannot compile that loop's gradient; so it reports supports_jit False
    # there, and Keras trains it without XLA. A known length is unrolled.
    layer = make()
    assert layer.supports_jit  # before any call
    assert not layer.called_on_unknown_query_length
    layer(keras.Input((length, 4)), keras.Input((6, 4)))
    assert layer.called_on_unknown_query_length is (length is None)
    loses = stateful_scan and length is None and ON_TENSORFLOW
    assert layer.supports_jit is not loses


def test_supports_jit_changes_only_through_recorded_lengths_and_its_setter():
    layer = LocationSensitiveAttention(4)
    layer(keras.Input((5, 4)), keras.Input((6, 4)))
    layer.record_query_length(7)  # a known length records nothing
    assert layer.supports_jit and not layer.called_on_unknown_query_length
    # A step's query rows `(B, R, Dq)` are not a length: `step` records none.
    value = np.ones((2, 6, 4), "float32")
    state = layer.get_initial_state(value)
    layer.step(
        np.ones((2, 3, 4), "float32"),
        value,
        layer.project_key(value),
        [keras.ops.repeat(s[:, None], 3, axis=1) for s in state],
    )
    assert not layer.called_on_unknown_query_length
    layer.record_query_length(None)  # what a decoder does for its mechanism
    assert layer.supports_jit is not ON_TENSORFLOW
    layer.supports_jit = False  # the value Keras's constructor sets, changed
    assert layer.supports_jit is False


def test_a_host_without_the_declared_hooks_is_refused_by_name():
    class Host(AttentionSteps):
        dropout = 0.0

    with pytest.raises(NotImplementedError, match="`_checked_inputs`"):
        Host().step(np.ones((1, 2)), np.ones((1, 3, 2)), np.ones((1, 3, 2)), [])
    with pytest.raises(NotImplementedError, match="`_apply_weights`"):
        Host()._apply_weights(np.ones((1, 1, 3)), np.ones((1, 3, 2)))


def private_names(path: Path) -> tuple[set[str], set[str]]:
    """The private names a file uses on `self`, and those it defines (methods,
    class attributes, `self._x = ...`)."""
    used, defined = set(), set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef):
            defined.add(node.name)
        elif (
            isinstance(node, ast.Attribute) and getattr(node.value, "id", "") == "self"
        ):
            if node.attr.startswith("_") and not node.attr.startswith("__"):
                used.add(node.attr)
                if isinstance(node.ctx, ast.Store):
                    defined.add(node.attr)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                targets = getattr(item, "targets", [getattr(item, "target", None)])
                defined.update(getattr(t, "id", None) for t in targets)
    return used, defined


@pytest.mark.parametrize("module", [base_attention, attention_steps])
def test_each_private_name_is_defined_in_the_file_that_uses_it(module):
    # `BaseAttention` and its step mixin were coupled through private names
    # each defined only in the other file; the mixin now declares the hooks
    # it needs from its host (`_checked_inputs`, `_apply_weights`).
    used, defined = private_names(Path(module.__file__))
    assert used - defined == set(), module.__name__
