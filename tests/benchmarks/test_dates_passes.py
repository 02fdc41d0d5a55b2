"""benchmarks/dates_passes.py: its sources and its check of the pass name
(the model's answers are the benchmark's, not a test's)."""

import pytest

from attention_zoo.applications.dates import form_settling
from benchmarks import dates_passes

pytestmark = pytest.mark.backend_free


def test_a_pass_is_named_or_refused_naming_the_passes():
    kept = dates_passes.without("grain")
    assert [n for n, _ in kept] == [n for n, _ in form_settling.PASSES if n != "grain"]
    with pytest.raises(ValueError, match="--pass must be one of .*'grain'.*'nope'"):
        dates_passes.without("nope")


def test_the_sources_are_seeded_and_complete():
    first = dates_passes.generated(2)
    assert first == dates_passes.generated(2)
    assert len(first) == 2 * 27 and all(form for _, form in first)
    rows, reference = dates_passes.hand_rows()
    assert reference == "2026-01-15T09:00:00+00:00"
    assert ("March 2015", "2015-03") in rows
    assert len(rows) > 2000 and sum(e is None for _, e in rows) > 500
