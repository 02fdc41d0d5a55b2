"""ROUGE and what a summary copies: the summarizer's test metrics.

For each search (`greedy`, `beam4`, ...), over the test examples:

- `rouge1`, `rouge2`, `rougeL`: mean F1 x 100 of Google's `rouge-score`
  (Porter stemming, its own lower-cased tokenization), the field's
  reference implementation;
- `copy_rate`: the share of summary words the copy mechanism copied;
- `novel_share`: the share of summary words absent from the text;
- `names`: of the words a reference keeps from its text that are outside
  the vocabulary (package names, mostly), the share the summary has too;
- `repetition`: the share of summary words that repeat an earlier word of
  the same summary;
- `valid`: the share of answers the predictor calls valid.

`lead` gives the baseline the field starts from: the text's first words.
"""

from __future__ import annotations

from pathlib import Path

from attention_zoo.applications.common.errors import read_examples
from attention_zoo.applications.common.search import search_name, search_names
from attention_zoo.applications.common.text import tokenize
from attention_zoo.applications.summarization import data
from attention_zoo.applications.summarization.config import MAX_SOURCE_TOKENS
from attention_zoo.applications.summarization.predictor import Summarizer

ROUGE_TYPES = ("rouge1", "rouge2", "rougeL")


def rouge(hypotheses, references) -> dict:
    """Mean ROUGE-1/2/L F1 (x 100) of `hypotheses` against `references`."""
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(list(ROUGE_TYPES), use_stemmer=True)
    totals = dict.fromkeys(ROUGE_TYPES, 0.0)
    for hypothesis, reference in zip(hypotheses, references):
        scores = scorer.score(reference, hypothesis)
        for key in ROUGE_TYPES:
            totals[key] += scores[key].fmeasure
    count = max(len(references), 1)
    return {key: round(100 * value / count, 2) for key, value in totals.items()}


def lead(text: str, words: int) -> str:
    """The first `words` words of `text`: the lead baseline."""
    return " ".join(text.split()[:words])


def names_kept(examples, summaries, vocabulary) -> float | None:
    """Of the reference words that are text words outside `vocabulary`, the
    share the summaries hold (None when the references keep none)."""
    kept = total = 0
    for example, summary in zip(examples, summaries):
        source = set(tokenize(example.text)[:MAX_SOURCE_TOKENS])
        names = {
            w
            for w in tokenize(example.summary)
            if w in source and w not in vocabulary.index
        }
        total += len(names)
        kept += len(names & set(tokenize(summary)))
    return round(kept / total, 4) if total else None


def summary_statistics(examples, items, vocabulary) -> dict:
    """ROUGE, copy rate, novel words, names kept, repetition and validity of
    the predictor's `items` for `examples`."""
    summaries = [item["text"] for item in items]
    words = copied = novel = repeated = 0
    for example, item in zip(examples, items):
        source = set(tokenize(example.text))
        tokens = [t.lower() for t in item["tokens"]]
        words += len(tokens)
        copied += sum(item["copied"])
        novel += sum(t not in source for t in tokens)
        repeated += sum(t in tokens[:i] for i, t in enumerate(tokens))
    total = max(words, 1)
    return {
        **rouge(summaries, [e.summary for e in examples]),
        "copy_rate": round(copied / total, 4),
        "novel_share": round(novel / total, 4),
        "names": names_kept(examples, summaries, vocabulary),
        "repetition": round(repeated / total, 4),
        "valid": round(sum(i["valid"] for i in items) / max(len(items), 1), 4),
        "words_per_summary": round(words / max(len(items), 1), 2),
    }


def evaluate_examples(summarizer: Summarizer, examples, beam_widths=None) -> dict:
    """The metrics of the module docstring per search (default: greedy and
    the run's beam)."""
    widths = beam_widths or sorted({1, summarizer.beam_width})
    metrics = {"n": len(examples)}
    texts = [e.text for e in examples]
    for width in widths:
        items = summarizer(texts, beam_width=width)
        metrics[search_name(width)] = summary_statistics(
            examples, items, summarizer.vocabulary
        )
    return metrics


def evaluate(run_dir, beam_width: int | None = None, test_pairs=None) -> dict:
    """The test metrics of a run on its test pairs (or `test_pairs`)."""
    summarizer = Summarizer(run_dir)
    path = Path(test_pairs) if test_pairs else Path(run_dir) / "data" / "test.tsv"
    examples = read_examples(path, data.read_pairs)
    widths = [beam_width] if beam_width else None
    return evaluate_examples(summarizer, examples, widths)


def format_metrics(metrics: dict) -> str:
    """The test metrics as a Markdown table, one row per search."""
    columns = [*ROUGE_TYPES, "names", "copy_rate", "novel_share", "repetition"]
    lines = [
        f"test texts: {metrics['n']:,}",
        "",
        "| search | " + " | ".join(columns) + " | valid |",
        "| --- | " + " | ".join("---:" for _ in columns) + " | ---: |",
    ]
    for name in search_names(metrics):
        row = metrics[name]
        cells = [
            "-"
            if row[c] is None
            else f"{row[c]:.2f}"
            if c.startswith("rouge")
            else f"{100 * row[c]:.1f} %"
            for c in columns
        ]
        lines.append(
            f"| {name} | " + " | ".join(cells) + f" | {100 * row['valid']:.1f} % |"
        )
    return "\n".join(lines)
