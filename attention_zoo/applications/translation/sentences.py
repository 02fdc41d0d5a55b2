"""A text of several sentences translated one sentence at a time.

The software corpus is short messages (most under 10 words), so a model
trained on it writes a help paragraph of 40 words worse than its
sentences one by one (docs/translation.md, "Documentation prose"). A
translator that reads sentences (`Translator(..., sentences=True)`, the
default of a run that masks placeholders) cuts each text the model reads,
its placeholders already masked, into sentences, searches them as texts of
their own in one batch, and joins their outputs into one answer per text:

- **Where a sentence ends** (`spans`): after a token of `ENDS` (`.`, `!`,
  `?`, `…`) and any closing brackets or quotes right after it, where the
  next token starts a sentence (an upper-case letter first, an opening
  bracket or quote, or an item number: `2. Save`), unless the word
  before the mark is one of `ABBREVIATIONS` or a single letter (`e.g. Foo`, `Mr. Smith`, `J. Doe`),
  and only where each side holds at least `MIN_WORDS` words (tokens with a
  letter or digit), so a numbered step (`1. Open`) stays with its text. A
  straight quote `"` after the mark closes the sentence only if the
  sentence holds an odd number of them (it is the closing one).
- **The cut is in tokens** (`postprocess.cased_tokens` of the masked text,
  `MAX_SOURCE_TOKENS` of them), and each sentence is its tokens joined by
  spaces, which tokenizes to the same tokens: so the source positions of
  sentence `k` are a slice of the text's, and placeholders, masked before
  the cut, are numbered over the whole text.
- **Joined** (`join`): each hypothesis of a text is its sentences' outputs
  in order, each up to (not including) its `<end>`, then one `<end>`; its
  attention is block-diagonal, each sentence's steps over its own source
  positions, the `<end>` row the last sentence's; its score (the search's
  log-probability per token, `<end>` included) is the sum of the
  sentences' log-probabilities over the sum of their tokens. With several
  hypotheses (`keep_beams`), hypothesis `k` joins each sentence's `k`-th.
- A text of one sentence is searched whole, as without this module.
"""

from __future__ import annotations

import numpy as np

from attention_zoo.applications.common.text import END_ID, PAD_ID
from attention_zoo.applications.translation import postprocess

ENDS = frozenset(postprocess.SENTENCE_END)  # `.`, `!`, `?`, `…`
CLOSERS = frozenset({")", "]", "}", "»", "”", "’", '"'})
OPENERS = frozenset(postprocess.OPENERS)
# Words a full stop follows without ending a sentence (lower-cased; the
# tokens hold no `.`: `e.g.` is `e . g .`, a single letter before a mark).
ABBREVIATIONS = frozenset(
    "approx cf dr eg etc fig ie inc jr ltd mr mrs ms no nr pp sr st vol vs".split()
)
MIN_WORDS = 2


def _is_word(token: str) -> bool:
    return token.isalnum() or any(c.isalnum() for c in token)


def _starts_sentence(tokens, j: int) -> bool:
    """Whether token `j` can start a sentence: an opening bracket or quote,
    an upper-case letter, or an item number (`2 . Save`)."""
    token = tokens[j]
    if token in OPENERS or token[:1].isupper():
        return True
    return (
        token.isdigit()
        and j + 2 < len(tokens)
        and tokens[j + 1] == "."
        and tokens[j + 2][:1].isupper()
    )


def spans(tokens) -> list[tuple[int, int]]:
    """The `[start, end)` token spans of the sentences of `tokens` (cased,
    as `postprocess.cased_tokens` gives them): at least one, covering every
    token in order (the module docstring's rules)."""
    tokens = list(tokens)
    if ENDS.isdisjoint(tokens):  # most messages: no mark to cut at
        return [(0, len(tokens))]
    cuts, words, quotes = [0], 0, 0
    i = 0
    while i < len(tokens):
        token = tokens[i]
        words += _is_word(token)
        quotes += token == '"'
        if token not in ENDS or words < MIN_WORDS:
            i += 1
            continue
        j = i + 1
        while j < len(tokens) and tokens[j] in CLOSERS:
            if tokens[j] == '"' and quotes % 2 == 0:
                break  # an opening quote: the next sentence's
            quotes += tokens[j] == '"'
            j += 1
        before = tokens[i - 1].lower() if i else ""
        after = sum(_is_word(t) for t in tokens[j:])
        if (
            j < len(tokens)
            and _starts_sentence(tokens, j)
            and before not in ABBREVIATIONS
            and not (len(before) == 1 and before.isalpha())
            and after >= MIN_WORDS
        ):
            cuts.append(j)
            words, quotes = 0, 0
        i = j
    return list(zip(cuts, [*cuts[1:], len(tokens)]))


def split(text: str, max_tokens: int) -> list[tuple[str, int, int]]:
    """`(sentence, start, end)` per sentence of the first `max_tokens`
    tokens of `text`: the sentence's tokens joined by spaces and its token
    span. A text of one sentence (or none) is itself: `[(text, 0, n)]`."""
    tokens = postprocess.cased_tokens(text)[:max_tokens]
    found = spans(tokens)
    if len(found) <= 1:
        return [(text, 0, len(tokens))]
    return [(" ".join(tokens[a:b]), a, b) for a, b in found]


def _length(row) -> int:
    """Output tokens of a row of ids before its `<end>` (or padding)."""
    stops = np.flatnonzero((row == END_ID) | (row == PAD_ID))
    return int(stops[0]) if stops.size else len(row)


def join(pieces, ids, attention, scores, width: int):
    """One text's hypotheses from its sentences' (`search`'s outputs for
    them, hypotheses first: `ids (S, K, L)`, `attention` S arrays `(K, L,
    n_s)`, `scores (S, K)`) over `width` source positions: `(ids (K, W),
    attention (K, W, width), scores (K,))`, `W` the longest joined output
    and its `<end>`."""
    lengths = [[_length(row) for row in hyps] for hyps in ids]
    longest = max(sum(column) for column in zip(*lengths)) + 1
    beams = ids[0].shape[0]
    out_ids = np.zeros((beams, longest), "int32")
    out_attention = np.zeros((beams, longest, width), "float32")
    out_scores = np.zeros(beams, "float32")
    for k in range(beams):
        step, total, count = 0, 0.0, 0
        for s, (_, start, end) in enumerate(pieces):
            n = lengths[s][k]
            out_ids[k, step : step + n] = ids[s][k, :n]
            out_attention[k, step : step + n, start:end] = attention[s][k, :n]
            step += n
            # The sentence's log-probability: its score per token times
            # its tokens, `<end>` included where it wrote one.
            ended = n < ids[s].shape[-1]
            total += float(scores[s][k]) * (n + ended)
            count += n + ended
            if s == len(pieces) - 1 and ended:
                out_attention[k, step, start:end] = attention[s][k, n]
        out_ids[k, step] = END_ID
        out_scores[k] = total / max(count, 1)
    return out_ids, out_attention, out_scores


def search(search_texts, texts, max_tokens: int, keep_beams: bool):
    """`search_texts` (a translator's search of whole texts: `(ids,
    attention, scores)`, hypotheses kept with `keep_beams`) run on the
    sentences of `texts`, joined back per text (module docstring).

    Returns `(ids (N, [K,] W), attention, scores (N, [K]))` as the
    whole-text search gives them, `W` at least its output width.
    """
    texts = list(texts)
    pieces = [split(t, max_tokens) for t in texts]
    flat = [p[0] for text_pieces in pieces for p in text_pieces]
    ids, attention, scores = search_texts(flat)
    if not keep_beams:  # one hypothesis: give every row a beam axis
        ids, scores = ids[:, None], scores[:, None]
        attention = [a[None] for a in attention]
    joined, first = [], 0
    for text_pieces in pieces:
        count = len(text_pieces)
        if count == 1:
            joined.append((ids[first], attention[first], scores[first]))
        else:
            rows = slice(first, first + count)
            width = text_pieces[-1][2]
            joined.append(
                join(text_pieces, ids[rows], attention[rows], scores[rows], width)
            )
        first += count
    widest = max((j[0].shape[-1] for j in joined), default=ids.shape[-1])
    out_ids = np.zeros((len(texts), ids.shape[1], widest), "int32")
    out_attention = []
    for i, (row_ids, row_attention, _) in enumerate(joined):
        out_ids[i, :, : row_ids.shape[-1]] = row_ids
        if row_attention.shape[-2] == widest:
            out_attention.append(row_attention)
            continue
        grown = np.zeros(
            (*row_attention.shape[:-2], widest, row_attention.shape[-1]), "float32"
        )
        grown[..., : row_attention.shape[-2], :] = row_attention
        out_attention.append(grown)
    out_scores = np.stack([j[2] for j in joined]) if joined else scores[:0]
    if not keep_beams:
        return out_ids[:, 0], [a[0] for a in out_attention], out_scores[:, 0]
    return out_ids, out_attention, out_scores
