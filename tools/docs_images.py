"""Regenerate the picture each application page opens with: the attention
of its shipped preset on one input, as `attention-zoo APP plot` draws it.

Usage (from the repository root):

    python tools/docs_images.py            # all four, into docs/img/
    python tools/docs_images.py dates      # one

The pictures then show what the code of today answers; run it after a
preset or a plot changes.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from attention_zoo.applications import registry  # noqa: E402
from attention_zoo.presets import fixed_inputs, preset_folder  # noqa: E402

IMAGES = Path(__file__).resolve().parents[1] / "docs" / "img"
# The input each page shows; None: the preset's first fixed input.
INPUTS = {
    "dates": "3rd of May 1979",
    "translation": "In the beginning God created the heavens and the earth.",
    "captioning": None,
    "summarization": (
        "Tesseract is an open source Optical Character Recognition (OCR) Engine. "
        "This package contains the data needed for processing images in Greek "
        "language."
    ),
}


def write_image(name: str) -> Path:
    app = registry.get(name)
    preset = app.command.default_preset
    given = INPUTS.get(name)
    item = given if given is not None else fixed_inputs(preset)[0]
    with tempfile.TemporaryDirectory() as folder:
        (png,) = app.plot(preset_folder(preset), [item], Path(folder) / "plots")
        target = IMAGES / f"{name}_attention.png"
        shutil.copyfile(png, target)
    return target


if __name__ == "__main__":
    for name in sys.argv[1:] or list(INPUTS):
        print(write_image(name))
