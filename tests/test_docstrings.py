"""Docstring examples are executed, so they cannot go stale."""

import doctest
import importlib

import pytest

MODULES = [
    "attention_zoo.ops",
    "attention_zoo.layers.bahdanau_attention",
    "attention_zoo.layers.luong_attention",
]


@pytest.mark.parametrize("module_name", MODULES)
def test_docstring_examples(module_name):
    module = importlib.import_module(module_name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{module_name} has no examples"
    assert result.failed == 0
