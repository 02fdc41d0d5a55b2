"""The test battery every attention mechanism of the package passes.

A test module subclasses `AttentionLayerBattery` with its mechanisms and
their NumPy float64 reference; each test then runs for every configuration
(see `pytest_generate_tests` in `tests/conftest.py`): a NumPy float64
reference, the mask contract, a padding property (every shape of a small
set, random contents and masks), the fully-masked policy with finite
gradients, config and `.keras` round trips, mixed precision, symbolic use in
a functional model, the step-decoding API (with the mechanism's state, if
any) and one `fit` epoch.
"""

from __future__ import annotations

import itertools

import keras
import numpy as np
import pytest

from tests import numpy_reference as ref
from tests.helpers import gradients, to_numpy

DQ, DV, DK, MAX_LENGTH = 4, 5, 3, 16
# Rows of each batch of the padding property test.
PADDING_ROWS = 32


class AttentionLayerBattery:
    """Subclass with `MECHANISMS = {name: factory(**layer_kwargs)}`.

    Override `reference` for a mechanism whose weights are not the masked
    softmax of `tests.numpy_reference.layer_scores`, and `WEIGHTS_SUM_TO_ONE`
    for one whose weights may sum to less than 1 (local-p, monotonic).
    """

    MECHANISMS: dict = {}
    WEIGHTS_SUM_TO_ONE = True

    def reference(self, layer, query, value, key, query_mask, value_mask):
        """`(context, weights)` in float64 from the layer's weights."""
        scores = ref.layer_scores(layer, query, key)
        return ref.attention(scores, value, query_mask, value_mask)

    def check_sums(self, name, sums, atol):
        """Weights of an unmasked query sum to 1 (or lie in [0, 1])."""
        if self.WEIGHTS_SUM_TO_ONE:
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
        return self.MECHANISMS[name](**kwargs)

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

    def test_matches_numpy_float64_reference(self, name):
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

    def test_float64_layer_matches_the_reference_in_float64(self, name):
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

    def test_weights_are_a_distribution_over_unmasked_keys(self, name):
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
        self.check_sums(name, sums[query_mask], atol=1e-5)
        # Masked query rows are defined: zero weights.
        assert (sums[~query_mask] == 0).all()

    def test_masked_query_rows_have_zero_context(self, name):
        layer = self.built_layer(name)
        query, value, key, query_mask, value_mask = self.random_inputs(name, seed=5)
        query_mask[0, 1] = False
        context = to_numpy(
            layer(query, value, key, query_mask=query_mask, value_mask=value_mask)
        )
        assert (context[~query_mask] == 0).all()

    def test_fully_masked_rows_give_zeros_and_finite_gradients(self, name):
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

    def test_padding_with_masked_keys_never_changes_outputs(self, name):
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

    def test_get_config_round_trip(self, name):
        layer = self.built_layer(name, dropout=0.25, seed=7, trainable=False)
        config = layer.get_config()
        clone = type(layer).from_config(config)
        assert clone.get_config() == config
        query, value, key, query_mask, value_mask = self.random_inputs(name)
        clone(query, value, key)
        clone.set_weights(layer.get_weights())
        kwargs = dict(
            query_mask=query_mask, value_mask=value_mask, return_attention_scores=True
        )
        for a, b in zip(
            layer(query, value, key, **kwargs), clone(query, value, key, **kwargs)
        ):
            np.testing.assert_array_equal(to_numpy(a), to_numpy(b))

    def functional_model(self, name, layer, tv=None):
        """Memory from `Embedding(mask_zero=True)`, so the implicit mask is used."""
        dq, _ = self.dims(name)
        tokens = keras.Input((tv,), dtype="int32", name="tokens")
        query = keras.Input((None, dq), name="query")
        memory = keras.layers.Embedding(11, DK, mask_zero=True)(tokens)
        context, weights = layer(query, memory, return_attention_scores=True)
        output = keras.layers.Dense(2)(context)
        return keras.Model([tokens, query], [output, weights])

    def token_inputs(self, name, batch=4, tq=3, tv=7, seed=0):
        rng = np.random.default_rng(seed)
        tokens = rng.integers(1, 11, size=(batch, tv)).astype("int32")
        tokens[0, 4:] = 0  # padding, masked by the Embedding
        tokens[1, 2:] = 0
        query = rng.normal(size=(batch, tq, self.dims(name)[0])).astype("float32")
        return tokens, query

    def test_keras_implicit_mask_is_honoured(self, name):
        model = self.functional_model(name, self.make_layer(name))
        tokens, query = self.token_inputs(name)
        _, weights = model.predict([tokens, query], verbose=0)
        assert (weights[0, :, 4:] == 0).all()
        assert (weights[1, :, 2:] == 0).all()
        self.check_sums(name, weights.sum(-1), atol=1e-5)

    def test_keras_save_and_load_give_identical_outputs(self, name, tmp_path):
        model = self.functional_model(name, self.make_layer(name, dropout=0.1, seed=3))
        tokens, query = self.token_inputs(name)
        expected = model.predict([tokens, query], verbose=0)
        path = tmp_path / "model.keras"
        model.save(path)
        loaded = keras.saving.load_model(path)
        got = loaded.predict([tokens, query], verbose=0)
        for a, b in zip(expected, got):
            np.testing.assert_array_equal(a, b)

    def test_symbolic_shapes_in_functional_model(self, name):
        dq, dk = self.dims(name)
        layer = self.make_layer(name)
        query = keras.Input((None, dq))
        step_query = keras.Input((dq,))
        value = keras.Input((9, DV))
        key = keras.Input((9, dk))
        context, weights = layer(query, value, key, return_attention_scores=True)
        assert tuple(context.shape) == (None, None, DV)
        assert tuple(weights.shape) == (None, None, 9)
        step_context, step_weights = layer(
            step_query, value, key, return_attention_scores=True
        )
        assert tuple(step_context.shape) == (None, DV)
        assert tuple(step_weights.shape) == (None, 9)
        assert tuple(layer(query, value, key).shape) == (None, None, DV)

    def test_single_step_query_equals_one_step_sequence(self, name):
        layer = self.built_layer(name)
        query, value, key, _, value_mask = self.random_inputs(name, tq=1)
        context, weights = layer(
            query[:, 0], value, key, value_mask=value_mask, return_attention_scores=True
        )
        seq_context, seq_weights = layer(
            query, value, key, value_mask=value_mask, return_attention_scores=True
        )
        assert tuple(context.shape) == (query.shape[0], DV)
        assert tuple(weights.shape) == (query.shape[0], value.shape[1])
        np.testing.assert_allclose(
            to_numpy(context), to_numpy(seq_context)[:, 0], atol=1e-6
        )
        np.testing.assert_allclose(
            to_numpy(weights), to_numpy(seq_weights)[:, 0], atol=1e-6
        )

    def test_step_with_memory_projected_once_matches_call(self, name):
        """`step` from `get_initial_state`, carried over Tq, equals the call."""
        layer = self.built_layer(name)
        query, value, key, _, value_mask = self.random_inputs(name, tq=5)
        projected = layer.project_key(key)
        expected_context, expected_weights = layer(
            query, value, key, value_mask=value_mask, return_attention_scores=True
        )
        state = layer.get_initial_state(value, value_mask)
        assert len(state) == layer.num_states
        for t in range(query.shape[1]):
            context, weights, state = layer.step(
                query[:, t], value, projected, state, value_mask=value_mask
            )
            np.testing.assert_allclose(
                to_numpy(context), to_numpy(expected_context)[:, t], atol=1e-5
            )
            np.testing.assert_allclose(
                to_numpy(weights), to_numpy(expected_weights)[:, t], atol=1e-5
            )
        if not layer.num_states:
            # Stateless: each step alone is the call's step.
            context = layer.attend(query[:, 3], value, projected, value_mask=value_mask)
            np.testing.assert_allclose(
                to_numpy(context), to_numpy(expected_context)[:, 3], atol=1e-5
            )

    def test_step_rows_sharing_a_memory_keep_their_own_state(self, name):
        """Beam layout: R query rows over one memory, each with its own state."""
        layer = self.built_layer(name)
        query, value, key, _, value_mask = self.random_inputs(name, tq=3)
        projected = layer.project_key(key)
        rows = 2
        state = [
            keras.ops.stack([s] * rows, axis=1)
            for s in layer.get_initial_state(value, value_mask)
        ]
        singles = [layer.get_initial_state(value, value_mask) for _ in range(rows)]
        for t in range(query.shape[1]):
            # Row r sees query step t + r: the rows' states then differ.
            step_query = np.stack(
                [query[:, min(t + r, query.shape[1] - 1)] for r in range(rows)], 1
            )
            context, weights, state = layer.step(
                step_query, value, projected, state, value_mask=value_mask
            )
            for r in range(rows):
                single_context, single_weights, singles[r] = layer.step(
                    step_query[:, r], value, projected, singles[r], value_mask
                )
                np.testing.assert_allclose(
                    to_numpy(context)[:, r], to_numpy(single_context), atol=1e-5
                )
                np.testing.assert_allclose(
                    to_numpy(weights)[:, r], to_numpy(single_weights), atol=1e-5
                )

    def test_step_needs_the_state_of_get_initial_state(self, name):
        layer = self.built_layer(name)
        query, value, key, _, _ = self.random_inputs(name)
        extra = [keras.ops.zeros((query.shape[0], value.shape[1]))]
        with pytest.raises(ValueError, match="`state` must be a list of"):
            layer.step(query[:, 0], value, layer.project_key(key), extra * 3)

    def test_query_without_steps_gives_empty_outputs(self, name):
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

    def test_empty_memory_gives_zero_weights_and_context(self, name):
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

    def test_value_none_is_refused_by_name(self, name):
        query, _, _, _, _ = self.random_inputs(name)
        message = r"needs a value \(memory\) tensor. Received: value=None"
        for layer in (self.make_layer(name), self.built_layer(name)):
            with pytest.raises(ValueError, match=message):
                layer(query, None)
        with pytest.raises(ValueError, match=message):
            layer.attend(query, None, None)

    def test_attend_and_step_check_their_inputs_like_a_call(self, name):
        layer = self.built_layer(name)
        query, value, key, _, value_mask = self.random_inputs(name)
        projected = layer.project_key(key)
        state = layer.get_initial_state(value, value_mask)
        bad_calls = {
            "must have the same batch size": [
                lambda: layer.attend(query, value[:1], projected[:1]),
                lambda: layer.step(query[:1, 0], value, projected, state),
            ],
            r"`query` must have rank 3 .* Received: query.shape=\(": [
                lambda: layer.attend(query[0, 0], value, projected),
                lambda: layer.step(query[0, 0], value, projected, state),
            ],
            r"`value_mask` must have shape": [
                lambda: layer.attend(
                    query, value, projected, value_mask=value_mask[:1]
                ),
                lambda: layer.step(
                    query[:, 0], value, projected, state, value_mask=value_mask[:, :2]
                ),
            ],
            r"`projected_key` and `value` must have the same length Tv": [
                lambda: layer.attend(query, value, projected[:, :2]),
            ],
        }
        for message, calls in bad_calls.items():
            for call in calls:
                with pytest.raises(ValueError, match=message):
                    call()

    def test_feature_sizes_other_than_the_built_ones_are_refused(self, name):
        # Before, a wider query or key reached the projections and failed in
        # the backend (BatchMatMul, Dense input spec) without naming it.
        layer = self.built_layer(name)
        query, value, key, _, _ = self.random_inputs(name)
        projected = layer.project_key(key)
        state = layer.get_initial_state(value)

        def wider(x):
            return np.concatenate([x, x[..., :1]], axis=-1)

        bad_calls = [
            ("query", lambda: layer(wider(query), value, key)),
            ("query", lambda: layer.attend(wider(query), value, projected)),
            ("query", lambda: layer.step(wider(query)[:, 0], value, projected, state)),
        ]
        if name != "luong_location":  # scores from the query alone
            bad_calls.append(("key", lambda: layer(query, value, wider(key))))
        for arg, call in bad_calls:
            with pytest.raises(ValueError, match=rf"Received: .*{arg}.shape\[-1\]="):
                call()
        # The value's size is free: the context is a weighted sum of values.
        context = layer(query, wider(value), key)
        assert tuple(context.shape) == (*query.shape[:2], DV + 1)

    def test_dropout_is_seeded_and_training_only(self, name):
        layer = self.built_layer(name, dropout=0.5, seed=11)
        twin = self.built_layer(name, dropout=0.5, seed=11)
        twin.set_weights(layer.get_weights())
        query, value, key, _, _ = self.random_inputs(name)
        inference = to_numpy(layer(query, value, key))
        np.testing.assert_array_equal(inference, to_numpy(layer(query, value, key)))
        train_a, weights_a = layer(
            query, value, key, training=True, return_attention_scores=True
        )
        train_b = twin(query, value, key, training=True)
        np.testing.assert_array_equal(to_numpy(train_a), to_numpy(train_b))
        # Dropout, not just training mode (monotonic attention is expected in
        # training, hard at inference), changes the context.
        undropped = self.built_layer(name, dropout=0.0)
        undropped.set_weights(layer.get_weights())
        no_dropout = to_numpy(undropped(query, value, key, training=True))
        assert not np.allclose(to_numpy(train_a), no_dropout)
        # The returned weights are those before dropout: still a distribution.
        self.check_sums(name, to_numpy(weights_a).sum(-1), atol=1e-5)

    @pytest.mark.parametrize("policy", ["mixed_float16", "mixed_bfloat16"])
    def test_mixed_precision(self, name, policy):
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
        self.check_sums(name, weights.sum(-1)[query_mask], atol=2e-2)
        assert (
            weights[np.broadcast_to(~value_mask[:, None, :], weights.shape)] == 0
        ).all()

    def test_fit_one_epoch_in_functional_model(self, name):
        keras.utils.set_random_seed(0)
        model = self.functional_model(
            name, self.make_layer(name, dropout=0.1, seed=1), tv=7
        )
        model.compile(optimizer="adam", loss=["mse", None])
        tokens, query = self.token_inputs(name, batch=16)
        target = np.random.default_rng(0).normal(size=(16, 3, 2)).astype("float32")
        before = [w.copy() for w in model.get_weights()]
        history = model.fit([tokens, query], target, batch_size=8, epochs=1, verbose=0)
        assert np.isfinite(history.history["loss"]).all()
        changed = [
            not np.array_equal(a, b) for a, b in zip(before, model.get_weights())
        ]
        assert all(changed)
