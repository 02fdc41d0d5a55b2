"""The layer battery's checks of the step-decoding API and of Keras use.

`StepAndKerasChecks` is the half of `tests.layers.battery.AttentionLayerBattery`
that exercises the layer as the decoders and Keras use it: `step` and
`attend` carrying the mechanism's state (over `Tq`, and for rows sharing a
memory), the input checks that name the wrong argument, the `get_config`
and `.keras` round trips, Keras's implicit mask, symbolic shapes in a
functional model, seeded dropout and one `fit` epoch. A test module calls
these checks through its `AttentionLayerBattery` (see `tests/layers/battery.py`),
whose helpers they use: `make_layer`, `built_layer`, `random_inputs`, `dims`
and `assert_sums`.
"""

from __future__ import annotations

import keras
import numpy as np
import pytest

from tests.helpers import to_numpy

# Query, value and key feature sizes and the longest memory of the checks.
DQ, DV, DK, MAX_LENGTH = 4, 5, 3, 16


class StepAndKerasChecks:
    """Checks mixed into `AttentionLayerBattery`; each takes a mechanism name."""

    # -------------------------------------------------- the step-decoding API

    def check_single_step_query_equals_one_step_sequence(self, name):
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

    def check_step_with_memory_projected_once_matches_call(self, name):
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

    def check_step_rows_sharing_a_memory_keep_their_own_state(self, name):
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

    def check_step_needs_the_state_of_get_initial_state(self, name):
        layer = self.built_layer(name)
        query, value, key, _, _ = self.random_inputs(name)
        extra = [keras.ops.zeros((query.shape[0], value.shape[1]))]
        with pytest.raises(ValueError, match="`state` must be a list of"):
            layer.step(query[:, 0], value, layer.project_key(key), extra * 3)

    # ------------------------------------------------------- input checks

    def check_value_none_is_refused_by_name(self, name):
        query, _, _, _, _ = self.random_inputs(name)
        message = r"needs a value \(memory\) tensor. Received: value=None"
        for layer in (self.make_layer(name), self.built_layer(name)):
            with pytest.raises(ValueError, match=message):
                layer(query, None)
        with pytest.raises(ValueError, match=message):
            layer.attend(query, None, None)

    def check_attend_and_step_check_their_inputs_like_a_call(self, name):
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

    def check_feature_sizes_other_than_the_built_ones_are_refused(self, name):
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

    # ---------------------------------------------------------- Keras use

    def check_get_config_round_trip(self, name):
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

    def check_keras_implicit_mask_is_honoured(self, name):
        model = self.functional_model(name, self.make_layer(name))
        tokens, query = self.token_inputs(name)
        _, weights = model.predict([tokens, query], verbose=0)
        assert (weights[0, :, 4:] == 0).all()
        assert (weights[1, :, 2:] == 0).all()
        self.assert_sums(name, weights.sum(-1), atol=1e-5)

    def check_keras_save_and_load_give_identical_outputs(self, name, tmp_path):
        model = self.functional_model(name, self.make_layer(name, dropout=0.1, seed=3))
        tokens, query = self.token_inputs(name)
        expected = model.predict([tokens, query], verbose=0)
        path = tmp_path / "model.keras"
        model.save(path)
        loaded = keras.saving.load_model(path)
        got = loaded.predict([tokens, query], verbose=0)
        for a, b in zip(expected, got):
            np.testing.assert_array_equal(a, b)

    def check_symbolic_shapes_in_functional_model(self, name):
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

    # ---------------------------------------------------- dropout, training

    def check_dropout_is_seeded_and_training_only(self, name):
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
        self.assert_sums(name, to_numpy(weights_a).sum(-1), atol=1e-5)

    def check_fit_one_epoch_in_functional_model(self, name):
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
