"""The translator's tensor part for LiteRT and ONNX, and the predictor
that runs it from an export folder."""

from __future__ import annotations

from attention_zoo.applications.common.portable_export import (
    CoreFunction,
    runner_search,
    search_core,
)
from attention_zoo.applications.common.text_domain import DOMAIN_FILE
from attention_zoo.applications.translation import model as models
from attention_zoo.applications.translation.predictor import (
    MAX_OUTPUT_TOKENS,
    TRUECASE_FILE,
    Translator,
)


def export_core(run_dir) -> CoreFunction:
    """`source_ids (B, W) int32 -> tokens (B, MAX_OUTPUT_TOKENS)`, `attention
    (B, MAX_OUTPUT_TOKENS, W)` and `scores (B,)` (log-probability per
    token): `model.make_translate_fn` with greedy search."""
    translator = Translator(run_dir)
    translate = models.make_translate_fn(translator.model, MAX_OUTPUT_TOKENS)

    present = [
        name
        for name in (*Translator.required_files, *Translator.optional_files)
        if not name.endswith(".keras") and (translator.run_dir / name).is_file()
    ]
    return CoreFunction(
        fn=search_core(translate),
        input_name="source_ids",
        shape=(None,),
        data_files=tuple(present),
    )


class ExportedTranslator(Translator):
    """A `Translator` whose model is an exported greedy core run by `runner`
    (`common.runtimes`): the same tokenizer, vocabularies, `<unk>`
    replacement, truecasing, detokenisation and domain check, in NumPy and
    Python, from the folder's data files."""

    required_files = (
        "config.json",
        "source_vocabulary.json",
        "target_vocabulary.json",
    )
    optional_files = (TRUECASE_FILE, DOMAIN_FILE)

    def __init__(self, folder, runner, **options):
        self.runner = runner
        if options.get("beam_width") not in (None, 1):
            raise ValueError(
                "an exported translator decodes greedily (beam_width 1). "
                f"Received: beam_width={options['beam_width']!r}"
            )
        super().__init__(folder, **{**options, "beam_width": 1})

    def load_translation_model(self):
        return None

    def _search_fn(self, beam_width: int):
        if beam_width != 1:
            raise ValueError(
                "an exported translator decodes greedily (beam_width 1). "
                f"Received: beam_width={beam_width!r}"
            )

        return runner_search(self.runner)
