"""Greedy search, sampling and beam search, written once with `ops.while_loop`.

One module each: `greedy`, `sampling`, `beam_search` (its penalties in
`penalties`), `best` (greedy or the first beam); `step` builds the step
function from trained layers; `copy_constraint` wraps one so that a
search copies a set of tokens exactly (a translator's placeholders);
`shortlist` runs a search over each sequence's likely ids instead of the
whole vocabulary; `_common` holds what the loops share.

All three drive a *step function*

    step_fn(tokens, state, constants) -> (logits, new_state, attention)

with `tokens` `(B,)` int32 (the previous token), `state` any structure of
tensors whose leading axis is the batch, `constants` any structure of tensors
with a leading batch axis that do not change across steps (the encoder memory,
its projection, its mask), `logits` `(B, V)` and `attention` `(B, Tx)`, or
a dict holding the attention under `"attention"` and other per-step values
`(B, size)` under their own names (a copy mechanism's `p_gen`), each of
which the searches buffer like the attention and return under its name.
`attention_zoo.decoding.make_step_fn` builds one, a `StepFunction`, from
any step decoder (`attention_zoo.decoders.protocol`); a `StepFunction`
declares whether the step reads one copy of the constants for the
`beam_width` hypotheses of a sequence (`shares_constants_across_beams`),
which beam search reads. Any plain callable works too, and gets its
constants copied per hypothesis.

They are backend-agnostic (keras.ops only), batched, run inside
`tf.function(jit_compile=True)` / `jax.jit`, and can be traced into a
TensorFlow SavedModel; traced within `select_writes()`, into LiteRT and
ONNX too. Each returns a dict:

- `tokens`: int32 `(B, T)` (beam search: `(B, K, T)`), the generated tokens
  after the start token, up to and including `end_token`, then `pad_token`
  (which a live sequence never emits);
- `scores`: float32 `(B,)` (`(B, K)`), the sum of the token log-probabilities
  (beam search: the ranking score, see `beam_search`);
- `lengths`: int32 `(B,)` (`(B, K)`), tokens up to and including `end_token`;
- `attention`: float32 `(B, T, Tx)` (`(B, K, T, Tx)`), the attention of each
  emitted token, zero after the end; and each other per-step value of a
  step that returns a dict, `(B, T, size)` (`(B, K, T, size)`), likewise.

`T` is `max_length` (buffers keep a static shape inside compiled code); the
loop itself stops as soon as every sequence has ended. The first step runs
before the loop, so that the buffers take the memory length `Tx` from its
attention.
"""

from attention_zoo.decoding._common import select_writes
from attention_zoo.decoding.beam_search import beam_search
from attention_zoo.decoding.best import best_hypothesis
from attention_zoo.decoding.copy_constraint import constrain_copies, copy_budget
from attention_zoo.decoding.greedy import greedy_search
from attention_zoo.decoding.memory import decode_memory
from attention_zoo.decoding.penalties import coverage_penalty, length_penalty
from attention_zoo.decoding.sampling import sample
from attention_zoo.decoding.step import StepFunction, make_copy_step_fn, make_step_fn

__all__ = [
    "StepFunction",
    "beam_search",
    "best_hypothesis",
    "constrain_copies",
    "copy_budget",
    "decode_memory",
    "coverage_penalty",
    "greedy_search",
    "length_penalty",
    "make_copy_step_fn",
    "make_step_fn",
    "sample",
    "select_writes",
]
