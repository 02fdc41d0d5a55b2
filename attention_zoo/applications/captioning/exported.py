"""The captioner's tensor part for LiteRT and ONNX, and the predictor that
runs it from an export folder."""

from __future__ import annotations

import keras
import numpy as np

from attention_zoo.applications.captioning import model as models
from attention_zoo.applications.captioning.domain import DOMAIN_FILE
from attention_zoo.applications.captioning.features import image_array
from attention_zoo.applications.captioning.predictor import Captioner
from attention_zoo.applications.common.portable_export import (
    CoreFunction,
    check_width,
)

OUTPUTS = ("tokens", "attention", "scores", "pooled")


def export_core(run_dir, beam_width: int | None = None) -> CoreFunction:
    """`pixels (B, S, S, 3) float32` (RGB in [0, 255], resized as
    `features.image_array` resizes) `-> tokens (B, max_caption_length)`,
    `attention (B, max_caption_length, H*W)`, `scores (B,)` (log-probability
    per token) and `pooled (B, C)` (the encoder's features averaged over the
    grid, which `domain.ImageDomain` measures): the encoder and the search
    with `beam_width` beams (default: the run's; 1 is greedy) in one file,
    as `Captioner` searches."""
    captioner = Captioner(run_dir, beam_width=beam_width)
    encoder = captioner.encoder
    width = captioner.beam_width
    caption = models.make_caption_fn(
        captioner.model,
        captioner.max_length,
        beam_width=width,
        alpha=captioner.config["alpha"] if width > 1 else 0.0,
    )

    def fn(pixels):
        features = encoder(pixels, training=False)
        tokens, attention, scores = caption(features)
        return {
            "tokens": keras.ops.cast(tokens, "int32"),
            "attention": keras.ops.cast(attention, "float32"),
            "scores": keras.ops.cast(scores, "float32"),
            "pooled": keras.ops.mean(keras.ops.cast(features, "float32"), axis=1),
        }

    present = [
        name
        for name in ("config.json", "vocabulary.json", DOMAIN_FILE)
        if (captioner.run_dir / name).is_file()
    ]
    size = captioner.image_size
    return CoreFunction(
        fn=fn,
        input_name="pixels",
        shape=(size, size, 3),
        data_files=tuple(present),
        outputs=OUTPUTS,
        dtype="float32",
        beam_width=width,
    )


class ExportedCaptioner(Captioner):
    """A `Captioner` whose encoder and decoder are an exported core run by
    `runner` (`common.runtimes`), searching with the `beam_width` it was
    exported with: the same image reading and resize,
    vocabulary, detokenisation and domain check, in NumPy, from the
    folder's `config.json`, `vocabulary.json` and `domain.json`."""

    required_files = ("config.json", "vocabulary.json")

    def __init__(self, folder, runner, beam_width: int = 1):
        self.runner = runner
        self.exported_width = beam_width
        super().__init__(folder, beam_width=beam_width)

    def load_models(self) -> None:
        self.encoder = self.model = None

    def feature_channels(self) -> int:
        # The file is the only description of its encoder: one black image
        # run through it (which also warms the runtime).
        pixels = np.zeros((1, self.image_size, self.image_size, 3), "float32")
        return int(np.asarray(self.runner(pixels)["pooled"]).shape[-1])

    def answer_images(self, images, beam_width, batch_size: int, n_best=False):
        check_width("captioner", self.exported_width, beam_width)
        if n_best:
            raise ValueError(
                "An exported captioner keeps the best caption only: leave n_best "
                "out. Received: n_best=True"
            )
        captions, attention, scores, means = [], [], [], []
        for start in range(0, len(images), batch_size):
            pixels = np.stack(
                [
                    image_array(i, self.image_size)
                    for i in images[start : start + batch_size]
                ]
            )
            out = self.runner(pixels)
            more = self.captions(out["tokens"], out["attention"], out["scores"])
            for mine, theirs in zip((captions, attention, scores), more):
                mine.extend(theirs)
            means.append(np.asarray(out["pooled"], "float64"))
        return captions, attention, scores, np.concatenate(means), None
