"""The models a server loads: shipped presets and training runs, each
behind its application's predictor and a `MicroBatcher`."""

from __future__ import annotations

import asyncio
import time
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
        without beam search. Each other width would compile its searches
        (`searches`) while every request waited (seconds each:
        docs/serving.md) and keep them for the life of the process."""
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
            "reference": self.app.reference,
            "metadata": {
                k: self.metadata[k] for k in METADATA_KEYS if k in self.metadata
            },
        }
        grid = getattr(self.predictor, "grid_shape", None)
        if grid:
            described["grid_shape"] = list(grid)
        shapes = getattr(self.predictor, "compiled_shapes", None)
        if shapes is not None:
            # Shapes compiled so far, and how many of them a request waited
            # for (none once ready: `load`).
            described["compiled_shapes"] = shapes.compiles
            described["compiled_on_request"] = shapes.unplanned
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


def searches(model: ServedModel) -> list[dict]:
    """Every set of search options a request may ask `model` for, the
    model's own first: each beam width a request may ask for, with and
    without the n-best list where the application gives one."""
    widths = sorted(model.beam_widths or (None,), key=lambda w: w != model.beam_width)
    lists = (False, True) if model.n_best else (False,)
    return [
        {k: v for k, v in (("beam_width", w), ("n_best", n)) if v}
        for w in widths
        for n in lists
    ]


def describe_options(options: dict) -> str:
    """`beam_width=4 n_best` for a progress line; `default` for none."""
    words = [f"beam_width={options['beam_width']}"] if "beam_width" in options else []
    return " ".join(words + ["n_best"] * bool(options.get("n_best"))) or "default"


def load(model: ServedModel, max_batch: int, max_wait: float, progress=None) -> None:
    """Loads `model`'s predictor, compiles each of its searches at one
    shape that holds any request (`searches`: every option a request may
    ask for; the widest input, one row), and gives it a batcher.

    From then on the predictor routes a call at a shape not compiled yet
    through a compiled one (`CompiledShapes.routing`): no request waits for
    a compilation. `warm_rest` compiles the other shapes, in the background.
    `progress(line)` is told what was done, with seconds.
    """
    report = progress or (lambda line: None)
    start = time.perf_counter()
    model.predictor = model.app.predictor(model.folder)
    report(f"{model.app.name} ({model.source}): loaded in {_since(start)}")
    start = time.perf_counter()
    widest = (model.predictor.shape_inputs() or _warm_inputs(model))[-1]
    shapes = model.predictor.compiled_shapes
    # Routing first, so that these calls take the paths a request will (a
    # translator searches many texts otherwise with refilled rows: other
    # functions); they compile their own shapes all the same.
    shapes.routing = True
    with shapes.compiling():
        for options in searches(model):
            model.predictor([widest], **options)
    report(
        f"{model.app.name}: every search compiled at one shape in {_since(start)} "
        f"({', '.join(describe_options(o) for o in searches(model))})"
    )
    model.batcher = MicroBatcher(model.predictor, max_batch, max_wait)


def warm_batches(max_batch: int) -> list[int]:
    """The batch sizes `warm_rest` compiles: 1, 4, 16, 64... up to
    `max_batch`, and `max_batch`. Coarser than the predictor's own padding
    (`padded_size`): a call of 2 runs at 4 rows, of 20 at 64, a compilation
    less each (a compilation of a translator's search costs more than many
    such calls: docs/benchmarks.md)."""
    sizes, size = [], 1
    while size < max_batch:
        sizes.append(size)
        size *= 4
    return [*sizes, max_batch]


def warm_rest(model: ServedModel, max_batch: int, progress=None, stop=None) -> None:
    """Compiles `model`'s searches at every other shape a request may
    reach (each input width of `shape_inputs`, each of `warm_batches`),
    the model's own search first, while the server answers; each shape
    serves requests once compiled. Returns early once `stop` (an Event) is set.
    """
    report = progress or (lambda line: None)
    shapes = model.predictor.compiled_shapes
    inputs = model.predictor.shape_inputs() or _warm_inputs(model)
    total = time.perf_counter()
    for options in searches(model):
        start, before = time.perf_counter(), shapes.compiles
        for warm in inputs:
            for size in warm_batches(max_batch):
                if stop is not None and stop.is_set():
                    return
                with shapes.compiling():
                    model.predictor([warm] * size, **options)
        report(
            f"{model.app.name} {describe_options(options)}: "
            f"{shapes.compiles - before} more shapes compiled in {_since(start)}"
        )
    report(f"{model.app.name}: every shape compiled, in {_since(total)}")


def _since(start: float) -> str:
    return f"{time.perf_counter() - start:.1f} s"


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
