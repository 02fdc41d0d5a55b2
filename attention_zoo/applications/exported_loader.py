"""`load_exported`: one loader for a SavedModel, a LiteRT and an ONNX export.

It sits beside `registry.from_preset` at the top of the application layer:
an export folder names its application (`export.json`), which is looked up
in the registry, and a portable export runs under that application's
predictor (`Application.exported_predictor`). The library's
`attention_zoo.export` holds TensorFlow graph helpers only and imports no
application; `attention_zoo.applications.load_exported` is its public name.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

PRECISIONS = ("float32", "int8")


def load_exported(path, precision: str = "float32"):
    """A callable of raw inputs (strings; image bytes for captioning) to one
    dict per input, from the folder `attention-zoo APP export` wrote.

    The folder's `export.json` says its format, and only that format is
    run, from the file names it expects: a SavedModel in TensorFlow (the
    dicts hold `input` and its `serving_default`'s outputs; one with a
    tensor core, the date normalizer's of the forms target, runs that core
    under the application's predictor, as a portable export), a LiteRT
    export in the LiteRT interpreter and an ONNX export in ONNX Runtime,
    both under the application's predictor, whose NumPy pre- and
    post-processing reads the data files written beside the model (the
    dicts are the predictor's, `reason` and `tokens` included; the keys of
    each are in docs/export.md). `export.json` is read as data: its
    application must be one of the registry's. Before anything else is
    read, every file of the folder is checked against the size and SHA-256
    digest `export.json` lists (`common.exporting.files`): a file changed,
    truncated, added, missing, a link out of the folder or no regular file
    (a FIFO) is refused naming it, as is a folder exported before the
    digests were recorded (export it again).

    Args:
        path: the export folder.
        precision: "float32", or "int8" for the dynamic-range int8 LiteRT
            file.

    Raises:
        FileNotFoundError: no folder, or no `export.json` in it.
        MalformedFileError: a ValueError naming the file that is not what
            the export wrote.
        ValueError: a precision the folder does not hold.

    Example:

    ```python
    from attention_zoo.applications import load_exported

    normalize = load_exported("dates-litert")
    normalize(["3 May 1979"])[0]["text"]  # '1979-05-03'
    ```
    """
    from attention_zoo.applications.common.errors import MalformedFileError
    from attention_zoo.applications.common.exporting import files as export_files
    from attention_zoo.applications.common.exporting import runtimes
    from attention_zoo.applications.common.exporting.portable import (
        FORMATS,
        MODEL_FILES,
    )

    if precision not in PRECISIONS:
        raise ValueError(
            f"`precision` must be one of {PRECISIONS}. Received: precision={precision!r}"
        )
    folder = Path(path)
    if not folder.is_dir():
        raise FileNotFoundError(
            f"{folder} is no export of `attention-zoo APP export` (not a folder)"
        )
    name = export_files.EXPORT_FILE
    description_path = folder / name
    if not os.path.lexists(description_path):
        # A SavedModel written before exports recorded their files has no
        # description: its files cannot be checked, so it is not run.
        if os.path.lexists(folder / "saved_model.pb"):
            raise MalformedFileError(
                f"{folder} is a SavedModel without {name}: an export from before "
                "attention-zoo recorded the sizes and digests of its files, or "
                "not one of this package; export it again (`attention-zoo APP "
                "export`)"
            )
        raise FileNotFoundError(
            f"{folder} is no export of `attention-zoo APP export` (no {name})"
        )
    raw = export_files.read_regular(folder, name, export_files.MAX_DESCRIPTION)
    description = _description(raw, description_path, FORMATS)
    fmt = description["format"]
    if "files" not in description:
        raise MalformedFileError(
            f"{description_path} lists no files: an export from before "
            "attention-zoo recorded the sizes and digests of its files; export "
            "it again (`attention-zoo APP export`)"
        )
    if fmt == "saved_model":
        if precision != "float32":
            raise ValueError(
                "a SavedModel holds float32 weights only. Received: "
                f"precision={precision!r}"
            )
        model_name = "saved_model.pb"
    elif (fmt, precision) in MODEL_FILES:
        model_name = MODEL_FILES[(fmt, precision)]
    else:
        raise ValueError(
            f"a {fmt} export has no {precision} model. Received: precision={precision!r}"
        )
    if model_name not in description["files"]:
        raise MalformedFileError(
            f"{description_path} describes a {fmt} export without {model_name}; "
            "export again"
        )
    app = description["app"]
    if fmt != "saved_model" and app.exported_predictor is None:
        raise ValueError(
            f"the {app.name} application has no predictor for exported files "
            f"yet. Received: {folder}"
        )
    # Everything the export wrote is checked before any of it is read; the
    # runtime then loads the model's checked bytes, not the file again.
    kept = export_files.check_files(folder, description["files"], keep=(model_name,))
    if fmt == "saved_model" and "core" not in description:
        return SavedModelAnswers(folder)
    if fmt == "saved_model":  # its core under the predictor: `saved_model.CORE`
        core = description["core"]
        runner = runtimes.saved_model_runner(
            folder, core["signature"], core["input_name"], str(folder)
        )
        return app.exported_predictor(folder, runner, beam_width=core["beam_width"])
    model, what = kept[model_name], str(folder / model_name)
    if fmt == "litert":
        runner = runtimes.litert_runner(
            model,
            description["input_name"],
            description["batch"],
            description["dtype"],
            what,
        )
    else:
        runner = runtimes.onnx_runner(
            model,
            description["input_name"],
            description["outputs"],
            description["dtype"],
            what,
        )
    return app.exported_predictor(folder, runner, beam_width=description["beam_width"])


def _description(raw: bytes, path: Path, formats) -> dict:
    """The fields of an `export.json` the loader uses, checked: `app` (the
    registry's application), `format`, `files`, and for a portable format
    the input's name, dtype and batch, the output names and the beam width.

    Raises:
        MalformedFileError: naming `path` when one is missing or malformed.
    """
    from attention_zoo.applications import registry
    from attention_zoo.applications.common.errors import MalformedFileError
    from attention_zoo.applications.common.exporting.saved_model import CORE

    try:
        description = json.loads(raw.decode("utf-8"))
        out = {
            "app": registry.get(description["app"]),
            "format": description["format"],
        }
        ok = out["format"] in formats
        if "files" in description:
            out["files"] = description["files"]
        if ok and out["format"] == "saved_model" and "core" in description:
            core = description["core"]  # `saved_model.CORE`
            out["core"] = {
                "signature": core["signature"],
                "input_name": core["input"]["name"],
                "beam_width": core["beam_width"],
            }
            ok = (
                out["core"]["signature"] == CORE
                and isinstance(out["core"]["input_name"], str)
                and type(core["beam_width"]) is int
                and core["beam_width"] >= 1
                and out["app"].exported_predictor is not None
            )
        if ok and out["format"] != "saved_model":
            shape = description["input"]["shape"]
            out.update(
                input_name=description["input"]["name"],
                dtype=description["input"]["dtype"],
                batch=shape[0],
                outputs=description["outputs"],
                beam_width=description["beam_width"],
            )
            ok = (
                isinstance(out["input_name"], str)
                and isinstance(shape, list)
                and all(x is None or (type(x) is int and x > 0) for x in shape[1:])
                and isinstance(out["outputs"], list)
                and all(isinstance(x, str) for x in out["outputs"])
                and out["dtype"] in ("int32", "float32")
                and type(out["beam_width"]) is int
                and out["beam_width"] >= 1
            )
            if out["format"] == "litert":
                ok = ok and type(out["batch"]) is int and out["batch"] >= 1
    except (
        ValueError,
        TypeError,
        KeyError,
        AttributeError,
        IndexError,
        RecursionError,
    ):
        ok = False
    if not ok:
        raise MalformedFileError(
            f"{path} does not describe an export of this package (it needs a "
            f"known application, a format of {formats}, the files with their "
            "digests, and for LiteRT and ONNX, or a SavedModel's core, the "
            "input, the output names and the beam width); export again"
        )
    return out


class SavedModelAnswers:
    """A SavedModel's `serving_default` as a callable of raw inputs.

    Each answer is `input` (the raw input) and the signature's outputs,
    computed in the graph: `text`, `score` (-inf for an input it cannot
    read), `valid` and `attention` (padded to the model's full width),
    plus `p_gen` for the summarizer and `distance` for the captioner
    (docs/export.md, "What the exported predictors return"). It gives no
    `reason`, `notes` or tokens: those come from the application's Python
    rules and data files, which a SavedModel folder does not hold (the
    graph decides `valid` by the same rules, without saying why); the
    LiteRT and ONNX exports (`exported_predictor`) and the run itself
    give them.
    """

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
