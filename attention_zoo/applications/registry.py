"""The applications of the package: one line each, read by everything else.

The command line, the preset builder and loader, the docs and the tests
find the applications here and nowhere else. An application is a folder
beside `dates/` whose `app.py` defines `APPLICATION`, an
`attention_zoo.applications.common.application.Application`; adding one
is one line in `MODULES` (and its `listing.py`, what the command's help
pages show of it without importing it: `listings`; its `cli.py` and
`config.py` give its tasks' flags, also without its model: `command_parts`). No module outside an
application's folder imports it (`tests/test_package_rules.py`). A test or
another package can add one at run time with `register`.

The names here are code, written in this file: nothing read from a preset
folder, a run folder or a request is ever imported. A preset's
`metadata.json` names its application (`"app": "dates"`), which is looked
up among these, never resolved as a module.

Examples:
    >>> "dates" in names() and "captioning" in names()
    True
"""

from __future__ import annotations

import importlib

# One line per application: the module whose `APPLICATION` describes it.
MODULES = (
    "attention_zoo.applications.dates.app",
    "attention_zoo.applications.translation.app",
    "attention_zoo.applications.captioning.app",
    "attention_zoo.applications.summarization.app",
)

_added: dict = {}


def _listing_module(module: str) -> str:
    # Beside each application's `app.py`, its `listing.py`.
    return f"{module.rpartition('.')[0]}.listing"


def listings() -> list:
    """What `attention-zoo --help` and `attention-zoo NAME --help` show of
    every application (`common.application.CommandListing`), in the order
    of `applications()`.

    Read from each application's `listing.py`, which imports neither the
    application nor Keras, so the command answers those pages, and refuses
    a mistyped command or task, at once; an application `register`ed at run
    time gives its own.
    """
    from attention_zoo.applications.common.application import CommandListing

    found = [importlib.import_module(_listing_module(m)).LISTING for m in MODULES]
    names = {listing.name for listing in found}
    return found + [
        CommandListing.of(app) for name, app in _added.items() if name not in names
    ]


def command_parts() -> list:
    """What the parsers of every application's tasks read
    (`common.application.CommandParts`), in the order of `applications()`.

    Built from each application's `listing.py`, `cli.py` (its `COMMAND`)
    and `config.py` (its `TrainConfig`), which import neither its model nor
    Keras, so that a task's `--help` and its argument errors answer at once;
    an application `register`ed at run time gives its own.
    """
    from attention_zoo.applications.common.application import CommandParts

    found = []
    for module in MODULES:
        folder = module.rpartition(".")[0]
        listing = importlib.import_module(_listing_module(module)).LISTING
        found.append(
            CommandParts(
                listing.name,
                importlib.import_module(f"{folder}.cli").COMMAND,
                importlib.import_module(f"{folder}.config").TrainConfig,
                listing.input_kind,
                listing.beam_search,
            )
        )
    names = {parts.name for parts in found}
    return found + [
        CommandParts.of(app) for name, app in _added.items() if name not in names
    ]


def applications() -> list:
    """Every application: those of `MODULES` in order, then those `register`ed."""
    found = [importlib.import_module(module).APPLICATION for module in MODULES]
    names = {app.name for app in found}
    return found + [app for name, app in _added.items() if name not in names]


def names() -> list[str]:
    """The command names of `applications()`."""
    return [app.name for app in applications()]


def get(name):
    """The application called `name`.

    Raises:
        ValueError: naming the registered applications when none is called
            `name` (which may come from a file: it is only compared).
    """
    for app in applications():
        if isinstance(name, str) and app.name == name:
            return app
    raise ValueError(
        f"no application is called {str(name)[:100]!r}; the registered ones are "
        f"{', '.join(names())}. Received: app={str(name)[:100]!r}"
    )


def recipes() -> dict:
    """`{preset name: (application, recipe)}` of every application's
    `PresetRecipe`s (`Application.presets`), for `presets build`, `refresh`
    and `list`."""
    return {
        recipe.name: (app, recipe) for app in applications() for recipe in app.presets
    }


def recipe(name: str):
    """`(application, recipe)` of the preset `name`.

    Raises:
        ValueError: naming the recipes when none is called `name`.
    """
    known = recipes()
    if name not in known:
        raise ValueError(
            f"no preset recipe is called {name!r}; the recipes are "
            f"{', '.join(known)}. Received: {name!r}"
        )
    return known[name]


def register(application):
    """Adds `application` (an `Application`) to `applications()`.

    For applications outside this package and for tests; the package's own
    are the lines of `MODULES`. Registering the same name again replaces
    the earlier one.

    Returns:
        `application`.
    """
    from attention_zoo.applications.common.application import Application

    if not isinstance(application, Application):
        raise TypeError(
            "`application` must be an attention_zoo.applications.common."
            f"application.Application. Received: {type(application).__name__}"
        )
    _added[application.name] = application
    return application


def unregister(name: str) -> None:
    """Removes an application that `register` added (a test's, say)."""
    _added.pop(name, None)


def from_preset(preset):
    """The predictor of a shipped preset name or a preset folder, whatever
    its application.

    The preset's `metadata.json` names its application; its predictor
    class is the registered application's (`get`). A folder can name only
    an application of the registry: it names data, never code.

    Example: `from_preset("dates_multilingual")(["3 May 1979"])`.
    """
    from attention_zoo.presets import preset_folder, read_metadata

    folder = preset_folder(preset)
    return get(read_metadata(folder)["app"]).predictor.from_preset(folder)


def export(app, model, output, format: str = "saved_model", **options):
    """Exports the run folder or preset `model` of the application `app`
    (a name of the registry) as `format` into the folder `output`, as
    `attention-zoo APP export --format FORMAT` does, and returns the folder.

    `format`: "saved_model" (raw strings or image bytes in, the whole
    predictor in TensorFlow; `options` such as `beam_width` go to it),
    "litert" (`model.tflite` and `model_int8.tflite`, builtin operators
    only) or "onnx" (`model.onnx`); the portable formats hold the decode
    loop from ids to ids (greedy or beam search: `beam_width`, default the
    run's), their string processing is the predictor's
    (`attention_zoo.applications.load_exported` runs them).

    Example: `export("dates", "dates_multilingual", "dates-litert", "litert")`.
    """
    from attention_zoo.applications.common.exporting.driver import export_application

    return export_application(get(app), model, output, format, **options)
