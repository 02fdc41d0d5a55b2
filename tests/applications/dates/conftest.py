"""Fixtures of the date application's tests."""

import pytest

from attention_zoo.applications.dates import time_expressions
from attention_zoo.applications.dates.formats import LOCALES


@pytest.fixture(scope="session")
def generated_pairs():
    """`{language: time_expressions.pairs(language)}` of the 27 languages,
    generated once per test process (it takes seconds)."""
    return {language: time_expressions.pairs(language) for language in LOCALES}
