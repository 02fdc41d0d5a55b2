"""The translator's own tasks on the command line: `evaluate`, `translate`.

`train`, `plot` and `export` are the skeleton's (`common.command`).
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from attention_zoo.applications.common import command
from attention_zoo.applications.common.application import Command
from attention_zoo.applications.common.config import MAX_BEAM_WIDTH
from attention_zoo.applications.common.run_folder import (
    atomic_output,
    write_evaluation,
)
from attention_zoo.applications.translation.lines import FORMATS

# The help of `translate` after its usage line.
TRANSLATE_DESCRIPTION = (
    "Translate the TEXT arguments, or the lines of --input (a file, or - for "
    "standard input), one sentence a line. Arguments are printed as 'text' -> "
    "'translation'; lines give exactly one output line each, with a message on "
    "standard error for a line that is empty, too long, not UTF-8 or holds "
    "unknown words."
)


def read_stdin() -> bytes:
    """Standard input's bytes; a closed standard input (`<&-`) is refused in
    one line instead of failing on `None`."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise ValueError(
            "standard input is closed; give TEXT arguments or --input FILE"
        )
    try:
        return stream.read()
    except (OSError, ValueError) as error:  # a closed or unreadable descriptor
        raise ValueError(f"cannot read standard input ({error})") from error


def corpus_field(args) -> dict:
    """The config's `corpus`: the source the flags name."""
    corpus = "tsv" if args.pairs else "tfds" if args.tfds else args.corpus or "bible"
    return {"corpus": corpus}


def add_arguments(tasks, app) -> None:
    evaluate = tasks["evaluate"]
    evaluate.add_argument(
        "--run",
        action="append",
        help="run folder; repeat to compare runs by source length (default "
        "runs/translation)",
    )
    evaluate.add_argument(
        "--beam-width",
        type=int,
        default=None,
        help=f"beams of the search scored beside greedy, from 1 to {MAX_BEAM_WIDTH} "
        "(default: the run's beam width)",
    )
    evaluate.add_argument(
        "--test-pairs",
        default=None,
        help="TSV file of pairs to score on (default: the run's data/test.tsv)",
    )
    evaluate.add_argument(
        "--ablation",
        action="store_true",
        help="also score the output without unknown-word replacement, "
        "truecasing and detokenization",
    )
    evaluate.add_argument(
        "--plot",
        default=None,
        help="PNG file to draw BLEU by source length in, one line per run "
        "(default: none drawn)",
    )

    translate = tasks["translate"]
    translate.description = TRANSLATE_DESCRIPTION
    translate.add_argument("texts", nargs="*", metavar="TEXT", help="- reads stdin")
    translate.add_argument("--input", default=None, help="file, one sentence a line")
    translate.add_argument("--output", default=None, help="file (default stdout)")
    translate.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: one translation a line; jsonl: one JSON object a line "
        "(default text)",
    )
    translate.add_argument(
        "--with-attention",
        action="store_true",
        help="jsonl: add the tokens and the attention weights",
    )
    translate.add_argument(
        "--progress",
        action="store_true",
        help="progress bar on stderr (default: when stderr is a terminal)",
    )
    translate.add_argument(
        "--tokens",
        action="store_true",
        help="the model's lower-cased tokens: no unknown-word replacement, "
        "truecasing or detokenization",
    )
    command.add_model_flags(translate, app)


def jobs(args, parser, app) -> dict:
    from attention_zoo.applications.translation import comparison, evaluation
    from attention_zoo.applications.translation.predictor import Translator

    def evaluate():
        runs = args.run or ["runs/translation"]
        named = {}
        for run_dir, label in zip(runs, comparison.run_labels(runs)):
            metrics = evaluation.evaluate(run_dir, args.beam_width, args.test_pairs)
            write_evaluation(run_dir, metrics)
            print(f"## {run_dir}\n")
            print(evaluation.format_metrics(metrics) + "\n")
            named[label] = metrics
            if args.ablation:
                print(
                    evaluation.ablation(run_dir, args.beam_width, args.test_pairs)
                    + "\n"
                )
        print(comparison.compare_runs(named))
        if args.plot:
            print(comparison.plot_lengths(named, args.plot))

    def translate_job():
        from attention_zoo.applications.translation import lines

        stdin = args.input == "-" or args.texts == ["-"]
        if args.input is None and not args.texts:
            parser.error("translate needs TEXT arguments, --input FILE or -")
        if (args.input is not None or stdin) and args.texts and args.texts != ["-"]:
            parser.error("give TEXT arguments or --input, not both")
        raw = dict(unk_replace=False, truecase=False, detokenize=False)
        run = command.model_run(args, app)
        translator = Translator(
            run, beam_width=args.beam_width, **(raw if args.tokens else {})
        )
        if (
            args.input is None
            and not stdin
            and args.format == "text"
            and not (args.output)
        ):
            translator.check_all(args.texts)
            for item in translator(args.texts, beam_width=args.beam_width):
                unknown = translator.unknown_words(item["input"])
                suffix = (
                    f"   [unknown words read as <unk>: {unknown}]" if unknown else ""
                )
                print(f"{item['input']!r} -> {item['text']!r}{suffix}")
            return
        if stdin:
            data = read_stdin()
        elif args.input is not None:
            data = Path(args.input).read_bytes()
        else:
            data = "\n".join(args.texts).encode("utf-8", "surrogateescape")
        # A file is written whole or not at all (a full disk, an error).
        opened = (
            atomic_output(args.output)
            if args.output
            else contextlib.nullcontext(sys.stdout)
        )
        with opened as output:
            flagged = lines.translate_lines(
                translator,
                lines.read_lines(data),
                output,
                args.format,
                args.with_attention,
                args.beam_width,
                progress=args.progress or sys.stderr.isatty(),
            )
        if flagged:
            print(f"{flagged} line(s) drew a message (above)", file=sys.stderr)

    return {"evaluate": evaluate, "translate": translate_job}


# RuntimeError: a tensorflow_datasets download that failed.
COMMAND = Command(
    help="neural machine translation (offline: English-Spanish Bible verses)",
    description="Train and use an encoder-decoder translation model with "
    "attention. The offline corpus is English-Spanish Bible verses from the "
    "Debian packages sword-text-web and sword-text-sparv.",
    tasks={
        "train": "train a model on a corpus",
        "evaluate": "sacreBLEU BLEU and chrF on the run's test pairs",
        "translate": "translate sentences: arguments, a file or standard input",
        "plot": "attention heatmap PNGs for the given sentences",
        "export": "write a SavedModel that translates raw strings",
    },
    default_preset="bible_en_es",
    errors=(RuntimeError,),
    add_arguments=add_arguments,
    config_fields=corpus_field,
    jobs=jobs,
)
