"""Each exported format run in its own runtime: a function of a batch
(ids or pixels) to the dict of NumPy arrays the exported core returns."""

from __future__ import annotations

import contextlib
from pathlib import Path

import numpy as np

from attention_zoo.applications.common.errors import MalformedFileError, one_line
from attention_zoo.applications.common.exporting.portable import EXTRA_HINT


def _missing(runtime: str, error: ImportError) -> ImportError:
    return ImportError(f"{runtime} needs the export extra: {EXTRA_HINT} ({error})")


@contextlib.contextmanager
def _misfit(what: str, errors):
    """A runtime's failure on the ids the predictor made from the folder's
    data files (an id past the model's embedding: LiteRT's "gather index
    out of bounds") as a MalformedFileError naming the model, not a
    runtime's traceback: the model and its data files do not fit."""
    try:
        yield
    except errors as error:
        raise MalformedFileError(
            f"{what} does not fit the data files beside it (config.json, the "
            f"vocabularies): {type(error).__name__}: {one_line(error)[:200]}; "
            "export again"
        ) from error


def litert_runner(
    model, input_name: str, batch: int, dtype: str = "int32", what: str = "the model"
):
    """The `.tflite` model in the LiteRT interpreter (`ai-edge-litert`), fed
    `batch` rows of `dtype` at a time (the last chunk padded with its first
    row). `model` is the file's bytes (what `load_exported` checked) or its
    path; `what` names it in errors."""
    try:
        from ai_edge_litert.interpreter import Interpreter
    except ImportError as error:
        raise _missing("the LiteRT runtime", error) from None
    if isinstance(model, (bytes, bytearray)):
        interpreter = Interpreter(model_content=bytes(model))
    else:
        interpreter = Interpreter(model_path=str(Path(model)))
    runner = interpreter.get_signature_runner()

    def run(ids) -> dict:
        ids = np.asarray(ids, dtype)
        chunks = []
        for start in range(0, len(ids), batch):
            chunk = ids[start : start + batch]
            padded = np.concatenate(
                [chunk, np.repeat(chunk[:1], batch - len(chunk), 0)]
            )
            with _misfit(what, (RuntimeError, ValueError)):
                out = runner(**{input_name: padded})
            chunks.append({k: np.asarray(v)[: len(chunk)] for k, v in out.items()})
        if not chunks:
            raise ValueError("`ids` must hold at least one row. Received: 0 rows")
        return {k: np.concatenate([c[k] for c in chunks]) for k in chunks[0]}

    return run


def onnx_runner(
    model, input_name: str, outputs, dtype: str = "int32", what: str = "the model"
):
    """The `.onnx` model in ONNX Runtime (CPU), fed `dtype`; `outputs` name
    its outputs in order. `model` is the file's bytes (what `load_exported`
    checked) or its path; `what` names it in errors."""
    try:
        import onnxruntime
    except ImportError as error:
        raise _missing("ONNX Runtime", error) from None
    if not isinstance(model, (bytes, bytearray)):
        model = str(Path(model))
    session = onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"])

    # ONNX Runtime's errors derive from Exception alone.
    from onnxruntime.capi import onnxruntime_pybind11_state as state

    errors = tuple(
        getattr(state, name)
        for name in ("Fail", "InvalidArgument", "RuntimeException")
        if hasattr(state, name)
    )

    def run(ids) -> dict:
        with _misfit(what, errors):
            values = session.run(None, {input_name: np.asarray(ids, dtype)})
        return dict(zip(outputs, values))

    return run


def saved_model_runner(
    folder, signature: str, input_name: str, what: str = "the model"
):
    """The signature `signature` of the SavedModel in `folder` (TensorFlow),
    fed int32 ids of any batch and width: the core of a SavedModel whose
    strings are read by the application's predictor (`saved_model.CORE`)."""
    import tensorflow as tf

    function = tf.saved_model.load(str(folder)).signatures[signature]

    def run(ids) -> dict:
        with _misfit(what, (tf.errors.InvalidArgumentError, ValueError)):
            out = function(**{input_name: tf.constant(np.asarray(ids, "int32"))})
        return {k: v.numpy() for k, v in out.items()}

    return run
