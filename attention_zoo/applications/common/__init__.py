"""The application skeleton: what every application shares.

An application is a folder beside `dates/` with its data sources and model
(`data`, `model`: `build_model`, an inference function of one batch that
returns outputs and attention) and these pieces of the skeleton:

1. `config.py`: a `TrainConfig` dataclass. Each field is a flag of
   `attention-zoo APP train` (`common.cli`); its metadata gives the help
   text, choices, a flag-name override and the check of its value
   (`common.config`: `positive`, `integer_range(1, 64)`, ...; the shared
   fields `seed_field`, `epochs_field`, `max_minutes_field`, ...). It
   imports no model and no Keras: the command builds `train`'s flags
   from it for `--help` and argument errors (`registry.command_parts`).
2. A `RunPredictor` subclass (`common.predictor`): `app`,
   `required_files`, an `__init__` that loads the vocabulary and models of
   the run folder (`load_models`, `check_sizes`) after `super().__init__`,
   `check` for the inputs the model cannot read (raise `InputError`),
   `search_function`, its `compiled` search, and `predict_items`, its one
   public prediction path, which runs the search through `run_batches`:
   the predictor protocol (`common.predictor_protocol`), all that the
   command, the server and the exporter call.
3. `train(output, config, verbose=None)` (`training.py`): inside
   `common.training_loop.training_run(NAME, output, config, verbose, check)`
   it reads its data, writes its config and vocabulary, builds the model
   in `run.scope()`, `run.fit`s it (the callbacks every application shares,
   resume, distribution, time budget, divergence stop), saves
   `model.keras`, then `run.finish(test_metrics)` writes `metrics.json`.
4. `export(run, output, beam_width=None)`: `export_folder`, a `serve`
   function of a `tf.string` batch, `write_saved_model`.
5. `plot(run, inputs, folder, beam_width=None)`: attention PNGs.
6. `cli.py`: the flags and jobs of the application's own tasks
   (`evaluate`, `predict`, ...), given the `Application` they belong to
   (or its `CommandParts`); the model's modules are imported inside the
   jobs, so that it loads without Keras, as `config.py` does.
7. `preset.py`: the recipes of its shipped presets and its test slice.
8. `listing.py`: `LISTING`, the `common.application.CommandListing` of
   its command (name, help, description, tasks, and the `input_kind` and
   `beam_search` its flags follow), importing nothing else,
   so that the help pages answer without Keras; `cli.py`'s `Command`
   takes its lines from it.
9. `app.py`: `APPLICATION`, the `common.application.Application` record of
   all of the above; then one line in `attention_zoo/applications/
   registry.py` makes it a command, a preset builder, a docs page and a
   subject of the shared tests.

Shared text handling (the word tokenizer and `WordVocabulary`) is
`common.text`; the applications' word search and the names of their
searches are `common.search`.
"""

from attention_zoo import _lazy

# Loaded on first use (PEP 562): the command line reads the skeleton's
# keras-free modules (`application`, `cli`) without these modules' imports.
_ORIGINS = {
    "compile_function": "attention_zoo.applications.common.compile",
    "check_config": "attention_zoo.applications.common.config",
    "export_folder": "attention_zoo.applications.common.exporting.saved_model",
    "write_saved_model": "attention_zoo.applications.common.exporting.saved_model",
    "InputError": "attention_zoo.applications.common.inputs",
    "RunPredictor": "attention_zoo.applications.common.predictor",
    "check_run_folder": "attention_zoo.applications.common.run_folder",
    "check_train_output": "attention_zoo.applications.common.run_folder",
    "commit_run": "attention_zoo.applications.common.run_folder",
    "load_run_model": "attention_zoo.applications.common.run_folder",
    "output_folder": "attention_zoo.applications.common.run_folder",
    "staged_run": "attention_zoo.applications.common.run_folder",
    "training_backup_dir": "attention_zoo.applications.common.run_folder",
    "tfds_builder": "attention_zoo.applications.common.tfds",
    "tfds_split": "attention_zoo.applications.common.tfds",
    "DiskSpaceGuard": "attention_zoo.applications.common.training",
    "StopOnDivergence": "attention_zoo.applications.common.training",
    "TimeBudget": "attention_zoo.applications.common.training",
    "TrainingDiverged": "attention_zoo.applications.common.training",
    "config_arguments": "attention_zoo.applications.common.training",
    "fit_verbosity": "attention_zoo.applications.common.training",
    "history_lists": "attention_zoo.applications.common.training",
    "tensorboard_callbacks": "attention_zoo.applications.common.training",
    "time_budget": "attention_zoo.applications.common.training",
    "TrainingRun": "attention_zoo.applications.common.training_loop",
    "training_run": "attention_zoo.applications.common.training_loop",
}

__all__ = [
    "DiskSpaceGuard",
    "InputError",
    "RunPredictor",
    "StopOnDivergence",
    "TimeBudget",
    "TrainingDiverged",
    "TrainingRun",
    "check_config",
    "check_run_folder",
    "check_train_output",
    "commit_run",
    "compile_function",
    "config_arguments",
    "export_folder",
    "fit_verbosity",
    "history_lists",
    "load_run_model",
    "output_folder",
    "staged_run",
    "tensorboard_callbacks",
    "tfds_builder",
    "tfds_split",
    "time_budget",
    "training_backup_dir",
    "training_run",
    "write_saved_model",
]

__getattr__, __dir__ = _lazy.attributes(__name__, _ORIGINS, globals())
