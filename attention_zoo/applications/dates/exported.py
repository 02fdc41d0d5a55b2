"""The date normalizer's tensor part for LiteRT and ONNX, and the
predictor that runs it from an export folder."""

from __future__ import annotations

import numpy as np

from attention_zoo.applications.common.errors import MalformedFileError
from attention_zoo.applications.common.portable_export import (
    CoreFunction,
    check_width,
    runner_search,
    search_core,
)
from attention_zoo.applications.dates import model as models
from attention_zoo.applications.dates.predictor import Normalizer, check_greedy


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
        data_files=tuple(
            name
            for name in ("config.json", "vocabulary.json", *Normalizer.optional_files)
            if (normalizer.run_dir / name).is_file()
        ),
    )


class ExportedNormalizer(Normalizer):
    """A `Normalizer` whose model is an exported core run by `runner`
    (`common.runtimes`): the same normalisation, character lookup, decoding
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
