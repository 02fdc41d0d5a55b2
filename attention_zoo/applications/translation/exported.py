"""The translator's tensor part for LiteRT and ONNX, and the predictor
that runs it from an export folder."""

from __future__ import annotations

from attention_zoo.applications.common.portable_export import (
    CoreFunction,
    check_width,
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


def export_core(run_dir, beam_width: int | None = None) -> CoreFunction:
    """`source_ids (B, W) int32 -> tokens (B, MAX_OUTPUT_TOKENS)`, `attention
    (B, MAX_OUTPUT_TOKENS, W)` and `scores (B,)` (log-probability per
    token): `model.make_translate_fn` with `beam_width` beams (default:
    the run's; 1 is greedy search), as `Translator` searches."""
    translator = Translator(run_dir, beam_width=beam_width)
    width = translator.beam_width
    translate = models.make_translate_fn(
        translator.model,
        MAX_OUTPUT_TOKENS,
        beam_width=width,
        alpha=translator.alpha if width > 1 else 0.0,
    )

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
        beam_width=width,
    )


class ExportedTranslator(Translator):
    """A `Translator` whose model is an exported core run by `runner`
    (`common.runtimes`), searching with the `beam_width` it was exported
    with: the same tokenizer, vocabularies, `<unk>` replacement,
    truecasing, detokenisation and domain check, in NumPy and Python, from
    the folder's data files."""

    required_files = (
        "config.json",
        "source_vocabulary.json",
        "target_vocabulary.json",
    )
    optional_files = (TRUECASE_FILE, DOMAIN_FILE)

    def __init__(self, folder, runner, beam_width: int = 1, **options):
        self.runner = runner
        self.exported_width = beam_width
        super().__init__(folder, beam_width=beam_width, **options)

    def load_models(self) -> None:
        self.model = None

    def search_function(self, beam_width: int, keep_beams: bool = False):
        check_width("translator", self.exported_width, beam_width)
        if keep_beams:
            raise ValueError(
                "an exported translator holds the best hypothesis only. "
                "Received: n_best=True"
            )
        return runner_search(self.runner)
