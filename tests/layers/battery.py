"""The test battery every attention mechanism of the package passes.

`AttentionLayerBattery` is a plain object, not a base class of tests: a test
module builds one from its mechanisms (and, where the weights are not the
masked softmax of `tests.numpy_reference.layer_scores`, its NumPy float64
reference) and calls each check by name from a test of its own, once per
mechanism:

    MECHANISMS = {"coverage": lambda **kw: CoverageAttention(units=6, **kw)}
    BATTERY = AttentionLayerBattery(MECHANISMS, reference=coverage_reference)


    @pytest.mark.parametrize("name", list(MECHANISMS))
    class TestCoverageAttention:
        def test_matches_numpy_float64_reference(self, name):
            BATTERY.check_matches_numpy_float64_reference(name)

        ...

Every `check_*` method is meant to run for every mechanism. This file holds
the numerics and the masks: the NumPy float64 reference (in float32 and in
float64), the mask contract, the fully-masked policy with finite gradients, a
padding property (every shape of a small set, random contents and masks),
empty queries and memories, and mixed precision. `tests/layers/battery_keras.py`
holds the step-decoding API (with the mechanism's state, if any), the input
checks, and Keras use: config and `.keras` round trips, the implicit mask,
symbolic shapes, dropout and one `fit` epoch.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import keras
import numpy as np
import pytest

from tests import numpy_reference as ref
from tests.helpers import gradients, to_numpy

# The input sizes are defined beside the checks that battery.py builds on.
from tests.layers.battery_keras import DK, DQ, DV, MAX_LENGTH, StepAndKerasChecks

# Rows of each batch of the padding property test.
PADDING_ROWS = 32


def masked_softmax_reference(layer, query, value, key, query_mask, value_mask):
    """`(context, weights)` in float64 from the layer's weights."""
    scores = ref.layer_scores(layer, query, key)
    return ref.attention(scores, value, query_mask, value_mask)


class AttentionLayerBattery(StepAndKerasChecks):
    """The contract checks of the mechanisms of one test module.

    Args:
        mechanisms: `{name: factory(**layer_kwargs)}`; each factory returns a
            fresh, unbuilt layer (the checks pass `dtype`, `dropout`, `seed`
            and the like).
        reference: `reference(layer, query, value, key, query_mask,
            value_mask) -> (context, weights)` in float64, for mechanisms whose
            weights are not the masked softmax of
            `tests.numpy_reference.layer_scores`.
        weights_sum_to_one: False for mechanisms whose weights may sum to less
            than 1 (local-p, monotonic): they must then lie in [0, 1].

    A helper such as `dims` can still be changed by subclassing the battery.
    """

    def __init__(
        self,
        mechanisms: dict[str, Callable[..., keras.layers.Layer]],
        *,
        reference: Callable | None = None,
        weights_sum_to_one: bool = True,
    ):
        self.mechanisms = dict(mechanisms)
        self.reference = reference or masked_softmax_reference
        self.weights_sum_to_one = weights_sum_to_one

    def assert_sums(self, name, sums, atol):
        """Weights of an unmasked query sum to 1 (or lie in [0, 1])."""
        if self.weights_sum_to_one:
            np.testing.assert_allclose(sums, 1.0, atol=atol)
        else:
            assert (np.asarray(sums) <= 1.0 + atol).all(), sums

    def dims(self, name):
        """(Dq, Dk) for a mechanism: dot scoring needs Dq == Dk."""
        return (DK, DK) if "dot" in name else (DQ, DK)

    def random_inputs(self, name, batch=3, tq=4, tv=6, seed=0, explicit_key=True):
        rng = np.random.default_rng(seed)
        dq, dk = self.dims(name)
        query = rng.normal(size=(batch, tq, dq)).astype("float32")
        value = rng.normal(size=(batch, tv, DV)).astype("float32")
        key = (
            rng.normal(size=(batch, tv, dk)).astype("float32") if explicit_key else None
        )
        value_mask = rng.random((batch, tv)) < 0.7
        value_mask[:, 0] = True
        query_mask = rng.random((batch, tq)) < 0.8
        return query, value, key, query_mask, value_mask

    def make_layer(self, name, **kwargs):
        return self.mechanisms[name](**kwargs)

    def perturb_weights(self, layer, seed=1):
        """Random non-default weights (e.g. `scale` starts at 1, biases at 0)."""
        rng = np.random.default_rng(seed)
        layer.set_weights(
            [rng.normal(size=w.shape).astype(w.dtype) for w in layer.get_weights()]
        )

    def built_layer(self, name, **kwargs):
        layer = self.make_layer(name, **kwargs)
        query, value, key, _, _ = self.random_inputs(name)
        layer(query, value, key)
        self.perturb_weights(layer)
        return layer

    # ------------------------------------------------------------ numerics

    def check_matches_numpy_float64_reference(self, name):
        layer = self.built_layer(name)
        query, value, key, query_mask, value_mask = self.random_inputs(name, seed=3)
        context, weights = layer(
            query,
            value,
            key,
            query_mask=query_mask,
            value_mask=value_mask,
            return_attention_scores=True,
        )
        expected_context, expected_weights = self.reference(
            layer, query, value, key, query_mask, value_mask
        )
        np.testing.assert_allclose(
            to_numpy(weights), expected_weights, atol=1e-5, rtol=1e-5
        )
        np.testing.assert_allclose(
            to_numpy(context), expected_context, atol=1e-5, rtol=1e-5
        )

    def check_float64_layer_matches_the_reference_in_float64(self, name):
        # Keras computes float64 in float32 on JAX (without JAX_ENABLE_X64)
        # and its matmul in float32 on PyTorch (its dtype
        # promotion demotes it there); TensorFlow keeps float64, and so must
        # the layer: no step (the softmax, a state) may pass through float32.
        if keras.backend.backend() != "tensorflow":
            pytest.skip("float64 is TensorFlow's in Keras")
        layer = self.built_layer(name, dtype="float64")
        inputs = self.random_inputs(name, seed=3)
        query, value, key = (x.astype("float64") for x in inputs[:3])
        context, weights = layer(
            query,
            value,
            key,
            query_mask=inputs[3],
            value_mask=inputs[4],
            return_attention_scores=True,
        )
        assert keras.backend.standardize_dtype(context.dtype) == "float64"
        expected_context, expected_weights = self.reference(
            layer, query, value, key, *inputs[3:]
        )
        np.testing.assert_allclose(to_numpy(weights), expected_weights, atol=1e-12)
        np.testing.assert_allclose(to_numpy(context), expected_context, atol=1e-12)

    def check_mixed_precision(self, name, policy):
        layer = self.make_layer(name, dtype=policy)
        query, value, key, query_mask, value_mask = self.random_inputs(name)
        context, weights = layer(
            query * 30,
            value,
            key * 30,
            query_mask=query_mask,
            value_mask=value_mask,
            return_attention_scores=True,
        )
        compute_dtype = policy.split("_")[1]
        assert keras.backend.standardize_dtype(context.dtype) == compute_dtype
        assert keras.backend.standardize_dtype(weights.dtype) == compute_dtype
        assert all(
            keras.backend.standardize_dtype(w.dtype) == "float32" for w in layer.weights
        )
        context = to_numpy(keras.ops.cast(context, "float32"))
        weights = to_numpy(keras.ops.cast(weights, "float32"))
        assert np.isfinite(context).all() and np.isfinite(weights).all()
        self.assert_sums(name, weights.sum(-1)[query_mask], atol=2e-2)
        assert (
            weights[np.broadcast_to(~value_mask[:, None, :], weights.shape)] == 0
        ).all()

    # --------------------------------------------------------------- masks

    def check_weights_are_a_distribution_over_unmasked_keys(self, name):
        layer = self.built_layer(name)
        query, value, key, query_mask, value_mask = self.random_inputs(name, seed=4)
        _, weights = layer(
            query,
            value,
            key,
            query_mask=query_mask,
            value_mask=value_mask,
            return_attention_scores=True,
        )
        weights = to_numpy(weights)
        assert (weights >= 0).all()
        # Masked keys get exactly zero, not merely a small number.
        assert (
            weights[np.broadcast_to(~value_mask[:, None, :], weights.shape)] == 0
        ).all()
        sums = weights.sum(-1)
        self.assert_sums(name, sums[query_mask], atol=1e-5)
        # Masked query rows are defined: zero weights.
        assert (sums[~query_mask] == 0).all()

    def check_masked_query_rows_have_zero_context(self, name):
        layer = self.built_layer(name)
        query, value, key, query_mask, value_mask = self.random_inputs(name, seed=5)
        query_mask[0, 1] = False
        context = to_numpy(
            layer(query, value, key, query_mask=query_mask, value_mask=value_mask)
        )
        assert (context[~query_mask] == 0).all()

    def check_fully_masked_rows_give_zeros_and_finite_gradients(self, name):
        layer = self.built_layer(name)
        query, value, key, _, value_mask = self.random_inputs(name, seed=6)
        value_mask[1] = False  # every key of batch element 1 masked

        def reduce_fn(outputs):
            context, weights = outputs
            return keras.ops.sum(context**2) + keras.ops.sum(weights**2)

        context, weights = layer(
            query, value, key, value_mask=value_mask, return_attention_scores=True
        )
        assert (to_numpy(weights)[1] == 0).all()
        assert (to_numpy(context)[1] == 0).all()
        assert np.isfinite(to_numpy(context)).all()
        grads = gradients(
            layer,
            [query, value, key],
            {"value_mask": value_mask, "return_attention_scores": True},
            reduce_fn,
        )
        assert len(grads) == 3 + len(layer.trainable_variables)
        if grads[2] is None:  # e.g. location scores ignore the key's content
            grads[2] = np.zeros_like(key)
        for g in grads:
            assert np.isfinite(g).all()
        # Nothing flows back into the memory of the fully masked element.
        assert (grads[1][1] == 0).all()
        assert (grads[2][1] == 0).all()

    def check_padding_with_masked_keys_never_changes_outputs(self, name):
        """Masked keys appended with arbitrary (large) content change neither
        the context nor the weights of the real keys, and get weight 0.

        Every combination of a small set of shapes (few programs for JAX to
        compile) runs on a batch of PADDING_ROWS rows, each with its own
        contents and mask (a row may be fully masked): 384 rows in all, the
        cases of 200 two-row examples in 24 calls instead of 400."""
        layer = self.built_layer(name)
        dq, dk = self.dims(name)
        rng = np.random.default_rng(0)
        batch = PADDING_ROWS
        for tq, tv, pad in itertools.product([1, 3], [1, 3, 6], [1, MAX_LENGTH - 6]):
            query = rng.normal(size=(batch, tq, dq)).astype("float32")
            value = rng.normal(size=(batch, tv, DV)).astype("float32")
            key = rng.normal(size=(batch, tv, dk)).astype("float32")
            value_mask = rng.random((batch, tv)) < 0.6
            context, weights = layer(
                query, value, key, value_mask=value_mask, return_attention_scores=True
            )
            padded_value = np.concatenate(
                [value, 100 * rng.normal(size=(batch, pad, DV)).astype("float32")], 1
            )
            padded_key = np.concatenate(
                [key, 100 * rng.normal(size=(batch, pad, dk)).astype("float32")], 1
            )
            padded_mask = np.concatenate([value_mask, np.zeros((batch, pad), bool)], 1)
            padded_context, padded_weights = layer(
                query,
                padded_value,
                padded_key,
                value_mask=padded_mask,
                return_attention_scores=True,
            )
            case = f"tq={tq}, tv={tv}, pad={pad}"
            np.testing.assert_allclose(
                to_numpy(padded_context),
                to_numpy(context),
                atol=1e-5,
                rtol=1e-5,
                err_msg=case,
            )
            np.testing.assert_allclose(
                to_numpy(padded_weights)[..., :tv],
                to_numpy(weights),
                atol=1e-5,
                rtol=1e-5,
                err_msg=case,
            )
            assert (to_numpy(padded_weights)[..., tv:] == 0).all(), case

    # ------------------------------------------------------- empty tensors

    def check_query_without_steps_gives_empty_outputs(self, name):
        layer = self.built_layer(name)
        query, value, key, query_mask, value_mask = self.random_inputs(name)
        context, weights = layer(
            query[:, :0],
            value,
            key,
            query_mask=query_mask[:, :0],
            value_mask=value_mask,
            return_attention_scores=True,
        )
        assert tuple(context.shape) == (query.shape[0], 0, DV)
        assert tuple(weights.shape) == (query.shape[0], 0, value.shape[1])

    def check_empty_memory_gives_zero_weights_and_context(self, name):
        # The policy of a fully masked row for a memory of no step (Tv = 0),
        # in a call and in a decoder step.
        layer = self.built_layer(name)
        query, value, key, _, _ = self.random_inputs(name)
        value, key = value[:, :0], key[:, :0]
        context, weights = layer(query, value, key, return_attention_scores=True)
        assert tuple(weights.shape) == (query.shape[0], query.shape[1], 0)
        np.testing.assert_array_equal(to_numpy(context), 0.0)
        assert tuple(context.shape) == (query.shape[0], query.shape[1], DV)
        state = layer.get_initial_state(value)
        context, weights, _ = layer.step(
            query[:, 0], value, layer.project_key(key), state
        )
        assert tuple(weights.shape) == (query.shape[0], 0)
        np.testing.assert_array_equal(to_numpy(context), np.zeros((len(query), DV)))
