"""Texts to the summarizer's ids and its ids back to readable summaries.

A text is tokenized as every word model of the package tokenizes
(`common.text`: lower-cased, punctuation split off), cut to
`MAX_SOURCE_TOKENS`, and read twice: as vocabulary ids for the encoder
(`<unk>` for a word outside it) and as extended ids for the copy mechanism
(`attention_zoo.decoders.extended_source_ids`: such a word gets
`vocab_size + i`, `i` its first position). An output id at or beyond
`vocab_size` is the source word at that position, in the case the text
writes it; the summary is those words, detokenised.
"""

from __future__ import annotations

import numpy as np

from attention_zoo.applications.common.text import (
    END_ID,
    PAD_ID,
    START_ID,
    UNK_ID,
    cased_tokens,
    tokenize,
)
from attention_zoo.applications.summarization.config import MAX_SOURCE_TOKENS
from attention_zoo.decoders import extended_source_ids


def encode_sources(texts, vocabulary, width: int = MAX_SOURCE_TOKENS):
    """`(ids, extended)` int32 `(N, width)` of `texts`, zero-padded, and
    their token counts `(N,)`."""
    ids = np.zeros((len(texts), width), "int32")
    extended = np.zeros((len(texts), width), "int32")
    lengths = np.zeros((len(texts),), "int32")
    for row, text in enumerate(texts):
        tokens = tokenize(text)[:width]
        known, copied = extended_source_ids(
            tokens, vocabulary.index, UNK_ID, len(vocabulary)
        )
        ids[row, : len(tokens)] = known
        extended[row, : len(tokens)] = copied
        lengths[row] = len(tokens)
    return ids, extended, lengths


def encode_summaries(summaries, texts, vocabulary, width: int, copy: bool = True):
    """Decoder inputs and labels `(N, width)` of `summaries`.

    Labels are the summary's ids then `<end>`; with `copy`, a word outside
    the vocabulary that its text holds is labelled with its extended id
    (`vocab_size + i`), as the copy mechanism emits it, and any other
    unknown word `<unk>`. Decoder inputs are `<start>` then the labels, an
    extended id read as `<unk>`. Summaries longer than `width - 1` words are
    cut.
    """
    inputs = np.full((len(summaries), width), PAD_ID, "int32")
    labels = np.full((len(summaries), width), PAD_ID, "int32")
    size = len(vocabulary)
    for row, (summary, text) in enumerate(zip(summaries, texts)):
        first = {}
        for position, token in enumerate(tokenize(text)[:MAX_SOURCE_TOKENS]):
            first.setdefault(token, position)
        ids = []
        for token in tokenize(summary)[: width - 1]:
            known = vocabulary.index.get(token)
            if known is not None:
                ids.append(known)
            elif copy and token in first:
                ids.append(size + first[token])
            else:
                ids.append(UNK_ID)
        ids.append(END_ID)
        labels[row, : len(ids)] = ids
        fed = [START_ID] + [UNK_ID if i >= size else i for i in ids[:-1]]
        inputs[row, : len(fed)] = fed
    return inputs, labels


def output_tokens(ids, text: str, vocabulary, attention=None) -> list[str]:
    """The words of output `ids` (up to `<end>`): a vocabulary word as it
    is (or as the text writes it, when the text holds it), a copied one
    (`vocab_size + i`) as the text writes it.

    With `attention` (`(steps, source words)`), a generated `<unk>` becomes
    the source word its step attends to most, as the text writes it (the
    replacement of Luong et al. 2015, which the copy mechanism mostly makes
    unnecessary but cannot forbid): no summary shows `<unk>`.
    """
    source = cased_tokens(text)[:MAX_SOURCE_TOKENS]
    # A vocabulary word the text holds is written as the text first writes
    # it ("gnu" -> "GNU"): the vocabulary is lower-cased, names are not.
    as_written = {}
    for lower, cased in zip(tokenize(text)[:MAX_SOURCE_TOKENS], source):
        as_written.setdefault(lower, cased)
    size = len(vocabulary)
    words = []
    for step, i in enumerate(ids):
        i = int(i)
        if i in (PAD_ID, END_ID):
            break
        if i == START_ID:
            continue
        if i >= size:
            position = i - size
            words.append(source[position] if position < len(source) else "<unk>")
        elif i == UNK_ID and attention is not None and source:
            position = int(np.argmax(attention[step][: len(source)]))
            words.append(source[position])
        else:
            words.append(as_written.get(vocabulary.tokens[i], vocabulary.tokens[i]))
    return words
