"""The summarizer's tensor part for LiteRT and ONNX, and the predictor
that runs it from an export folder."""

from __future__ import annotations

import keras

from attention_zoo.applications.common.portable_export import (
    CoreFunction,
    check_width,
)
from attention_zoo.applications.summarization.config import MAX_SOURCE_TOKENS
from attention_zoo.applications.summarization.predictor import (
    SEARCH_OUTPUTS,
    Summarizer,
    search_outputs,
)


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

    present = [
        name
        for name in (*Summarizer.required_files, *Summarizer.optional_files)
        if not name.endswith(".keras") and (summarizer.run_dir / name).is_file()
    ]
    return CoreFunction(
        fn=fn,
        input_name="source_ids",
        shape=(2, MAX_SOURCE_TOKENS),
        data_files=tuple(present),
        outputs=SEARCH_OUTPUTS,
        beam_width=width,
    )


class ExportedSummarizer(Summarizer):
    """A `Summarizer` whose model is an exported core run by `runner`
    (`common.runtimes`), searching with the `beam_width` it was exported
    with: the same tokenizer, extended ids, copied words as
    written, detokenisation and validity rules, in NumPy and Python, from
    the folder's `config.json`, `vocabulary.json` and `domain.json`."""

    required_files = ("config.json", "vocabulary.json")

    def __init__(self, folder, runner, beam_width: int = 1):
        self.runner = runner
        self.exported_width = beam_width
        super().__init__(folder, beam_width=beam_width)

    def load_models(self) -> None:
        self.model = None

    def search_function(self, beam_width: int, keep_beams: bool = False):
        check_width("summarizer", self.exported_width, beam_width)
        if keep_beams:
            raise ValueError(
                "An exported summarizer keeps the best summary only: leave n_best "
                "out. Received: n_best=True"
            )

        def search(x):
            out = self.runner(x)
            return tuple(out[k] for k in SEARCH_OUTPUTS)

        return search
