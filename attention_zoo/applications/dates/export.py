"""The date normalizer exported: as a SavedModel that serves raw strings
(`export`), as the tensor core of a LiteRT or ONNX file (`export_core`),
and the predictor that runs such a core (`ExportedNormalizer`)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from attention_zoo.applications.common import export_folder, write_saved_model
from attention_zoo.applications.common.errors import MalformedFileError
from attention_zoo.applications.common.exporting.portable import (
    CoreFunction,
    check_width,
    data_files,
    runner_search,
    search_core,
)
from attention_zoo.applications.dates import data
from attention_zoo.applications.dates import model as models
from attention_zoo.applications.dates import text as dates_text
from attention_zoo.applications.dates.graph_rules import (
    calendar_dates,
    drop_untaught_words,
    era_agreement,
    rules_agreement,
    word_table,
)
from attention_zoo.applications.dates.predictor import Normalizer, check_greedy


def export(run_dir, output, jit_compile: bool = True) -> Path:
    """SavedModel: `serving_default(text: tf.string [None])` -> `text`,
    `attention`, `valid`, `score`.

    The string preprocessing (`data.normalize`, character lookup with
    `<unk>` for unseen characters) and the validity rules (`graph_rules`)
    run in the graph; the model part is compiled with XLA
    (`jit_compile`), which plain TensorFlow runs without attention_zoo.
    `text` is the model's answer ("" for `<invalid>`), `score` its
    log-probability, `valid` = an input that writes no date before the
    common era (`eras.era_disagreement`), a real calendar date, the one
    reading of an all-numeric input (`readings.agrees`), a year the input
    writes if it writes four-digit numbers (`readings.year_disagreement`),
    a month the input names if it writes letters
    (`lexicon.month_disagreement`) and score >= the run's threshold.
    Documented rule for inputs the model cannot read: an empty
    input, or one longer than Tx characters once normalized, gives the
    empty string, all-zero attention, `valid` False and score -inf.
    """
    import tensorflow as tf

    from attention_zoo.export import TokenTables, ascii_digits, normalize_strings

    output = export_folder(output, "dates")
    normalizer = Normalizer(run_dir)
    tx = normalizer.tx
    predict_fn = tf.function(
        models.make_predict_fn(normalizer.model, normalizer.kind),
        jit_compile=jit_compile,
        autograph=False,  # keras.ops code (common/compile.py)
    )
    output_tokens = [t if len(t) == 1 else "" for t in data.IsoVocabulary.tokens]
    tables = TokenTables(normalizer.vocabulary.tokens, output_tokens, unknown_id=1)
    threshold = tf.constant(normalizer.threshold, tf.float32)
    months = word_table(normalizer.lexicon, normalizer.days)

    def serve(text):
        normalized = roman_months(ascii_digits(text, data.NATIVE_DIGITS))
        normalized = cjk_numerals(normalized)
        normalized = drop_label(normalize_strings(japanese_era(normalized)))
        # The era rule reads the words that drop_untaught_words drops too.
        in_era = era_agreement(normalized)
        normalized = drop_untaught_words(normalized, months)
        ids, lengths = tables.encode_chars(normalized, tx)
        readable = tf.logical_and(lengths > 0, lengths <= tx)
        width = tx
        if normalizer.kind == "default":
            # The default model reads only the batch's longest input (its
            # encoder is masked, so the padding it skips changes nothing),
            # rounded up to a multiple of 8 so that XLA compiles at most
            # tx / 8 programs per batch size: most dates are far shorter
            # than tx, and the encoder's steps are most of the work.
            longest = tf.reduce_max(tf.concat([[1], tf.minimum(lengths, tx)], 0))
            width = tf.minimum(tx, tf.maximum(8, (longest + 7) // 8 * 8))
        iso_ids, attention, scores = predict_fn(ids[:, :width])
        attention = tf.pad(attention, [[0, 0], [0, 0], [0, tx - width]])
        attention = tf.cast(attention, tf.float32)
        attention = tf.where(
            readable[:, None, None], attention, tf.zeros_like(attention)
        )
        stops = (data.IsoVocabulary.pad_id, data.IsoVocabulary.end_id)
        decoded = tf.where(
            readable, tables.decode(iso_ids, stop_ids=stops), tf.constant("")
        )
        scores = tf.where(readable, tf.cast(scores, tf.float32), -math.inf)
        valid = calendar_dates(decoded) & rules_agreement(normalized, decoded, months)
        valid = valid & in_era & (scores >= threshold)
        return {
            "text": decoded,
            "attention": attention,
            "valid": valid,
            "score": scores,
        }

    return write_saved_model(
        output, serve, "text", [normalizer.model, tables.input_table, months], "dates"
    )


def _only_where(has, texts, rewrite):
    """`rewrite(texts)` on the strings where `has`, the others as they are;
    for a batch where none has, `rewrite` is not run at all (most batches:
    its passes would cost every call)."""
    import tensorflow as tf

    return tf.cond(
        tf.reduce_any(has),
        lambda: tf.where(has, rewrite(texts), texts),
        lambda: texts,
    )


def cjk_numerals(texts):
    """The graph twin of `text.read_cjk_numerals`: its passes in RE2, on the
    strings that hold a numeral outside a weekday name."""
    import tensorflow as tf

    # text.has_cjk_numeral
    names_out = tf.strings.regex_replace(texts, dates_text.CJK_WEEKDAY, "")
    has = tf.strings.regex_full_match(names_out, f"(?s).*{dates_text.CJK_NUMERAL}.*")

    def passes(out):
        for i, numeral in enumerate(dates_text.CJK_WEEKDAYS):
            stand_in = chr(dates_text.CJK_STAND_IN + i)
            out = tf.strings.regex_replace(
                out, f"({dates_text.CJK_WEEKDAY_PREFIX}){numeral}", rf"\1{stand_in}"
            )
        for pattern, replacement in dates_text.CJK_TENS:
            out = tf.strings.regex_replace(out, pattern, replacement)
        for digit, numerals in enumerate(dates_text.CJK_DIGITS):
            out = tf.strings.regex_replace(out, f"[{numerals}]", str(digit))
        for i, numeral in enumerate(dates_text.CJK_WEEKDAYS):
            out = tf.strings.regex_replace(
                out, chr(dates_text.CJK_STAND_IN + i), numeral
            )
        return out

    return _only_where(has, texts, passes)


def japanese_era(texts):
    """The graph twin of `text.read_japanese_era`: the text cut around its
    first era year, whose number is read, offset and written back."""
    import tensorflow as tf

    whole = f"(?s)^(.*?){dates_text.JAPANESE_ERA_YEAR}(.*)$"
    has = tf.strings.regex_full_match(texts, whole)

    def read(texts):
        safe = tf.where(has, texts, "平成1年")  # every part parses

        def part(i):
            return tf.strings.regex_replace(safe, whole, rf"\{i}")

        number = part(3)
        number = tf.strings.to_number(tf.where(number == "元", "1", number), tf.int32)
        era = part(2)
        offset = tf.zeros_like(number)
        for name, start in dates_text.JAPANESE_ERAS.items():
            offset = tf.where(era == name, start, offset)
        year = tf.strings.as_string(offset + number)
        return tf.strings.join([part(1), year, "年", part(4)])

    return _only_where(has, texts, read)


def drop_label(texts):
    """`dates.text.drop_label` of normalized `texts` (B,): a leading label
    the model was not taught removed."""
    import tensorflow as tf

    labels = "|".join(dates_text.TAUGHT_LABELS)
    taught = f"^({labels}) ?{dates_text.LABEL_END} ?.+$"
    drop = tf.logical_and(
        tf.strings.regex_full_match(texts, dates_text.FORM_LABEL),
        tf.logical_not(tf.strings.regex_full_match(texts, taught)),
    )
    return _only_where(
        drop,
        texts,
        lambda texts: tf.strings.regex_replace(texts, dates_text.FORM_LABEL, r"\2"),
    )


def roman_months(texts):
    """The graph twin of `text.read_roman_months` (before lower-casing): its
    passes, on the strings that hold a candidate."""
    import tensorflow as tf

    has = tf.strings.regex_full_match(texts, f"(?s).*{dates_text.ROMAN_CANDIDATE}.*")

    def passes(out):
        for pattern, replacement in dates_text.ROMAN_MONTH_PASSES:
            out = tf.strings.regex_replace(out, pattern, replacement)
        return out

    return _only_where(has, texts, passes)


# ------------------------------------------------------- LiteRT and ONNX


def export_core(run_dir) -> CoreFunction:
    """`source_ids (B, tx) int32 -> tokens (B, TY) int32` (IsoVocabulary ids),
    `attention (B, TY, tx)` and `scores (B,)` float32: the greedy loop of
    `model.make_predict_fn`, over the whole width `tx` (the encoder is
    masked, so the padding changes nothing)."""
    normalizer = Normalizer(run_dir)
    if normalizer.kind != "default":
        raise ValueError(
            "LiteRT and ONNX exports hold the `default` model's decode loop. "
            f"Received: a run of model={normalizer.kind!r}"
        )
    predict = models.make_predict_fn(normalizer.model, normalizer.kind)

    return CoreFunction(
        fn=search_core(predict),
        input_name="source_ids",
        shape=(None,),
        data_files=data_files(normalizer),
    )


class ExportedNormalizer(Normalizer):
    """A `Normalizer` whose model is an exported core run by `runner`
    (`common.exporting.runtimes`): the same normalisation, character lookup, decoding
    and validity rules, in NumPy, from the folder's `config.json` and
    `vocabulary.json`: the reference a port to another platform follows."""

    required_files = ("config.json", "vocabulary.json")
    optional_files = Normalizer.optional_files

    def __init__(self, folder, runner, beam_width: int = 1):
        # The normalizer decodes greedily: its exports hold the greedy loop.
        check_width("date normalizer", 1, beam_width)
        self.runner = runner
        super().__init__(folder)

    def load_models(self) -> None:
        self.model = None
        search = runner_search(self.runner)
        # The vocabulary against the model, once at load: its largest id
        # through the model's embedding (one short run), so that a
        # vocabulary larger than the model's is refused naming it, not at
        # the first date that holds one of its last characters.
        try:
            search(np.full((1, 8), len(self.vocabulary) - 1, "int32"))
        except MalformedFileError as error:
            raise MalformedFileError(
                f"{self.run_dir / 'vocabulary.json'} holds {len(self.vocabulary)} "
                f"symbols, more than the model reads ({error})"
            ) from error

    def search_function(self, beam_width: int = 1, keep_beams: bool = False):
        check_greedy(beam_width, keep_beams)
        search = runner_search(self.runner)

        def predict(ids):
            # Cut to the batch's longest input, rounded up to a multiple of
            # 8, as the SavedModel does; the attention padded back to tx.
            longest = int((np.asarray(ids) != 0).sum(axis=1).max(initial=1))
            width = min(self.tx, max(8, -(-longest // 8) * 8))
            tokens, attention, scores = search(np.asarray(ids)[:, :width])
            attention = np.pad(attention, [(0, 0), (0, 0), (0, self.tx - width)])
            return tokens, attention, scores

        return predict
