"""The application skeleton: what dates, translation and captioning share.

An application is a folder beside `dates/` with its data sources and model
(`data`, `model`: `build_model`, an inference function of one batch that
returns outputs and attention) and these hooks into the skeleton:

1. `config.py`: a `TrainConfig` dataclass. Each field is a flag of
   `attention-zoo APP train` (`common.cli.add_config_arguments`); its
   metadata gives the help text, choices, a flag-name override and checks.
2. A `RunPredictor` subclass (`common.predictor`): `app`,
   `required_files`, an `__init__` that loads the vocabulary and models of
   the run folder (`load_model`) after `super().__init__`, `check` for the
   inputs the model cannot read (raise `InputError`), and a batched predict
   that runs its `compiled` function through `run_batches`.
3. `train(output, config, verbose)`: check the config (`check_config`),
   train into a staging folder (`start_staged_run`), write `config.json`
   and the vocabulary, build the model from the config's fields
   (`config_arguments`), fit with `training_callbacks` (`TimeBudget` for a
   wall-clock budget, `StopOnDivergence`), save `model.keras`, evaluate,
   then `commit_run`, which replaces the old run atomically.
4. `export(run_dir, output)`: `export_folder`, a `serve` function of a
   `tf.string` batch, `write_saved_model`.
5. `cli.py`: an `AppCommand` (`common.model_tasks`: the command's name, its
   `TrainConfig`, default preset, `plot` inputs, the app's user-error
   types, its help and description and the help line of every task),
   `add_parser(commands)`, which calls `model_tasks.add_application` (the
   command, a parser per task, `train`'s `--output` and a flag per config
   field, the flags of `plot` and `export`) and adds the flags of the
   app's own tasks (`add_model_flags` for those that read a model), and
   `run(args, parser)`, which hands its own jobs to
   `model_tasks.run_command` (train, plot and export are shared; every
   task runs inside the one-line error boundary);
   then one line in `attention_zoo/applications/cli.py` adds the parser.

Shared text handling (the word tokenizer and `WordVocabulary`) is
`common.text`.
"""

from attention_zoo.applications.common.cli import check_config
from attention_zoo.applications.common.compile import compile_function
from attention_zoo.applications.common.decodings import decoding_name, decodings
from attention_zoo.applications.common.export import export_folder, write_saved_model
from attention_zoo.applications.common.predictor import InputError, RunPredictor
from attention_zoo.applications.common.run_folder import (
    check_run_folder,
    check_train_output,
    commit_run,
    load_run_model,
    output_folder,
    staged_run,
    training_backup_dir,
)
from attention_zoo.applications.common.tfds import tfds_builder, tfds_split
from attention_zoo.applications.common.training import (
    DiskSpaceGuard,
    StopOnDivergence,
    TimeBudget,
    TrainingDiverged,
    check_max_minutes,
    check_positive_integers,
    config_arguments,
    fit_callbacks,
    fit_verbosity,
    history_lists,
    tensorboard_callbacks,
    time_budget,
)

__all__ = [
    "DiskSpaceGuard",
    "InputError",
    "RunPredictor",
    "StopOnDivergence",
    "TimeBudget",
    "TrainingDiverged",
    "check_config",
    "check_max_minutes",
    "check_positive_integers",
    "check_run_folder",
    "check_train_output",
    "commit_run",
    "compile_function",
    "config_arguments",
    "decoding_name",
    "decodings",
    "export_folder",
    "fit_callbacks",
    "fit_verbosity",
    "history_lists",
    "load_run_model",
    "output_folder",
    "staged_run",
    "training_backup_dir",
    "tensorboard_callbacks",
    "tfds_builder",
    "tfds_split",
    "time_budget",
    "write_saved_model",
]
