"""A model of a preset as two files: its architecture and its weights.

A run folder keeps `NAME.keras`; a preset keeps `NAME.json`
(`model.to_json()`) and `NAME.weights.h5`, the form keras-hub ships, so the
weights can be stored in float16 and read by anything that reads HDF5.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import keras
import numpy as np


def preset_model_files(name: str) -> tuple[str, str]:
    """`("NAME.json", "NAME.weights.h5")` for the run folder's `NAME.keras`."""
    stem = name[: -len(".keras")] if name.endswith(".keras") else name
    return f"{stem}.json", f"{stem}.weights.h5"


def has_model(folder, name: str) -> bool:
    """Whether `folder` holds the model `name` as a `.keras` file or as a preset."""
    folder = Path(folder)
    return (folder / name).is_file() or all(
        (folder / f).is_file() for f in preset_model_files(name)
    )


def write_model(model: keras.Model, folder, name: str, float16: bool = False):
    """Writes `model` as the preset files of `name` into `folder`.

    Only the architecture and its own weights are stored: a compiled
    model's `save_weights` also writes its optimizer's slots (twice the
    weights again for Adam), and its JSON carries the compile settings,
    which build an optimizer when read; a preset predicts, it does not
    train.
    With `float16`, floating-point weights are stored in half precision
    (the model's variables keep their dtype when the file is read back).
    """
    folder = Path(folder)
    architecture, weights = preset_model_files(name)
    text = _architecture(model.to_json())
    (folder / architecture).write_text(text, encoding="utf-8")
    bare = keras.models.model_from_json(text)
    values = model.get_weights()
    if float16:
        # Round to half precision so the stored file holds the values a
        # float16 copy reads back.
        values = [
            v.astype("float16").astype(v.dtype)
            if np.issubdtype(v.dtype, np.floating)
            else v
            for v in values
        ]
    bare.set_weights(values)
    bare.save_weights(folder / weights)
    if float16:
        _to_float16(folder / weights)


def _architecture(text: str) -> str:
    """A model's JSON without its `compile_config`."""
    config = json.loads(text)
    config.pop("compile_config", None)
    return json.dumps(config)


def _to_float16(path):
    """Rewrites the HDF5 weights file `path` with its float32 datasets in half
    precision, into a fresh file: HDF5 does not give back the space of a
    dataset deleted in place, so rewriting in place kept the file's size."""
    import h5py

    path = Path(path)
    fresh = path.with_name(path.name + ".float16")

    def copy(source, target):
        target.attrs.update(dict(source.attrs))
        for name, item in source.items():
            if isinstance(item, h5py.Group):
                copy(item, target.create_group(name))
                continue
            values = item[()]
            if values.dtype == np.float32:
                values = values.astype("float16")
            target.create_dataset(name, data=values)
            target[name].attrs.update(dict(item.attrs))

    with h5py.File(path, "r") as source, h5py.File(fresh, "w") as target:
        copy(source, target)
    os.replace(fresh, path)


def read_model(folder, name: str) -> keras.Model:
    """The model `name` from its preset files in `folder`.

    Raises:
        ValueError: naming the file when the architecture is not valid JSON
            for a Keras model, or the weights do not fit it.
    """
    folder = Path(folder)
    architecture, weights = preset_model_files(name)
    try:
        model = keras.models.model_from_json(
            _architecture((folder / architecture).read_text(encoding="utf-8"))
        )
    except (ValueError, TypeError, KeyError) as error:
        raise ValueError(
            f"{folder / architecture} is not the architecture of a Keras model "
            f"({type(error).__name__}: {str(error)[:200]})"
        ) from error
    try:
        model.load_weights(folder / weights)
    except (ValueError, KeyError, OSError) as error:
        raise ValueError(
            f"{folder / weights} does not hold the weights of {architecture} "
            f"({type(error).__name__}: {str(error)[:200]})"
        ) from error
    return model
