"""`attention-zoo presets list` and `presets show NAME`: what they print."""

import json
import re
from pathlib import Path

import pytest

from attention_zoo.applications.common.preset_listing import (
    format_value,
    grouped_metrics,
    preset_table,
)
from attention_zoo.applications.registry import recipe, recipes
from attention_zoo.cli import main
from attention_zoo.presets import PRESETS_DIR, list_presets, read_metadata

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = [p["name"] for p in list_presets()]
HEADER = ["NAME", "APPLICATION", "METRIC", "VALUE", "DESCRIPTION"]


def listed(capsys) -> list[str]:
    assert main(["presets", "list"]) == 0
    return capsys.readouterr().out.splitlines()


def column_starts(header: str) -> list[int]:
    return [header.index(title) for title in HEADER]


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_preset_s_recipe_names_a_metric_it_records(name):
    app, recipe = recipes()[name]
    assert app.name == read_metadata(name)["app"]
    assert recipe.headline_metric in read_metadata(name)["metrics"]


def test_list_gives_one_row_per_shipped_preset_with_its_headline_metric(capsys):
    header, *rows = listed(capsys)
    assert header.split() == HEADER
    assert [row.split()[0] for row in rows] == SHIPPED
    starts = column_starts(header)
    for name, row in zip(SHIPPED, rows):
        metadata = read_metadata(name)
        key = recipes()[name][1].headline_metric
        cells = [row[a:b].strip() for a, b in zip(starts, [*starts[1:], None])]
        assert cells == [
            name,
            metadata["app"],
            key,
            format_value(metadata["metrics"][key]),
            metadata["description"],
        ]


def test_list_columns_are_aligned(capsys):
    header, *rows = listed(capsys)
    for start in column_starts(header)[1:]:
        for row in [header, *rows]:
            # Each column begins at its title's offset, after a gap.
            assert row[start - 2 : start] == "  " and row[start] != " ", row
    assert all(line == line.rstrip() for line in [header, *rows])


def test_docs_show_what_list_prints(capsys):
    """docs/presets.md quotes the command's output as it is."""
    text = (ROOT / "docs" / "presets.md").read_text(encoding="utf-8")
    (shown,) = re.findall(r"```text\n(NAME .*?)```", text, re.S)
    assert shown.splitlines() == listed(capsys)


def test_a_preset_no_recipe_builds_is_listed_without_a_headline(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    metadata = {"app": "dates", "description": "two\nlines", "metrics": {"n": 1}}
    (folder / "metadata.json").write_text(json.dumps(metadata), encoding="utf-8")
    header, row = preset_table(recipes(), tmp_path).splitlines()
    assert row.split() == ["mine", "dates", "-", "-", "two", "lines"]


def test_metrics_are_grouped_by_decoding():
    metrics = {
        "n": 3,
        "exact_match": 0.5,
        "greedy bleu": 20.0,
        "beam4 bleu": 22.25,
        "beam4 chrf": 44.5,
        "beam4 words": 7,
    }
    assert grouped_metrics(metrics) == (
        "metric       value\n"
        "exact_match  0.5000\n"
        "\n"
        "metric  greedy  beam4\n"
        "bleu    20.00   22.25\n"
        "chrf    -       44.50\n"
        "words   -       7"
    )


@pytest.mark.parametrize("name", SHIPPED)
def test_show_prints_the_card_with_every_metric_grouped(name, capsys):
    assert main(["presets", "show", name]) == 0
    out = capsys.readouterr().out
    metadata = read_metadata(name)
    card = (PRESETS_DIR / name / "README.md").read_text(encoding="utf-8")
    # The card's prose and training sections, as the folder holds them.
    for section in card.split("\n## "):
        if not section.startswith("Metrics"):
            assert section.strip() in out
    for text in metadata["card"].values():
        assert text.strip() in out
    # Every metric once, on a row of its name; the flat table is gone.
    assert "| metric | value |" not in out
    for key, value in metadata["metrics"].items():
        if key != "n":
            metric = key.rpartition(" ")[2]
            assert re.search(
                rf"^{re.escape(metric)} .*{format_value(value)}", out, re.M
            )
    for item in metadata["fixed_outputs"]:
        assert item["text"] in out
    assert f"- application: {metadata['app']}" in out


def test_show_takes_a_preset_folder(capsys):
    assert main(["presets", "show", str(PRESETS_DIR / SHIPPED[0])]) == 0
    assert capsys.readouterr().out.startswith(f"# {SHIPPED[0]}\n")


def test_show_of_an_unknown_name_is_one_line_naming_the_shipped_presets(capsys):
    assert main(["presets", "show", "no_such_preset"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith("attention-zoo presets show: error: ")
    assert "no_such_preset" in line
    for name in SHIPPED:
        assert name in line


def test_an_unknown_recipe_is_refused_naming_the_recipes():
    with pytest.raises(ValueError, match="the recipes are dates_multilingual"):
        recipe("nope")


def test_refresh_without_names_refreshes_only_the_shipped_presets(monkeypatch, capsys):
    """A recipe whose folder is not built yet (`dates_expressions` until
    its run is) is skipped, not an error after the others were refreshed."""
    import dataclasses

    from attention_zoo.applications import registry
    from attention_zoo.applications.common import preset_build

    known = dict(recipes())
    app, some = next(iter(known.values()))
    known["not_built"] = (app, dataclasses.replace(some, name="not_built"))
    monkeypatch.setattr(registry, "recipes", lambda: known)
    monkeypatch.setattr(registry, "recipe", lambda name: known[name])
    called = []
    monkeypatch.setattr(
        preset_build,
        "refresh",
        lambda app, recipe: called.append(recipe.name) or PRESETS_DIR / recipe.name,
    )
    assert main(["presets", "refresh"]) == 0
    assert called == [name for name in known if name in SHIPPED]
    assert "not_built" not in capsys.readouterr().out
