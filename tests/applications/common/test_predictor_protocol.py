"""The predictor protocol (`common.predictor_protocol`): every application's
predictor implements it, a predictor that lacks a member is named, and no
module calls a predictor's private method from outside it."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import attention_zoo
from attention_zoo.applications import registry
from attention_zoo.applications.common.application import Application, Command
from attention_zoo.applications.common.predictor import RunPredictor
from attention_zoo.applications.common.predictor_protocol import (
    MEMBERS,
    check_predictor,
    missing_members,
)

PACKAGE = Path(attention_zoo.__file__).parent
ROOT = PACKAGE.parent
SOURCES = sorted(
    [
        *PACKAGE.rglob("*.py"),
        *(ROOT / "benchmarks").glob("*.py"),
        *(ROOT / "tests").rglob("*.py"),
    ]
)


@pytest.mark.parametrize("app", registry.names())
def test_every_application_implements_the_predictor_protocol(app):
    application = registry.get(app)
    assert check_predictor(application) is application
    assert missing_members(application) == []


class Half(RunPredictor):
    """A predictor that predicts, but loads no model and has no search."""

    app = "half"

    def predict_items(self, inputs, beam_width=None) -> list[dict]:
        return [{"text": "", "score": 0.0, "valid": False} for _ in inputs]


def _application(predictor, **capabilities):
    command = Command(
        help="", description="", tasks={"train": "", "plot": "", "export": ""}
    )
    return Application(
        name=predictor.app,
        title="Half",
        predictor=predictor,
        config_class=object,
        train=print,
        format_metrics=str,
        plot=print,
        export=print,
        command=command,
        **capabilities,
    )


def test_a_predictor_that_lacks_members_is_named_with_what_it_lacks():
    application = _application(Half, n_best=True, input_kind="image")
    with pytest.raises(TypeError) as error:
        check_predictor(application)
    message = str(error.value)
    assert "the half application" in message
    # The base class's stubs are no implementation.
    assert "Half.load_models" in message and "Half.search_function" in message
    assert "Half.encode_function" in message
    assert "the n_best argument of Half.predict_items" in message
    # What it has is not named.
    assert "Half.predict_items," not in message and "Half.check," not in message


def test_a_capability_not_declared_or_not_kept_is_named():
    class NoBeams(Half):
        def load_models(self) -> None:
            self.model = None

        def search_function(self, beam_width=1, keep_beams=False):
            return print

        def predict_items(self, inputs, n_best=False) -> list[dict]:
            return []

    missing = missing_members(_application(NoBeams, n_best=False))
    assert missing == [
        "the beam_width argument of NoBeams.predict_items (beam_search=True)",
        "n_best=True on the application, for NoBeams.predict_items takes it",
    ]
    assert missing_members(_application(NoBeams, beam_search=False, n_best=True)) == []
    # A reference time promised (the dates application's) and not taken.
    assert missing_members(
        _application(NoBeams, beam_search=False, n_best=True, reference=True)
    ) == ["the reference argument of NoBeams.predict_items (reference=True)"]


def test_the_protocol_names_the_members_the_package_calls():
    assert {"load_models", "search_function", "predict_items", "check"} <= set(
        MEMBERS
    )


# The private names that the protocol's public members replaced.
RENAMED = {
    "_search_fn": "search_function",
    "_search": "search",
    "_scored": "scored",
    "_decode": "decode",
    "_predict": "search_function()",
    "_caption_features": "caption_features",
    "_caption_images": "caption_images",
    "_encode_fn": "encode_function",
    "_translations": "translations",
}


def _private_methods() -> dict[str, str]:
    """`{name: class}` of the private methods of every registered
    application's predictors and of their base."""
    classes = {RunPredictor}
    for application in registry.applications():
        for cls in (application.predictor, application.exported_predictor):
            if isinstance(cls, type):
                classes.update(c for c in cls.__mro__ if issubclass(c, RunPredictor))
    found = {}
    for cls in classes:
        for name, member in vars(cls).items():
            private = name.startswith("_") and not name.startswith("__")
            if private and (inspect.isfunction(member) or isinstance(member, property)):
                found[name] = cls.__name__
    return found


def _name_of(function) -> str:
    return getattr(function, "attr", getattr(function, "id", ""))


def private_calls(source: str, names) -> list[str]:
    """The uses in `source` of an attribute among `names` on anything but
    `self`, `cls` or `super()`, set or read (`setattr`, a test's
    `monkeypatch.setattr`): another object's private method."""
    found = []
    for node in ast.walk(ast.parse(source)):
        # `setattr(obj, "_name", ...)`, `monkeypatch.setattr(obj, "_name", ...)`
        if isinstance(node, ast.Call) and _name_of(node.func) == "setattr":
            name = node.args[1] if len(node.args) > 1 else None
            if isinstance(name, ast.Constant) and name.value in names:
                found.append(f"line {node.lineno}: {ast.unparse(node)[:80]}")
            continue
        if not isinstance(node, ast.Attribute) or node.attr not in names:
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            continue
        if isinstance(owner, ast.Call) and getattr(owner.func, "id", "") == "super":
            continue
        found.append(f"line {node.lineno}: {ast.unparse(node)[:80]}")
    return found


def test_the_private_call_rule_finds_a_call_on_another_object():
    names = {"_scored", "_search_fn"}
    assert private_calls("normalizer._scored(texts)", names) == [
        "line 1: normalizer._scored"
    ]
    assert private_calls("Translator(run)._search_fn(4)", names)
    assert not private_calls("self._scored(texts)\nsuper()._search_fn(1)", names)
    assert not private_calls("normalizer.scored(texts)", names)
    assert private_calls('monkeypatch.setattr(normalizer, "_scored", f)', names)
    assert not private_calls('monkeypatch.setattr(normalizer, "scored", f)', names)


def test_nothing_outside_a_predictor_calls_its_private_methods():
    """The exporters, evaluators, trainings, the server, the benchmarks and
    the tests call the protocol's public members (`search_function`,
    `scored`, `caption_features`, ...), never `_search_fn`-like ones."""
    names = _private_methods()
    # The private names the protocol made public stay gone, from the
    # predictors and from their callers.
    assert not set(RENAMED) & set(names)
    names = {**names, **RENAMED}
    found = {
        str(path.relative_to(ROOT)): calls
        for path in SOURCES
        if (calls := private_calls(path.read_text(encoding="utf-8"), names))
    }
    assert not found, f"private methods of a predictor called from outside: {found}"
