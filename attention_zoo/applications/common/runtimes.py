"""Each portable format run in its own runtime: a function of a batch
(ids or pixels) to the dict of NumPy arrays the exported core returns."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from attention_zoo.applications.common.portable_export import EXTRA_HINT


def _missing(runtime: str, error: ImportError) -> ImportError:
    return ImportError(f"{runtime} needs the export extra: {EXTRA_HINT} ({error})")


def litert_runner(path, input_name: str, batch: int, dtype: str = "int32"):
    """The `.tflite` file `path` in the LiteRT interpreter (`ai-edge-litert`),
    fed `batch` rows of `dtype` at a time (the last chunk padded with its
    first row)."""
    try:
        from ai_edge_litert.interpreter import Interpreter
    except ImportError as error:
        raise _missing("the LiteRT runtime", error) from None
    interpreter = Interpreter(model_path=str(Path(path)))
    runner = interpreter.get_signature_runner()

    def run(ids) -> dict:
        ids = np.asarray(ids, dtype)
        chunks = []
        for start in range(0, len(ids), batch):
            chunk = ids[start : start + batch]
            padded = np.concatenate(
                [chunk, np.repeat(chunk[:1], batch - len(chunk), 0)]
            )
            out = runner(**{input_name: padded})
            chunks.append({k: np.asarray(v)[: len(chunk)] for k, v in out.items()})
        if not chunks:
            raise ValueError("`ids` must hold at least one row. Received: 0 rows")
        return {k: np.concatenate([c[k] for c in chunks]) for k in chunks[0]}

    return run


def onnx_runner(path, input_name: str, outputs, dtype: str = "int32"):
    """The `.onnx` file `path` in ONNX Runtime (CPU), fed `dtype`; `outputs`
    name its outputs in order."""
    try:
        import onnxruntime
    except ImportError as error:
        raise _missing("ONNX Runtime", error) from None
    session = onnxruntime.InferenceSession(
        str(Path(path)), providers=["CPUExecutionProvider"]
    )

    def run(ids) -> dict:
        values = session.run(None, {input_name: np.asarray(ids, dtype)})
        return dict(zip(outputs, values))

    return run
