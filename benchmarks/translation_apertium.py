"""Software messages, English to Spanish, side by side with Apertium: the
held-out packages' messages of the software corpus, scored in one run.

Inputs: the test split (or `--split validation`) of the software corpus
(`attention_zoo.applications.translation.software.recipe`: Debian's Spanish
message catalogs, split by package, so these are packages no model trained
on); `--limit N` takes N messages spread over the split (a seeded sample).

`--test docs`: documentation prose instead, the documentation-prose test
(`attention_zoo.applications.translation.software.help_recipe`): aligned
paragraphs, list items and titles of the translated GNOME help pages of
packages no training reads, less any block whose English text is a message
of the software corpus's training split; 1000 of them by default (a seeded
sample; `--limit N` for another size).

Systems:

- `apertium`: the rule-based translator any Debian machine installs, an
  optional dependency of this benchmark: `apt-get install -y apertium
  apertium-eng-spa`. Absent, the benchmark says so and skips it. It runs as
  `apertium -u eng-spa` (`-u`: unknown words without Apertium's `*` mark),
  all messages in one process, one separator line between two messages.
- `--preset NAME` / `--run DIR`: a translator of this package, given the
  messages with their placeholders masked (`placeholders.mask`) and its
  output restored (`--no-mask`: the raw messages).

Columns: cased BLEU and chrF (sacreBLEU's default 13a tokenization, raw
references; the signatures are printed), `kept`: the share of messages
whose output keeps every placeholder (`placeholder_check.problems`), over
all messages and over those that hold a placeholder, and sentences per
second: the median of `--repeats` passes over the whole batch (3 by
default), the systems' passes run in turn so that the machine's load falls
on each alike, every pass's time printed. Apertium's pass is its whole
process; a translator's passes come after a first that compiled its search
at every shape they use, reported beside them as the once-per-process
warm-up. The translator's sentences per second are then printed as a
share of Apertium's.

Usage:

    apt-get install -y apertium apertium-eng-spa   # optional
    python -m benchmarks.translation_apertium
    python -m benchmarks.translation_apertium --limit 2000 --preset NAME
    python -m benchmarks.translation_apertium --test docs --run RUN
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from attention_zoo.applications.translation.placeholder_check import (  # noqa: E402
    problems,
)
from attention_zoo.applications.translation.placeholders import (  # noqa: E402
    find,
    mask,
    restore,
)
from attention_zoo.applications.translation.software import (  # noqa: E402
    help_recipe,
    recipe,
)
from benchmarks import harness  # noqa: E402

APERTIUM_INSTALL = "apt-get install -y apertium apertium-eng-spa"
SPLITS = {"validation": 1, "test": 2}
DOCS_LIMIT = 1000


def held_out(split: str = "test", limit: int | None = None, seed: int = 0):
    """The messages of a held-out split, `limit` of them sampled with `seed`."""
    messages, card = recipe.build()
    chosen = recipe.split_by_package(messages, seed)[SPLITS[split]]
    if limit and limit < len(chosen):
        chosen = random.Random(seed).sample(chosen, limit)
    return chosen, card


def documentation(limit: int | None = DOCS_LIMIT, seed: int = 0):
    """`(pairs, facts)`: the documentation-prose test, less the blocks whose
    English text the software corpus trains on, `limit` of them sampled
    with `seed`; `facts` are lines that say where they come from."""
    pairs, card = help_recipe.build()
    messages, _ = recipe.build()
    trained = {m.source for m in recipe.split_by_package(messages, seed)[0]}
    unseen = [p for p in pairs if p.source not in trained]
    chosen = unseen
    if limit and limit < len(unseen):
        chosen = random.Random(seed).sample(unseen, limit)
    facts = [
        f"help pages of {len(card['packages'])} packages no training reads "
        f"({', '.join(sorted(card['packages']))}): {card['pairs']:,} blocks, "
        f"{len(pairs) - len(unseen)} dropped as training messages",
        f"docs: {len(chosen):,} blocks (seed {seed}), "
        f"{sum(len(p.source.split()) for p in chosen):,} English words",
    ]
    return chosen, facts


def apertium_available() -> str | None:
    """Why Apertium cannot run here, or None when it can."""
    if not shutil.which("apertium"):
        return f"Apertium is not installed (optional: {APERTIUM_INSTALL})"
    done = subprocess.run(
        ["apertium", "-l"], capture_output=True, text=True, check=False
    )
    if "eng-spa" not in done.stdout.split():
        return f"Apertium has no eng-spa mode (optional: {APERTIUM_INSTALL})"
    return None


# Between two messages: a line Apertium copies as it is (no word, invisible
# separators around a symbol no message holds), so messages that hold line
# breaks stay aligned. Its null-flush mode (-z) would do it, but the text
# deformatter of apertium 3.8 drops the NUL characters.
SEPARATOR = "\n\u2063\u2042\u2063\n"


def apertium(texts) -> list[str]:
    """Apertium's translations of `texts`, all in one process."""
    payload = SEPARATOR.join(t.replace(SEPARATOR, "\n") for t in texts)
    done = subprocess.run(
        ["apertium", "-u", "eng-spa"],
        input=payload.encode("utf-8"),
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(
            "apertium failed: " + done.stderr.decode("utf-8", "replace")[-300:]
        )
    outputs = done.stdout.decode("utf-8", "replace").split(SEPARATOR)
    if len(outputs) != len(texts):
        raise RuntimeError(
            f"apertium gave {len(outputs)} outputs for {len(texts)} messages"
        )
    return outputs


def model_translate(translator, texts, use_mask: bool = True) -> list[str]:
    """A translator's outputs, with placeholders masked and restored."""
    # A run that masks its placeholders itself (`translation.masking`).
    if not use_mask or translator.masking:
        return translator.translations(texts)[0]
    masked = [mask(t) for t in texts]
    outputs, _ = translator.translations([m.text for m in masked])
    return [restore(o, m) for o, m in zip(outputs, masked)]


def warmed_up(translator, texts, use_mask: bool = True):
    """`(outputs, timing)`: a translator's first pass over `texts`, which
    compiles its search at every shape a later pass over them uses, and a
    function that runs such a later pass.

    The search compiles once per input shape (rows, source width) in each
    process, as `attention-zoo serve` compiles its shapes at start:
    `warm_up_seconds` is this pass (compilations included, what a one-off
    command pays). `timed_passes` then times the later passes; Apertium's
    passes have no such step, each is its whole process.
    """
    start = time.perf_counter()
    first = model_translate(translator, texts, use_mask)
    timing = {"warm_up_seconds": time.perf_counter() - start}
    return first, timing, lambda: model_translate(translator, texts, use_mask)


def timed_passes(systems: dict, repeats: int, first: dict | None = None):
    """`(outputs, seconds)`: each of `systems` (name -> a function running
    one pass) run `repeats` times, in turn (A, B, A, B, ...), so that a
    change in the machine's load falls on all of them alike; `seconds[name]`
    lists its passes' wall times. Every pass of a system must give the
    outputs of its first (or of `first[name]`, a warm-up's)."""
    if repeats < 1:
        raise ValueError(f"`repeats` must be at least 1. Received: {repeats}")
    outputs = dict(first or {})
    seconds = {name: [] for name in systems}
    for number in range(1, repeats + 1):
        for name, run in systems.items():
            start = time.perf_counter()
            out = run()
            seconds[name].append(time.perf_counter() - start)
            if outputs.setdefault(name, out) != out:
                raise RuntimeError(f"{name} gave other outputs in its pass {number}")
    return outputs, seconds


def speed(n: int, seconds: list[float]) -> dict:
    """Sentences per second of the median pass, and every pass's."""
    return {
        "seconds": statistics.median(seconds),
        "passes_seconds": seconds,
        "sentences_per_second": n / statistics.median(seconds),
    }


def score(sources, outputs, references) -> dict:
    """BLEU, chrF (with signatures) and the placeholders kept."""
    from attention_zoo.metrics import corpus_scores

    scores = corpus_scores(outputs, references)
    with_placeholders = [i for i, s in enumerate(sources) if find(s)]
    kept = [not problems(s, o) for s, o in zip(sources, outputs)]
    scores["kept"] = sum(kept) / len(kept)
    scores["kept_with_placeholders"] = (
        sum(kept[i] for i in with_placeholders) / len(with_placeholders)
        if with_placeholders
        else 1.0
    )
    scores["messages_with_placeholders"] = len(with_placeholders)
    return scores


def main(argv=None) -> dict:
    parser = harness.argument_parser(__doc__)
    parser.add_argument(
        "--test",
        choices=("messages", "docs"),
        default="messages",
        help="held-out packages' messages, or documentation prose (help pages)",
    )
    parser.add_argument(
        "--split", choices=sorted(SPLITS), default="test", help="messages only"
    )
    parser.add_argument(
        "--limit", type=int, default=None, help="messages (or docs blocks) to score"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--repeats", type=int, default=3, help="timed passes of each system"
    )
    system = parser.add_mutually_exclusive_group()
    system.add_argument("--preset", help="a translation preset to score too")
    system.add_argument("--run", help="a translation run folder to score too")
    parser.add_argument("--no-mask", action="store_true")
    parser.add_argument("--json", help="file to write the results to")
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        parser.error(f"--limit must be at least 1. Received: {args.limit}")
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1. Received: {args.repeats}")

    if args.test == "docs":
        pairs, facts = documentation(args.limit or DOCS_LIMIT, args.seed)
        sources = [p.source for p in pairs]
        references = [p.target for p in pairs]
        title = "Documentation prose, English to Spanish, against Apertium"
    else:
        messages, card = held_out(args.split, args.limit, args.seed)
        sources = [m.source for m in messages]
        references = [m.target for m in messages]
        packages = sorted({p for m in messages for p in m.packages})
        title = "Software messages, English to Spanish, against Apertium"
        facts = [
            f"corpus: {len(card['packages'])} packages, {card['pairs']:,} pairs, "
            f"{card['english_words']:,} English words",
            f"{args.split}: {len(messages):,} messages of {len(packages)} held-out "
            f"packages, {sum(len(s.split()) for s in sources):,} English words",
        ]
    harness.print_header(title)
    harness.print_facts(facts)
    results, systems, first, warm = {}, {}, {}, {}
    reason = apertium_available()
    if reason:
        print(f"\n{reason}: skipped.")
    else:
        systems["apertium"] = lambda: apertium(sources)
    if args.preset or args.run:
        from attention_zoo.applications.translation.predictor import Translator

        name = args.preset or args.run
        translator = (
            Translator.from_preset(args.preset) if args.preset else Translator(args.run)
        )
        first[name], warm[name], systems[name] = warmed_up(
            translator, sources, not args.no_mask
        )
        compiles = translator.compiled_shapes.compiles
    outputs, seconds = timed_passes(systems, args.repeats, first)
    for name in systems:
        results[name] = score(sources, outputs[name], references)
        results[name].update(speed(len(sources), seconds[name]), **warm.get(name, {}))
    if warm:
        model = args.preset or args.run
        results[model]["compiles_in_timed_passes"] = (
            translator.compiled_shapes.compiles - compiles
        )
    rows = [
        [
            name,
            f"{r['bleu']:.1f}",
            f"{r['chrf']:.1f}",
            f"{100 * r['kept']:.1f} %",
            f"{100 * r['kept_with_placeholders']:.1f} % of "
            f"{r['messages_with_placeholders']:,}",
            f"{r['sentences_per_second']:.0f}",
        ]
        for name, r in results.items()
    ]
    if rows:
        print()
        harness.print_table(
            ["system", "BLEU", "chrF", "kept", "kept (with placeholders)", "sent/s"],
            rows,
        )
        print(
            f"\nsent/s: the median of {args.repeats} passes each, run in turn; "
            "passes (s): "
            + "; ".join(
                f"{name} " + ", ".join(f"{t:.2f}" for t in r["passes_seconds"])
                for name, r in results.items()
            )
        )
        for name, r in results.items():
            if "warm_up_seconds" in r:
                print(
                    f"\n{name}: a first pass over the messages compiled the "
                    f"search at each shape it uses ({r['warm_up_seconds']:.1f} s, "
                    f"{len(sources) / r['warm_up_seconds']:.0f} sent/s, compilations "
                    "once per process); the timed passes compiled "
                    f"{r['compiles_in_timed_passes']} shapes"
                )
                if "apertium" in results:
                    ratio = (
                        r["sentences_per_second"]
                        / results["apertium"]["sentences_per_second"]
                    )
                    print(f"{name}: {ratio:.2f} of Apertium's sentences per second")
        first = next(iter(results.values()))
        print(f"\nBLEU: {first['bleu_signature']}\nchrF: {first['chrf_signature']}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(
                {"test": args.test, "results": results, "n": len(sources)}, f, indent=1
            )
    return results


if __name__ == "__main__":
    sys.exit(0 if main() is not None else 1)
