"""The date normalizer exported: as a SavedModel that serves raw strings
(`export`: a run of ISO dates whole in the graph; a run of the forms
target as its forms and its core), as the tensor core of a LiteRT or
ONNX file (`export_core`, runs of either target), and the predictor that
runs such a core (`ExportedNormalizer`)."""

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
from attention_zoo.applications.dates import checks, data, passes
from attention_zoo.applications.dates import model as models
from attention_zoo.applications.dates.graph_rules import word_table
from attention_zoo.applications.dates.predictor import Normalizer, check_greedy


def export(run_dir, output, jit_compile: bool = True) -> Path:
    """SavedModel: `serving_default(text: tf.string [None])` -> `text`,
    `attention`, `valid`, `score`.

    The string preprocessing (the graph halves of `passes.PASSES`,
    character lookup with `<unk>` for unseen characters) and the validity
    checks (the graph halves of `checks.CHECKS`) run in the graph; the
    model part is compiled with XLA (`jit_compile`), which plain
    TensorFlow runs without attention_zoo.
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

    from attention_zoo.export import TokenTables

    output = export_folder(output, "dates")
    normalizer = Normalizer(run_dir)
    if normalizer.forms:
        return _export_forms(normalizer, output, jit_compile)
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
        normalized = passes.run_graph(text, passes.NORMALIZE)
        viewed = passes.run_graph(normalized, passes.LEXICON_PASSES, months)
        decoded, attention, scores = _read(normalizer, predict_fn, tables, viewed)
        valid = checks.graph_valid(normalized, viewed, decoded, months)
        valid = valid & (scores >= threshold)
        return {
            "text": decoded,
            "attention": attention,
            "valid": valid,
            "score": scores,
        }

    return write_saved_model(
        output, serve, "text", [normalizer.model, tables.input_table, months], "dates"
    )


def _read(normalizer: Normalizer, predict_fn, tables, viewed):
    """The model's answers to `viewed` (the texts as it reads them), in the
    graph: `(decoded, attention, scores)`; an empty input or one longer
    than Tx characters gives "", all-zero attention and score -inf."""
    import tensorflow as tf

    tx = normalizer.tx
    ids, lengths = tables.encode_chars(viewed, tx)
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
    out_ids, attention, scores = predict_fn(ids[:, :width])
    attention = tf.pad(attention, [[0, 0], [0, 0], [0, tx - width]])
    attention = tf.cast(attention, tf.float32)
    attention = tf.where(readable[:, None, None], attention, tf.zeros_like(attention))
    stops = (data.IsoVocabulary.pad_id, data.IsoVocabulary.end_id)
    decoded = tf.where(
        readable, tables.decode(out_ids, stop_ids=stops), tf.constant("")
    )
    scores = tf.where(readable, tf.cast(scores, tf.float32), -math.inf)
    return decoded, attention, scores


def _export_forms(normalizer: Normalizer, output, jit_compile: bool) -> Path:
    """The SavedModel of a run of the forms target.

    A form's grounding in its text (`form_grounding`, Python over the
    languages' phrase tables) and its resolution against a reference
    (`resolver`, named zones included) have no graph half, so the graph
    holds what the model reads:

    - `serving_default(text: tf.string [None])` -> `form` (the model's
      form, "" for `<invalid>`; not grounded, checked or resolved),
      `score` and `attention`, with the unreadable-input rule of `export`;
    - the signature `CORE` (`saved_model.CORE`, `source_ids` int32
      `(B, width)` -> `tokens`, `attention`, `scores`), the greedy loop
      compiled with XLA (`jit_compile`), with the run's data files beside
      it: `load_exported` runs it under `ExportedNormalizer`, which reads,
      grounds and resolves as the run does and takes `reference` and
      `prefer`, as for the LiteRT and ONNX exports.
    """
    import tensorflow as tf

    from attention_zoo.export import TokenTables

    predict_fn = tf.function(
        models.make_predict_fn(normalizer.model, normalizer.kind, normalizer.ty),
        jit_compile=jit_compile,
        autograph=False,
    )
    output_tokens = [t if len(t) == 1 else "" for t in normalizer.iso.tokens]
    tables = TokenTables(normalizer.vocabulary.tokens, output_tokens, unknown_id=1)

    def serve(text):
        normalized = passes.run_graph(text, passes.NORMALIZE)  # `Normalizer.view`
        form, attention, scores = _read(normalizer, predict_fn, tables, normalized)
        return {"form": form, "attention": attention, "score": scores}

    core = CoreFunction(
        fn=search_core(predict_fn),
        input_name="source_ids",
        shape=(None,),
        data_files=data_files(normalizer),
    )
    return write_saved_model(
        output,
        serve,
        "text",
        [normalizer.model, tables.input_table],
        "dates",
        core=core,
        run_dir=normalizer.run_dir,
    )


# ------------------------------------------------------- LiteRT and ONNX


def export_core(run_dir) -> CoreFunction:
    """`source_ids (B, tx) int32 -> tokens (B, TY) int32` (the run's output
    vocabulary: `IsoVocabulary` ids, or `FormVocabulary` ids with the forms'
    TY for a run of the forms target), `attention (B, TY, tx)` and
    `scores (B,)` float32: the greedy loop of `model.make_predict_fn`, over
    the whole width `tx` (the encoder is masked, so the padding changes
    nothing)."""
    normalizer = Normalizer(run_dir)
    if normalizer.kind != "default":
        raise ValueError(
            "LiteRT and ONNX exports hold the `default` model's decode loop. "
            f"Received: a run of model={normalizer.kind!r}"
        )
    predict = models.make_predict_fn(normalizer.model, normalizer.kind, normalizer.ty)

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
    `vocabulary.json`: the reference a port to another platform follows.

    Its answers are `Normalizer.predict_items`': `input`, `text`, `score`,
    `valid`, `reason`, `notes`, `source_tokens`, `tokens` and `attention`
    for every input, one it cannot read included. The core of a run of
    the forms target writes forms, which it grounds and resolves as the
    run does: it takes `reference` and `prefer`, and adds `kind`, `grain`,
    `form`, `parts`, `reference` and `prefer` (`form_answers`)."""

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
            tokens, cut, scores = search(np.asarray(ids)[:, :width])
            # Written into zeros: np.pad's bookkeeping costs more than the
            # copy at one input a call.
            attention = np.zeros(cut.shape[:2] + (self.tx,), cut.dtype)
            attention[:, :, :width] = cut
            return tokens, attention, scores

        return predict
