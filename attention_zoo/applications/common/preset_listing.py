"""What `attention-zoo presets list` and `presets show NAME` print.

`list` is a table, one row per shipped preset: its name, application, the
one metric its recipe names as its headline (`PresetRecipe.headline_metric`,
from the recipes the command hands in, `registry.recipes()`, so nothing
here knows an application or the registry) and its
description. `show` is the preset's model card (`README.md`) with its
metrics grouped by decoding, one column per decoding, and the outputs it
recorded on its fixed inputs.
"""

from __future__ import annotations

from pathlib import Path

from attention_zoo.presets import (
    PRESETS_DIR,
    list_presets,
    preset_folder,
    read_metadata,
)

# Columns are separated by this many spaces.
GAP = 2
# A fixed input longer than this is shortened in `show` (a summarized text).
INPUT_WIDTH = 60


def format_value(value) -> str:
    """A metric as the tables show it: an int whole, a float to 4 digits."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return str(value)
    # `#` keeps trailing zeros, so 25.00 and 24.99 read as the same precision.
    return f"{value:#.4g}".rstrip(".")


def text_table(header: list[str], rows: list[list[str]]) -> str:
    """`rows` under `header`, each column as wide as its widest cell.

    The last column is not padded, so no line ends in spaces.
    """
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row[:-1], widths)]
        lines.append((" " * GAP).join([*cells, row[-1]]))
    return "\n".join(lines)


def headline_metric(preset: dict, recipes: dict) -> str | None:
    """The metadata key of `preset`'s headline metric (a `list_presets` item).

    It is what the recipe of that name in `recipes` (`{name: (application,
    recipe)}`, `registry.recipes()`) names, where the recipe belongs to the
    preset's application; None otherwise (a preset no recipe builds).
    """
    app, recipe = recipes.get(preset["name"], (None, None))
    if app is None or app.name != preset["app"]:
        return None
    return recipe.headline_metric


def preset_table(recipes: dict, root=PRESETS_DIR) -> str:
    """The table of `attention-zoo presets list`: the presets of `root`,
    their headline metrics named by `recipes` (`headline_metric`)."""
    rows = []
    for preset in list_presets(root):
        key = headline_metric(preset, recipes)
        value = preset["metrics"].get(key) if key else None
        rows.append(
            [
                preset["name"],
                preset["app"],
                key if value is not None else "-",
                format_value(value) if value is not None else "-",
                # One row per preset, whatever the metadata's text holds.
                " ".join(str(preset["description"]).split()),
            ]
        )
    header = ["NAME", "APPLICATION", "METRIC", "VALUE", "DESCRIPTION"]
    return text_table(header, rows)


def grouped_metrics(metrics: dict) -> str:
    """`metrics` as tables: those of no decoding by name, then one row per
    metric and one column per decoding (`"greedy bleu"`, `"beam4 bleu"`).

    The example count `n` is left to the caller, which names it.
    """
    plain, by_decoding = {}, {}
    for key, value in metrics.items():
        if key == "n":
            continue
        decoding, _, name = key.partition(" ")
        if name:
            by_decoding.setdefault(decoding, {})[name] = value
        else:
            plain[key] = value
    parts = []
    if plain:
        parts.append(
            text_table(
                ["metric", "value"], [[k, format_value(v)] for k, v in plain.items()]
            )
        )
    if by_decoding:
        decodings = list(by_decoding)
        names = list(dict.fromkeys(n for d in by_decoding.values() for n in d))
        rows = [
            [name]
            + [
                format_value(by_decoding[d][name]) if name in by_decoding[d] else "-"
                for d in decodings
            ]
            for name in names
        ]
        parts.append(text_table(["metric", *decodings], rows))
    return "\n\n".join(parts)


def _metrics_section(metadata: dict) -> list[str]:
    lines = ["## Metrics", ""]
    for key, what in (
        ("metrics", "On the run's test set"),
        (
            "slice_metrics",
            "On the test slice shipped with the preset (test_slice.json)",
        ),
    ):
        metrics = metadata.get(key) or {}
        if not metrics:
            continue
        count = f", {metrics['n']:,} examples" if "n" in metrics else ""
        lines += [f"{what}{count}:", "", grouped_metrics(metrics), ""]
    if len(lines) == 2:
        lines += ["None recorded.", ""]
    return lines


def _shown_input(value) -> str:
    text = " ".join(str(value).split())
    if len(text) > INPUT_WIDTH:
        text = text[: INPUT_WIDTH - 3].rstrip(" .,;:") + "..."
    return text


def preset_card(name_or_folder) -> str:
    """The text of `attention-zoo presets show NAME`.

    The preset's model card as its folder holds it, the card's metrics
    table (one row per key, every decoding and scale mixed) replaced by
    the same numbers grouped (`grouped_metrics`), then the preset's
    application, folder and recorded outputs.

    Raises:
        ValueError: naming the shipped presets when `name_or_folder` is
            neither one of them nor a preset folder (`preset_folder`).
    """
    folder = preset_folder(name_or_folder)
    metadata = read_metadata(folder)
    card_file = Path(folder) / "README.md"
    card = card_file.read_text(encoding="utf-8") if card_file.is_file() else ""
    lines = card.rstrip("\n").split("\n") if card else [f"# {folder.name}", ""]
    start = lines.index("## Metrics") if "## Metrics" in lines else len(lines)
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")),
        len(lines),
    )
    lines = lines[:start] + _metrics_section(metadata) + lines[end:]
    lines += [
        "",
        "## Preset",
        "",
        f"- application: {metadata['app']}",
        f"- folder: {Path(folder).resolve()}",
    ]
    fixed = metadata.get("fixed_outputs") or []
    if fixed:
        # A forms run's answers depend on the reference they were computed at.
        at = metadata.get("fixed_reference")
        at = f" at the reference {at}" if at else ""
        lines += ["", f"Outputs recorded on its fixed inputs{at}:", ""]
        rows = []
        for item in fixed:
            output = str(item.get("text", ""))
            if item.get("valid") is False:
                reason = item.get("reason") or "; ".join(item.get("problems") or [])
                output += f"  (not valid{': ' + reason if reason else ''})"
            rows.append([_shown_input(item.get("input", "")), output])
        lines.append(text_table(["input", "output"], rows))
    return "\n".join(lines).rstrip("\n") + "\n"
