"""The whole decode loop as a LiteRT or ONNX file, beside the run's data.

A SavedModel serves raw strings: its string work (normalisation, lookup
tables, joining words) runs in TensorFlow ops that LiteRT has no builtin
for and ONNX no operator. The portable formats therefore carry the tensor
part only, from ids to ids: the encoder, the decode loop (greedy or beam
search; a `WHILE` in LiteRT, a `Loop` in ONNX) and the per-step attention. The string part
ships beside it as the run's own data files (config, vocabulary), read by
the application's predictor in NumPy (`exported_predictor`): the
reference a mobile developer ports.

Folder written by `write_portable` (`attention-zoo APP export --format
litert|onnx`):

- `model.tflite` and `model_int8.tflite` (dynamic-range int8 weights), or
  `model.onnx`;
- the run's data files the predictor reads (`config.json`, vocabulary);
- `export.json`: the application, the format, the input's name, shape and
  dtype, the output names, the beam width the loop searches with, and
  every other file with its size and SHA-256 digest (`exporting.files`),
  which `load_exported` checks before it reads any.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from attention_zoo import owned_folders
from attention_zoo.applications.common.exporting.files import write_description
from attention_zoo.applications.common.run_folder import output_folder

PORTABLE_FORMATS = ("litert", "onnx")
FORMATS = ("saved_model", *PORTABLE_FORMATS)
FORMAT_NAMES = {"saved_model": "SavedModel", "litert": "LiteRT", "onnx": "ONNX"}
MODEL_FILES = {
    ("litert", "float32"): "model.tflite",
    ("litert", "int8"): "model_int8.tflite",
    ("onnx", "float32"): "model.onnx",
}
EXTRA_HINT = "pip install '.[export]' in a clone of the repository"
ONNX_OPSET = 17


@dataclass
class CoreFunction:
    """The tensor part of an application's predictor.

    Attributes:
        fn: a function of one batch `(B, *shape)` of `dtype` to a dict of
            tensors (keras.ops, traced by TensorFlow; the weights it reads
            are frozen into the file).
        input_name: the input's name (`source_ids`).
        shape: the input's shape without the batch.
        dtype: the input's dtype: "int32" (ids) or "float32" (pixels).
        data_files: the run's files the application's predictor reads
            besides its models, copied beside the exported file.
        outputs: the keys of `fn`'s dict.
        litert_batch: the batch size of the LiteRT file. Its recurrent
            encoder keeps each step's output in a TensorList, which the
            converter lowers to builtin ops only at a known batch size
            (with None it needs the Flex op `TensorListReserve`).
        beam_width: the beams `fn` searches (1: greedy), which the
            exported predictor decodes with.
    """

    fn: object
    input_name: str
    shape: tuple
    data_files: tuple = ()
    litert_batch: int = 1
    outputs: tuple = ("tokens", "attention", "scores")
    dtype: str = "int32"
    beam_width: int = 1


def search_core(search):
    """A core `fn` from a search `ids -> (tokens, attention, scores)`: the
    dict of `CoreFunction.outputs`, ids int32 and the rest float32."""
    import keras

    def fn(source_ids):
        tokens, attention, scores = search(source_ids)
        return {
            "tokens": keras.ops.cast(tokens, "int32"),
            "attention": keras.ops.cast(attention, "float32"),
            "scores": keras.ops.cast(scores, "float32"),
        }

    return fn


def check_width(what: str, exported: int, beam_width) -> int:
    """`beam_width` (None: `exported`) if it is the width the exported loop
    searches with, else a ValueError naming both: a file holds one search."""
    if beam_width not in (None, exported):
        raise ValueError(
            f"this exported {what} searches with beam_width {exported}, the "
            "width it was exported with (export again with --beam-width). "
            f"Received: beam_width={beam_width!r}"
        )
    return exported


def runner_search(runner):
    """The search `ids -> (tokens, attention, scores)` of a runtime's
    `runner` (`common.exporting.runtimes`), as a predictor calls its model's."""

    def search(ids):
        out = runner(ids)
        return out["tokens"], out["attention"], out["scores"]

    return search


def data_files(predictor) -> tuple[str, ...]:
    """The files of `predictor`'s folder that its exported predictor reads
    besides the model (`required_files` and `optional_files` but the
    `.keras` models), those the folder holds, copied beside the core."""
    names = (*predictor.required_files, *predictor.optional_files)
    return tuple(
        name
        for name in names
        if not name.endswith(".keras") and (predictor.run_dir / name).is_file()
    )


class ExportedSearch:
    """What a predictor whose model is an exported core shares, mixed in
    before the application's predictor class: the core, run by `runner`
    (`runtimes`), is its search, with the `beam_width` it was exported
    with, and it loads no Keras model; the rest (tokenizer, vocabularies,
    post-processing, validity rules) is the predictor's own NumPy and
    Python, reading the folder's data files. Its answers are therefore the
    predictor's, with the same keys for every input (`reason`, `notes` and
    the tokens included: docs/export.md's table), where a SavedModel's
    (`exported_loader.SavedModelAnswers`) have no reason and no tokens.

    Class attributes:
        what: the predictor in errors ("translator").
        core_outputs: the core's outputs, in the order the predictor's
            own search returns them.
    """

    what = "predictor"
    core_outputs = ("tokens", "attention", "scores")

    def __init__(self, folder, runner, beam_width: int = 1, **options):
        self.runner = runner
        self.exported_width = beam_width
        super().__init__(folder, beam_width=beam_width, **options)

    def load_models(self) -> None:
        self.model = None

    def search_function(self, beam_width: int, keep_beams: bool = False):
        check_width(self.what, self.exported_width, beam_width)
        if keep_beams:
            raise ValueError(
                f"an exported {self.what} keeps the best hypothesis only: leave "
                "n_best out. Received: n_best=True"
            )

        def search(x):
            out = self.runner(x)
            return tuple(out[k] for k in self.core_outputs)

        return search


def _missing_extra(what: str, error: ImportError) -> ImportError:
    return ImportError(f"{what} needs the export extra: {EXTRA_HINT} ({error})")


def litert_blobs(core: CoreFunction) -> dict:
    """`core` as `.tflite` flatbuffers with builtin operators only (the
    converter fails naming the op otherwise): `{"float32": ..., "int8":
    ...}`, the second with dynamic-range int8 weights."""
    import tempfile

    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_v2,
    )

    # Imported here, with Keras: the command's flags read FORMATS without it.
    from attention_zoo.decoding import select_writes

    spec = tf.TensorSpec(
        (core.litert_batch, *core.shape), core.dtype, name=core.input_name
    )
    with select_writes():  # no XlaDynamicUpdateSlice: it has no builtin
        concrete = tf.function(core.fn, autograph=False).get_concrete_function(spec)
    # The weights frozen into constants first (the converter keeps the
    # variables read inside the WHILE body as resource variables, which the
    # interpreter reads uninitialised), then through a SavedModel, from
    # which the converter keeps the signature: inputs and outputs by name.
    frozen = convert_variables_to_constants_v2(concrete)
    module = tf.Module()
    names = output_names(core)  # the order TensorFlow flattens a dict in

    def serve(ids):
        return dict(zip(names, tf.nest.flatten(frozen(ids))))

    module.serve = tf.function(serve, autograph=False, input_signature=[spec])
    blobs = {}
    with tempfile.TemporaryDirectory() as folder:
        tf.saved_model.save(
            module, folder, signatures={"serving_default": module.serve}
        )
        for precision in ("float32", "int8"):
            converter = tf.lite.TFLiteConverter.from_saved_model(folder)
            converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS]
            if precision == "int8":
                converter.optimizations = [tf.lite.Optimize.DEFAULT]
            blobs[precision] = converter.convert()
    return blobs


def onnx_model(core: CoreFunction):
    """`core` as an ONNX model (tf2onnx), any batch size; its outputs in
    the order of `output_names`."""
    import tensorflow as tf

    from attention_zoo.decoding import select_writes

    try:
        import tf2onnx
    except ImportError as error:
        raise _missing_extra("export --format onnx", error) from None
    function = tf.function(core.fn, autograph=False)
    spec = tf.TensorSpec((None, *core.shape), core.dtype, name=core.input_name)
    with select_writes():  # tf2onnx cannot convert XlaDynamicUpdateSlice
        proto, _ = tf2onnx.convert.from_function(
            function, input_signature=[spec], opset=ONNX_OPSET
        )
    return proto


def output_names(core: CoreFunction) -> list[str]:
    """The keys of `core.fn`'s dict in the order TensorFlow flattens it
    (sorted), which is the order of the ONNX model's outputs."""
    return sorted(core.outputs)


def write_portable(core: CoreFunction, run_dir, output, fmt: str, app: str) -> Path:
    """Write `core` as `fmt` ("litert" or "onnx") into the folder `output`,
    with the run's data files and `export.json`; a previous export of `app`
    in that format is replaced whole (`owned_folders`)."""
    if fmt not in PORTABLE_FORMATS:
        raise ValueError(
            f"`format` must be one of {PORTABLE_FORMATS}. Received: format={fmt!r}"
        )
    output = output_folder(output)
    owned_folders.check_replaceable(output, fmt, app)
    run_dir = Path(run_dir)
    # Converted before the folder is touched: a failed conversion leaves a
    # previous export as it was.
    if fmt == "litert":
        blobs = {
            MODEL_FILES[("litert", precision)]: blob
            for precision, blob in litert_blobs(core).items()
        }
        batch = core.litert_batch
    else:
        blobs = {MODEL_FILES[("onnx", "float32")]: onnx_model(core).SerializeToString()}
        batch = None
    description = {
        "app": app,
        "format": fmt,
        "input": {
            "name": core.input_name,
            "shape": [batch, *core.shape],
            "dtype": core.dtype,
        },
        "outputs": output_names(core),
        "beam_width": core.beam_width,
    }

    def write(staging: Path) -> None:
        staging.mkdir()
        for name, blob in blobs.items():
            (staging / name).write_bytes(blob)
        for name in core.data_files:
            shutil.copyfile(run_dir / name, staging / name)
        write_description(staging, description)

    return owned_folders.replace_folder(output, write, fmt, app)
