"""The shared base of every attention mechanism in attention_zoo."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo import ops as zoo_ops
from attention_zoo._checks import checked_seed, is_rate, static_shape


def clone_initializer(initializer):
    """A fresh initializer object with the same config.

    An unseeded initializer then draws new values for every weight; a seeded
    one repeats its values for weights of the same shape, as in Keras.
    """
    initializer = keras.initializers.get(initializer)
    return initializer.__class__.from_config(initializer.get_config())


class BaseAttention(keras.layers.Layer):
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
        value: `(B, Tv, Dv)`, the memory.
        key: optional `(B, Tv, Dk)`; defaults to `value`.
        query_mask: optional boolean `(B, Tq)` (`(B,)` for a single step).
            Masked query rows get zero weights and a zero context.
        value_mask: optional boolean `(B, Tv)`. Masked keys get exactly zero
            weight. A query whose keys are all masked gets all-zero weights and
            a zero context (see `attention_zoo.ops`). Keras implicit masks (from
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
    query `(B, Dq)` is the first step.
    """

    #: Number of state tensors the mechanism carries from step to step.
    num_states: int = 0

    #: Whether a query sequence runs `attend_sequence`'s scan over its steps
    #: (False where a subclass computes every step at once: local-m).
    scans_steps: bool = True

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

    def build(self, query_shape, value_shape, key_shape=None):
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

    # ------------------------------------------------------ attention state

    def get_initial_state(self, value, value_mask=None) -> list:
        """The state before the first decoder step: `num_states` tensors.

        Each has the batch axis of `value` first (e.g. `(B, Tv)` for a
        previous alignment). Built from `value` with ops that also work on
        symbolic tensors, so decoders can use it in `compute_output_spec`.
        Stateless mechanisms return `[]`.
        """
        return []

    def step_weights(self, query, projected_key, state, value_mask=None, training=None):
        """Weights and new state for `R` query rows, each with its own state.

        Args:
            query: `(B, R, Dq)`: `R` independent queries over memory `b` (the
                hypotheses of a beam, or the steps of a stateless mechanism).
            projected_key: `project_key(key)`.
            state: list of `num_states` tensors `(B, R, ...)`.
            value_mask: optional boolean `(B, Tv)`.
            training: bool.

        Returns:
            `(weights (B, R, Tv), new_state)`. The base class: the masked
            softmax of `score`, state unchanged.
        """
        scores = self.score(query, projected_key)
        return self.compute_weights(scores, None, value_mask), state

    def step(
        self,
        query,
        value,
        projected_key,
        state,
        value_mask=None,
        training=None,
        dropout_mask=None,
        step_inputs=None,
    ):
        """One decoder step that carries the mechanism's state.

        Args:
            query: `(B, Dq)` with state tensors `(B, ...)`, or `(B, R, Dq)`
                with state tensors `(B, R, ...)`: `R` queries (e.g. beam
                hypotheses) that share memory `b` but not their state.
            value: `(B, Tv, Dv)`.
            projected_key: `project_key(key)`.
            state: the list from `get_initial_state` or the previous step.
            value_mask: optional boolean `(B, Tv)`.
            training: bool.
            dropout_mask: optional `(B, Tv)` from `dropout_mask(value)`: the
                dropout of the weights during training, drawn once per
                sequence instead of at every step (decoders pass one; a random
                draw inside a JAX `scan` would leak a tracer).
            step_inputs: optional `(B, F)` (or `(B, R, F)`): this step's slice
                of `per_step_inputs`, drawn before the caller's loop. Without
                it, a mechanism that needs random numbers in training (e.g.
                `MonotonicAttention(sigmoid_noise > 0)`) draws them here.

        Returns:
            `(context, weights, new_state)`: `(B, Dv)`, `(B, Tv)` (or
            `(B, R, Dv)`, `(B, R, Tv)`) and the new state list.
        """
        self._check_built("step")
        self._check_projected_inputs(query, value, projected_key, None, value_mask)
        query, value, projected_key = self._cast(query, value, projected_key)
        single = len(query.shape) == 2
        state = list(state)
        if len(state) != self.num_states:
            raise ValueError(
                f"{self.__class__.__name__}.step(): `state` must be a list of "
                f"{self.num_states} tensor(s) from get_initial_state(). "
                f"Received: {len(state)} tensor(s)"
            )
        if single:
            query = query[:, None, :]
            state = [s[:, None] for s in state]
        if value_mask is not None:
            value_mask = ops.cast(value_mask, "bool")
        if single and step_inputs is not None:
            step_inputs = step_inputs[:, None]
        weights, new_state = self._step_weights_with_inputs(
            query, projected_key, state, value_mask, training, step_inputs
        )
        context = self._apply_weights(weights, value, training, dropout_mask)
        new_state = list(new_state)
        if single:
            context, weights = context[:, 0], weights[:, 0]
            new_state = [s[:, 0] for s in new_state]
        return context, weights, new_state

    def attend_sequence(
        self,
        query,
        value,
        projected_key,
        state,
        query_mask=None,
        value_mask=None,
        training=None,
    ):
        """`step` over the `Tq` steps of `query` `(B, Tq, Dq)`, from `state`.

        A masked query step gets zero weights and keeps the state. Returns
        `(context (B, Tq, Dv), weights (B, Tq, Tv), final_state)`.
        """
        self._check_built("attend_sequence")
        self._check_projected_inputs(
            query, value, projected_key, query_mask, value_mask
        )
        query, value, projected_key = self._cast(query, value, projected_key)
        if query_mask is None:
            query_mask = ops.ones(ops.shape(query)[:2], dtype="bool")
        if value_mask is not None:
            value_mask = ops.cast(value_mask, "bool")
        # The mask and any per-step inputs ride as extra features: one scanned
        # float32 (float64) tensor (see attention_zoo.ops.scan on TensorFlow
        # with unknown lengths).
        dq = query.shape[-1]
        keep = ops.cast(query_mask, self.work_dtype)[:, :, None]
        parts = [ops.cast(query, self.work_dtype), keep]
        extra = self.per_step_inputs(query, value, training)  # (B, Tq, F)
        if extra is not None:
            parts.append(ops.cast(extra, self.work_dtype))
        xs = ops.transpose(ops.concatenate(parts, -1), (1, 0, 2))

        def scan_step(carry, x):
            query_t = ops.cast(x[:, None, :dq], self.compute_dtype)  # (B, 1, Dq)
            keep_t = x[:, dq : dq + 1] > 0.5  # (B, 1)
            extra_t = None if extra is None else x[:, None, dq + 1 :]  # (B, 1, F)
            weights, new_state = self._step_weights_with_inputs(
                query_t,
                projected_key,
                [s[:, None] for s in carry],
                value_mask,
                training,
                extra_t,
            )
            new_state = [
                ops.where(
                    ops.reshape(keep_t, (-1,) + (1,) * (len(o.shape) - 1)), n[:, 0], o
                )
                for n, o in zip(new_state, carry)
            ]
            weights = weights[:, 0]  # (B, Tv)
            return new_state, ops.where(keep_t, weights, ops.zeros_like(weights))

        final_state, weights = zoo_ops.scan(scan_step, list(state), xs)
        weights = ops.transpose(weights, (1, 0, 2))  # (B, Tq, Tv)
        # Dropout and the context outside the loop: a SeedGenerator advanced
        # inside a JAX scan leaks a tracer (fit fails with
        # UnexpectedTracerError), and one matmul beats Tq of them.
        context = self._apply_weights(weights, value, training)  # (B, Tq, Dv)
        return context, weights, final_state

    def per_step_inputs(self, steps, value, training=None):
        """Inputs of every step, drawn before a loop over the steps.

        Random numbers must not be drawn inside a loop body: a SeedGenerator
        advanced inside a traced JAX `scan` leaks a tracer. A mechanism that
        needs some at each step in training (`MonotonicAttention`'s
        pre-sigmoid noise) draws them here for all steps at once, and the
        loop (`attend_sequence`, the decoders' recurrence) hands step `t` its
        slice through `step(..., step_inputs=...)`.

        Args:
            steps: a tensor whose first two axes are the batch `B` and the
                steps `T` (e.g. the query sequence).
            value: `(B, Tv, Dv)`.
            training: bool.

        Returns:
            `None` (the base class: nothing to draw), or float32 `(B, T, F)`.
        """
        return None

    def _step_weights_with_inputs(
        self, query, projected_key, state, value_mask, training, step_inputs
    ):
        """`step_weights` given the step's slice `(B, R, F)` of
        `per_step_inputs` (or `None`); the base class has none."""
        return self.step_weights(query, projected_key, state, value_mask, training)

    def dropout_mask(self, value):
        """A dropout mask `(B, Tv)` of the weights, scaled by `1 / (1 - rate)`.

        `None` without dropout. Decoders draw one per sequence before their
        recurrence and pass it to every `step` (the same memory positions are
        dropped at every step of a sequence, as Keras RNNs do with recurrent
        dropout).
        """
        if not self.dropout:
            return None
        ones = ops.ones_like(ops.cast(value[:, :, 0], self.compute_dtype))
        return keras.random.dropout(ones, self.dropout, seed=self.seed_generator)

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
        self._check_built("attend")
        self._check_projected_inputs(
            query, value, projected_key, query_mask, value_mask
        )
        query, value, projected_key = self._cast(query, value, projected_key)
        if self.num_states:
            return self._attend_from_initial_state(
                query,
                value,
                projected_key,
                query_mask,
                value_mask,
                return_attention_scores,
                training,
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
        scores = self.score(query, projected_key)  # (B, Tq, Tv)
        weights = self.compute_weights(scores, query_mask, value_mask)  # (B, Tq, Tv)
        context = self._apply_weights(weights, value, training)  # (B, Tq, Dv)
        if single_step:
            context, weights = context[:, 0], weights[:, 0]
        if return_attention_scores:
            return context, weights
        return context

    def _attend_from_initial_state(
        self,
        query,
        value,
        projected_key,
        query_mask,
        value_mask,
        return_attention_scores,
        training,
    ):
        state = self.get_initial_state(value, value_mask)
        single_step = len(query.shape) == 2
        if single_step:
            query = query[:, None, :]
            if query_mask is not None:
                query_mask = query_mask[:, None]
        if query_mask is not None:
            query_mask = ops.cast(query_mask, "bool")
        context, weights, _ = self.attend_sequence(
            query, value, projected_key, state, query_mask, value_mask, training
        )
        if single_step:
            context, weights = context[:, 0], weights[:, 0]
        if return_attention_scores:
            return context, weights
        return context

    @property
    def supports_jit(self) -> bool:
        """False for a mechanism with a state, on TensorFlow, once called on
        a query of unknown length (a functional model's `Input((None, D))`).

        Over such a query its steps run in a `tf.while_loop` whose gradient
        XLA cannot compile (see `attention_zoo.ops.scan`); a known length is
        unrolled, which XLA compiles. Keras's `jit_compile="auto"` picks XLA
        on a TensorFlow GPU machine when every layer supports it, and
        `jit_compile=True` falls back to no XLA, with a warning, when one
        does not.
        """
        if (
            self.num_states
            and self.scans_steps
            and getattr(self, "_unknown_query_length", False)
            and keras.backend.backend() == "tensorflow"
        ):
            return False
        return self._supports_jit

    @supports_jit.setter
    def supports_jit(self, value):
        self._supports_jit = value

    def note_query_length(self, length) -> None:
        """Record the length of a query sequence `(B, Tq, Dq)` the layer is
        called on: `None` (unknown) turns `supports_jit` off on TensorFlow.
        A call and its shape inference note it, and a decoder for the
        mechanisms it steps (not `step` itself: its query rows `(B, R, Dq)`
        are not a length)."""
        if length is None:
            self._unknown_query_length = True

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
            self.note_query_length(static_shape(query)[1])
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
            self.note_query_length(static_shape(query)[1])
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
        self._check_static_shapes(
            static_shape(query),
            static_shape(value),
            static_shape(key),
            None if query_mask is None else static_shape(query_mask),
            None if value_mask is None else static_shape(value_mask),
            key_name=key_name,
        )

    def _check_projected_inputs(
        self, query, value, projected_key, query_mask=None, value_mask=None
    ):
        """The checks of a call, for `attend`, `step` and `attend_sequence`."""
        self._check_inputs(
            query, value, projected_key, query_mask, value_mask, "projected_key"
        )

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
        name = self.__class__.__name__
        query_shape, value_shape, key_shape = (
            tuple(query_shape),
            tuple(value_shape),
            tuple(key_shape),
        )
        if len(query_shape) not in (2, 3):
            raise ValueError(
                f"{name}: `query` must have rank 3 (batch_size, Tq, Dq) or rank "
                f"2 (batch_size, Dq) for a single step. Received: "
                f"query.shape={query_shape}"
            )
        for arg, shape, dims in (
            ("value", value_shape, "(batch_size, Tv, Dv)"),
            (key_name, key_shape, "(batch_size, Tv, Dk)"),
        ):
            if len(shape) != 3:
                raise ValueError(
                    f"{name}: `{arg}` must have rank 3 {dims}. Received: "
                    f"{arg}.shape={shape}"
                )
        batch_sizes = {
            arg: shape[0]
            for arg, shape in (
                ("query", query_shape),
                ("value", value_shape),
                (key_name, key_shape),
            )
            if shape[0] is not None
        }
        if len(set(batch_sizes.values())) > 1:
            received = ", ".join(f"{k}.shape[0]={v}" for k, v in batch_sizes.items())
            raise ValueError(
                f"{name}: `query`, `value` and `{key_name}` must have the same "
                f"batch size. Received: {received}"
            )
        if (
            None not in (key_shape[1], value_shape[1])
            and key_shape[1] != value_shape[1]
        ):
            raise ValueError(
                f"{name}: `{key_name}` and `value` must have the same length "
                f"Tv. Received: {key_name}.shape={key_shape}, "
                f"value.shape={value_shape}"
            )
        expected_query_mask = query_shape[:-1]
        for arg, mask_shape, expected in (
            ("query_mask", query_mask_shape, expected_query_mask),
            ("value_mask", value_mask_shape, value_shape[:2]),
        ):
            if mask_shape is None:
                continue
            mask_shape = tuple(mask_shape)
            compatible = len(mask_shape) == len(expected) and all(
                a is None or b is None or a == b for a, b in zip(mask_shape, expected)
            )
            if not compatible:
                raise ValueError(
                    f"{name}: `{arg}` must have shape {expected}. Received: "
                    f"{arg}.shape={mask_shape}"
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
