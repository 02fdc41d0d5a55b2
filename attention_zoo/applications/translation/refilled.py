"""Greedy search of many texts with rows refilled: the texts of one source
width in one call, `slots` rows per step, a row that ends taking the next
text (`attention_zoo.decoding.refill`).

A batch of `greedy_search` computes all its rows until its last ends: on
the software test split most outputs end within 20 steps, a few repeat
themselves to `MAX_OUTPUT_TOKENS`, and a batch of 64 holding one of them
computed 64 rows for 160 steps (docs/translation.md, "Speed"). Here a
call holds up to `CALL_CELLS // width` texts of one padded source width,
searched `slots` rows at a time; the last live rows go on in 8 rows.

The texts come sorted by length; each run of texts of one width
(`DECODE_WIDTHS`) is one call, but a run of fewer texts than
`slots` joins the next wider one (padded to its width), so a handful of
long texts does not pay a call, and its tail of steps, of its own. Calls
are padded with empty texts (not searched) to a power of two rows, at
least 8: each (rows, width) is one compilation per process.
"""

from __future__ import annotations

import math

import numpy as np

from attention_zoo.applications.common import text as tokenizer

# Texts per call times their padded width, at most: the call holds the
# encoder's memory and the attention of every step for each (`rows * 160 *
# width` floats), and each call costs a fixed time too (its buffers, the
# shortlists), so narrow texts go in larger calls.
CALL_CELLS = 512 * 32
# Rows the last live ones move to once no text is left to start.
TAIL_SLOTS = (8,)


def call_rows(n: int) -> int:
    """Rows a call of `n` texts runs at: the next power of two, at least 8."""
    return max(8, 1 << max(0, math.ceil(math.log2(max(n, 1)))))


def slot_sizes(rows: int, batch_size: int) -> tuple[int, ...]:
    """Rows per step for a call of `rows`: `batch_size` (at most `rows`),
    then `TAIL_SLOTS` below it."""
    first = min(batch_size, rows)
    return (first, *(s for s in TAIL_SLOTS if s < first))


def groups(order, widths, batch_size: int):
    """`order` (indices sorted by source length) cut into calls: runs of
    one width, a run shorter than `batch_size` joined to the next, at most
    `CALL_CELLS // width` each."""
    runs = []
    for i in order:
        if runs and widths[runs[-1][-1]] == widths[i]:
            runs[-1].append(i)
        else:
            runs.append([i])
    merged = []
    for run in runs:
        if merged and len(merged[-1]) < batch_size:
            merged[-1] += run
        else:
            merged.append(run)
    calls = []
    for run in merged:
        limit = max(1, CALL_CELLS // widths[run[-1]])
        calls += [run[start : start + limit] for start in range(0, len(run), limit)]
    return calls


def refills_rows(translator, beam_width: int, keep_beams: bool) -> bool:
    """Whether `translator.search` runs greedy search with refilled rows:
    greedy, the best output only, with the run's Keras model
    (`searches_with_refill`), outside a server (whose calls run only at the
    shapes compiled at its start: `CompiledShapes.routing`)."""
    return (
        translator.searches_with_refill
        and beam_width == 1
        and not keep_beams
        and not translator.compiled_shapes.routing
    )


def search(translator, texts, search, batch_size: int, sizes):
    """`Translator.search` of whole texts: `(ids (N, [K,] L), attention,
    scores (N, [K]))` in input order, decoded in batches of similar length
    (`search_batches`); an empty text gets all-padding ids, zero attention
    and the score -inf.

    Args:
        translator: the `Translator`.
        texts: the texts the model reads.
        search: `(beam_width, keep_beams)`.
        batch_size: texts decoded at once.
        sizes: `(decode_width, MAX_SOURCE_TOKENS, MAX_OUTPUT_TOKENS)` of the
            predictor (`decode_width`: a source length to its padded width).
    """
    width_of, longest, steps = sizes
    beams = (search[0],) if search[1] else ()
    counts = [len(tokenizer.tokenize(t)) for t in texts]
    order = sorted(range(len(texts)), key=counts.__getitem__)
    ids = np.zeros((len(texts), *beams, steps), "int32")
    attention = [None] * len(texts)
    scores = np.full((len(texts), *beams), -np.inf, "float32")
    batches = search_batches(
        translator, texts, counts, order, search, batch_size, (width_of, longest)
    )
    for rows, tokens, weights, row_scores in batches:
        for j, i in enumerate(rows):
            length = min(counts[i], longest)
            if length == 0:
                attention[i] = np.zeros((*beams, steps, 0), "float32")
                continue
            ids[i] = tokens[j]
            scores[i] = row_scores[j]
            attention[i] = weights[j, ..., :length]
    return ids, attention, scores


def search_batches(translator, texts, counts, order, search, batch_size, padding):
    """`Translator.search`'s batches of `texts` (`counts` words each, in
    `order`) for `search`, `(beam_width, keep_beams)`: refilled rows where
    `refills_rows`, else `translator.run_batches` of `batch_size`;
    `padding`: `(decode_width, MAX_SOURCE_TOKENS)` of the predictor."""
    width_of, longest = padding
    if not refills_rows(translator, *search):
        return translator.run_batches(
            translator.search_function(*search),
            order,
            batch_size,
            lambda rows: translator.model_input([texts[i] for i in rows]),
        )
    widths = [width_of(min(c, longest)) for c in counts]
    return batches(
        lambda slots: translator.search_function(1, slots=slots),
        order,
        widths,
        lambda rows: translator.model_input(
            ["" if i is None else texts[i] for i in rows], refilled=True
        ),
        batch_size,
    )


def batches(search_function, order, widths, prepare, batch_size: int):
    """Yields `(chunk, tokens, attention, scores)` per call, as
    `RunPredictor.run_batches` does.

    Args:
        search_function: `search_function(slots)`, the compiled greedy
            search with refilled rows (`model.make_translate_fn(slots=)`).
        order: text indices sorted by source length.
        widths: the padded source width of each text.
        prepare: a list of text indices, with None for an empty text, to
            the search's input.
        batch_size: rows per step.
    """
    from keras import ops

    for chunk in groups(order, widths, batch_size):
        rows = call_rows(len(chunk))
        fn = search_function(slot_sizes(rows, batch_size))
        x = prepare(chunk + [None] * (rows - len(chunk)))
        tokens, attention, scores = (ops.convert_to_numpy(o) for o in fn(x))
        n = len(chunk)
        yield chunk, tokens[:n], attention[:n].astype("float32"), scores[:n]
