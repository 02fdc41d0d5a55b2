"""Greedy search of many texts in two passes: every batch with a short
search first, then the few rows it left unfinished with the full one.

A batch's search runs until its last row has written `<end>` or
`max_length` tokens, and every finished row is computed until then. Greedy
output sometimes repeats itself to `max_length` (a long `--help` text, a
message the model reads badly): one such row holds its whole batch of 64
for 160 steps where the others ended by 20, and on a sample of the
software test split these rows took most of the time (docs/translation.md,
"Speed").

So each batch of more than `STRAGGLER_ROWS` rows is first searched for at
most as many steps as its source width (a multiple of the predictor's
padding, 32 and up), and only the rows that have not written `<end>` by
then are searched again from the start with the full length, in batches of
exactly `STRAGGLER_ROWS` rows (one compiled shape per source width).
Greedy search decides each row alone and step by step, so a row that ended
within the short search has there exactly the tokens, attention and score
of the full search; the rest get the full search's own.
"""

from __future__ import annotations

import numpy as np
from keras import ops

from attention_zoo.applications.common.text import END_ID, PAD_ID

# Rows of the full search that finishes the unfinished ones; a batch of
# this many rows or fewer is searched once, at full length.
STRAGGLER_ROWS = 8


def padded_steps(outputs, max_length: int):
    """A short search's `(tokens (B, S), attention (B, S, Tx), scores (B,))`
    as the full search gives them: `max_length` steps, `PAD_ID` tokens and
    zero attention after the `S` searched."""
    # convert_to_numpy: a torch search's tensors may require grad.
    tokens, attention, scores = (ops.convert_to_numpy(o) for o in outputs)
    missing = max_length - tokens.shape[1]
    tokens = np.pad(tokens, ((0, 0), (0, missing)), constant_values=PAD_ID)
    attention = np.pad(attention, ((0, 0), (0, missing), (0, 0)))
    return tokens, attention, scores


def two_pass_batches(
    search_function, run_batches, inputs, batch_size: int, prepare, max_length: int
):
    """Yields `(chunk, tokens, attention, scores)` per batch, as
    `run_batches(search_function(max_length), inputs, batch_size, prepare)`
    does, then again for every row the first pass left unfinished, with
    the full search: a consumer that keeps the last answer of each input
    has the full search's answers.

    Args:
        search_function: `search_function(length)`, the compiled greedy
            search writing at most `length` tokens.
        run_batches: `RunPredictor.run_batches`.
        inputs: what `prepare` reads, a list (of row indices, say).
        batch_size: rows of a first-pass batch.
        prepare: a chunk of `inputs` to the search's input, whose last axis
            is the padded source width.
        max_length: the full search's length.
    """
    full = search_function(max_length)

    def first(x):
        # The flag of the rows cut short comes back per row, as the outputs.
        rows, width = len(x), int(np.shape(x)[-1])
        if rows <= STRAGGLER_ROWS or width >= max_length:
            return (*full(x), np.zeros(rows, bool))
        short = search_function(width)(x)
        return (*padded_steps(short, max_length), np.ones(rows, bool))

    unfinished = []
    batches = run_batches(first, inputs, batch_size, prepare)
    for chunk, tokens, attention, scores, short in batches:
        yield chunk, tokens, attention, scores
        ended = (tokens == END_ID).any(axis=1)
        unfinished += [i for j, i in enumerate(chunk) if short[j] and not ended[j]]
    if not unfinished:
        return
    # Whole batches of the full search: the last unfinished row repeated.
    unfinished += unfinished[-1:] * (-len(unfinished) % STRAGGLER_ROWS)
    yield from run_batches(full, unfinished, STRAGGLER_ROWS, prepare)


def batches(translator, fn, inputs, batch_size: int, prepare, search):
    """`translator.run_batches(fn, inputs, batch_size, prepare)`, in two
    passes (`two_pass_batches`) where they apply: a greedy search of the
    best output (`search`: `(beam_width, keep_beams, max_length)`), by a
    translator that searches with its Keras model
    (`searches_in_two_passes`) outside a server (whose calls run only at
    the shapes compiled at its start: `CompiledShapes.routing`)."""
    beam_width, keep_beams, max_length = search
    if (
        not translator.searches_in_two_passes
        or beam_width != 1
        or keep_beams
        or translator.compiled_shapes.routing
    ):
        return translator.run_batches(fn, inputs, batch_size, prepare)
    return two_pass_batches(
        lambda length: translator.search_function(1, max_length=length),
        translator.run_batches,
        inputs,
        batch_size,
        prepare,
        max_length,
    )
