"""`save_to_preset`: a trained run folder, or its predictor, as a preset folder."""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import shutil
from pathlib import Path

import keras

from attention_zoo.owned_folders import replace_folder
from attention_zoo.presets.files import write_model
from attention_zoo.version import __version__

CARD_SECTIONS = ("intended_use", "data_and_licence", "limitations")
# The kind of folder `save_to_preset` writes (`attention_zoo.owned_folders`).
PRESET_KIND = "preset"


def data_signature(run_dir) -> str:
    """SHA-256 of the run's `data/` files (sorted by name), or of `config.json`.

    The generated and split data a training used is written into `data/`;
    its hash says whether two presets were trained on the same examples.
    """
    run = Path(run_dir)
    digest = hashlib.sha256()
    files = sorted(p for p in (run / "data").rglob("*") if p.is_file())
    for path in files or [run / "config.json"]:
        digest.update(path.relative_to(run).as_posix().encode())
        digest.update(path.read_bytes())
    return "sha256:" + digest.hexdigest()


def _predictor_of(run_or_predictor, predictor_class):
    if hasattr(run_or_predictor, "run_dir") and hasattr(run_or_predictor, "app"):
        return run_or_predictor
    if predictor_class is None:
        raise ValueError(
            "save_to_preset needs `predictor_class` (the application's "
            "predictor, e.g. Normalizer) when given a folder. Received: "
            f"run={str(run_or_predictor)[:200]!r}"
        )
    return predictor_class(run_or_predictor)


def save_to_preset(
    run,
    folder,
    *,
    predictor_class=None,
    description: str = "",
    training_command: str | None = None,
    seed: int | None = None,
    metrics: dict | None = None,
    fixed_inputs=None,
    card: dict | None = None,
    float16: bool = False,
    fixed_reference: str | None = None,
) -> Path:
    """Writes the preset folder of a trained run.

    The run's configuration and assets (the predictor's `required_files`
    and those of its `optional_files` the run holds) are copied, each
    `.keras` model of the run becomes `NAME.json` + `NAME.weights.h5`
    (except those the predictor rebuilds from weights that ship with the
    package, `RunPredictor.rebuilt_models`), and `metadata.json`
    records the versions, the parameter count, the training command and
    seed, the data signature, today's date, the metrics and the predictor's
    outputs on `fixed_inputs` (what the preset tests compare against), at
    `fixed_reference` where one is given. The
    folder is written next to its destination, under a lock, and moved into
    place, so a failure never leaves half a preset.

    Args:
        run: an application's predictor (a `RunPredictor`: `Normalizer`,
            `Translator`, ...) or a run folder (then `predictor_class` loads
            it).
        folder: the preset folder to write; an existing preset of the same
            application there, holding only the files a preset writes, is
            replaced; any other non-empty folder is refused
            (`attention_zoo.owned_folders.check_replaceable`).
        predictor_class: the predictor class, for a run folder.
        description: one line for `list_presets`.
        training_command: the command that trained the run.
        seed: its seed.
        metrics: test metrics for the card (default: the run's
            `metrics.json` top-level numbers).
        fixed_inputs: a few inputs whose outputs are recorded: texts, or
            image files (`pathlib.Path`), copied into the preset's
            `examples/`.
        card: the model card's sections: `intended_use`, `data_and_licence`,
            `limitations` (text), `reproduce` (a command).
        float16: store floating-point weights in half precision.
        fixed_reference: the reference date-time (ISO 8601) the outputs on
            `fixed_inputs` are computed at, recorded as `fixed_reference`,
            for a predictor whose answers depend on one (a dates run of the
            forms target: "yesterday" is another day tomorrow); None: no
            reference is passed and the key is left out.

    Returns:
        The preset folder.
    """
    predictor = _predictor_of(run, predictor_class)
    run_dir = Path(predictor.run_dir)
    metrics = metrics if metrics is not None else _run_metrics(run_dir)

    def write(staging: Path):
        staging.mkdir()
        parameters = 0
        rebuilt = predictor.rebuilt_models()
        for name in predictor.required_files:
            if name.endswith(".keras"):
                model = predictor.read_model_file(name)
                parameters += model.count_params()
                if name not in rebuilt:
                    write_model(model, staging, name, float16=float16)
            else:
                shutil.copy2(run_dir / name, staging / name)
        for name in getattr(predictor, "optional_files", ()):
            if (run_dir / name).is_file():
                shutil.copy2(run_dir / name, staging / name)
        inputs = list(fixed_inputs or [])
        recorded = [_ship_example(i, staging) for i in inputs]
        options = reference_options(fixed_reference)
        outputs = predictor.predict_items(inputs, **options) if inputs else []
        metadata = {
            "name": Path(folder).name,
            "app": predictor.app,
            "description": description,
            "attention_zoo_version": __version__,
            "keras_version": keras.__version__,
            "backend": keras.backend.backend(),
            "parameters": parameters,
            "weights_dtype": "float16" if float16 else "float32",
            "rebuilt_models": sorted(rebuilt),
            "training_command": training_command,
            "seed": seed,
            "data_signature": data_signature(run_dir),
            "date": datetime.date.today().isoformat(),
            "metrics": metrics,
            "card": card or {},
            "fixed_outputs": recorded_outputs(recorded, outputs),
        }
        if fixed_reference is not None:
            metadata["fixed_reference"] = fixed_reference
        (staging / "metadata.json").write_text(
            json.dumps(metadata, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        (staging / "README.md").write_text(model_card(metadata), encoding="utf-8")
        os.chmod(staging, 0o755)

    return replace_folder(folder, write, PRESET_KIND, predictor.app, flag="folder")


def reference_options(fixed_reference) -> dict:
    """The keyword arguments of a predictor's call at `fixed_reference`:
    `{"reference": fixed_reference}`, or `{}` for None (a predictor that
    takes no reference is called as it always was)."""
    return {} if fixed_reference is None else {"reference": fixed_reference}


def recorded_outputs(inputs, outputs) -> list[dict]:
    """What `metadata.json` records of a preset's answers to its fixed
    `inputs`: each item without its arrays (attention, p_gen)."""
    return [
        {"input": shown}
        | {k: v for k, v in item.items() if k != "input" and not hasattr(v, "shape")}
        for shown, item in zip(inputs, outputs)
    ]


def _ship_example(value, staging: Path):
    """A fixed input as `metadata.json` records it: a text as itself, a file
    (an image) copied to `examples/` and named by its path in the preset
    (`attention_zoo.presets.fixed_inputs` resolves it)."""
    if not isinstance(value, os.PathLike):
        return value
    examples = staging / "examples"
    examples.mkdir(exist_ok=True)
    shutil.copy2(value, examples / Path(value).name)
    return f"examples/{Path(value).name}"


def _run_metrics(run_dir: Path) -> dict:
    """The numbers of the run's test evaluation (`metrics.json`): the
    top-level ones, and each decoding's scores as `"beam4 bleu"`, ...;
    speeds (they measure the machine) and settings (`alpha`) are left out."""
    path = run_dir / "metrics.json"
    if not path.is_file():
        return {}
    metrics = json.loads(path.read_text(encoding="utf-8"))
    test = metrics.get("test", {})
    flat = {k: v for k, v in test.items() if _is_number(v)}
    for decoding in (k for k in test if k == "greedy" or k.startswith("beam")):
        for key, value in test[decoding].items():
            if _is_number(value) and not key.endswith("per_second") and key != "alpha":
                flat[f"{decoding} {key}"] = value
    return flat


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def model_card(metadata: dict) -> str:
    """The preset's `README.md`, written from its metadata alone.

    What it is for, its data and licence, its limits (`metadata["card"]`),
    its metrics, and how it was trained and is rebuilt. The preset tests
    compare the shipped card with this function's output.
    """
    card = metadata.get("card", {})
    lines = [
        f"# {metadata['name']}",
        "",
        metadata["description"] or f"A trained {metadata['app']} model.",
        "",
        "```python",
        "from attention_zoo.applications import from_preset",
        "",
        # Double quotes, as `ruff format` writes the block.
        f"predictor = from_preset({json.dumps(metadata['name'])})",
        "```",
        "",
    ]
    titles = {
        "intended_use": "Intended use",
        "data_and_licence": "Data and licence",
        "limitations": "Known limitations",
    }
    for key in CARD_SECTIONS:
        if card.get(key):
            lines += [f"## {titles[key]}", "", card[key].strip(), ""]
    lines += ["## Metrics", ""]
    if metadata["metrics"]:
        lines += ["On the run's test set:", ""]
        lines += ["| metric | value |", "| --- | ---: |"]
        lines += [f"| {k} | {v:.4g} |" for k, v in metadata["metrics"].items()]
    else:
        lines += ["None recorded."]
    if metadata.get("slice_metrics"):
        lines += [
            "",
            "On the test slice shipped with the preset (`test_slice.json`):",
            "",
        ]
        lines += ["| metric | value |", "| --- | ---: |"]
        lines += [f"| {k} | {v:.4g} |" for k, v in metadata["slice_metrics"].items()]
    lines += [
        "",
        "## Training",
        "",
        f"- parameters: {metadata['parameters']:,}",
        f"- weights stored as {metadata['weights_dtype']}",
        f"- seed: {metadata['seed']}",
        f"- data signature: `{metadata['data_signature']}`",
        f"- attention-zoo {metadata['attention_zoo_version']}, Keras "
        f"{metadata['keras_version']}, backend {metadata['backend']}, "
        f"{metadata['date']}",
        "",
    ]
    if metadata["training_command"]:
        lines += [
            "Trained with:",
            "",
            "```bash",
            metadata["training_command"],
            "```",
            "",
        ]
    if card.get("reproduce"):
        lines += ["Rebuilt with:", "", "```bash", card["reproduce"], "```", ""]
    return "\n".join(lines)
