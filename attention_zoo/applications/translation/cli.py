"""The translator's own tasks on the command line: `evaluate`, `translate`,
`shortlist`.

`train`, `plot` and `export` are the skeleton's (`common.command`).
"""

from __future__ import annotations

from attention_zoo.applications.common import command
from attention_zoo.applications.common.application import Command
from attention_zoo.applications.common.config import MAX_BEAM_WIDTH
from attention_zoo.applications.common.run_folder import write_evaluation
from attention_zoo.applications.translation.listing import LISTING

# The help of `translate` after its usage line.
TRANSLATE_DESCRIPTION = (
    "Translate the TEXT arguments, or the lines of --input (a file, or - for "
    "standard input), one sentence a line. Arguments are printed as 'text' -> "
    "'translation'; lines give exactly one output line each (empty where the "
    "translation is not valid), with a message on standard error for a line "
    "that is not valid, empty, too long, not UTF-8 or holds unknown words."
)


def corpus_field(args) -> dict:
    """The config's `corpus`: the source the flags name."""
    corpus = (
        "tsv"
        if args.pairs
        else "po"
        if args.po
        else "tfds"
        if args.tfds
        else args.corpus or "bible"
    )
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
    translate.add_argument(
        "--tokens",
        action="store_true",
        help="the model's lower-cased tokens: no unknown-word replacement, "
        "truecasing or detokenization",
    )
    command.add_answer_flags(translate, app)

    tasks["shortlist"].add_argument(
        "--run",
        required=True,
        help="run folder: its shortlist.json is learned from the greedy outputs "
        "of its model on its training sentences (a few minutes)",
    )


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

    raw = dict(unk_replace=False, truecase=False, detokenize=False)

    def translator(run):
        options = raw if args.tokens else {}
        return Translator(run, beam_width=args.beam_width, **options)

    def translate():
        job = command.answer_job(
            args, parser, app, translator, beam_width=args.beam_width
        )
        return job()

    def shortlist():
        from attention_zoo.applications.translation.training import learn_shortlist

        print(f"wrote {learn_shortlist(args.run)}")

    return {"evaluate": evaluate, "translate": translate, "shortlist": shortlist}


# RuntimeError: a tensorflow_datasets download that failed.
COMMAND = Command(
    help=LISTING.help,
    description=LISTING.description,
    tasks=LISTING.tasks,
    default_preset="bible_en_es",
    errors=(RuntimeError,),
    add_arguments=add_arguments,
    config_fields=corpus_field,
    jobs=jobs,
)
