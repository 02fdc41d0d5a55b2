"""An interval whose two ends are one point is that point
(form_settling.points): both ends are inclusive, so the value is the same,
and the grounding then checks the point as any form. Ends that differ in
any part stay an interval."""

import pytest

from tests.applications.dates.settling import assert_grounds, reason, settled

pytestmark = pytest.mark.backend_free


@pytest.mark.parametrize(
    "text, written, expected, names",
    [
        ("um 6:30 Uhr", "time 06:30 / time 06:30", "time 06:30", ("point",)),
        ("3 May 1979", "date 1979-05-03 / date 1979-05-03", "date 1979-05-03", ("point",)),
        ("tomorrow at 5pm", "shift day +1 at 17:00 / shift day +1 at 17:00",
         "shift day +1 at 17:00", ("point",)),
        # The passes after it set the point's parts: its hour by its period.
        ("at 6:30 pm", "time 06:30 / time 06:30", "time 18:30", ("point", "period")),
    ],
)  # fmt: skip
def test_an_interval_of_one_point_is_that_point(text, written, expected, names):
    assert_grounds(text, written, expected, names)


@pytest.mark.parametrize(
    "text, written",
    [
        ("de 14h à 16h30", "time 14:30 / time 16:30"),  # two points
        ("3-5 May 1979", "date 1979-05-03 / date 1979-05-05"),
        ("13 July", "date --07-13 / date 2013-07-13"),  # one end has a year
    ],
)
def test_ends_that_differ_stay_an_interval(text, written):
    assert settled(text, written) == (written, ())


def test_a_text_writing_both_ends_is_grounded_and_never_settled():
    """The predictor settles only what the grounding refuses."""
    assert reason("from 6:30 to 6:30", "time 06:30 / time 06:30") == ""
