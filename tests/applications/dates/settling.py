"""What the tests of form_settling's passes share: settle a form, and check
that a pass turned a refused form into a grounded one."""

from attention_zoo.applications.dates import form_answers, lexicon
from attention_zoo.applications.dates.form_settling import settle

WORDS = lexicon.load(), lexicon.load_days()


def settled(text: str, form: str) -> tuple[str, tuple]:
    return settle(text, form, *WORDS)


def reason(text: str, form: str) -> str:
    return form_answers.grounding_reason(text, form, *WORDS)


def assert_grounds(text: str, written: str, expected: str, names: tuple) -> None:
    """`names` settle the model's `written` form, refused, as `expected`,
    grounded."""
    assert settled(text, written) == (expected, names)
    assert reason(text, expected) == ""
    assert reason(text, written) != ""
