"""The `attention-zoo` command line.

It answers `--help`, `--version`, every command's and task's `--help` and
an argument error without Keras: it first parses with
`build_parser(tasks=False)`, the applications' commands built from their
listings (`registry.listings`), and builds the whole parser, each task's
flags with it, only for a task of an application, from parts that import
no model either (`registry.command_parts`); Keras starts (`_start_models`)
when a model is needed, after the arguments are parsed.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import os
import sys

# TensorFlow's C++ start-up logging drowns the command's own output; only
# logging is silenced, never a setting that changes the numbers.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from attention_zoo import _quiet_startup  # noqa: E402
from attention_zoo.applications import registry  # noqa: E402
from attention_zoo.applications.common.cli import (  # noqa: E402
    OneLineParser,
    add_listing,
    run_task,
)
from attention_zoo.applications.common.errors import (  # noqa: E402
    DEBUG_VARIABLE,
    closed_stdout,
    run_guarded,
)
from attention_zoo.serving.command_line import (  # noqa: E402
    add_serve,
    check_serve_arguments,
)
from attention_zoo.version import __version__  # noqa: E402


def build_parser(tasks: bool = True) -> argparse.ArgumentParser:
    """The parser of the whole command.

    Args:
        tasks: False: each application's command and tasks as its listing
            gives them (`registry.listings`), its tasks without flags (they
            take any argument, `--help` included), so that no application
            and no Keras is imported; every other command is whole. True:
            each task's flags too, from `registry.command_parts` (the
            applications' listings, `cli.py` and `config.py`), still
            without the models or Keras.
    """
    parser = OneLineParser(
        prog="attention-zoo",
        description="Keras 3 attention mechanisms and the applications built on them.",
    )
    parser.add_argument(
        "--version", action="version", version=f"attention-zoo {__version__}"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = commands.add_parser(
        "demo",
        help="train a small BahdanauAttention model to reverse digits (about a minute)",
        description="Train a small model with BahdanauAttention to reverse digit "
        "sequences with model.fit, then print its accuracy and attention matrix.",
    )
    demo.add_argument(
        "--epochs",
        type=int,
        default=8,
        help="passes over the 4,000 training sequences, at least 1 (default 8)",
    )
    demo.add_argument(
        "--length",
        type=int,
        default=8,
        help="digits per sequence, at least 2 (default 8)",
    )
    demo.add_argument(
        "--seed",
        type=int,
        default=0,
        help="random seed of the digits and the initial weights (default 0)",
    )
    if tasks:
        from attention_zoo.applications.common.command import add_application

        for parts in registry.command_parts():
            add_application(commands, parts)
    else:
        for listing in registry.listings():
            add_listing(commands, listing, task_help=False)
    add_serve(commands)
    presets = commands.add_parser(
        "presets",
        help="the pretrained models shipped with the package",
        description="The pretrained models shipped inside the package.",
    )
    presets_tasks = presets.add_subparsers(dest="task", metavar="TASK", required=True)
    presets_tasks.add_parser("list", help="name, application and metrics of each")
    build = presets_tasks.add_parser(
        "build",
        help="retrain shipped presets from their recipes and rewrite them",
        description="Train each named preset's recipe with its recorded command "
        "and seed, then rewrite its folder in the package (weights, metadata, "
        "test slice, model card).",
    )
    build.add_argument(
        "names", nargs="*", metavar="NAME", help="presets to build (default: all)"
    )
    build.add_argument(
        "--work",
        default="runs/presets",
        help="folder of the training runs (default runs/presets)",
    )
    build.add_argument(
        "--no-train",
        action="store_true",
        help="reuse the runs already in --work (rewrite the presets only)",
    )
    show = presets_tasks.add_parser(
        "show", help="a preset's model card, its metrics grouped by decoding"
    )
    show.add_argument(
        "name", metavar="NAME", help="a shipped preset or a preset folder"
    )
    refresh = presets_tasks.add_parser(
        "refresh",
        help="derive again what a preset's weights do not fix (validity "
        "calibration, recorded outputs, slice metrics, card)",
        description="With the code of today, write again each named preset's "
        "calibration files (the application's calibrate), the outputs on its "
        "fixed inputs, its test-slice metrics and its model card; the weights, "
        "the training command and the seed stay.",
    )
    refresh.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="presets to refresh (default: every shipped one)",
    )
    return parser


def _serve(parser, args) -> int:
    check_serve_arguments(parser, args)

    def job():
        # Before TensorFlow starts: it reads the cache's flag at its first
        # device query.
        _quiet_startup.turn_on_compilation_cache()
        _start_models()
        from attention_zoo.serving import serve
        from attention_zoo.serving.connections import ConnectionLimits
        from attention_zoo.serving.defaults import MAX_HEADER_BYTES

        print(f"serving on http://{args.host}:{args.port}/ (Ctrl-C stops)", flush=True)
        serve(
            args.preset,
            args.run,
            args.host,
            args.port,
            args.max_batch,
            args.max_wait_ms,
            allowed_hosts=args.allowed_host,
            limits=ConnectionLimits(
                header_timeout=args.header_timeout,
                body_timeout=args.body_timeout,
                idle_timeout=args.idle_timeout,
                max_header_bytes=MAX_HEADER_BYTES,
                max_connections=args.max_connections,
            ),
        )

    return run_guarded("attention-zoo serve", job)


def _list_presets() -> int:
    from attention_zoo.applications.common.preset_listing import preset_table

    print(preset_table(registry.recipes()))
    return 0


def _show_preset(name: str) -> None:
    from attention_zoo.applications.common.preset_listing import preset_card

    print(preset_card(name), end="")


def main(argv: list[str] | None = None) -> int:
    """Run the command of `argv`; its exit status.

    The whole command runs inside the error boundary
    (`common.errors.run_guarded`): what the tasks' own boundary does not
    see (the parser's lazy imports, say) still ends in one line.
    """
    if argv is None:
        argv = [_typed_text(argument) for argument in sys.argv[1:]]
    _escape_what_streams_cannot_encode()
    status = []
    code = run_guarded("attention-zoo", lambda: status.append(_main(argv)))
    return status[0] if status else code


def _typed_text(argument: str) -> str:
    """An argument, the bytes the locale could not decode read as UTF-8.

    Python decodes arguments with the locale's encoding, a byte it cannot
    decode becoming a lone surrogate: under `LC_ALL=C` the "é" of a UTF-8
    terminal arrives as two of them, and the model would read two unknown
    characters. Such an argument is read as UTF-8 (the encoding of the
    package's files, of `translation translate -` and of nearly every
    terminal); one that is not UTF-8 either is left as it is.
    """
    if not any("\udc80" <= char <= "\udcff" for char in argument):
        return argument
    try:
        return os.fsencode(argument).decode("utf-8")
    except UnicodeDecodeError:
        return argument


def _escape_what_streams_cannot_encode() -> None:
    """Standard output and error write `\\xe9` for what they cannot encode.

    Under a locale that is not UTF-8 (latin-1, `LANG=C`, Windows' cp1252)
    printing a translation or a date with a character outside it raises
    UnicodeEncodeError, which would end the command after its work was
    done. The streams keep the locale's encoding, the one its terminal
    shows; only the characters it lacks are written as escapes.
    `--output FILE` writes UTF-8 whatever the locale.
    """
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        if not encoding or not hasattr(stream, "reconfigure"):
            continue  # a stream a caller put there (StringIO, a capture)
        if codecs.lookup(encoding).name != "utf-8":
            stream.reconfigure(errors="backslashreplace")


def _start_models() -> None:
    """Keras, quietly, before the first module of a model is imported
    (`_quiet_startup.start_keras`); only in the command's own process, never
    in a program that calls `main`."""
    if _quiet_startup.started_as_command():
        _quiet_startup.start_keras()


def _parse(argv):
    """`(parser, args)` of `argv`: the listings' parser answers everything
    but a task of an application (its help, version, errors, `demo`,
    `serve`, `presets`), the whole one that task; neither imports Keras."""
    parser = build_parser(tasks=False)
    known, _ = parser.parse_known_args(argv)
    if getattr(known, "task", None) is None or known.command not in {
        listing.name for listing in registry.listings()
    }:
        return parser, parser.parse_args(argv)
    parser = build_parser()
    return parser, parser.parse_args(argv)


def _main(argv) -> int:
    parser, args = _parse(argv)
    if args.command is None:
        parser.print_help()
        return 0
    if args.command == "demo":
        if args.epochs < 1 or args.length < 2:
            parser.error(
                f"demo needs --epochs >= 1 and --length >= 2. Received: "
                f"--epochs {args.epochs} --length {args.length}"
            )
        _start_models()
        from attention_zoo.applications import demo

        demo.run(epochs=args.epochs, length=args.length, seed=args.seed)
    if args.command == "serve":
        return _serve(parser, args)
    if args.command == "presets":
        _start_models()
        if args.task == "build":
            return run_task("presets", "build", lambda: _build_presets(args))
        if args.task == "show":
            return run_task("presets", "show", lambda: _show_preset(args.name))
        if args.task == "refresh":
            return run_task("presets", "refresh", lambda: _refresh_presets(args))
        return _list_presets()
    if args.command in {listing.name for listing in registry.listings()}:
        from attention_zoo.applications.common.command import (
            check_beam_width_flag,
            run_application,
        )

        # Checked before the application (and Keras) loads: an error answers
        # at once, as argparse's do.
        check_beam_width_flag(parser, args)
        if hasattr(args, "input"):  # a predict-like task (`lines`' flags)
            from attention_zoo.applications.common import lines

            (parts,) = [p for p in registry.command_parts() if p.name == args.command]
            lines.check_inputs_given(args, parser, f"{parts.input_kind}s")
        _start_models()
        return run_application(registry.get(args.command), args, parser)
    return 0


def _refresh_presets(args) -> None:
    from attention_zoo.applications.common import preset_build
    from attention_zoo.presets import list_presets

    # By default, the recipes whose preset is shipped: a recipe not built
    # yet (`presets build NAME` writes it) has nothing to refresh.
    shipped = {p["name"] for p in list_presets()}
    for name in args.names or [n for n in registry.recipes() if n in shipped]:
        print(f"{name}: {preset_build.refresh(*registry.recipe(name))}")


def _build_presets(args) -> None:
    from attention_zoo.applications.common import preset_build

    for name in args.names or list(registry.recipes()):
        app, recipe = registry.recipe(name)
        folder = preset_build.build(
            app, recipe, args.work, command=None if args.no_train else main
        )
        print(f"{name}: {folder}")


def command() -> None:
    """The `attention-zoo` console script: `main()`, then exit with its status.

    After a failure the process ends without Python's shutdown: an HDF5
    file that a full disk left half-written reports errors from h5py's
    finalizers and can crash the interpreter while it tears down, after
    the one error line was printed (the error is already reported, and
    there is nothing left to save). Exceptions that finalizers raise
    ("Exception ignored in ...") are shown only with ATTENTION_ZOO_DEBUG=1;
    every other exception is reported by `main`'s error boundary.
    """
    if os.environ.get(DEBUG_VARIABLE) != "1":
        # h5py's Cython finalizers report through both hooks.
        sys.unraisablehook = lambda unraisable: None
        sys.excepthook = lambda *exc_info: None
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # what was left to write met a closed pipe
        code = closed_stdout()
    if code:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    command()
