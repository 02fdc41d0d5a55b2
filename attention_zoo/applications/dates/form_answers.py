"""The answer of a forms run: the form the model wrote, resolved against the reference.

A run of the forms target (`config.TARGETS`) decodes a form (`forms.py`);
this module turns it into the answer: `form_parser.parse_form` checks it,
`resolver.resolve` computes its value against the caller's reference
under the caller's policy (`prefer`), and the answer carries

- `text`: the ISO 8601 value by kind (`1979-05-03`, `2014-12-12T08:25`,
  `2015-03`, `1987`, an interval `start/end`), `""` when not valid;
- `kind` and `grain` (the resolver's), `form` (the normalized form, or what
  the model wrote when it is no form), `parts` (the parts of the value the
  text does not write and where they came from: `{"year": "reference"}`),
  `reference` (ISO 8601, with its offset) and `prefer`;
- `valid` and `reason` as a run of ISO dates gives them, the form's own
  checks added: a form outside the grammar is not valid, the reason naming
  its token; a `date YYYY-MM-DD` form passes the checks an ISO date passes
  (`checks.CHECKS`: its numbers, year, month word and weekday against the
  text), but where a holiday name gives its month and day ("Christmas
  2015"); every other form is grounded in the text by `form_grounding`
  (each of its numbers and words written there), its reason naming what
  is missing; a resolution that fails (a fifth Tuesday) gives the
  resolver's reason; and an answer that does not fall on a weekday the
  text names ("Monday 9am" read as the next 9:00) is not valid
  (`form_weekdays`), nor one whose day is a street's name ("Rue du 4
  septembre": `form_streets`).
"""

from __future__ import annotations

import datetime as dt
import re

from attention_zoo.applications.dates import checks, data, passes
from attention_zoo.applications.dates.eras import era_disagreement
from attention_zoo.applications.dates.form_choices import choice_disagreement
from attention_zoo.applications.dates.form_counts import count_disagreement
from attention_zoo.applications.dates.form_day_parts import part_of_day_disagreement
from attention_zoo.applications.dates.form_grounding import form_disagreement
from attention_zoo.applications.dates.form_midnight import midnight_disagreement
from attention_zoo.applications.dates.form_parser import parse_form
from attention_zoo.applications.dates.form_parts import part_disagreement
from attention_zoo.applications.dates.form_streets import street_disagreement
from attention_zoo.applications.dates.form_text import FormText
from attention_zoo.applications.dates.form_weekdays import (
    week_disagreement,
    weekday_disagreement,
)
from attention_zoo.applications.dates.formats import LANGUAGES
from attention_zoo.applications.dates.forms import FormError
from attention_zoo.applications.dates.resolver import PREFER, resolve

_FULL_DATE = re.compile(r"date (\d{4}-\d{2}-\d{2})")


def check_prefer(prefer) -> str:
    """`prefer`, checked: one of `resolver.PREFER`."""
    if prefer not in PREFER:
        raise ValueError(
            f"prefer must be one of {', '.join(PREFER)}. Received: prefer={prefer!r:.80}"
        )
    return prefer


def absolute_day(form: str) -> str | None:
    """The ISO date of a `date YYYY-MM-DD` form, None for any other form."""
    match = _FULL_DATE.fullmatch(form)
    return match.group(1) if match else None


def iso_day(text: str, form: str, languages=LANGUAGES) -> str | None:
    """The ISO date of a `date YYYY-MM-DD` form checked as an ISO date:
    None for any other form, and for a holiday's day that `text` names
    (`form_grounding` grounds it by the name: "Christmas 2015" writes no
    month)."""
    day = absolute_day(form)
    if day is None:
        return None
    meaning = ("date", int(day[5:7]), int(day[8:10]))
    return None if FormText(text, {}, {}, languages).holiday(meaning) else day


def grounding_reason(text: str, form: str, lexicon, days, languages=LANGUAGES) -> str:
    """Why `form` (of the grammar) is not grounded in `text` by
    `form_grounding` in the run's `languages`, "" when it is or when it is
    checked as an ISO date (`iso_day`)."""
    if iso_day(text, form, languages) is not None:
        return ""
    return form_disagreement(text, form, lexicon, days, languages)


def form_checks(text: str, form: str, lexicon, days, languages=LANGUAGES) -> bool:
    """Whether `form` passes what needs no reference: the grammar, the
    checks of an ISO date against `text` for an absolute day (`iso_day`),
    and the grounding of every other form (`form_grounding`) in the words
    of the run's `languages`."""
    try:
        parse_form(form)
    except FormError:
        return False
    day = iso_day(text, form, languages)
    if day is None:
        return not form_disagreement(text, form, lexicon, days, languages)
    normalized = data.normalize(text)
    return checks.python_valid(
        normalized, passes.view(normalized, lexicon), day, lexicon, days
    )


def unreadable(item: dict, moment: dt.datetime, prefer: str) -> dict:
    """The answer to an input the model cannot read (`item`: not valid, its
    reason said), with a forms answer's keys."""
    return {
        **item,
        "kind": "",
        "grain": "",
        "form": "",
        "parts": {},
        "reference": moment.isoformat(),
        "prefer": prefer,
    }


def answer(
    item: dict,
    form: str,
    moment: dt.datetime,
    prefer: str,
    threshold: float,
    date_reason,
    grounding=None,
    languages=LANGUAGES,
) -> dict:
    """`item` (a predictor's answer to the decoded `form`, whose `valid`
    holds the score against `threshold` and `form_checks`) answered as a form.

    `date_reason(iso, score, text)` is the run's reason for an ISO date
    (`Normalizer.reason`), asked for an absolute day (`iso_day`);
    `grounding(text, form)` the run's `grounding_reason` for any other
    form (None: not asked).
    """
    text, score = item["input"], item["score"]
    resolution = resolve(form, moment, prefer=prefer)
    # On the value resolved: a weekday the text names is the answer's, in
    # the week the text names (the reference's wall day decides the week);
    # a day's midnight by name is no value (`form_midnight`); a street
    # named after a day is no date (`form_streets`); a count of days the
    # form does not use is no day of it (`form_counts`), nor one of two
    # a text offers (`form_choices`), nor a month of its end (`form_parts`);
    # a day with its part of the day is no answer without its time
    # (`form_day_parts`).
    weekday = resolution.valid and (
        midnight_disagreement(text, form, languages)
        or street_disagreement(text, languages)
        or count_disagreement(text, form, languages)
        or choice_disagreement(text, languages)
        or part_disagreement(text, languages)
        or part_of_day_disagreement(text, resolution.grain, resolution.text, languages)
        or weekday_disagreement(text, resolution.text, resolution.grain, languages)
        or week_disagreement(
            text,
            resolution.text,
            resolution.grain,
            dt.date.fromisoformat(resolution.reference[:10]),
            languages,
        )
    )
    out = {
        **item,
        "text": resolution.text,
        "kind": resolution.kind,
        "grain": resolution.grain,
        "form": resolution.form,
        "parts": dict(resolution.parts),
        "reference": resolution.reference,
        "prefer": prefer,
        "valid": bool(item["valid"] and resolution.valid and not weekday),
    }
    if out["valid"]:
        out["reason"] = ""
        return out
    out["text"] = ""
    era = era_disagreement(data.normalize(text))
    if era:
        out["reason"] = era
    elif form == "":
        out["reason"] = "the model reads no time expression in it"
    elif not resolution.valid:
        out["reason"] = resolution.reason
    elif weekday:
        out["reason"] = weekday
    else:
        day = iso_day(text, form, languages)
        out["reason"] = (
            (day and date_reason(day, score, text))
            or (day is None and grounding is not None and grounding(text, form))
            or f"low confidence (score {score:.2f} < {threshold:.2f})"
        )
    return out
