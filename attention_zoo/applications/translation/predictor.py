"""A trained translation run: text in, translations and attention out.

Documented rules for inputs (in `Translator`, the CLI and the SavedModel):
an empty input (no token once normalized) translates to "" with no
attention; a source is cut to its first `MAX_SOURCE_TOKENS` tokens; words
outside the source vocabulary, in any script, are read as `<unk>` (an
output `<unk>` attending to one copies it through); an output stops at
`<end>` or after `MAX_OUTPUT_TOKENS` tokens (of each sentence, where the
translator reads sentences one by one: `sentences`). `problems` names the rules
that applied to one input, for the command line's per-line messages.

Outputs are readable text (`postprocess`): unknown words replaced from the
source, truecased, detokenised; `Translator(..., unk_replace=False,
truecase=False, detokenize=False)` gives the model's raw tokens.

A run trained with its placeholders masked (`config.json`'s
`"placeholders": "mask"`, `masking`) masks each input, searches so that
each placeholder token comes out exactly as often as the input holds it
(`masking.copy_tables`, `attention_zoo.decoding.constrain_copies`), puts
the placeholders back, and answers `valid` False, the reason naming the
placeholder, for an output that drops, adds or changes one
(`placeholder_check`).
"""

from __future__ import annotations

import numpy as np

from attention_zoo.applications.common import InputError, RunPredictor
from attention_zoo.applications.common import text as tokenizer
from attention_zoo.applications.common.errors import quoted
from attention_zoo.applications.common.predictor import as_texts
from attention_zoo.applications.common.text_domain import DOMAIN_FILE, TextDomain
from attention_zoo.applications.translation import (
    masking,
    postprocess,
    refilled,
    sentences,
)
from attention_zoo.applications.translation import model as models
from attention_zoo.applications.translation import shortlist as shortlists
from attention_zoo.applications.translation.n_best import alternatives as listed

MAX_SOURCE_TOKENS = 128
MAX_OUTPUT_TOKENS = 160
# Decoding pads a source to the first of these widths that holds it, one
# compiled search each: most sentences have at most 8 words, and the
# encoder and every step's attention cost grow with the width.
DECODE_WIDTHS = (8, 16, 32, 64, 96, MAX_SOURCE_TOKENS)
TRUECASE_FILE = "truecase.json"


def decode_width(length: int) -> int:
    """The width of `DECODE_WIDTHS` a source of `length` ids is padded to."""
    return next(w for w in DECODE_WIDTHS if w >= min(length, MAX_SOURCE_TOKENS))


class Translator(RunPredictor):
    """A trained run: text in, translations and attention out."""

    app = "translation"
    required_files = (
        "model.keras",
        "config.json",
        "source_vocabulary.json",
        "target_vocabulary.json",
    )
    optional_files = (TRUECASE_FILE, DOMAIN_FILE, shortlists.SHORTLIST_FILE)
    searches_with_refill = True  # its Keras model compiles any search (`refilled`)

    def __init__(
        self,
        run_dir,
        beam_width: int | None = None,
        alpha: float | None = None,
        unk_replace: bool = True,
        truecase: bool = True,
        detokenize: bool = True,
        sentences: bool | None = None,
        shortlist: bool | None = None,
    ):
        super().__init__(run_dir)
        self.truecaser = postprocess.Truecaser.load(self.run_dir / TRUECASE_FILE)
        self.unk_replace = unk_replace
        self.truecase = truecase
        self.detokenize = detokenize
        # Runs trained before the option masked nothing.
        self.masking = self.config.get("placeholders") == "mask"
        # A text of several sentences translated one sentence at a time
        # (`sentences`): by default for software runs, trained on short
        # messages; the Bible's verses are trained whole.
        self.sentences = self.masking if sentences is None else bool(sentences)
        # Copy attention (`model.build_model(copy=True)`): the search reads
        # the source's extended ids beside its ids.
        self.copy = bool(self.config.get("copy", False))
        self.source_vocabulary = tokenizer.WordVocabulary.load(
            self.run_dir / "source_vocabulary.json"
        )
        self.target_vocabulary = tokenizer.WordVocabulary.load(
            self.run_dir / "target_vocabulary.json"
        )
        # A masked run's search copies each placeholder token exactly.
        words = (self.source_vocabulary.tokens, self.target_vocabulary.tokens)
        self.must_copy = masking.copy_tables(*words) if self.masking else None
        self.counted = masking.counted_words(words[0], self.must_copy)
        # Searched over its likely target words where learned (`shortlist`).
        self.shortlist = shortlists.chosen(self.run_dir, shortlist, *words)
        self.load_models()
        self.beam_width = beam_width or self.config["beam_width"]
        self.alpha = self.config["alpha"] if alpha is None else alpha
        domain = self.run_dir / DOMAIN_FILE
        # A run trained before the domain was kept has none: every text
        # with a word is valid, as before.
        self.domain = TextDomain.load(domain) if domain.is_file() else None

    def load_models(self) -> None:
        """`model`: the run's Keras model, checked against its vocabularies
        (an exported translator has none: `export.ExportedTranslator`)."""
        attention, decoder = self.config["attention"], self.config["decoder"]
        # Runs trained before copy attention have no `copy`.
        copy = bool(self.config.get("copy", False))
        model = self.read_model_file(
            model_names=(models.model_name(attention, decoder, copy), "no_attention")
        )
        self.check_sizes(
            model,
            {
                "source_vocabulary.json": (
                    len(self.source_vocabulary),
                    ("source_embedding",),
                ),
                "target_vocabulary.json": (
                    len(self.target_vocabulary),
                    ("target_embedding", "logits"),
                ),
            },
        )
        self.model = model

    def search_function(
        self,
        beam_width: int,
        keep_beams: bool = False,
        slots: tuple[int, ...] | None = None,
    ):
        """The compiled search for `beam_width` (1 = greedy), every hypothesis
        with `keep_beams`; with `slots`, greedy search with refilled rows
        (`refilled`)."""
        key = (beam_width, keep_beams)
        if slots is not None:
            key = (*key, "slots", *slots)
        return self.compiled(
            key,
            lambda: models.make_translate_fn(
                self.model,
                MAX_OUTPUT_TOKENS,
                beam_width=beam_width,
                alpha=self.alpha if beam_width > 1 else 0.0,
                keep_beams=keep_beams,
                must_copy=self.must_copy,
                slots=slots,
                shortlist=self.shortlist,
                # Rows refilled: the shortlists come sorted by NumPy.
                shortlist_input=slots is not None and self.shortlist is not None,
            ),
            (2, None) if self.copy else (None,),
            "int32",
        )

    def shape_inputs(self) -> list:
        """One text per source width the search compiles for,
        `DECODE_WIDTHS` (`encode`)."""
        word = self.source_vocabulary.tokens[-1]  # any word of the vocabulary
        return [" ".join([word] * w) for w in DECODE_WIDTHS]

    def encode(self, texts):
        """Source ids `(N, T)` padded to a width of `DECODE_WIDTHS`, and lengths."""
        ids = [self.source_vocabulary.encode(t)[:MAX_SOURCE_TOKENS] for t in texts]
        lengths = np.array([len(i) for i in ids])
        width = decode_width(max(lengths, default=0))
        out = np.zeros((len(ids), width), "int32")
        for row, i in enumerate(ids):
            out[row, : len(i)] = i
        return out, lengths

    def model_input(self, texts, refilled: bool = False):
        """What the search reads: `encode`'s ids `(N, T)`; with copy attention
        those and the extended ids stacked, `(N, 2, T)` (`model.extended_ids`);
        `refilled` over a shortlist, the ids then the shortlist `(N, T + size)`."""
        ids, _ = self.encode(texts)
        if refilled and self.shortlist is not None:
            listed = shortlists.on_host(ids, self.shortlist, len(self.target_vocabulary))
            return np.concatenate([ids, listed], axis=1)
        if not self.copy:
            return ids
        target = self.target_vocabulary
        return models.extended_input(ids, texts, target.index, len(target))

    def search(
        self,
        texts,
        beam_width: int | None = None,
        batch_size: int = 64,
        keep_beams: bool = False,
    ):
        """Output ids `(N, W)`, attention and scores `(N,)` (each output's
        log-probability per token), in input order, `W` at least
        `MAX_OUTPUT_TOKENS` (more where sentences join); with `keep_beams`,
        every hypothesis, best first: `(N, K, ...)`.

        Texts are decoded in batches of similar length (greedy ones with
        refilled rows, `refilled`: the same outputs, sooner); an empty input
        gets all-padding ids, zero attention and the score -inf.
        """
        texts = list(texts)
        search = (beam_width or self.beam_width, keep_beams)
        sizes = (decode_width, MAX_SOURCE_TOKENS, MAX_OUTPUT_TOKENS)

        def whole(texts):
            return refilled.search(self, texts, search, batch_size, sizes)

        if self.sentences:  # each sentence searched as a text (`sentences`)
            return sentences.search(whole, texts, MAX_SOURCE_TOKENS, keep_beams)
        return whole(texts)

    def readable(self, texts, ids, attention, unk_replace=None, truecase=None):
        """Readable tokens of `search`'s output for `texts`.

        `unk_replace` and `truecase` default to the translator's.
        """
        unk_replace = self.unk_replace if unk_replace is None else unk_replace
        truecase = self.truecase if truecase is None else truecase
        out, words = [], self.target_vocabulary.tokens
        for text, row, weights in zip(texts, ids, attention):
            row = row.tolist()  # Python ints: NumPy scalars compare slowly
            steps = postprocess.output_steps(row)
            source = self.source_tokens(text)
            tokens = [postprocess.output_token(row[s], words, source) for s in steps]
            out.append(
                postprocess.readable_tokens(
                    tokens,
                    weights[steps],
                    source,
                    self.truecaser,
                    unk_replace=unk_replace,
                    truecase=truecase,
                    limits=masking.copy_limits(source, self.counted),
                )
            )
        return out

    def translations(self, texts, beam_width: int | None = None, batch_size: int = 64):
        """Translations and attention `(steps, source tokens)` per text,
        without the scores `predict_items` adds (evaluation's fast path).

        A translation is readable text (module docstring), or with
        `detokenize=False` its tokens joined by spaces.
        """
        texts = list(texts)
        masks = masking.mask_inputs(texts, self.masking)
        read = self.model_texts(texts, masks)
        ids, attention, _ = self.search(read, beam_width, batch_size)
        tokens = self.readable(read, ids, attention)
        outputs = [masking.restored(self.join(t), m) for t, m in zip(tokens, masks)]
        return outputs, attention

    @staticmethod
    def model_texts(texts, masks) -> list[str]:
        """What the model reads of each text: its masked form, if masked."""
        return [t if m is None else m.text for t, m in zip(texts, masks)]

    def join(self, tokens) -> str:
        """Readable tokens as one string (detokenised unless `detokenize=False`)."""
        return postprocess.detokenize(tokens) if self.detokenize else " ".join(tokens)

    @staticmethod
    def source_tokens(text: str) -> list[str]:
        """The source tokens the model reads, in the text's case."""
        return postprocess.cased_tokens(text)[:MAX_SOURCE_TOKENS]

    def problems(self, text: str) -> list[str]:
        """What the input rules (module docstring) did to `text`, in words."""
        words = tokenizer.tokenize(text)
        if not words:
            return ["empty input: no words once normalized, translated as ''"]
        out = []
        if len(words) > MAX_SOURCE_TOKENS:
            out.append(
                f"{len(words)} words: only the first {MAX_SOURCE_TOKENS} are read"
            )
        unknown = [w for w in words if w not in self.source_vocabulary.index]
        if unknown:
            shown = ", ".join(quoted(w) for w in unknown[:5])
            more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
            out.append(f"words outside the vocabulary, read as <unk>: {shown}{more}")
        return out

    def check(self, text: str) -> None:
        """Raise `InputError` for inputs the command line refuses (empty ones)."""
        if not tokenizer.tokenize(text):
            raise InputError(
                f"empty input: {quoted(text)} has no words once normalized"
            )

    def predict_items(
        self,
        inputs,
        beam_width: int | None = None,
        batch_size: int = 64,
        n_best: bool = False,
    ) -> list[dict]:
        """`{"input", "text", "score", "valid", "reason", "notes",
        "source_tokens", "tokens", "attention"}` per text.

        The translator's one prediction path (`RunPredictor.__call__`).
        `score` is the search's log-probability of its output per token
        (`<end>` included; None for an input without a word); `valid` is False, with the
        `reason`, for an input the model cannot read (no word once
        normalized, whose text is "") or one unlike the texts it was
        trained on, or, for a run that masks placeholders, an output that
        does not keep them (`reason`); `notes` (also `problems`) name what
        the input rules did to it. With masking, `source_tokens`, `tokens`
        and `attention` are the masked text's (`PH_PRINTF_1`), and `text`
        has the placeholders back.

        Args:
            inputs: the texts.
            beam_width: 1 for greedy search; default: the run's.
            batch_size: texts decoded at once (of similar lengths).
            n_best: add `n_best`, every hypothesis of the search, best
                first: `{"text", "score", "ranking_score"}` each (one under
                greedy search; `search.ranking_scores`).
        """
        texts = as_texts(inputs)
        if not isinstance(n_best, bool):
            raise TypeError(f"`n_best` must be a bool. Received: n_best={n_best!r}")
        masks = masking.mask_inputs(texts, self.masking)
        read = self.model_texts(texts, masks)
        ids, attention, scores = self.search(read, beam_width, batch_size, n_best)
        alternatives = None
        if n_best:
            alternatives = listed(self, read, masks, ids, attention, scores)
            ids, scores = ids[:, 0], scores[:, 0]
            attention = [a[0] for a in attention]
        readable = self.readable(read, ids, attention)
        items = []
        rows = zip(texts, masks, read, readable, scores, attention)
        for text, masked, model_text, tokens, score, weights in rows:
            source = self.source_tokens(model_text)
            score = float(score) if source else None
            output = masking.restored(self.join(tokens), masked)
            reason = self.reason(text, score, output if masked else None)
            items.append(
                {
                    "input": text,
                    "text": output,
                    "score": score,
                    "valid": not reason,
                    "reason": reason,
                    "notes": self.problems(model_text),
                    "problems": self.problems(model_text),
                    "source_tokens": source,
                    "tokens": tokens,
                    # One row per output token and <end>, over the source.
                    "attention": weights[: len(tokens) + 1] if source else weights,
                }
            )
        if alternatives is not None:
            for item, more in zip(items, alternatives):
                item["n_best"] = more
        return items

    def reason(
        self, text: str, score: float | None = None, output: str | None = None
    ) -> str:
        """Why the translation `output` of `text` is not valid ("" when it
        is): no word to read, a text unlike the training sources
        (`domain`), or, given the `output` of a run that masks its
        placeholders, one that does not keep them (`masking.reason`)."""
        if not tokenizer.tokenize(text):
            return "empty input: no words once normalized"
        if self.domain is not None and self.domain.reason(text):
            return self.domain.reason(text)
        if output is not None:
            return masking.reason(text, output)
        return ""

    def unknown_words(self, text: str) -> list[str]:
        """The words of `text` outside the source vocabulary (read as `<unk>`)."""
        vocabulary = self.source_vocabulary
        return [w for w in tokenizer.tokenize(text) if w not in vocabulary.index]
