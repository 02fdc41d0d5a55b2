"""`Application`: what one application tells the skeleton about itself.

Each application's `app.py` builds one `Application` and the registry
(`attention_zoo.applications.registry`) lists it; the command line, the
preset builder and loader, the docs and the tests read it from there. It is
a record of what the application already has (its config, predictor and
functions), not a base class to fill in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

# The tasks every application's command has, built by the skeleton
# (`common.command`); an application adds its own (`evaluate`, `predict`).
SHARED_TASKS = ("train", "plot", "export")
# What an application's predictor reads (`Application.input_kind`).
INPUT_KINDS = ("text", "image")


@dataclasses.dataclass(frozen=True)
class CommandListing:
    """What `attention-zoo --help` and `attention-zoo NAME --help` show of
    an application: its name, lines and tasks, and nothing that needs Keras.

    Each application declares its own in `listing.py`, a module that
    imports only this one, so the command prints those pages, and refuses
    a mistyped command or task, without importing the application
    (`registry.listings`); its `Command` takes the same lines from it.

    Attributes:
        name: the command's name, the application's.
        help: its line in `attention-zoo --help` (`Command.help`).
        description: its description in `attention-zoo NAME --help`.
        tasks: the help line of each task by name (`Command.tasks`).
        input_kind: what the predictor reads (`Application.input_kind`,
            which is this): the tasks' inputs are named after it.
        beam_search: whether its tasks take `--beam-width`
            (`Application.beam_search`, which is this).
    """

    name: str
    help: str
    description: str
    tasks: dict
    input_kind: str = "text"
    beam_search: bool = True

    @classmethod
    def of(cls, application) -> CommandListing:
        """The listing of an `Application` (one `registry.register` added)."""
        command = application.command
        return cls(
            application.name,
            command.help,
            command.description,
            command.tasks,
            application.input_kind,
            application.beam_search,
        )


@dataclasses.dataclass(frozen=True)
class CommandParts:
    """What the parsers of an application's tasks read of it
    (`common.command.add_application`): an `Application` has all of it,
    and so has this record, which `registry.command_parts` builds from the
    application's `listing.py`, `cli.py` and `config.py` without importing
    its model (or Keras), so that a task's `--help` and its argument errors
    answer at once (docs/reliability.md, "The command answers at once").

    Attributes:
        name: the command's name.
        command: its `Command` (`cli.COMMAND`).
        config_class: its `TrainConfig` (`config.TrainConfig`).
        input_kind: as `Application.input_kind` (the listing's).
        beam_search: as `Application.beam_search` (the listing's).
    """

    name: str
    command: Command
    config_class: type
    input_kind: str = "text"
    beam_search: bool = True

    @classmethod
    def of(cls, application) -> CommandParts:
        """The parts of an `Application`."""
        return cls(
            application.name,
            application.command,
            application.config_class,
            application.input_kind,
            application.beam_search,
        )


@dataclasses.dataclass(frozen=True)
class Command:
    """An application's command line beyond what the skeleton derives.

    Attributes:
        help: the command's line in `attention-zoo --help`.
        description: its description in `attention-zoo NAME --help`.
        tasks: the help line of each task by name, in the order `--help`
            lists them: the shared `train`, `plot` and `export` and the
            application's own (`evaluate`, `predict`, ...).
        default_preset: the shipped preset read without `--run`/`--preset`,
            or None.
        errors: the application's own exception types that are the user's
            errors (one line, exit 2).
        add_arguments: a function of `({task: parser}, app)` that adds the
            flags of the application's own tasks, or None.
        train_arguments: a function of the `train` parser that adds flags
            before those of the config (a group of data sources), or None.
        config_fields: a function of the parsed arguments to the config
            fields the application computes from several flags, or None.
        jobs: a function of `(args, parser, app)` to the application's own
            jobs by task name (functions of no argument), or None.
    """

    help: str
    description: str
    tasks: dict
    default_preset: str | None = None
    errors: tuple = ()
    add_arguments: Callable | None = None
    train_arguments: Callable | None = None
    config_fields: Callable | None = None
    jobs: Callable | None = None

    def __post_init__(self):
        missing = [t for t in SHARED_TASKS if t not in self.tasks]
        if missing:
            raise ValueError(
                f"`tasks` needs a help line for the shared tasks {SHARED_TASKS}. "
                f"Received: tasks with keys {sorted(self.tasks)}"
            )


@dataclasses.dataclass(frozen=True)
class PresetRecipe:
    """How a shipped preset is rebuilt (`attention-zoo presets build NAME`).

    Attributes:
        name: the preset's name (its folder in `attention_zoo/presets/`).
        description: its line in `attention-zoo presets list`.
        train: the `attention-zoo` arguments that train it, without
            `--output`.
        seed: the seed those arguments set.
        fixed_inputs: the inputs whose outputs the preset records, or a
            function of the trained run folder that gives them (image files).
        card: the model card's sections (`presets.saving.CARD_SECTIONS`).
        float16: whether the weights are stored in half precision.
        headline_metric: the key of the preset's test `metrics`
            (`metadata.json`) that `attention-zoo presets list` shows: the
            score the application is judged by, of the preset's default
            decoding (`"beam4 bleu"`), or None.
        fixed_reference: the reference date-time (ISO 8601) at which the
            outputs on `fixed_inputs` are recorded and checked, for a
            predictor whose answers depend on it (a forms run's
            "yesterday"); `metadata.json` records it as `fixed_reference`.
            None (every preset whose answers do not depend on a reference):
            the outputs are recorded without one and the key is left out.
    """

    name: str
    description: str
    train: tuple
    seed: int
    fixed_inputs: object
    card: dict
    float16: bool = False
    headline_metric: str | None = None
    fixed_reference: str | None = None


@dataclasses.dataclass(frozen=True)
class TestSlice:
    """The slice of test data a preset ships with (`test_slice.json`).

    Attributes:
        size: how many test examples it holds: enough that a wrong weight
            or asset moves the score, few enough to re-score in seconds on
            every backend.
        write: a function of `(run_dir, path, size)` that writes the run's
            first `size` test examples to `path` as plain JSON.
        score: a function of `(predictor, path)` to the metrics of the
            predictor's default decoding on the slice.
        inputs: a function of `path` to the slice's raw inputs, as a
            predictor and a SavedModel take them (texts, image bytes).
    """

    # Not a test class, whatever its name says.
    __test__ = False

    size: int
    write: Callable
    score: Callable
    inputs: Callable


@dataclasses.dataclass(frozen=True)
class Application:
    """One application of the registry.

    Attributes:
        name: the command's name (`attention-zoo NAME`), also the `app` of
            its run folders and presets.
        title: its name in the docs ("Date normalization").
        predictor: its `RunPredictor` subclass, which loads a run or preset
            folder.
        config_class: its `TrainConfig` dataclass; every field is a flag of
            `train` (`common.cli`).
        train: `train(output, config, verbose=None)`, the training into a
            run folder (`common.training_loop`); it returns the metrics it
            writes to `metrics.json`, `{"training": ..., "test": ...}`.
        format_metrics: the test metrics as the text `train` prints.
        plot: `plot(run, inputs, folder, beam_width=None)`, the attention
            PNGs it writes; `beam_width` only where `beam_search`.
        export: `export(run, output, beam_width=None)`, the SavedModel.
        export_core: a function of a run or preset folder to its
            `exporting.portable.CoreFunction` (the tensor part, for LiteRT and
            ONNX), or None where the application has none yet.
        exported_predictor: a function of `(folder, runner)` to the
            predictor that runs an exported core (`exporting.runtimes`) with the
            folder's data files, or None.
        command: its command line (`Command`).
        presets: the recipes of its shipped presets.
        test_slice: the test slice its presets ship with, or None.
        calibrate: a function of a run or preset folder that writes again
            the files its training derives from data and the trained
            weights (the thresholds of validity), and returns their names;
            `attention-zoo presets refresh` runs it. None: nothing to derive.
        input_kind: what its predictor reads: "text" (strings) or "image"
            (paths, encoded bytes, arrays; base64 in the server's API). The
            command line names its inputs after it (`TEXT`, `IMAGE`).
        beam_search: whether its predictor searches with a beam: its
            `predict_items`, `plot` and `export` take `beam_width`, and the
            tasks that read a model `--beam-width`.
        n_best: whether its predictor gives the n-best list of its search
            (`predict_items(..., n_best=True)`).
        reference: whether its predictor takes a reference date-time
            (`predict_items(..., reference=...)`, an ISO 8601 string or a
            `datetime`), which the server's requests may then send.

    The capabilities (`input_kind`, `beam_search`, `n_best`, `reference`) are declared
    here, and read from here by the command line and the server;
    `common.predictor_protocol.check_predictor` checks the predictor has
    what they promise.
    """

    name: str
    title: str
    predictor: type
    config_class: type
    train: Callable
    format_metrics: Callable
    plot: Callable
    export: Callable
    command: Command
    presets: tuple = ()
    test_slice: TestSlice | None = None
    calibrate: Callable | None = None
    export_core: Callable | None = None
    exported_predictor: Callable | None = None
    input_kind: str = "text"
    beam_search: bool = True
    n_best: bool = False
    reference: bool = False

    def __post_init__(self):
        if self.input_kind not in INPUT_KINDS:
            raise ValueError(
                f"`input_kind` must be one of {INPUT_KINDS}. Received: "
                f"input_kind={self.input_kind!r}"
            )
        if not self.name.isidentifier():
            raise ValueError(
                f"`name` must be a Python identifier. Received: name={self.name!r}"
            )
        if getattr(self.predictor, "app", None) != self.name:
            raise ValueError(
                f"`predictor.app` must be the application's name {self.name!r}. "
                f"Received: {self.predictor.__name__}.app="
                f"{getattr(self.predictor, 'app', None)!r}"
            )
