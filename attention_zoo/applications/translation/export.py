"""A translation run exported: as a SavedModel that translates raw
strings (`export`), as the tensor core of a LiteRT or ONNX file
(`export_core`), and the predictor that runs such a core
(`ExportedTranslator`)."""

from __future__ import annotations

from pathlib import Path

from attention_zoo.applications.common import export_folder
from attention_zoo.applications.common import text as tokenizer
from attention_zoo.applications.common.exporting.portable import (
    CoreFunction,
    ExportedSearch,
    data_files,
    search_core,
)
from attention_zoo.applications.common.exporting.text_to_text import (
    graph_domain,
    in_domain,
    read_source,
    write_text_model,
)
from attention_zoo.applications.common.text import END_ID, PAD_ID, UNK_ID
from attention_zoo.applications.translation import model as models
from attention_zoo.applications.translation import postprocess
from attention_zoo.applications.translation.predictor import (
    DECODE_WIDTHS,
    MAX_OUTPUT_TOKENS,
    MAX_SOURCE_TOKENS,
    Translator,
)


def export(run_dir, output, beam_width: int | None = None) -> Path:
    """SavedModel: `serving_default(text: tf.string [None])` -> `text`,
    `attention`, `score`, `valid`.

    Tokenization (`tokenizer.normalize`, word lookup with `<unk>`) runs in
    the graph, then beam search (`beam_width`, default the run's) compiled
    with XLA as `Translator` runs it, then the readable output of
    `postprocess` (unknown words copied from the source, the run's
    truecaser as a lookup table, Spanish spacing), all with plain TensorFlow
    string and lookup ops. `attention` is float32 `(B, MAX_OUTPUT_TOKENS,
    Tx)` with `Tx` the batch's source length padded to a width of
    `DECODE_WIDTHS`. `score` is float32, the search's log-probability per
    token of the output (-inf for an empty input), and `valid` bool, as
    `Translator`'s `valid` (the text has a word and is in the run's
    `domain`). The input rules of the module docstring hold: an empty input
    gives "" and zero attention.
    """
    import tensorflow as tf

    from attention_zoo.export.text import StringTable, TokenTables

    translator = Translator(run_dir, beam_width=beam_width)
    refuse_copy(translator, run_dir)
    if translator.masking:
        # The patterns of `placeholders` look behind (`(?<![\w-])--help`),
        # which TensorFlow's RE2 cannot: the graph would read the raw
        # placeholders and answer valid without the check.
        raise ValueError(
            f'{run_dir} masks placeholders (config.json: "placeholders": '
            '"mask"), which the SavedModel graph does not do yet: export it '
            "as LiteRT or ONNX, whose predictor masks in Python"
        )
    output = export_folder(output, "translation")
    fn = translator.search_function(translator.beam_width)
    output_tokens = [
        t if i >= len(tokenizer.SPECIALS) or t == tokenizer.UNK else ""
        for i, t in enumerate(translator.target_vocabulary.tokens)
    ]
    tables = TokenTables(
        translator.source_vocabulary.tokens, output_tokens, unknown_id=UNK_ID
    )
    cases = StringTable(translator.truecaser.forms)

    def serve(text):
        source = read_source(text, tables, MAX_SOURCE_TOKENS)
        ids, lengths = source.ids, source.lengths
        longest = tf.reduce_max(tf.concat([lengths, [0]], 0))
        widths = tf.constant(DECODE_WIDTHS, tf.int32)
        width = tf.gather(widths, tf.searchsorted(widths, [longest])[0])
        ids = ids[:, :width]  # padded as Translator.encode pads
        tokens, attention, score = fn(ids)
        valid = lengths > 0
        score = tf.where(valid, tf.cast(score, tf.float32), float("-inf"))
        if domain is not None:
            valid_answer = tf.logical_and(valid, in_domain(domain, source))
        else:
            valid_answer = valid
        attention = tf.cast(attention, tf.float32)
        attention = tf.where(valid[:, None, None], attention, tf.zeros_like(attention))
        # The source as written, token for token, for unknown-word replacement.
        cased = source.cased_words.to_tensor("")
        cased = tf.pad(cased, [[0, 0], [0, width]], constant_values="")[:, :width]
        text = readable_text(
            tokens,
            attention,
            lengths,
            cased,
            tables,
            cases,
            translator.truecaser.capitalize_starts,
        )
        return {
            "text": tf.where(valid, text, tf.constant("")),
            "attention": attention,
            "score": score,
            "valid": valid_answer,
        }

    domain = graph_domain(translator)
    return write_text_model(
        output, serve, translator, tables, domain, "translation", [cases.table]
    )


def refuse_copy(translator: Translator, run_dir) -> None:
    """Copy attention's search reads the source's extended ids, which
    neither the SavedModel graph nor the exported core computes yet."""
    if translator.copy:
        raise ValueError(
            f'{run_dir} has copy attention (config.json: "copy": true), which '
            "the export does not carry yet: serve the run folder itself"
        )


def _is_one_of(strings, values):
    import tensorflow as tf

    return tf.reduce_any(tf.equal(strings[..., None], tf.constant(values)), axis=-1)


def readable_text(
    tokens, attention, lengths, cased_source, tables, cases, capitalize_starts=True
):
    """The graph twin of `postprocess.readable_tokens` then `detokenize`.

    Args:
        tokens: int `(B, T)` output ids.
        attention: float `(B, T, Tx)`.
        lengths: int `(B,)` source tokens read.
        cased_source: string `(B, Tx)`, the source tokens as written.
        tables: the `TokenTables` of the target vocabulary (`<unk>` kept).
        cases: the `StringTable` of the truecaser.
        capitalize_starts: the truecaser's: capitalise sentence starts.
    """
    import tensorflow as tf

    from attention_zoo.export.text import capitalize_first, rewrite_strings

    tokens = tf.cast(tokens, tf.int32)
    inside = tf.range(tf.shape(attention)[2])[None, None, :] < lengths[:, None, None]
    attended = tf.argmax(
        tf.where(inside, attention, -1.0), axis=-1, output_type=tf.int32
    )
    copied = tf.gather(cased_source, attended, batch_dims=1)
    words = tf.gather(tables.output_strings, tokens)
    words = tf.where(tf.equal(tokens, UNK_ID), copied, cases.lookup(words))
    # Keep what `TokenTables.decode` keeps: the words before <end> or padding.
    stops = tf.logical_or(tf.equal(tokens, END_ID), tf.equal(tokens, PAD_ID))
    before_stop = tf.equal(tf.cumsum(tf.cast(stops, tf.int32), axis=1), 0)
    keep = tf.logical_and(before_stop, tf.not_equal(words, ""))
    kept = tf.ragged.boolean_mask(words, keep)
    dense = kept.to_tensor("")
    # Sentence starts, as `postprocess.starts_sentence` finds them.
    pad = tf.fill([tf.shape(dense)[0], 2], "")
    shifted = tf.concat([pad, dense], axis=1)
    previous, before = shifted[:, 1:-1], shifted[:, :-2]
    position = tf.range(tf.shape(dense)[1])[None, :]
    ends = list(postprocess.SENTENCE_END)
    starts = (
        tf.equal(position, 0)
        | _is_one_of(previous, ends)
        | (
            _is_one_of(previous, list(postprocess.OPENERS))
            & (tf.equal(position, 1) | _is_one_of(before, ends))
        )
    )
    if capitalize_starts:
        dense = tf.where(starts, capitalize_first(dense), dense)
    kept = tf.RaggedTensor.from_tensor(dense, lengths=kept.row_lengths())
    joined = tf.strings.reduce_join(kept, axis=1, separator=" ")
    return rewrite_strings(
        joined,
        [
            (postprocess.NO_SPACE_BEFORE, r"\1"),
            (postprocess.NO_SPACE_AFTER, r"\1"),
            (postprocess.AROUND_HYPHEN, "-"),
        ],
    )


# ------------------------------------------------------- LiteRT and ONNX


def export_core(run_dir, beam_width: int | None = None) -> CoreFunction:
    """`source_ids (B, W) int32 -> tokens (B, MAX_OUTPUT_TOKENS)`, `attention
    (B, MAX_OUTPUT_TOKENS, W)` and `scores (B,)` (log-probability per
    token): `model.make_translate_fn` with `beam_width` beams (default:
    the run's; 1 is greedy search) over the run's shortlist where it has
    one, as `Translator` searches."""
    translator = Translator(run_dir, beam_width=beam_width)
    refuse_copy(translator, run_dir)
    width = translator.beam_width
    translate = models.make_translate_fn(
        translator.model,
        MAX_OUTPUT_TOKENS,
        beam_width=width,
        alpha=translator.alpha if width > 1 else 0.0,
        must_copy=translator.must_copy,
        shortlist=translator.shortlist,
    )
    return CoreFunction(
        fn=search_core(translate),
        input_name="source_ids",
        shape=(None,),
        data_files=data_files(translator),
        beam_width=width,
    )


class ExportedTranslator(ExportedSearch, Translator):
    """A `Translator` whose model is an exported core run by `runner`
    (`common.exporting.runtimes`), searching with the `beam_width` it was
    exported with: the same tokenizer, vocabularies, `<unk>` replacement,
    truecasing, detokenisation and domain check, in NumPy and Python, from
    the folder's data files.

    Its answers are `Translator.predict_items`': `input`, `text`, `score`,
    `valid`, `reason`, `notes`, `problems`, `source_tokens`, `tokens` and
    `attention` for every input."""

    what = "translator"
    searches_with_refill = False  # the core is one search, exported
    required_files = (
        "config.json",
        "source_vocabulary.json",
        "target_vocabulary.json",
    )
