"""`load_exported`: one loader for a SavedModel, a LiteRT and an ONNX export."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

PRECISIONS = ("float32", "int8")


def load_exported(path, precision: str = "float32"):
    """A callable of raw inputs (strings; image bytes for captioning) to one
    dict per input, from the folder `attention-zoo APP export` wrote.

    Each format runs in its own runtime: a SavedModel in TensorFlow (its
    `serving_default`: `text`, `score`, `valid`, `attention`), a LiteRT
    export in the LiteRT interpreter and an ONNX export in ONNX Runtime,
    both under the application's predictor, whose NumPy pre- and
    post-processing reads the data files written beside the model (the
    dicts then also hold `reason`, as the predictor's). `export.json` is
    read as data: its application must be one of the registry's.

    Args:
        path: the export folder.
        precision: "float32", or "int8" for the dynamic-range int8 LiteRT
            file.

    Example:

    ```python
    from attention_zoo.export import load_exported

    normalize = load_exported("dates-litert")
    normalize(["3 May 1979"])[0]["text"]  # '1979-05-03'
    ```
    """
    from attention_zoo.applications.common.errors import MalformedFileError
    from attention_zoo.applications.common.portable_export import (
        EXPORT_FILE,
        MODEL_FILES,
        PORTABLE_FORMATS,
    )

    if precision not in PRECISIONS:
        raise ValueError(
            f"`precision` must be one of {PRECISIONS}. Received: precision={precision!r}"
        )
    folder = Path(path)
    if (folder / "saved_model.pb").is_file():
        if precision != "float32":
            raise ValueError(
                "a SavedModel holds float32 weights only. Received: "
                f"precision={precision!r}"
            )
        return SavedModelAnswers(folder)
    description_path = folder / EXPORT_FILE
    if not description_path.is_file():
        raise FileNotFoundError(
            f"{folder} is no export of `attention-zoo APP export` (no "
            f"saved_model.pb and no {EXPORT_FILE})"
        )
    from attention_zoo.applications import registry

    try:
        description = json.loads(description_path.read_text(encoding="utf-8"))
        app = registry.get(description["app"])
        fmt = description["format"]
        input_name = description["input"]["name"]
        shape = description["input"]["shape"]
        outputs = description["outputs"]
        dtype = description["input"]["dtype"]
        beam_width = description["beam_width"]
        ok = (
            fmt in PORTABLE_FORMATS
            and isinstance(input_name, str)
            and isinstance(shape, list)
            and all(x is None or (type(x) is int and x > 0) for x in shape[1:])
            and isinstance(outputs, list)
            and all(isinstance(x, str) for x in outputs)
            and dtype in ("int32", "float32")
            and type(beam_width) is int
            and beam_width >= 1
        )
    except (ValueError, TypeError, KeyError, AttributeError, IndexError):
        ok = False
    if not ok:
        raise MalformedFileError(
            f"{description_path} does not describe an export of this package "
            "(it needs a known application, a format of "
            f"{PORTABLE_FORMATS}, the input, the output names and the beam "
            "width); export again"
        )
    if app.exported_predictor is None:
        raise ValueError(
            f"the {app.name} application has no predictor for exported files "
            f"yet. Received: {folder}"
        )
    if (fmt, precision) not in MODEL_FILES:
        raise ValueError(
            f"a {fmt} export has no {precision} model. Received: precision={precision!r}"
        )
    model = folder / MODEL_FILES[(fmt, precision)]
    from attention_zoo.applications.common import runtimes

    if fmt == "litert":
        batch = shape[0]
        if type(batch) is not int or batch < 1:
            raise MalformedFileError(f"{description_path}: the LiteRT batch size")
        runner = runtimes.litert_runner(model, input_name, batch, dtype)
    else:
        runner = runtimes.onnx_runner(model, input_name, outputs, dtype)
    return app.exported_predictor(folder, runner, beam_width=beam_width)


class SavedModelAnswers:
    """A SavedModel's `serving_default` as a callable of raw inputs."""

    def __init__(self, folder):
        import tensorflow as tf

        self.module = tf.saved_model.load(str(folder))
        self.serve = self.module.signatures["serving_default"]
        (self.input_name,) = self.serve.structured_input_signature[1]

    def __call__(self, inputs) -> list[dict]:
        import tensorflow as tf

        inputs = list(inputs)
        out = self.serve(**{self.input_name: tf.constant(inputs, tf.string)})
        out = {k: v.numpy() for k, v in out.items()}
        items = []
        for i, raw in enumerate(inputs):
            item = {"input": raw}
            for key, value in out.items():
                value = value[i]
                if isinstance(value, bytes):
                    value = value.decode("utf-8")
                elif isinstance(value, np.generic):
                    value = value.item()
                item[key] = value
            items.append(item)
        return items
