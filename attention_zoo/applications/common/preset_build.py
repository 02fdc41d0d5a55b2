"""Build, score and describe the shipped presets of every application.

`attention-zoo presets build [NAME ...]` trains each recipe
(`Application.presets`, a `PresetRecipe`; the command finds them with
`registry.recipes()` and hands each here with its application) with its
recorded command and seed into a work folder, then writes the preset into
`attention_zoo/presets/NAME/` with `save_to_preset`: weights, assets,
metadata (the command, the seed, the outputs on a few fixed inputs, the
metrics on the slice of test data that ships with it) and the model card.
`tests/presets/` loads every shipped preset and checks it against what was
recorded here.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from attention_zoo import owned_folders
from attention_zoo.presets import (
    PRESETS_DIR,
    fixed_inputs,
    fixed_options,
    read_metadata,
)
from attention_zoo.presets.saving import model_card, recorded_outputs, save_to_preset

# The file of a preset that holds its test slice.
SLICE_FILE = "test_slice.json"


def write_slice(app, run_dir, path) -> None:
    """The first test examples of `run_dir` (`app.test_slice`) into `path`."""
    if app.test_slice is None:
        raise ValueError(f"no test slice is defined for the {app.name} application")
    app.test_slice.write(Path(run_dir), Path(path), app.test_slice.size)


def score_slice(app, predictor, folder) -> dict:
    """The metrics of `predictor` (of `app`) on the test slice in the preset
    `folder`."""
    if app.test_slice is None:
        raise ValueError(f"no test slice is defined for the {app.name} application")
    return app.test_slice.score(predictor, Path(folder) / SLICE_FILE)


def build(app, recipe, work, command=None, root=PRESETS_DIR) -> Path:
    """Trains `recipe` of `app` into `work/NAME` and writes its preset NAME
    into `root` (default: the package's presets).

    Args:
        app: the `Application` whose `presets` hold `recipe`.
        recipe: the `PresetRecipe`; its name is the preset's.
        work: the folder of the training runs.
        command: the `attention-zoo` command's `main`, which runs the
            recipe's training arguments; None reuses the run already in
            `work/NAME`.
        root: the folder the preset is written into, `root/NAME` (a test's
            or a trial's; the shipped presets are `PRESETS_DIR`'s).
    """
    name = recipe.name
    run = Path(work) / name
    arguments = [*recipe.train, "--output", str(run)]
    if command is not None:
        status = command(arguments)
        if status:
            raise SystemExit(f"training {name} failed (exit {status})")
    predictor = app.predictor(run)
    folder = Path(root) / name
    inputs = recipe.fixed_inputs
    save_to_preset(
        predictor,
        folder,
        description=recipe.description,
        training_command="attention-zoo " + shlex.join(arguments),
        seed=recipe.seed,
        fixed_inputs=list(inputs(run) if callable(inputs) else inputs),
        card={**recipe.card, "reproduce": f"attention-zoo presets build {name}"},
        float16=recipe.float16,
        fixed_reference=recipe.fixed_reference,
    )
    write_slice(app, run, folder / SLICE_FILE)
    owned_folders.record_written([folder / SLICE_FILE])
    metadata = read_metadata(folder)
    metadata["slice_metrics"] = score_slice(
        app, app.predictor.from_preset(folder), folder
    )
    (folder / "metadata.json").write_text(
        json.dumps(metadata, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (folder / "README.md").write_text(model_card(metadata), encoding="utf-8")
    return folder


def refresh(app, recipe) -> Path:
    """Re-derives, with the code of today, what a preset's weights do not
    fix: the application's calibration files (`Application.calibrate`,
    e.g. the captioner's image domain), the outputs on the fixed inputs,
    the metrics on the test slice and the model card. The weights, the
    training command and seed stay; `metadata.json` records the refresh.
    """
    import datetime

    name = recipe.name
    folder = PRESETS_DIR / name
    if app.calibrate is not None:
        written = app.calibrate(folder)
        owned_folders.record_written([folder / f for f in written])
    metadata = read_metadata(folder)
    predictor = app.predictor.from_preset(folder)
    shown = [item["input"] for item in metadata["fixed_outputs"]]
    outputs = predictor.predict_items(list(fixed_inputs(name)), **fixed_options(name))
    metadata["fixed_outputs"] = recorded_outputs(shown, outputs)
    metadata["slice_metrics"] = score_slice(app, predictor, folder)
    # The card's prose is the recipe's of today (what the preset can and
    # cannot do changes with the code around the weights); how to rebuild
    # it stays.
    metadata["card"] = {**metadata["card"], **recipe.card}
    metadata["refreshed"] = {
        "date": datetime.date.today().isoformat(),
        "command": f"attention-zoo presets refresh {name}",
    }
    (folder / "metadata.json").write_text(
        json.dumps(metadata, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (folder / "README.md").write_text(model_card(metadata), encoding="utf-8")
    return folder
