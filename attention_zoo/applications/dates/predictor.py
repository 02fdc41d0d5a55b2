"""A trained date run: text in, ISO dates, scores, validity and attention out."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from attention_zoo.applications.common import InputError, RunPredictor, output_folder
from attention_zoo.applications.common.errors import MalformedFileError, quoted
from attention_zoo.applications.common.predictor import as_texts
from attention_zoo.applications.dates import (
    checks,
    data,
    form_answers,
    form_settling,
    forms_data,
    lexicon,
    passes,
)
from attention_zoo.applications.dates import model as models
from attention_zoo.applications.dates.config import TARGETS
from attention_zoo.applications.dates.day_order import order_disagreement
from attention_zoo.applications.dates.eras import era_disagreement
from attention_zoo.applications.dates.formats import LANGUAGES
from attention_zoo.applications.dates.grounding import (
    number_disagreement,
    weekday_disagreement,
)
from attention_zoo.applications.dates.lexicon import month_disagreement
from attention_zoo.applications.dates.readings import (
    disagreement,
    numeric_readings,
    year_disagreement,
)
from attention_zoo.applications.dates.reference import parse_reference

# The validity threshold is the score that this share of the validation
# dates falls below (training.py writes it to config.json).
THRESHOLD_QUANTILE = 0.002


class Normalizer(RunPredictor):
    """A trained run: text in, ISO dates, scores and attention out.

    A run of the forms target (`config.json`'s `target`) writes a form,
    which `form_answers` resolves against the call's `reference`.
    """

    app = "dates"
    required_files = ("model.keras", "config.json", "vocabulary.json")
    # The words of the languages a run trained on (`--languages`); a run of
    # every language reads the shipped lexicon.
    optional_files = (lexicon.RUN_FILE,)

    def __init__(self, run_dir):
        super().__init__(run_dir)
        self.kind = self.config["model"]
        self.tx = self.config.get("tx", data.TX_CLASSIC)
        # Runs from before the forms target wrote no `target`: ISO dates.
        self.target = self.config.get("target", "dates")
        if self.target not in TARGETS:
            raise MalformedFileError(
                f"{self.run_dir / 'config.json'}: target must be one of "
                f"{', '.join(TARGETS)}. Received: target={self.target!r:.80}"
            )
        self.forms = self.target == "forms"
        self.ty = forms_data.TY_FORMS if self.forms else data.TY
        self.threshold = self.config_number("score_threshold", -math.inf)
        with self.reading("vocabulary.json"):
            self.vocabulary = data.CharVocabulary.from_json(
                json.loads(
                    (self.run_dir / "vocabulary.json").read_text(encoding="utf-8")
                )
            )
        self.iso = forms_data.FormVocabulary() if self.forms else data.IsoVocabulary()
        self.lexicon, self.days = lexicon.load(), lexicon.load_days()
        # A forms run grounds its forms in the words of these (`form_words`).
        written = self.config.get("languages") or ",".join(LANGUAGES)
        self.languages = tuple(str(written).split(","))
        if not set(self.languages) <= set(LANGUAGES):
            raise MalformedFileError(
                f"{self.run_dir / 'config.json'}: languages must be languages of "
                f"{','.join(LANGUAGES)}. Received: languages={written!r:.80}"
            )
        if (self.run_dir / lexicon.RUN_FILE).is_file():
            with self.reading(lexicon.RUN_FILE):
                self.lexicon = lexicon.load(self.run_dir / lexicon.RUN_FILE)
                self.days = lexicon.load_days(self.run_dir / lexicon.RUN_FILE)
        self.load_models()

    def load_models(self) -> None:
        """`model`: the run's Keras model, checked against its vocabulary
        and compiled (an exported normalizer has none:
        `export.ExportedNormalizer`)."""
        self.model = self.read_model_file(model_names=(self.kind,))
        self.check_sizes(
            self.model,
            {
                "vocabulary.json": (
                    len(self.vocabulary),
                    ("source_embedding", "one_hot"),
                ),
            },
        )
        # Compiled now: a model that does not fit the run is refused when
        # the run loads, not at its first date.
        self.search_function()

    def search_function(self, beam_width: int = 1, keep_beams: bool = False):
        """`ids (B, tx) int32 -> (iso ids, attention, scores)`: the run's
        model, compiled. The normalizer decodes greedily: `beam_width` is 1
        and there is one hypothesis."""
        check_greedy(beam_width, keep_beams)
        return self.compiled(
            "predict",
            lambda: models.make_predict_fn(self.model, self.kind, self.ty),
            (self.tx,),
            "int32",
        )

    def view(self, text: str) -> str:
        """What the model reads of `text`: every pass of `passes.PASSES`,
        those that read the run's lexicon included (leading words and a
        comma it was not taught dropped: a place before a date). A forms
        run reads the text before those passes, as it trained: the words
        it reads besides months ("yesterday", "next") are not in its lexicon."""
        if self.forms:
            return data.normalize(text)
        return passes.view(data.normalize(text), self.lexicon)

    def check(self, text: str) -> None:
        """Raise `InputError` for inputs the model cannot read."""
        normalized = self.view(text)
        if not normalized:
            raise InputError(
                f"empty input: {quoted(text)} has no characters besides whitespace"
            )
        if len(normalized) > self.tx:
            raise InputError(
                f"input too long: {quoted(text)} has {len(normalized):,} characters once "
                f"normalized; the model reads at most {self.tx}"
            )

    def encode(self, texts):
        return self.vocabulary.encode_normalized([self.view(t) for t in texts], self.tx)

    def decode(self, texts, batch_size: int = 1000):
        """`(ids (N, TY), attention (N, TY, TX), scores (N,))` as NumPy."""
        batches = list(
            self.run_batches(self.search_function(), texts, batch_size, self.encode)
        )
        if not batches:
            return (
                np.zeros((0, self.ty), "int32"),
                np.zeros((0, self.ty, self.tx), "float32"),
                np.zeros((0,), "float32"),
            )
        _, ids, attention, scores = zip(*batches)
        return np.concatenate(ids), np.concatenate(attention), np.concatenate(scores)

    def scored(self, texts, batch_size: int = 1000):
        """`(isos, valid (N,) bool, scores (N,) float32, attention)`: a forms
        run's forms with the parts code sets from the text
        (`form_settling.settle`)."""
        return self.written_and_scored(texts, batch_size)[2:]

    def written_and_scored(self, texts, batch_size: int = 1000):
        """`(written, settled, *scored)`: what the model wrote, and the names
        of the `form_settling` passes that changed each form (empty for a run
        of ISO dates, whose dates are what it wrote)."""
        texts = list(texts)
        ids, attention, scores = self.decode(texts, batch_size)
        written = isos = self.iso.decode(ids)
        settled = [()] * len(written)
        if self.forms:  # what needs no reference: `form_answers.answer` resolves
            both = [self.settled(text, form) for text, form in zip(texts, written)]
            isos, settled, valid = (
                (list(column) for column in zip(*both)) if both else ([], [], [])
            )
        else:
            valid = [
                checks.python_valid(
                    text, passes.view(text, self.lexicon), iso, self.lexicon, self.days
                )
                for text, iso in zip(map(data.normalize, texts), isos)
            ]
        valid = np.array(valid, bool) & (scores >= self.threshold)
        return written, settled, isos, valid, scores, attention

    def settled(self, text: str, form: str) -> tuple[str, tuple, bool]:
        """`(form, passes, checked)`: the model's `form`, or, where it fails
        `form_answers.form_checks`, the form `form_settling.settle` makes of
        it, the names of the passes that changed it, and whether the form
        passes the checks. A form the grounding accepts is one no pass
        changes, so only a refused one is settled."""
        words = self.lexicon, self.days, self.languages
        if form_answers.form_checks(text, form, *words):
            return form, (), True
        settled, names = form_settling.settle(text, form, *words)
        if not names:
            return form, (), False
        return settled, names, form_answers.form_checks(text, settled, *words)

    def predict_items(
        self, inputs, reference=None, prefer: str = "future"
    ) -> list[dict]:
        """`{"input", "text", "score", "valid", "reason", "notes",
        "source_tokens", "tokens", "attention"}` per text (`notes`: the
        characters read as `<unk>`, and the parts of a form
        `form_settling` set, with the form the model wrote; `attention`
        `(TY, TX)`, padding included).

        A forms run resolves each form against `reference` (an ISO 8601
        string, with an offset or not, a `datetime`, or None: now, in UTC;
        `reference.parse_reference`) under the policy `prefer` ("future",
        "past", "current": `resolver`), and adds `kind`, `grain`, `form`,
        `parts`, `reference` and `prefer` (`form_answers`). A run of ISO
        dates checks both and answers as without them: an absolute day does
        not depend on the reference.

        See `RunPredictor.__call__`. An input the model cannot read (empty,
        or longer than it reads) is not refused: it gets the text "", the
        score -inf, `valid` False, the reason and the same keys as any
        other answer (no notes, no tokens, an empty attention), like the
        SavedModel.
        """
        moment = parse_reference(reference)
        form_answers.check_prefer(prefer)
        texts = as_texts(inputs)
        reasons = {}
        for i, text in enumerate(texts):
            try:
                self.check(text)
            except InputError as error:
                reasons[i] = str(error)
        readable = [t for i, t in enumerate(texts) if i not in reasons]
        answers = (
            iter(zip(*self.written_and_scored(readable))) if readable else iter(())
        )
        items = []
        for i, text in enumerate(texts):
            if i in reasons:
                items.append(
                    {
                        "input": text,
                        "text": "",
                        "score": -math.inf,
                        "valid": False,
                        "reason": reasons[i],
                        "notes": [],
                        "source_tokens": [],
                        "tokens": [],
                        "attention": np.zeros((0, 0), "float32"),
                    }
                )
                if self.forms:
                    items[-1] = form_answers.unreadable(items[-1], moment, prefer)
                continue
            written, settled, iso, ok, score, weights = next(answers)
            seen = self.view(text)
            unknown = "".join(self.vocabulary.unknown(seen))
            notes = []
            if unknown:
                notes.append(f"unknown characters read as <unk>: {quoted(unknown)}")
            if settled:
                notes.append(
                    f"its {', '.join(settled)} set by the text "
                    f"(form_settling); the model wrote {written!r}"
                )
            item = {
                "input": text,
                "text": iso,
                "score": float(score),
                "valid": bool(ok),
                "reason": "" if self.forms else self.reason(iso, float(score), text),
                "notes": notes,
                "source_tokens": list(seen)[: self.tx],
                "tokens": list(iso),
                "attention": weights,
            }
            if self.forms:
                item = form_answers.answer(
                    item, iso, moment, prefer, self.threshold, self.reason,
                    self.grounding_reason, self.languages,
                )  # fmt: skip
            items.append(item)
        return items

    def grounding_reason(self, text: str, form: str) -> str:
        """Why a form other than an absolute day is not grounded in `text`
        (`form_answers.grounding_reason`), "" when it is."""
        return form_answers.grounding_reason(
            text, form, self.lexicon, self.days, self.languages
        )

    def reason(self, iso: str, score: float, text: str) -> str:
        """Why the answer `iso` (to the input `text`) is not valid ("" when
        it is). An input that cannot be a date says so first (a date before
        the common era, numbers that make no one date), then the model's
        answer, then what the input writes against it (its numbers, its
        year, its month word), then the score."""
        era = era_disagreement(data.normalize(text))
        if era:
            return era
        normalized = self.view(text)
        readings = numeric_readings(normalized)
        numbers = disagreement(readings, iso)
        if readings is not None and len(readings) != 1:
            return numbers
        if iso == "":
            return "the model reads no date in it"
        if not data.is_calendar_date(iso):
            return f"not a real calendar date ({iso})"
        if numbers:
            return numbers
        why = year_disagreement(normalized, iso) or month_disagreement(
            normalized, iso, self.lexicon, self.days
        )
        why = why or number_disagreement(normalized, iso, self.lexicon)
        why = why or order_disagreement(normalized, iso, self.lexicon)
        why = why or weekday_disagreement(normalized, iso)
        if why:
            return why
        if score < self.threshold:
            return f"low confidence (score {score:.2f} < {self.threshold:.2f})"
        return ""


def check_greedy(beam_width, keep_beams) -> None:
    """A ValueError unless `beam_width` is 1 (or None) and `keep_beams`
    False: the date normalizer decodes greedily."""
    if beam_width not in (None, 1) or keep_beams:
        raise ValueError(
            "the date normalizer decodes greedily, one hypothesis. Received: "
            f"beam_width={beam_width!r}, keep_beams={keep_beams!r}"
        )


def plot(
    run_dir, texts, output_dir, normalizer: Normalizer | None = None
) -> list[Path]:
    """One attention heatmap PNG per text: input characters x output characters."""
    from attention_zoo.plotting import save_attention_plot

    normalizer = normalizer or Normalizer(run_dir)
    normalizer.check_all(texts)
    isos, _, _, attention = normalizer.scored(list(texts))
    paths = []
    output_dir = output_folder(output_dir)
    for i, (text, iso) in enumerate(zip(texts, isos)):
        source = list(normalizer.view(text))[: normalizer.tx]
        path = output_dir / f"attention_{i}.png"
        label = list(iso) or ["<invalid>"]
        save_attention_plot(
            path,
            attention[i][: len(label), : len(source)],
            source,
            label,
            title=f"{text!r} -> {iso or 'not a date'}",
        )
        paths.append(path)
    return paths
