"""Monotonic attention (Raffel et al., 2017)."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo._checks import checked_bool, is_int, is_real, optional_int
from attention_zoo.layers.bahdanau_attention import BahdanauAttention
from attention_zoo.layers.base_attention import BaseAttention
from attention_zoo.layers.luong_attention import LuongAttention

SCORE_MODES = ("bahdanau", "luong")
INFERENCE_MODES = ("hard", "expected")


def _shift_right(x):
    """`x` moved one place along its last axis, a zero entering at the front."""
    return ops.concatenate([ops.zeros_like(x[..., :1]), x[..., :-1]], axis=-1)


def _expected_alignment(previous, p_choose, log_1mp):
    """Raffel et al.'s eq. (9) in parallel over the memory, in float32.

    `alpha_j = p_j * sum_{k <= j} previous_k * prod_{l=k}^{j-1} (1 - p_l)`.

    The products are `exp(S[j, k])` with `S[j, k] = sum_{l=k}^{j-1}
    log(1 - p_l)` formed for every pair `(j, k)`: a `(Tv, Tv)` matrix per row,
    so `O(Tv^2)` time and memory per decoder step (the sequential recursion
    of the paper's eq. (13) is `O(Tv)` but cannot run in parallel over `j`).
    Every `S[j, k] <= 0`, so `exp` never overflows, and each `S[j, k]` is a
    cumulative sum of non-positive terms that starts at `k`, so its rounding
    error is relative to `S[j, k]` itself, not to a running sum over the
    whole memory. The form of the paper's appendix C.1 (and of
    `tfa.seq2seq.monotonic_attention`) divides by `cumprod(1 - p)` instead;
    that product underflows to 0 after a few confident entries (`1 - p`
    rounds to 0 in float32 once the energy passes ~17), and the division
    then gives inf or NaN, or wrong weights where it is clipped.

    Args:
        previous: `(..., Tv)` float32, the previous alignment.
        p_choose: `(..., Tv)` float32, the choosing probabilities.
        log_1mp: `(..., Tv)` float32, `log(1 - p_choose)` computed stably.

    Returns:
        The alignment `(..., Tv)` in float32.
    """
    # steps[m, k] = log(1 - p_{m-1}) for m > k: the factor that entering
    # entry m adds to a path that started at k.
    shifted = _shift_right(log_1mp)[..., :, None]  # (..., Tv_m, 1)
    length = ops.shape(log_1mp)[-1]
    rows = ops.arange(length)[:, None]
    cols = ops.arange(length)[None, :]
    steps = ops.where(rows > cols, shifted, ops.zeros_like(shifted))  # (..., Tv, Tv)
    log_products = ops.cumsum(steps, axis=-2)  # (..., Tv_j, Tv_k), all <= 0
    products = ops.exp(log_products) * ops.cast(rows >= cols, log_products.dtype)
    carried = ops.matmul(products, previous[..., :, None])[..., 0]  # (..., Tv)
    return p_choose * carried


@keras.saving.register_keras_serializable(package="attention_zoo")
class MonotonicAttention(BaseAttention):
    """Monotonic attention (Raffel et al., 2017): online, linear-time decoding.

    At output step `i` the attention scans the memory from where it stopped
    at step `i - 1` and stops at the first entry it "chooses", with
    probability `p_{i,j} = sigmoid(e_{i,j})`. The energy `e_{i,j}` is a
    Bahdanau or Luong ("general") score, computed by a
    `BahdanauAttention` or `LuongAttention` sublayer, plus a learned scalar
    bias `r`:

    - `score_mode="bahdanau"`: `e = g v^T / ||v|| tanh(W_1 q + W_2 k + b) + r`
      (the energy of Raffel et al.; `normalize=False` drops `g / ||v||`).
    - `score_mode="luong"`: `e = g q^T W k + r` (`normalize=False` drops the
      learned scale `g`).

    Training (`training=True`) uses the expected alignment of that process
    (the paper's eq. 9), with Gaussian pre-sigmoid noise of standard
    deviation `sigmoid_noise`, which pushes the probabilities towards 0 or
    1 (as in the paper):

        alpha_{i,j} = p_{i,j} sum_{k<=j} alpha_{i-1,k} prod_{l=k}^{j-1} (1 - p_{i,l})

    computed in float32 in parallel over `j` from log-space cumulative sums
    (`log(1 - p) = -softplus(e)`), never dividing by a cumulative product:
    `O(Tv^2)` per decoder step; see `_expected_alignment`. At inference
    (`training` falsy) `inference="hard"` runs the paper's algorithm 1: the
    first entry `j >= t_{i-1}` with `p_{i,j} >= 0.5` (no noise) gets weight
    1; if there is none, this step and every later one get zero weights and
    a zero context. `inference="expected"` uses the expected alignment
    (without noise) at inference too.

    The weights are not a softmax: they sum to at most 1, the rest being the
    probability that the attention ran off the end of the memory. Masked
    keys get `p = 0`: they are never chosen and are passed over. The
    attention starts at the first memory entry: the state before the first
    step is the one-hot alignment at position 0. The state, the previous
    alignment `(B, Tv)`, is kept in float32 under mixed precision (float64
    under a float64 policy), since it is carried from step to step.

    Args:
        units: positive int, hidden size of the Bahdanau energy (required
            for `score_mode="bahdanau"`, not allowed for `"luong"`).
        score_mode: `"bahdanau"` or `"luong"`, the energy function.
        normalize: bool; `"bahdanau"`: weight-normalised `v` with a learned
            scalar `g` (as in the paper); `"luong"`: a learned scalar scale
            `g` of the score (initialised to 1).
        sigmoid_noise: float `>= 0`, standard deviation of the pre-sigmoid
            noise added during training only (the paper adds unit-variance
            noise).
        score_bias_init: float, initial value of `r`. From where it stands,
            the attention passes over `(1 - p) / p = exp(-e)` entries on
            average before it stops, so before the energies have learned
            anything `r` sets its advance per output step: `exp(-r)`
            entries. Raffel et al. initialise `r` negative. The default
            `-1.0` (2.7 entries; `p = 0.27` at zero energy) suits memories a
            few times longer than the output (characters or subwords in,
            words out); `0` advances one entry per step; memories tens of
            times longer than the output (speech frames) call for about
            `-4` (55 entries).
        inference: `"hard"` or `"expected"`, the attention at inference.
        kernel_initializer: initializer of the energy's projection weights.
        bias_initializer: initializer of the Bahdanau energy's bias `b`.
        kernel_regularizer: optional regularizer of the projection weights.
        dropout: fraction of attention weights dropped during training.
        seed: seed of the dropout and of the sigmoid noise.
        **kwargs: base layer arguments (`name`, `dtype`, ...).

    Call arguments and returns: see `attention_zoo.layers.BaseAttention`;
    `training=True` selects the expected alignment. NaN propagates: a NaN
    query (or memory) step gives NaN weights and context, in both inference
    modes and in training, and so do the steps after it, whose state is its
    alignment.

    Examples:
        >>> import numpy as np
        >>> layer = MonotonicAttention(units=8)
        >>> query = np.random.rand(2, 3, 4).astype("float32")  # (B, Tq, Dq)
        >>> value = np.random.rand(2, 5, 6).astype("float32")  # (B, Tv, Dv)
        >>> context, weights = layer(query, value, return_attention_scores=True)
        >>> tuple(context.shape), tuple(weights.shape)
        ((2, 3, 6), (2, 3, 5))
        >>> hard = keras.ops.convert_to_numpy(weights)
        >>> bool(np.isin(hard, [0.0, 1.0]).all())  # hard attention at inference
        True
        >>> _, expected = layer(
        ...     query, value, training=True, return_attention_scores=True
        ... )
        >>> bool((keras.ops.convert_to_numpy(expected).sum(-1) <= 1 + 1e-6).all())
        True

    References:
        Raffel, Luong, Liu, Weiss, Eck. "Online and Linear-Time Attention by
        Enforcing Monotonic Alignments". ICML 2017.
        https://arxiv.org/abs/1704.00784
    """

    num_states = 1

    def __init__(
        self,
        units: int | None = None,
        score_mode: str = "bahdanau",
        normalize: bool = True,
        sigmoid_noise: float = 0.0,
        score_bias_init: float = -1.0,
        inference: str = "hard",
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        dropout: float = 0.0,
        seed: int | None = None,
        **kwargs,
    ):
        super().__init__(dropout=dropout, seed=seed, **kwargs)
        name = self.__class__.__name__
        if score_mode not in SCORE_MODES:
            raise ValueError(
                f"{name}: `score_mode` must be one of {SCORE_MODES}. "
                f"Received: score_mode={score_mode!r}"
            )
        if score_mode == "bahdanau" and units is None:
            raise ValueError(
                f"{name}: score_mode='bahdanau' needs `units`. Received: units=None"
            )
        if score_mode == "luong" and units is not None:
            raise ValueError(
                f"{name}: `units` is only used by score_mode='bahdanau'. "
                f"Received: units={units!r} with score_mode='luong'"
            )
        if units is not None and (not is_int(units) or units <= 0):
            raise ValueError(
                f"{name}: `units` must be a positive integer. Received: units={units!r}"
            )
        if not is_real(sigmoid_noise) or sigmoid_noise < 0:
            raise ValueError(
                f"{name}: `sigmoid_noise` must be a finite float >= 0. "
                f"Received: sigmoid_noise={sigmoid_noise!r}"
            )
        if not is_real(score_bias_init):
            raise ValueError(
                f"{name}: `score_bias_init` must be a finite float. "
                f"Received: score_bias_init={score_bias_init!r}"
            )
        if inference not in INFERENCE_MODES:
            raise ValueError(
                f"{name}: `inference` must be one of {INFERENCE_MODES}. "
                f"Received: inference={inference!r}"
            )
        self.units = optional_int(units)
        self.score_mode = score_mode
        self.normalize = checked_bool(name, "normalize", normalize)
        self.sigmoid_noise = float(sigmoid_noise)
        self.score_bias_init = float(score_bias_init)
        self.inference = inference
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.bias_initializer = keras.initializers.get(bias_initializer)
        self.kernel_regularizer = keras.regularizers.get(kernel_regularizer)
        if self.sigmoid_noise > 0:
            # Offset from the dropout's seed, so that the noise and the
            # dropout mask are not drawn from the same random stream.
            self.noise_seed_generator = keras.random.SeedGenerator(
                None if self.seed is None else self.seed + 1
            )

    def build_scorer(self, query_dim, key_dim):
        if self.score_mode == "bahdanau":
            self._energy = BahdanauAttention(
                self.units,
                normalize=self.normalize,
                kernel_initializer=self.kernel_initializer,
                bias_initializer=self.bias_initializer,
                kernel_regularizer=self.kernel_regularizer,
                name="energy",
                dtype=self.dtype_policy,
            )
        else:
            self._energy = LuongAttention(
                score_mode="general",
                use_scale=self.normalize,
                kernel_initializer=self.kernel_initializer,
                kernel_regularizer=self.kernel_regularizer,
                name="energy",
                dtype=self.dtype_policy,
            )
        self._energy.build((None, None, query_dim), (None, None, key_dim))
        self.score_bias = self.add_weight(
            name="score_bias",
            shape=(),
            initializer=keras.initializers.Constant(self.score_bias_init),
        )

    def project_key(self, key):
        self._check_built("project_key")
        return self._energy.project_key(key)

    def score(self, query, projected_key):
        """The energies `e + r` `(B, Tq, Tv)`, in float32 (they feed a sigmoid;
        float64 under a float64 policy)."""
        energy = ops.cast(self._energy.score(query, projected_key), self.work_dtype)
        return energy + ops.cast(self.score_bias, self.work_dtype)  # (B, Tq, Tv)

    def get_initial_state(self, value, value_mask=None):
        """The one-hot alignment at the first memory entry, `(B, Tv)` float32."""
        first = ops.ones_like(value[:, :1, 0], dtype=self.work_dtype)  # (B, 1)
        rest = ops.zeros_like(value[:, 1:, 0], dtype=self.work_dtype)  # (B, Tv - 1)
        return [ops.concatenate([first, rest], axis=1)]  # (B, Tv)

    def step_weights(
        self,
        query,
        projected_key,
        state,
        value_mask=None,
        training=None,
        noise=None,
    ):
        """See `BaseAttention.step_weights`.

        `noise`: optional standard normal `(B, R, Tv)` for the pre-sigmoid
        noise in training (`attend_sequence` draws every step's at once);
        drawn here if `None`.
        """
        previous = ops.cast(state[0], self.work_dtype)  # (B, R, Tv)
        energy = self.score(query, projected_key)  # (B, R, Tv)
        keep = (
            ops.ones_like(energy, dtype="bool")
            if value_mask is None
            else ops.broadcast_to(value_mask[:, None, :], ops.shape(energy))
        )
        if training and self.sigmoid_noise > 0:
            if noise is None:
                noise = keras.random.normal(
                    ops.shape(energy), dtype="float32", seed=self.noise_seed_generator
                )
            energy = energy + self.sigmoid_noise * ops.cast(noise, self.work_dtype)
        zeros = ops.zeros_like(energy)
        p_choose = ops.where(keep, ops.sigmoid(energy), zeros)  # (B, R, Tv)
        if training or self.inference == "expected":
            log_1mp = ops.where(keep, -ops.softplus(energy), zeros)  # log(1 - p)
            alignment = _expected_alignment(previous, p_choose, log_1mp)
        else:
            # Reachable: at or after the previous attended entry (nothing
            # once the attention has run off the end of the memory).
            reachable = ops.cumsum(previous, axis=-1) > 0
            chosen = ops.cast(
                ops.logical_and(p_choose >= 0.5, reachable), self.work_dtype
            )
            earlier = ops.cumsum(chosen, axis=-1) - chosen  # chosen before j
            alignment = chosen * ops.cast(earlier == 0, self.work_dtype)  # first one
            # `p >= 0.5` is False for NaN, which would read a NaN query (or a
            # NaN previous alignment) as "attend nowhere": its row is NaN.
            invalid = ops.logical_or(
                ops.any(ops.isnan(p_choose), axis=-1, keepdims=True),
                ops.any(ops.isnan(previous), axis=-1, keepdims=True),
            )  # (B, R, 1)
            alignment = ops.where(
                invalid, ops.full_like(alignment, float("nan")), alignment
            )
        return ops.cast(alignment, self.compute_dtype), [alignment]

    def per_step_inputs(self, steps, value, training=None):
        """The pre-sigmoid noise of every step in training, standard normal
        float32 `(B, T, Tv)`; `None` without noise or outside training."""
        if not (training and self.sigmoid_noise > 0):
            return None
        shape = (*ops.shape(steps)[:2], ops.shape(value)[1])
        return keras.random.normal(
            shape, dtype="float32", seed=self.noise_seed_generator
        )  # (B, T, Tv)

    def _step_weights_with_inputs(
        self, query, projected_key, state, value_mask, training, step_inputs
    ):
        return self.step_weights(
            query, projected_key, state, value_mask, training, noise=step_inputs
        )

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "units": self.units,
                "score_mode": self.score_mode,
                "normalize": self.normalize,
                "sigmoid_noise": self.sigmoid_noise,
                "score_bias_init": self.score_bias_init,
                "inference": self.inference,
                "kernel_initializer": keras.initializers.serialize(
                    self.kernel_initializer
                ),
                "bias_initializer": keras.initializers.serialize(self.bias_initializer),
                "kernel_regularizer": keras.regularizers.serialize(
                    self.kernel_regularizer
                ),
            }
        )
        return config
