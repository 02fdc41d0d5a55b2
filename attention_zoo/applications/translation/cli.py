"""`attention-zoo translation train|evaluate|translate|plot|export`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from attention_zoo.applications.common import model_tasks
from attention_zoo.applications.translation.config import TrainConfig
from attention_zoo.applications.translation.lines import FORMATS

DEFAULT_PRESET = "bible_en_es"
# RuntimeError: a tensorflow_datasets download that failed.
COMMAND = model_tasks.AppCommand(
    "translation",
    TrainConfig,
    DEFAULT_PRESET,
    errors=(RuntimeError,),
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
)
# The help of `translate` after its usage line.
TRANSLATE_DESCRIPTION = (
    "Translate the TEXT arguments, or the lines of --input (a file, or - for "
    "standard input), one sentence a line. Arguments are printed as 'text' -> "
    "'translation'; lines give exactly one output line each, with a message on "
    "standard error for a line that is empty, too long, not UTF-8 or holds "
    "unknown words."
)


def _corpus_field(args) -> dict:
    """The config's `corpus`: the source the flags name."""
    corpus = "tsv" if args.pairs else "tfds" if args.tfds else args.corpus or "bible"
    return {"corpus": corpus}


def add_parser(commands) -> None:
    tasks = model_tasks.add_application(commands, COMMAND)
    evaluate = tasks["evaluate"]
    evaluate.add_argument(
        "--run",
        action="append",
        help="run folder (repeat to compare runs by source length)",
    )
    evaluate.add_argument("--beam-width", type=int, default=None)
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
        "--plot", default=None, help="PNG of BLEU by source length, one line per run"
    )

    translate = tasks["translate"]
    translate.description = TRANSLATE_DESCRIPTION
    translate.add_argument("texts", nargs="*", metavar="TEXT", help="- reads stdin")
    translate.add_argument("--input", default=None, help="file, one sentence a line")
    translate.add_argument("--output", default=None, help="file (default stdout)")
    translate.add_argument("--format", choices=FORMATS, default="text")
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
    model_tasks.add_model_flags(translate, COMMAND)


def run(args, parser) -> int:
    from attention_zoo.applications.translation import tasks

    def evaluate():
        runs = args.run or ["runs/translation"]
        named = {}
        for run_dir, label in zip(runs, tasks.run_labels(runs)):
            metrics = tasks.evaluate(run_dir, args.beam_width, args.test_pairs)
            (Path(run_dir) / "metrics_evaluate.json").write_text(
                json.dumps(metrics, indent=1), encoding="utf-8"
            )
            print(f"## {run_dir}\n")
            print(tasks.format_metrics(metrics) + "\n")
            named[label] = metrics
            if args.ablation:
                print(tasks.ablation(run_dir, args.beam_width, args.test_pairs) + "\n")
        print(tasks.compare_runs(named))
        if args.plot:
            print(tasks.plot_lengths(named, args.plot))

    def translate():
        from attention_zoo.applications.translation import lines

        stdin = args.input == "-" or args.texts == ["-"]
        if args.input is None and not args.texts:
            parser.error("translate needs TEXT arguments, --input FILE or -")
        if (args.input is not None or stdin) and args.texts and args.texts != ["-"]:
            parser.error("give TEXT arguments or --input, not both")
        raw = dict(unk_replace=False, truecase=False, detokenize=False)
        run = model_tasks.model_run(args, COMMAND)
        translator = tasks.Translator(
            run, beam_width=args.beam_width, **(raw if args.tokens else {})
        )
        if (
            args.input is None
            and not stdin
            and args.format == "text"
            and not (args.output)
        ):
            for text, translation, unknown in tasks.translate(
                run, args.texts, args.beam_width, translator=translator
            ):
                suffix = (
                    f"   [unknown words read as <unk>: {unknown}]" if unknown else ""
                )
                print(f"{text!r} -> {translation!r}{suffix}")
            return
        if stdin:
            data = sys.stdin.buffer.read()
        elif args.input is not None:
            data = Path(args.input).read_bytes()
        else:
            data = "\n".join(args.texts).encode("utf-8", "surrogateescape")
        output = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
        try:
            flagged = lines.translate_lines(
                translator,
                lines.read_lines(data),
                output,
                args.format,
                args.with_attention,
                args.beam_width,
                progress=args.progress or sys.stderr.isatty(),
            )
        finally:
            if args.output:
                output.close()
        if flagged:
            print(f"{flagged} line(s) drew a message (above)", file=sys.stderr)

    jobs = {"evaluate": evaluate, "translate": translate}
    return model_tasks.run_command(
        COMMAND, tasks, args, parser, jobs, fields=_corpus_field
    )
