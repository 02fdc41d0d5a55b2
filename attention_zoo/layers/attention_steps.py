"""The step protocol of attention mechanisms: state, `step`, `attend_sequence`.

`AttentionSteps` is mixed into `BaseAttention`: the methods a decoder calls to
run a mechanism step by step (and the scan a stateful mechanism runs over a
query sequence), with the XLA policy that scan implies (`supports_jit`). What
it needs from its host class it declares at the top of the class; every other
name it uses it defines here.
"""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo import ops as zoo_ops


class AttentionSteps:
    """Step decoding for `BaseAttention`; see its docstring for the protocol.

    The host class, a `keras.layers.Layer` (`BaseAttention`), provides what
    these methods use and do not define: the public `score`,
    `compute_weights` (the default `step_weights`), `work_dtype`,
    `compute_dtype`, the attributes `dropout` and `seed_generator`, and the
    two private hooks declared below, `_checked_inputs` and `_apply_weights`
    (which raise `NotImplementedError` in a host that lacks them).
    """

    # ----------------------------------------- what the host class provides

    #: The dropout rate of the attention weights (set by the host).
    dropout: float
    #: The `keras.random.SeedGenerator` of that dropout (set by the host when
    #: `dropout > 0`).
    seed_generator: keras.random.SeedGenerator

    def _checked_inputs(
        self, method, query, value, projected_key, query_mask=None, value_mask=None
    ):
        """Refuse an unbuilt layer or inputs that cannot be right, naming
        `method`; return `(query, value, projected_key)` in the compute dtype."""
        raise NotImplementedError(
            f"{self.__class__.__name__}: AttentionSteps needs its host class to "
            "define `_checked_inputs`, as BaseAttention does."
        )

    def _apply_weights(self, weights, value, training=None, dropout_mask=None):
        """The context `(B, R, Dv)` of `weights` `(B, R, Tv)` over `value`,
        with the dropout of the weights in training (`dropout_mask` when
        given: see `step`)."""
        raise NotImplementedError(
            f"{self.__class__.__name__}: AttentionSteps needs its host class to "
            "define `_apply_weights`, as BaseAttention does."
        )

    # ------------------------------------------------------ the step protocol

    #: Number of state tensors the mechanism carries from step to step.
    num_states: int = 0

    #: Whether a query sequence runs `attend_sequence`'s scan over its steps
    #: (False where a subclass computes every step at once: local-m).
    scans_steps: bool = True

    #: Whether the layer was called, or its output shape inferred, on a query
    #: sequence of unknown length `(B, None, Dq)` (a functional model's
    #: `Input((None, D))`). Set by `record_query_length` alone; `supports_jit`
    #: is derived from it.
    called_on_unknown_query_length: bool = False

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
        query, value, projected_key = self._checked_inputs(
            "step", query, value, projected_key, value_mask=value_mask
        )
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
        query, value, projected_key = self._checked_inputs(
            "attend_sequence", query, value, projected_key, query_mask, value_mask
        )
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

    @property
    def supports_jit(self) -> bool:
        """Whether XLA can compile the layer, derived from declared state.

        False when all of these hold, else the value set on the layer (True
        from `keras.layers.Layer`'s constructor unless changed):

        - the mechanism has a state (`num_states > 0`) and scans its steps
          over a query sequence (`scans_steps`);
        - `called_on_unknown_query_length`: it was called on a query
          sequence of unknown length (`record_query_length(None)`, which a
          call, its shape inference and a decoder stepping the mechanism
          make);
        - the backend is TensorFlow.

        Why: over a query of unknown length its steps run in a
        `tf.while_loop` whose gradient XLA cannot compile (see
        `attention_zoo.ops.scan`); a known length is unrolled, which XLA
        compiles. Keras's
        `jit_compile="auto"` picks XLA on a TensorFlow GPU machine when every
        layer supports it, and `jit_compile=True` falls back to no XLA, with
        a warning, when one does not.
        """
        if (
            self.num_states
            and self.scans_steps
            and self.called_on_unknown_query_length
            and keras.backend.backend() == "tensorflow"
        ):
            return False
        return self._supports_jit

    @supports_jit.setter
    def supports_jit(self, value):
        self._supports_jit = value

    def record_query_length(self, length) -> None:
        """Record the length `Tq` of a query sequence `(B, Tq, Dq)` the layer
        runs over: `None` (unknown) sets `called_on_unknown_query_length`,
        the one change of state behind `supports_jit`. A call and its shape
        inference record it, and a decoder for the mechanisms it steps (not
        `step` itself: its query rows `(B, R, Dq)` are not a length)."""
        if length is None:
            self.called_on_unknown_query_length = True
