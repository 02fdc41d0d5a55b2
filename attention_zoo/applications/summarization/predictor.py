"""A trained summarization run: texts in, summaries, scores, validity,
attention and p_gen out.

Rules for inputs (here, on the command line and in the SavedModel): a text
is read up to its first `MAX_SOURCE_TOKENS` words; a word outside the
vocabulary is read as `<unk>` by the encoder and can be copied by the
copy mechanism; a summary stops at `<end>` or after `MAX_SUMMARY_TOKENS`
words. An answer is valid when the text has words, when no more of its
words are outside the vocabulary than in almost every validation text
(`max_unknown_share`), when the text is not mostly addresses (URLs,
e-mail addresses, paths: `address_rule`), when the text's words and their order are like
the training texts' (`common.text_domain`, the run's `domain.json`), when
the summary neither repeats itself nor makes up a word
(`summary_rules`; both in `checks.CHECKS`), and when its score (the summary's mean
log-probability per word) reaches the run's threshold; `reason` says which
rule failed.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from attention_zoo.applications.common import InputError, RunPredictor, output_folder
from attention_zoo.applications.common.errors import quoted
from attention_zoo.applications.common.predictor import as_texts
from attention_zoo.applications.common.text import (
    WordVocabulary,
    detokenize,
    tokenize,
)
from attention_zoo.applications.common.text_domain import DOMAIN_FILE, TextDomain
from attention_zoo.applications.summarization import checks
from attention_zoo.applications.summarization import model as models
from attention_zoo.applications.summarization.config import (
    MAX_SOURCE_TOKENS,
    MAX_SUMMARY_TOKENS,
)
from attention_zoo.applications.summarization.text import (
    cased_tokens,
    encode_sources,
    output_tokens,
)

# The validity thresholds leave out this share of the validation texts
# (training.py writes them to config.json).
THRESHOLD_QUANTILE = 0.002
# What the summarizer's search returns, in order.
SEARCH_OUTPUTS = ("tokens", "attention", "p_gen", "scores", "lengths")


class Summarizer(RunPredictor):
    """A trained run: texts in, summaries and attention out."""

    app = "summarization"
    required_files = ("model.keras", "config.json", "vocabulary.json")
    optional_files = (DOMAIN_FILE,)

    def __init__(self, run_dir, beam_width: int | None = None):
        super().__init__(run_dir)
        # The config first: a broken one is named before the model loads.
        with self.reading("config.json"):
            self.beam_width = beam_width or int(self.config["beam_width"])
            self.alpha = float(self.config["alpha"])
        self.score_threshold = self.config_number("score_threshold", -math.inf)
        self.max_unknown_share = self.config_number("max_unknown_share", 1.0)
        with self.reading("vocabulary.json"):
            self.vocabulary = WordVocabulary.load(self.run_dir / "vocabulary.json")
        self.load_models()
        domain = self.run_dir / DOMAIN_FILE
        # A run trained before the domain was kept has none: the vocabulary
        # and score thresholds alone decide, as before.
        self.domain = TextDomain.load(domain) if domain.is_file() else None

    def load_models(self) -> None:
        """`model`: the run's Keras model, checked against its vocabulary
        (an exported summarizer has none: `export.ExportedSummarizer`)."""
        model = self.read_model_file(model_names=models.MODEL_NAMES)
        self.check_sizes(
            model,
            {
                "vocabulary.json": (
                    len(self.vocabulary),
                    ("source_embedding", "target_embedding", "logits"),
                )
            },
        )
        self.model = model

    def search_function(self, beam_width: int, keep_beams: bool = False):
        """The compiled search: `(B, 2, Tx)` ids and extended ids to tokens,
        attention, p_gen, scores and lengths (`search_outputs`), of every
        hypothesis with `keep_beams`."""
        return self.compiled(
            (beam_width, keep_beams) if keep_beams else beam_width,
            lambda: search_outputs(self.model, beam_width, self.alpha, keep_beams),
            (2, MAX_SOURCE_TOKENS),
            "int32",
        )

    def check(self, text: str) -> None:
        """Raise `InputError` for a text the command line refuses (no word)."""
        if not tokenize(text):
            raise InputError(
                f"empty input: {quoted(text)} has no words once normalized"
            )

    def unknown_share(self, text: str) -> float:
        """The share of the words the model reads that are outside its vocabulary."""
        words = tokenize(text)[:MAX_SOURCE_TOKENS]
        if not words:
            return 0.0
        return sum(w not in self.vocabulary.index for w in words) / len(words)

    def predict_items(
        self,
        inputs,
        beam_width: int | None = None,
        batch_size: int = 64,
        n_best: bool = False,
    ) -> list[dict]:
        """One dict per text: `input`, `text` (the summary), `score`,
        `valid`, `reason`, `notes` (what the model did not read:
        `notes`), `attention` `(summary words + 1, source words)`
        (the `<end>` row last), `p_gen` `(summary words + 1,)` (1 without
        copy attention), `tokens` (the summary's words), `copied` (whether
        each was copied from the source) and `source_tokens`.

        The summarizer's one prediction path (`RunPredictor.__call__`).

        Args:
            inputs: the texts.
            beam_width: 1 for greedy search; default: the run's.
            batch_size: texts summarized at once.
            n_best: add `n_best`, every hypothesis of the search in its
                order (best first by its length-penalized score,
                `ranking_score`): `{"text", "score", "ranking_score"}` each
                (one under greedy search).
        """
        texts = as_texts(inputs)
        if not isinstance(n_best, bool):
            raise TypeError(f"`n_best` must be a bool. Received: n_best={n_best!r}")
        width = beam_width or self.beam_width
        fn = (
            self.search_function(width, n_best)
            if n_best
            else self.search_function(width)
        )
        items = []
        batches = self.run_batches(fn, texts, batch_size, self._encode)
        for chunk, tokens, attention, p_gen, scores, lengths in batches:
            for j, text in enumerate(chunk):
                if not n_best:
                    score = self._mean_log_prob(scores[j], lengths[j], width)
                    items.append(
                        self._item(text, tokens[j], attention[j], p_gen[j], score)
                    )
                    continue
                beams = [
                    self._item(
                        text,
                        tokens[j, k],
                        attention[j, k],
                        p_gen[j, k],
                        self._mean_log_prob(scores[j, k], lengths[j, k], width),
                    )
                    for k in range(tokens.shape[1])
                ]
                finite = [math.isfinite(b["score"]) for b in beams]
                # The search's own scores: the order it keeps its beams in.
                beams[0]["n_best"] = [
                    {
                        "text": b["text"],
                        "score": b["score"] if ok else None,
                        "ranking_score": float(ranked) if ok else None,
                    }
                    for b, ok, ranked in zip(beams, finite, scores[j])
                ]
                items.append(beams[0])
        return items

    def _mean_log_prob(self, score, length, beam_width: int) -> float:
        """The search's log-probability of a summary per word (`<end>`
        included); beam search with a length penalty ranked by the sum
        divided by the GNMT penalty, which is undone here (greedy search
        has none)."""
        length = max(int(length), 1)
        alpha = self.alpha if beam_width > 1 else 0.0
        penalty = ((5 + length) / 6) ** alpha
        return float(score) * penalty / length

    def _encode(self, texts):
        ids, extended, _ = encode_sources(texts, self.vocabulary)
        return np.stack([ids, extended], axis=1)  # (B, 2, Tx)

    def _item(self, text, ids, attention, p_gen, score) -> dict:
        size = len(self.vocabulary)
        source = cased_tokens(text)[:MAX_SOURCE_TOKENS]
        if not source:  # nothing to read: no summary, no attention
            words, score = [], -math.inf
            attention, p_gen = np.zeros((0, 0), "float32"), np.zeros((0, 1), "float32")
        else:
            words = output_tokens(ids, text, self.vocabulary, attention)
        steps = len(words) + 1  # with <end>
        reason = self.reason(text, score, words)
        return {
            "input": text,
            "text": detokenize(words),
            "score": score,
            "valid": not reason,
            "reason": reason,
            "notes": self.notes(text),
            "tokens": words,
            "copied": [int(i) >= size for i in ids[: len(words)]],
            "source_tokens": source,
            "attention": attention[:steps, : len(source)],
            "p_gen": p_gen[:steps, 0],
        }

    @staticmethod
    def notes(text: str) -> list[str]:
        """What the model did not read of `text`, in words (the
        translator's `problems` say the same of a long verse)."""
        count = len(tokenize(text))
        if count > MAX_SOURCE_TOKENS:
            return [f"{count} words: only the first {MAX_SOURCE_TOKENS} are read"]
        return []

    def reason(self, text: str, score: float, words=()) -> str:
        """Why the summary `words` of `text` is not valid ("" when it is)."""
        tokens = tokenize(text)
        if not tokens:
            return "empty input: no words once normalized"
        # The checks (`checks.CHECKS`): those of the text alone here,
        # those of the summary after the domain.
        facts = (
            text,
            words,
            set(tokens[:MAX_SOURCE_TOKENS]),
            self.domain.index if self.domain is not None else None,
        )
        text_reason = checks.python_reason("text", *facts)
        if text_reason:
            return text_reason
        share = self.unknown_share(text)
        if share > self.max_unknown_share:
            return (
                f"{100 * share:.0f} % of its words are outside the vocabulary "
                f"(at most {100 * self.max_unknown_share:.0f} % in the texts it "
                "was validated on): not a text like the training texts"
            )
        if self.domain is not None and self.domain.reason(text):
            return self.domain.reason(text)
        summary_reason = checks.python_reason("summary", *facts)
        if summary_reason:
            return summary_reason
        if score < self.score_threshold:
            return f"low confidence (score {score:.2f} < {self.score_threshold:.2f})"
        return ""


def search_outputs(model, beam_width: int, alpha: float, keep_beams: bool = False):
    """`fn(x (B, 2, Tx) int32)`: the search of `model.make_summarize_fn` on
    ids `x[:, 0]` and extended ids `x[:, 1]`, as the tuple `SEARCH_OUTPUTS`
    (of every hypothesis with `keep_beams`); `p_gen` is 1 for a model
    without copy attention (every word generated)."""
    summarize = models.make_summarize_fn(
        model, MAX_SUMMARY_TOKENS, beam_width, alpha, keep_beams
    )

    def fn(x):
        out = summarize(x[:, 0], x[:, 1])
        if "p_gen" not in out:
            out["p_gen"] = out["attention"][..., :1] * 0.0 + 1.0
        return tuple(out[k] for k in SEARCH_OUTPUTS)

    return fn


def plot(run_dir, texts, output_dir, beam_width=None, summarizer=None) -> list[Path]:
    """One heat map PNG per text: source words x summary words, each
    summary word labelled with its `p_gen` (1: generated, 0: copied)."""
    from attention_zoo.plotting import save_attention_plot

    output_dir = output_folder(output_dir)
    summarizer = summarizer or Summarizer(run_dir, beam_width=beam_width)
    summarizer.check_all(texts)
    paths = []
    for i, item in enumerate(summarizer(list(texts), beam_width=beam_width)):
        rows = [*item["tokens"], "<end>"]
        labels = [f"{w}  p_gen {p:.2f}" for w, p in zip(rows, item["p_gen"])]
        path = output_dir / f"attention_{i}.png"
        save_attention_plot(
            path,
            item["attention"],
            item["source_tokens"],
            labels,
            title=f"{item['text']!r}",
        )
        paths.append(path)
    return paths
