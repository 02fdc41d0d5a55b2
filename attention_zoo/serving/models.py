"""The models a server loads: shipped presets and training runs, each
behind its application's predictor and a `MicroBatcher`."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from attention_zoo import owned_folders
from attention_zoo.serving.batcher import MicroBatcher

# What /v1/models shows of a preset's metadata.json.
METADATA_KEYS = ("name", "description", "metrics", "slice_metrics", "card", "date")

# Threads per model that read a request's inputs (decode its images) off
# the event loop and beside the predictor's worker: large images take
# seconds to decode (docs/benchmarks.md, "Figures that docstrings used to
# carry"), in which the loop would answer nothing, /healthz included. Two
# bound the memory and CPU that requests' images take at once; more
# requests wait their turn.
READER_THREADS = 2


@dataclass
class ServedModel:
    """One application's model as the server serves it."""

    app: object  # an `Application` of the registry
    source: str  # "preset NAME" or "run PATH"
    folder: Path
    metadata: dict
    predictor: object = None
    batcher: MicroBatcher | None = None
    readers: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(
            READER_THREADS, thread_name_prefix="inputs"
        ),
        repr=False,
    )

    @property
    def images(self) -> bool:
        """Whether its inputs are images (base64 in the API), as its
        application declares (`Application.input_kind`)."""
        return self.app.input_kind == "image"

    @property
    def beam_width(self) -> int | None:
        """The run's beam width, None for an application without beam search."""
        if not self.app.beam_search:
            return None
        return int(self.predictor.beam_width) if self.predictor else None

    @property
    def beam_widths(self) -> tuple[int, ...] | None:
        """The beam widths a request may ask for: greedy (1) and the run's
        own, both compiled before the server is ready (`load`); None
        without beam search. Each other width would compile its search
        while every request waited (seconds a width: docs/serving.md) and
        keep it for the life of the process."""
        width = self.beam_width
        return None if width is None else tuple(sorted({1, width}))

    async def off_loop(self, fn, *args):
        """`fn(*args)` in one of the model's `readers` threads."""
        return await asyncio.get_running_loop().run_in_executor(self.readers, fn, *args)

    @property
    def n_best(self) -> bool:
        """Whether its predictor gives the n-best list (`n_best=True`), as
        its application declares (`Application.n_best`)."""
        return self.app.n_best

    def describe(self) -> dict:
        described = {
            "app": self.app.name,
            "title": self.app.title,
            "source": self.source,
            "input": "image (base64)" if self.images else "text",
            "beam_width": self.beam_width,
            "beam_widths": list(self.beam_widths) if self.beam_widths else None,
            "n_best": self.n_best,
            "metadata": {
                k: self.metadata[k] for k in METADATA_KEYS if k in self.metadata
            },
        }
        grid = getattr(self.predictor, "grid_shape", None)
        if grid:
            described["grid_shape"] = list(grid)
        return described


def resolve(presets=(), runs=()) -> list[ServedModel]:
    """The models to serve, one per application, not loaded yet.

    Raises:
        ValueError: naming the flag, for a preset or run that is none, or
            two models of one application (`/v1/{app}/predict` names one).
    """
    from attention_zoo.applications import registry
    from attention_zoo.presets import preset_folder, read_metadata

    models = []
    for name in presets:
        folder = preset_folder(name)
        metadata = read_metadata(folder)
        app = registry.get(metadata["app"])
        models.append(ServedModel(app, f"preset {name}", folder, metadata))
    for run in runs:
        folder = Path(run)
        marker = owned_folders.read_marker(folder) if folder.is_dir() else None
        if not marker or marker.get("kind") != "run":
            raise ValueError(
                "`--run` must be a run folder of `attention-zoo APP train`. "
                f"Received: --run {str(run)!r}"
            )
        app = registry.get(marker.get("app"))
        models.append(ServedModel(app, f"run {folder}", folder, {}))
    if not models:
        raise ValueError("give at least one model to serve: --preset NAME or --run RUN")
    seen = {}
    for model in models:
        if model.app.name in seen:
            raise ValueError(
                f"one model per application: {seen[model.app.name]} and "
                f"{model.source} are both {model.app.name} models"
            )
        seen[model.app.name] = model.source
    return models


def load(model: ServedModel, max_batch: int, max_wait: float) -> None:
    """Loads `model`'s predictor, answers its fixed inputs once (the first
    call compiles), and gives it a batcher."""
    model.predictor = model.app.predictor(model.folder)
    # Every batch size the predictor pads to, at every source width it pads
    # to and every beam width a request may ask for, so that no request
    # waits for a compilation of its batch's shape (`predictor.padded_size`,
    # `RunPredictor.shape_inputs`, `ServedModel.beam_widths`).
    searches = [{"beam_width": w} for w in model.beam_widths or ()] or [{}]
    for options in searches:
        for warm in model.predictor.shape_inputs() or _warm_inputs(model):
            size = 1
            while True:
                model.predictor([warm] * size, **options)
                if size >= max_batch:
                    break
                size = min(2 * size, max_batch)
    model.batcher = MicroBatcher(model.predictor, max_batch, max_wait)


def _warm_inputs(model: ServedModel) -> list:
    """One input to warm a model whose input shape is fixed."""
    from attention_zoo.presets import fixed_inputs

    if model.metadata.get("fixed_outputs"):
        inputs = fixed_inputs(model.folder)[:1]
        return [p.read_bytes() if isinstance(p, Path) else p for p in inputs]
    if model.images:
        import numpy as np

        from attention_zoo.image_codec import encode_png

        return [encode_png(np.zeros((32, 32, 3), "uint8"))]
    return ["hello"]
