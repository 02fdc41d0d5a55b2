"""The base of every application's predictor: a trained run folder, loaded."""

from __future__ import annotations

import math
import os
import sys

import keras
import numpy as np

from attention_zoo.applications.common.compile import compile_function
from attention_zoo.applications.common.compiled_shapes import CompiledShapes
from attention_zoo.applications.common.errors import (
    MalformedFileError,
    read_json,
    reading,
)
from attention_zoo.applications.common.inputs import (  # noqa: F401 (its names)
    MAX_INPUT_CHARS,
    InputError,
)
from attention_zoo.applications.common.predictor_protocol import required_hook
from attention_zoo.applications.common.run_folder import (
    check_run_folder,
    load_run_model,
)
from attention_zoo.presets.files import has_model, preset_model_files, read_model


class RunConfig(dict):
    """A run's `config.json`: a missing key names the file."""

    def __init__(self, content, path):
        super().__init__(content)
        self.path = path

    def __missing__(self, key):
        raise MalformedFileError(
            f"{self.path} is not a file of this run (no {key!r}); train the run "
            "again or restore the file"
        )


# What a model of another application, or of another vocabulary, raises
# when traced or run with this run's inputs.
MISFIT_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def as_texts(inputs) -> list[str]:
    """The texts of `inputs` as users hold them: `str` (NumPy's `str_`
    too), or UTF-8 `bytes` (a tf.string's `numpy()`), bytes that are not
    UTF-8 read as U+FFFD.

    Raises:
        TypeError: naming the first input that is neither.
    """
    texts = []
    for i, item in enumerate(inputs):
        if isinstance(item, (bytes, bytearray)):
            texts.append(bytes(item).decode("utf-8", "replace"))
        elif isinstance(item, str):
            texts.append(str(item))
        else:
            raise TypeError(
                "inputs must be texts (str or UTF-8 bytes). Received: "
                f"inputs[{i}]={item!r} of type {type(item).__name__}"
            )
    return texts


# Above this many rows a batch pads to a multiple of it, not to a power of
# two: a steady stream of batches of 600 would otherwise compute 1,024.
PAD_STEP = 64


def padded_size(n: int, max_batch: int) -> int:
    """The batch size a call of `n` inputs runs at: the next power of two
    up to `PAD_STEP` (64), the next multiple of 64 above it, at most
    `max_batch` (or `n` itself when larger). Every new batch shape is a
    compilation of the search (seconds for a shipped preset on a CPU, XLA or
    `jax.jit`: docs/design.md), so calls of any size up to 64 compile at most seven
    shapes, at most twice the rows; larger ones at most 63 rows more."""
    size = 1
    while size < min(n, PAD_STEP):
        size *= 2
    if n > PAD_STEP:
        size = -(-n // PAD_STEP) * PAD_STEP
    return max(n, min(size, max_batch))


class RunPredictor:
    """A trained run folder: inputs in, outputs and their attention out.

    The constructor checks that the folder holds `required_files` and reads
    `config.json` into `config`; a subclass then loads its vocabulary and
    its models (`load_models`, reading each file with `read_model_file`)
    and names its compiled search (`search_function`, through `compiled`).
    What other modules may call on a predictor is the protocol of
    `common.predictor_protocol`. A preset folder (`attention_zoo.presets`) loads the same
    way: its models are `NAME.json` + `NAME.weights.h5` instead of
    `NAME.keras`. Calling the predictor on a list of inputs gives one dict
    per input (`predict_items`).

    Class attributes (hooks):
        app: the application's command name, as in `attention-zoo APP train`.
        required_files: the files a finished training leaves in the folder.
        optional_files: assets a run may hold (a preset copies them too).

    Args:
        run_dir: the folder `attention-zoo APP train` wrote.
    """

    app: str = ""
    required_files: tuple[str, ...] = ("model.keras", "config.json")
    optional_files: tuple[str, ...] = ()

    def __init__(self, run_dir):
        assets = [f for f in self.required_files if not f.endswith(".keras")]
        self.run_dir = check_run_folder(run_dir, self.app, assets)
        config = self.run_dir / "config.json"
        self.config = RunConfig(read_json(config), config)
        models = [f for f in self.required_files if f.endswith(".keras")]
        missing = [
            f
            for f in models
            if not has_model(self.run_dir, f) and f not in self.rebuilt_models()
        ]
        if missing:
            raise FileNotFoundError(
                f"{self.run_dir} is not a run folder of `attention-zoo "
                f"{self.app} train` (no {', '.join(missing)})"
            )
        self._fns = {}
        # The shapes each compiled search has run at, and whether a call at
        # a new one compiles it or runs through a compiled one (a server).
        self.compiled_shapes = CompiledShapes()

    def rebuilt_models(self) -> dict:
        """Hook: `{file name: builder}` of the models this run's
        configuration rebuilds exactly from weights that ship with the
        package (a frozen pretrained encoder); a preset does not store them
        and `read_model_file` builds them when the folder lacks the file."""
        return {}

    @classmethod
    def from_preset(cls, preset):
        """The predictor of a shipped preset name or a preset folder.

        Example: `Normalizer.from_preset("dates_multilingual")(["3 May 1979"])`.
        """
        from attention_zoo.presets import preset_folder, read_metadata

        folder = preset_folder(preset)
        app = read_metadata(folder)["app"]
        if cls.app and app != cls.app:
            raise ValueError(
                f"{cls.__name__} reads presets of the {cls.app} application. "
                f"Received: preset={str(preset)!r}, a {app} preset"
            )
        return cls(folder)

    def reading(self, name: str):
        """A context in which a failure to interpret the run's file `name`
        is a `MalformedFileError` naming it (see `errors.reading`)."""
        return reading(self.run_dir / name)

    def read_model_file(
        self, name: str = "model.keras", model_names: tuple[str, ...] = ()
    ) -> keras.Model:
        """The model `name` of the run folder (see `load_run_model`), or of a preset.

        A preset keeps the model as `NAME.json` + `NAME.weights.h5`
        (`attention_zoo.presets.files`) instead of `NAME.keras`.

        Args:
            name: the file's name in the run folder.
            model_names: the names (`keras.Model.name`) the run's training
                gives its model; a model of another name (another
                application's, copied into the folder) is refused with a
                `MalformedFileError`. Empty: any name.
        """
        path = self.run_dir / name
        if path.exists():
            model = load_run_model(path)
        elif not has_model(self.run_dir, name) and name in self.rebuilt_models():
            model = self.rebuilt_models()[name]()
        else:
            with reading(self.run_dir / preset_model_files(name)[0]):
                model = read_model(self.run_dir, name)
        if model_names and model.name not in model_names:
            raise MalformedFileError(
                f"{path} holds a model named {model.name!r}, not this {self.app} "
                f"run's ({', '.join(map(repr, model_names))}): another "
                "application's or another run's model; train the run again"
            )
        return model

    def check_sizes(self, model, sizes: dict) -> None:
        """Raise `MalformedFileError` naming the file whose vocabulary does not
        fit `model`.

        A vocabulary longer than the model's embedding makes ids the model
        has no row for (a wrong answer on TensorFlow, NaN on JAX); a shorter
        one maps words to the wrong rows. Either way the answers would be
        wrong, so the run is refused when it loads.

        Args:
            model: the loaded model.
            sizes: `{file name: (size, layer names)}`: each named layer of
                `model` present (an `Embedding`'s rows, a `Dense`'s units, a
                one-hot depth) must equal the size read from the file.
        """
        layers = {layer.name: layer for layer in model._flatten_layers()}
        for name, (size, layer_names) in sizes.items():
            for layer_name in layer_names:
                layer = layers.get(layer_name)
                if layer is None:
                    continue
                rows = next(
                    getattr(layer, a)
                    for a in ("input_dim", "units", "depth")
                    if hasattr(layer, a)
                )
                if rows != size:
                    raise MalformedFileError(
                        f"{self.run_dir / name} does not fit the model: it holds "
                        f"{size} entries, the model's {layer_name} layer {rows} "
                        "(a file of another run?); train the run again or restore "
                        "the file"
                    )

    def config_number(self, key: str, default: float) -> float:
        """The finite number `config.json` holds at `key` (`default` without it).

        Raises:
            MalformedFileError: naming the file when the value is not a
                finite number (NaN would refuse every answer, -Infinity
                accept every one, a string fail inside the comparison).
        """
        value = self.config.get(key, default)
        if value is default:
            return value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            value_ok = False
        else:
            value_ok = math.isfinite(value)
        if not value_ok:
            raise MalformedFileError(
                f"{self.config.path} is not a file of this run ({key!r} must be a "
                f"finite number. Received: {key}={value!r}); train the run again "
                "or restore the file"
            )
        return float(value)

    @required_hook
    def load_models(self) -> None:
        """Hook: the run's models read into the predictor's attributes
        (`read_model_file`), checked against its vocabularies."""
        raise NotImplementedError(f"{type(self).__name__} has no load_models")

    @required_hook
    def search_function(self, beam_width: int, keep_beams: bool = False):
        """Hook: the compiled search of one prepared batch (`compiled`)."""
        raise NotImplementedError(f"{type(self).__name__} has no search_function")

    @required_hook
    def predict_items(self, inputs) -> list[dict]:
        """Hook: one dict per input with its `text`, `score`, `valid` and `attention`."""
        raise NotImplementedError(f"{type(self).__name__} has no predict_items")

    def __call__(self, inputs, **options) -> list[dict]:
        """`predict_items(inputs, **options)`, the one prediction path of
        every predictor; a single text, bytes or path gives a list of one."""
        if isinstance(inputs, (str, bytes, bytearray, os.PathLike)):
            inputs = [inputs]
        return self.predict_items(inputs, **options)

    def shape_inputs(self) -> list:
        """Hook: inputs that between them reach every input shape the
        compiled search takes (one per padded source length), which a
        server warms up at each batch size before it is ready; empty where
        the shape is fixed (the default)."""
        return []

    def compiled(
        self,
        key,
        make_fn,
        input_shape,
        dtype: str = "float32",
        jit_compile: bool = True,
    ):
        """The compiled function `key`, built by `make_fn()` the first time.

        `input_shape`, `dtype` and `jit_compile` are `compile_function`'s.
        """
        if key not in self._fns:
            with self._misfit():
                fn = compile_function(make_fn(), input_shape, dtype, jit_compile)
            # Only what compiles per shape is recorded and routed: XLA and
            # `jax.jit`, not a TensorFlow graph without XLA (one trace runs
            # every shape) nor PyTorch's eager function.
            backend = keras.backend.backend()
            routed = backend == "jax" or (backend == "tensorflow" and jit_compile)
            if routed:
                self.compiled_shapes.register(key, input_shape)

            def checked(x):
                with self._misfit():
                    if routed:
                        return self.compiled_shapes.call(key, fn, x)
                    return fn(x)

            self._fns[key] = checked
        return self._fns[key]

    def _misfit(self):
        """Errors of a model that does not fit the run, naming its file."""
        errors = MISFIT_ERRORS
        tf = sys.modules.get("tensorflow")
        if tf is not None:
            errors = (*errors, tf.errors.InvalidArgumentError)
        return reading(
            self.run_dir / "model.keras",
            f"a model of this {self.app} run (another application's model, or "
            "one that does not fit its config.json and vocabulary)",
            errors,
        )

    def check(self, item) -> None:
        """Hook: raise `InputError` for an input the model cannot read."""

    def check_all(self, items) -> None:
        """`check` every item, in order (the first refused one raises)."""
        for item in items:
            self.check(item)

    @staticmethod
    def run_batches(fn, inputs, batch_size: int, prepare):
        """Yields `(chunk, *outputs)` per batch of `inputs`.

        `fn(prepare(chunk))` gives the batch's outputs (token ids, attention,
        scores...), which come back as NumPy arrays, floating-point ones as
        float32 (a mixed-precision model computes them in float16). A
        chunk runs at `padded_size(len(chunk), batch_size)` rows, its last
        input repeated, and the repeats' outputs are dropped: the rows are
        computed independently, and a call of a new size would otherwise
        wait for a compilation.
        """
        for start in range(0, len(inputs), batch_size):
            chunk = inputs[start : start + batch_size]
            n = len(chunk)
            repeats = padded_size(n, batch_size) - n
            if not repeats:
                padded = chunk
            elif isinstance(chunk, np.ndarray):
                padded = np.concatenate([chunk, np.repeat(chunk[-1:], repeats, 0)])
            else:
                padded = list(chunk) + [chunk[-1]] * repeats
            arrays = [keras.ops.convert_to_numpy(x)[:n] for x in fn(prepare(padded))]
            yield (
                chunk,
                *(a.astype("float32") if a.dtype.kind == "f" else a for a in arrays),
            )
