"""The predictor protocol: what the rest of the package may call on an
application's predictor.

An application's predictor (`Application.predictor`, a `RunPredictor`
subclass) is driven by code that does not know its application: the
command line, the server, the preset builder, the shared tests, and its
own exporter and evaluator. They call these members and no other (a
private method is the predictor's own business; `tests/applications/
common/test_predictor_protocol.py` finds any call of one from outside):

- `app`, `required_files`, `optional_files`: the class attributes that
  name the application and the files of its run folders.
- `load_models()`: reads the run's models into the predictor's attributes
  (`model`, and `encoder` where it has one), checked against the run's
  vocabularies. The one name for loading models: an exported predictor
  (`Application.exported_predictor`) overrides it to load none, since it
  runs an exported core instead.
- `search_function(beam_width, keep_beams=False)`: the compiled search of
  one prepared batch (ids, or features for an image application) to its
  outputs (tokens, attention, scores, ...); with `keep_beams`, of every
  hypothesis. The exporter traces it into the SavedModel; an exported
  predictor returns its runtime's search instead. A predictor without
  beam search takes `beam_width=1` only.
- `predict_items(inputs, **options)` (and `__call__`): one dict per input,
  `text`, `score`, `valid`, `reason`, `attention` at least (and any of
  `DETAILS`). With beam search it takes `beam_width`, with an n-best list
  `n_best`, with a reference time (`Application.reference`) `reference`
  and `prefer`, which it reads before its inputs: `predict_items([],
  reference=...)` raises the ValueError of a bad one, naming it (how the
  server checks a request's).
- `check(item)`, `check_all(items)`: an `InputError` for an input the model
  cannot read.
- `shape_inputs()`: inputs reaching every input shape the search compiles
  for (the server warms them up).
- `compiled_shapes`: the `CompiledShapes` of its compiled searches (set by
  `RunPredictor.__init__`): the shapes compiled so far, and the server's
  switch that routes a call through a compiled shape instead of compiling.
- `from_preset(name_or_folder)`: the classmethod that loads a preset.

An image application's predictor adds `encode_function()`, the compiled
encoder of image batches to the features `search_function` reads.

What an application can do is declared on its `Application`, not found by
inspecting its predictor: `input_kind` ("text" or "image"), `beam_search`
and `n_best`. `check_predictor` checks that the predictor has what the
application declares, and names what it lacks.
"""

from __future__ import annotations

import inspect
from typing import Protocol, runtime_checkable

MEMBERS = (
    "app",
    "required_files",
    "optional_files",
    "load_models",
    "search_function",
    "predict_items",
    "check",
    "check_all",
    "shape_inputs",
    "from_preset",
)
# The keys an answer may add to `text`, `score`, `valid` and `reason`, which
# a JSON line of the command (`lines`) and the server's answer carry where
# the answer has them: a date form's kind, grain, normalized form, parts
# resolved from the reference, the reference and the policy used
# (docs/dates.md, "The form target").
DETAILS = ("kind", "grain", "form", "parts", "reference", "prefer")
# The members an application of image inputs adds.
IMAGE_MEMBERS = ("encode_function",)


@runtime_checkable
class Predictor(Protocol):
    """An application's predictor, as the package drives it.

    See the module docstring for the contract of each member.
    """

    app: str
    required_files: tuple
    optional_files: tuple

    @classmethod
    def from_preset(cls, preset): ...

    def load_models(self) -> None: ...

    def search_function(self, beam_width: int, keep_beams: bool = False): ...

    def predict_items(self, inputs, **options) -> list[dict]: ...

    def check(self, item) -> None: ...

    def check_all(self, items) -> None: ...

    def shape_inputs(self) -> list: ...


def required_hook(method):
    """Marks a base class's stub of a protocol member (one that raises
    NotImplementedError): a class that inherits only the stub lacks it."""
    method.__required_hook__ = True
    return method


def missing_members(application) -> list[str]:
    """What the predictor classes of `application` (its `predictor` and
    `exported_predictor`, where it has one) lack of the protocol and of the
    capabilities `application` declares, one phrase each; empty when
    nothing is missing."""
    classes = [application.predictor]
    exported = application.exported_predictor
    if isinstance(exported, type):
        classes.append(exported)
    missing = []
    for cls in classes:
        members = MEMBERS + (IMAGE_MEMBERS if application.input_kind == "image" else ())
        missing += [f"{cls.__name__}.{m}" for m in members if not _declares(cls, m)]
    takes = _parameters(application.predictor, "predict_items")
    predict = f"{application.predictor.__name__}.predict_items"
    if takes is not None:
        if application.beam_search and "beam_width" not in takes:
            missing.append(f"the beam_width argument of {predict} (beam_search=True)")
        if application.n_best and "n_best" not in takes:
            missing.append(f"the n_best argument of {predict} (n_best=True)")
        if not application.n_best and "n_best" in takes:
            missing.append(f"n_best=True on the application, for {predict} takes it")
        if application.reference and "reference" not in takes:
            missing.append(f"the reference argument of {predict} (reference=True)")
    return missing


def check_predictor(application):
    """`application` if its predictor implements the protocol and what the
    application declares, else a TypeError naming every member it lacks.

    Members are looked up statically, on the classes: nothing is loaded.

    Args:
        application: an `Application` (its `name`, `predictor`,
            `exported_predictor`, `input_kind`, `beam_search`, `n_best`).

    Returns:
        `application`.
    """
    missing = missing_members(application)
    if missing:
        raise TypeError(
            f"the predictor of the {application.name} application must implement "
            "the predictor protocol of attention_zoo.applications.common."
            f"predictor_protocol; it lacks {', '.join(missing)}. Received: "
            f"predictor={application.predictor.__name__}"
        )
    return application


def _declares(cls, name: str) -> bool:
    try:
        member = inspect.getattr_static(cls, name)
    except AttributeError:
        return False
    return not getattr(member, "__required_hook__", False)


def _parameters(cls, name: str):
    """The parameter names of the method `name` of `cls`, or None."""
    try:
        return set(inspect.signature(getattr(cls, name)).parameters)
    except (AttributeError, TypeError, ValueError):
        return None
