"""The shared base of every attention mechanism in attention_zoo."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo import ops as zoo_ops
from attention_zoo._checks import checked_seed, is_rate, static_shape
from attention_zoo.layers._input_checks import (
    check_attention_shapes,
    check_value_given,
)
from attention_zoo.layers.attention_steps import AttentionSteps


def clone_initializer(initializer):
    """A fresh initializer object with the same config.

    An unseeded initializer then draws new values for every weight; a seeded
    one repeats its values for weights of the same shape, as in Keras.
    """
    initializer = keras.initializers.get(initializer)
    return initializer.__class__.from_config(initializer.get_config())


class BaseAttention(AttentionSteps, keras.layers.Layer):
    """Base class: scoring, masking and normalisation split into three steps.

    A subclass provides the score function only:

    - `build_scorer(query_dim, key_dim)` creates its weights,
    - `project_key(key)` computes everything that depends on the memory alone
      (e.g. `W_2 k + b` for Bahdanau attention), once per source sequence,
    - `score(query, projected_key)` maps `(batch_size, Tq, Dq)` and the
      projected key to raw scores `(batch_size, Tq, Tv)`.

    Once built, a call whose query or key has another feature size than the
    build's is refused by name; `build_scorer` sets `feature_sizes` to `None`
    for a size its weights do not fix (Luong's weightless "dot" score).

    The base class validates inputs, applies the masks, normalises with
    `attention_zoo.ops.masked_softmax`, applies dropout to the weights and
    forms the context vectors.

    Sizes: `B` batch size, `Tq` query (decoder) steps, `Tv` memory (encoder)
    steps, `Dq`, `Dk`, `Dv` feature sizes of query, key and value.

    Args:
        dropout: float in `[0, 1)`, fraction of attention weights dropped
            during training (the returned weights are the ones before
            dropout, so they always sum to 1).
        seed: int, seed of the dropout.
        **kwargs: base `keras.layers.Layer` arguments (`name`, `dtype`, ...).

    Call arguments:
        query: `(B, Tq, Dq)`, or `(B, Dq)` for a single decoder step.
        value: `(B, Tv, Dv)`, the memory; required (`None` is refused
            with a `ValueError` naming `value`).
        key: optional `(B, Tv, Dk)`; defaults to `value`.
        query_mask: optional boolean `(B, Tq)` (`(B,)` for a single step).
            Masked query rows get zero weights and a zero context.
        value_mask: optional boolean `(B, Tv)`. Masked keys get exactly zero
            weight. A query whose keys are all masked, or an empty memory
            (`Tv = 0`), gets all-zero weights and a zero context (see
            `attention_zoo.ops`). Keras implicit masks (from
            `Embedding(mask_zero=True)` or `Masking`) fill both masks when they
            are not passed.
        return_attention_scores: bool, also return the attention weights.
        training: bool, whether dropout is active.

    Returns:
        The context `(B, Tq, Dv)` (or `(B, Dv)`), and with
        `return_attention_scores=True` also the weights `(B, Tq, Tv)` (or
        `(B, Tv)`).

    Step decoding: call `project_key(key)` once per source sequence, then
    `attend(query_t, value, projected_key, value_mask=...)` for each decoder
    step. `layer(query, value, key)` is exactly
    `layer.attend(query, value, layer.project_key(key))`.

    Mechanisms with a state across decoder steps (the previous alignment of
    location-sensitive attention, the coverage vector, the position of
    monotonic attention, the step index of local-m) set `num_states > 0` and
    override `get_initial_state` and `step_weights`. A decoder carries the
    state: `state = layer.get_initial_state(value, value_mask)` once, then
    `context, weights, state = layer.step(query_t, value, projected_key,
    state, value_mask=...)` per step. Calling such a layer on a query
    sequence `(B, Tq, Dq)` runs those steps over `Tq` from the initial state
    (a masked query row keeps the state and gets zero weights); a single
    query `(B, Dq)` is the first step. These step methods live in
    `attention_zoo.layers.attention_steps.AttentionSteps`, which declares the
    hooks it needs from this class (`_checked_inputs`, `_apply_weights`), and
    with them `supports_jit`; the static input checks live in
    `attention_zoo.layers._input_checks`.
    """

    def __init__(self, dropout: float = 0.0, seed: int | None = None, **kwargs):
        super().__init__(**kwargs)
        if not is_rate(dropout):
            raise ValueError(
                f"{self.__class__.__name__}: `dropout` must be a float in [0, 1). "
                f"Received: dropout={dropout}"
            )
        self.dropout = float(dropout)
        self.seed = checked_seed(self.__class__.__name__, seed)
        self.supports_masking = True
        if self.dropout > 0:
            self.seed_generator = keras.random.SeedGenerator(self.seed)

    # ------------------------------------------------------------------ build

    def build(self, query_shape, value_shape=None, key_shape=None):
        # Keras builds from the shapes of the tensors passed: a call without
        # a value builds without `value_shape`.
        check_value_given(self.__class__.__name__, value_shape)
        key_shape = value_shape if key_shape is None else key_shape
        self._check_static_shapes(query_shape, value_shape, key_shape)
        query_dim, key_dim = query_shape[-1], key_shape[-1]
        if query_dim is None or key_dim is None:
            raise ValueError(
                f"{self.__class__.__name__}: the last dimension of `query` and "
                f"`key` must be known to build the layer. Received: "
                f"query.shape={tuple(query_shape)}, key.shape={tuple(key_shape)}"
            )
        # The sizes the weights fix; `build_scorer` frees those it does not
        # depend on (Luong's "dot" has no weights), see `check_feature_sizes`.
        self.feature_sizes = (int(query_dim), int(key_dim))
        self.build_scorer(int(query_dim), int(key_dim))
        self.built = True

    def build_scorer(self, query_dim: int, key_dim: int) -> None:
        """Create the weights of the score function."""

    # -------------------------------------------------------- score function

    def project_key(self, key):
        """Memory-only part of the score, computed once per source sequence.

        Args:
            key: `(B, Tv, Dk)`.

        Returns:
            The projected key that `score` and `attend` take.
        """
        return key

    def score(self, query, projected_key):
        """Raw scores `(B, Tq, Tv)` from `query` `(B, Tq, Dq)`."""
        raise NotImplementedError

    # --------------------------------------------------- masks and softmax

    def compute_weights(self, scores, query_mask=None, value_mask=None):
        """Masked softmax over keys; masked query rows are set to zero."""
        key_mask = None if value_mask is None else value_mask[:, None, :]
        # Scores may come in float32 under a float16 policy (see
        # LuongAttention.score); the weights are in the compute dtype.
        weights = ops.cast(
            zoo_ops.masked_softmax(scores, key_mask, axis=-1), self.compute_dtype
        )
        if query_mask is not None:
            weights = weights * ops.cast(query_mask[:, :, None], weights.dtype)
        return weights

    def _apply_weights(self, weights, value, training=None, dropout_mask=None):
        if training and self.dropout > 0 and dropout_mask is not None:
            weights = weights * ops.cast(dropout_mask, weights.dtype)[:, None, :]
        elif training and self.dropout > 0:
            weights = keras.random.dropout(
                weights, self.dropout, seed=self.seed_generator
            )
        return ops.matmul(weights, value)

    # ------------------------------------------------------------------ call

    def attend(
        self,
        query,
        value,
        projected_key,
        query_mask=None,
        value_mask=None,
        return_attention_scores: bool = False,
        training=None,
    ):
        """Attention with a key already passed through `project_key`.

        Same arguments and results as calling the layer, with `projected_key`
        in place of `key`. Use it inside a decoding loop so that the memory is
        projected once, not once per step.
        """
        query, value, projected_key = self._checked_inputs(
            "attend", query, value, projected_key, query_mask, value_mask
        )
        single_step = len(query.shape) == 2
        if single_step:
            query = query[:, None, :]  # (B, 1, Dq)
            if query_mask is not None:
                query_mask = query_mask[:, None]
        if query_mask is not None:
            query_mask = ops.cast(query_mask, "bool")
        if value_mask is not None:
            value_mask = ops.cast(value_mask, "bool")
        if self._attends_from_initial_state():
            state = self.get_initial_state(value, value_mask)
            context, weights, _ = self.attend_sequence(
                query, value, projected_key, state, query_mask, value_mask, training
            )
        else:
            scores = self.score(query, projected_key)  # (B, Tq, Tv)
            weights = self.compute_weights(scores, query_mask, value_mask)
            context = self._apply_weights(weights, value, training)  # (B, Tq, Dv)
        if single_step:
            context, weights = context[:, 0], weights[:, 0]
        if return_attention_scores:
            return context, weights
        return context

    def _attends_from_initial_state(self) -> bool:
        """Whether `attend` runs `attend_sequence` from `get_initial_state`
        (a masked query row keeps the state) rather than the masked softmax
        of `score`: a mechanism with a state does."""
        return bool(self.num_states)

    def _check_built(self, method):
        if not self.built:
            raise ValueError(
                f"{self.__class__.__name__}.{method}() needs a built layer: call "
                "the layer once or `build(query_shape, value_shape)` first."
            )

    @property
    def work_dtype(self) -> str:
        """The dtype of softmaxes, states and alignments: float32, or float64
        under a float64 policy (see `attention_zoo.ops.at_least_float32`)."""
        return zoo_ops.at_least_float32(self.compute_dtype)

    def _cast(self, *tensors):
        return tuple(ops.cast(t, self.compute_dtype) for t in tensors)

    def call(
        self,
        query,
        value,
        key=None,
        query_mask=None,
        value_mask=None,
        return_attention_scores: bool = False,
        training=None,
    ):
        key = value if key is None else key
        self._check_inputs(query, value, key, query_mask, value_mask)
        if len(static_shape(query)) == 3:
            self.record_query_length(static_shape(query)[1])
        return self.attend(
            query,
            value,
            self.project_key(ops.cast(key, self.compute_dtype)),
            query_mask=query_mask,
            value_mask=value_mask,
            return_attention_scores=return_attention_scores,
            training=training,
        )

    def compute_mask(self, query, previous_mask=None):
        # The context has one row per query step, so it keeps the query mask.
        return previous_mask

    def compute_output_shape(self, query_shape, value_shape, key_shape=None):
        return (*tuple(query_shape)[:-1], value_shape[-1])

    def compute_output_spec(
        self,
        query,
        value,
        key=None,
        query_mask=None,
        value_mask=None,
        return_attention_scores: bool = False,
        training=None,
    ):
        key = value if key is None else key
        self._check_inputs(query, value, key, query_mask, value_mask)
        if len(static_shape(query)) == 3:
            self.record_query_length(static_shape(query)[1])
        context = keras.KerasTensor(
            self.compute_output_shape(query.shape, value.shape),
            dtype=self.compute_dtype,
        )
        if not return_attention_scores:
            return context
        weights_shape = (*tuple(query.shape)[:-1], value.shape[1])
        return context, keras.KerasTensor(weights_shape, dtype=self.compute_dtype)

    # ----------------------------------------------------------- validation

    def _check_inputs(self, query, value, key, query_mask, value_mask, key_name="key"):
        check_value_given(self.__class__.__name__, value)
        self._check_static_shapes(
            static_shape(query),
            static_shape(value),
            static_shape(key),
            None if query_mask is None else static_shape(query_mask),
            None if value_mask is None else static_shape(value_mask),
            key_name=key_name,
        )

    def _checked_inputs(
        self, method, query, value, projected_key, query_mask=None, value_mask=None
    ):
        """The checks of a call, for `attend`, `step` and `attend_sequence`
        (`method`); returns the tensors in the compute dtype."""
        self._check_built(method)
        self._check_inputs(
            query, value, projected_key, query_mask, value_mask, "projected_key"
        )
        return self._cast(query, value, projected_key)

    def _check_static_shapes(
        self,
        query_shape,
        value_shape,
        key_shape,
        query_mask_shape=None,
        value_mask_shape=None,
        key_name="key",
    ):
        """Raise a clear error for shapes that cannot be right.

        `key_name` names the third tensor in the messages: `"key"` for a call,
        `"projected_key"` for `attend` and `step`.
        """
        check_attention_shapes(
            self.__class__.__name__,
            query_shape,
            value_shape,
            key_shape,
            query_mask_shape,
            value_mask_shape,
            key_name,
        )
        if self.built:
            self.check_feature_sizes(query_shape[-1], key_shape[-1], key_name)
        self.check_memory_length(value_shape[1])

    def check_feature_sizes(self, query_dim, key_dim, key_name="key") -> None:
        """Refuse a query or key whose feature size the weights do not take.

        A size is `None` where unknown (a symbolic dimension). `key_name` is
        `"projected_key"` for `attend` and `step`, whose key has the size of
        the projection, which only the mechanism knows.
        """
        sizes = getattr(self, "feature_sizes", (None, None))
        for arg, received, expected in zip(
            ("query", key_name), (query_dim, key_dim), sizes
        ):
            if arg == "projected_key":
                continue
            if None not in (received, expected) and received != expected:
                raise ValueError(
                    f"{self.__class__.__name__}: `{arg}` must have {expected} "
                    f"features, the size the layer was built with. Received: "
                    f"{arg}.shape[-1]={received}"
                )

    def check_memory_length(self, length) -> None:
        """Hook for mechanisms that only support memories up to a length."""
        # A statement, not the docstring alone: TensorFlow's AutoGraph, which
        # converts this when `step` runs in a tf.function, drops docstrings
        # and failed on the empty body left ("could not transform").
        del length

    # --------------------------------------------------------------- config

    def get_config(self):
        config = super().get_config()
        config.update({"dropout": self.dropout, "seed": self.seed})
        return config
