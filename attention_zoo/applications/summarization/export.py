"""A summarization run exported: as a SavedModel that summarizes raw
strings (`export`), as the tensor core of a LiteRT or ONNX file
(`export_core`), and the predictor that runs such a core
(`ExportedSummarizer`)."""

from __future__ import annotations

from pathlib import Path

import keras

from attention_zoo.applications.common import export_folder
from attention_zoo.applications.common.exporting.portable import (
    CoreFunction,
    ExportedSearch,
    data_files,
)
from attention_zoo.applications.common.exporting.text_to_text import (
    graph_domain,
    in_domain,
    read_source,
    write_text_model,
)
from attention_zoo.applications.common.text import (
    END_ID,
    PAD_ID,
    SPACING_RULES,
    SPECIALS,
    UNK_ID,
)
from attention_zoo.applications.summarization import checks
from attention_zoo.applications.summarization.config import MAX_SOURCE_TOKENS
from attention_zoo.applications.summarization.predictor import (
    SEARCH_OUTPUTS,
    Summarizer,
    search_outputs,
)


def export(run_dir, output, beam_width: int | None = None) -> Path:
    """SavedModel: `serving_default(text: tf.string [None])` -> `text`,
    `score`, `valid`, `attention`, `p_gen`.

    Everything `Summarizer` does runs in the graph with plain TensorFlow
    string and lookup ops: tokenization (lower-cased, punctuation split
    off, cut to `MAX_SOURCE_TOKENS`), the vocabulary and extended ids (an
    unknown word gets `vocab_size` plus its first position), the search
    (`beam_width`, default the run's) compiled with XLA, copied words taken
    from the text as written, the summary detokenised and capitalised, and
    the validity rules (a word, a text not mostly addresses
    (`address_rule`), the share of unknown words, the domain, a summary
    that neither repeats itself nor makes up a word (`summary_rules`),
    the score threshold; the address and summary rules are the graph
    halves of `checks.CHECKS`). `attention` is float32 `(B,
    MAX_SUMMARY_TOKENS, MAX_SOURCE_TOKENS)` and `p_gen` `(B, MAX_SUMMARY_TOKENS)`, zero after
    the summary's end.
    """
    import tensorflow as tf

    from attention_zoo.export.text import (
        TokenTables,
        capitalize_first,
        rewrite_strings,
        valid_utf8,
    )

    output = export_folder(output, "summarization")
    summarizer = Summarizer(run_dir, beam_width=beam_width)
    fn = summarizer.search_function(summarizer.beam_width)
    vocabulary = summarizer.vocabulary
    size = len(vocabulary)
    words = [
        "" if i < len(SPECIALS) and t != "<unk>" else t
        for i, t in enumerate(vocabulary.tokens)
    ]
    tables = TokenTables(vocabulary.tokens, words, unknown_id=UNK_ID)
    # Greedy search ranks by the plain sum: no penalty to undo.
    alpha = summarizer.alpha if summarizer.beam_width > 1 else 0.0
    threshold = summarizer.score_threshold
    max_unknown = summarizer.max_unknown_share

    def serve(text):
        source = read_source(text, tables, MAX_SOURCE_TOKENS)
        ids, lengths = source.ids, source.lengths
        tokens = tf.strings.split(source.normalized).to_tensor(
            "", shape=[None, MAX_SOURCE_TOKENS]
        )
        inside = tf.range(MAX_SOURCE_TOKENS)[None, :] < lengths[:, None]
        unknown = tf.logical_and(tf.equal(ids, UNK_ID), inside)
        # An unknown word's extended id: the vocabulary size plus its first
        # position in the text.
        same = tf.equal(tokens[:, :, None], tokens[:, None, :])
        first = tf.argmax(tf.cast(same, tf.int32), axis=-1, output_type=tf.int32)
        extended = tf.where(unknown, size + first, ids)
        outputs, attention, p_gen, scores, steps = fn(tf.stack([ids, extended], 1))
        # The text as written, token for token, for the copied words.
        cased = source.cased_words.to_tensor("", shape=[None, MAX_SOURCE_TOKENS])
        outputs = tf.cast(outputs, tf.int32)
        copied = tf.gather(cased, tf.maximum(outputs - size, 0), batch_dims=1)
        chosen = tf.gather(tables.output_strings, tf.minimum(outputs, size - 1))
        # A vocabulary word the text holds, as the text first writes it.
        same = tf.logical_and(
            tf.equal(chosen[:, :, None], tokens[:, None, :]), inside[:, None, :]
        )
        first = tf.argmax(tf.cast(same, tf.int32), axis=-1, output_type=tf.int32)
        written = tf.gather(cased, first, batch_dims=1)
        chosen = tf.where(tf.reduce_any(same, axis=-1), written, chosen)
        chosen = tf.where(outputs >= size, copied, chosen)
        # A generated <unk>: the source word its step attends to most.
        pointed = tf.argmax(attention, axis=-1, output_type=tf.int32)
        pointed = tf.gather(
            cased, tf.minimum(pointed, MAX_SOURCE_TOKENS - 1), batch_dims=1
        )
        chosen = tf.where(tf.equal(outputs, UNK_ID), pointed, chosen)
        stops = tf.logical_or(tf.equal(outputs, END_ID), tf.equal(outputs, PAD_ID))
        before_stop = tf.equal(tf.cumsum(tf.cast(stops, tf.int32), axis=1), 0)
        kept = tf.ragged.boolean_mask(chosen, before_stop)
        joined = tf.strings.reduce_join(kept, axis=1, separator=" ")
        summary = capitalize_first(rewrite_strings(joined, SPACING_RULES))
        steps = tf.maximum(tf.cast(steps, tf.float32), 1.0)
        score = tf.cast(scores, tf.float32) * ((5.0 + steps) / 6.0) ** alpha / steps
        share = tf.reduce_sum(tf.cast(unknown, tf.float32), 1) / tf.maximum(
            tf.cast(lengths, tf.float32), 1.0
        )
        readable = lengths > 0
        valid = readable & (share <= max_unknown) & (score >= threshold)
        valid = valid & checks.graph_valid(
            valid_utf8(text),
            kept.to_tensor(""),
            kept.row_lengths(),
            tokens,
            lengths,
            None if domain is None else domain.model.knows,
        )
        if domain is not None:
            valid = valid & in_domain(domain, source)
        return {
            "text": tf.where(readable, summary, tf.constant("")),
            "score": tf.where(readable, score, tf.constant(float("-inf"))),
            "valid": valid,
            "attention": tf.cast(attention, tf.float32),
            "p_gen": tf.cast(p_gen[..., 0], tf.float32),
        }

    domain = graph_domain(summarizer)
    return write_text_model(output, serve, summarizer, tables, domain, "summarization")


# ------------------------------------------------------- LiteRT and ONNX


def export_core(run_dir, beam_width: int | None = None) -> CoreFunction:
    """`source_ids (B, 2, MAX_SOURCE_TOKENS) int32` (ids and extended ids,
    as `Summarizer` encodes them) `-> tokens (B, MAX_SUMMARY_TOKENS)`
    (extended ids: one at or past the vocabulary size is copied from that
    source position), `attention (B, MAX_SUMMARY_TOKENS, MAX_SOURCE_TOKENS)`,
    `p_gen (B, MAX_SUMMARY_TOKENS, 1)`, `scores (B,)` (the summed
    log-probability, over the GNMT length penalty under beam search) and
    `lengths (B,)`: the search with `beam_width` beams (default: the run's;
    1 is greedy), as `Summarizer` searches."""
    summarizer = Summarizer(run_dir, beam_width=beam_width)
    width = summarizer.beam_width
    search = search_outputs(summarizer.model, width, summarizer.alpha)

    def fn(source_ids):
        out = dict(zip(SEARCH_OUTPUTS, search(source_ids)))
        return {
            k: keras.ops.cast(v, "int32" if k in ("tokens", "lengths") else "float32")
            for k, v in out.items()
        }

    return CoreFunction(
        fn=fn,
        input_name="source_ids",
        shape=(2, MAX_SOURCE_TOKENS),
        data_files=data_files(summarizer),
        outputs=SEARCH_OUTPUTS,
        beam_width=width,
    )


class ExportedSummarizer(ExportedSearch, Summarizer):
    """A `Summarizer` whose model is an exported core run by `runner`
    (`common.exporting.runtimes`), searching with the `beam_width` it was
    exported with: the same tokenizer, extended ids, copied words as
    written, detokenisation and validity rules, in NumPy and Python, from
    the folder's `config.json`, `vocabulary.json` and `domain.json`.

    Its answers are `Summarizer.predict_items`': `input`, `text`, `score`,
    `valid`, `reason`, `notes`, `tokens`, `copied`, `source_tokens`,
    `attention` and `p_gen` for every input."""

    what = "summarizer"
    core_outputs = SEARCH_OUTPUTS
    required_files = ("config.json", "vocabulary.json")
