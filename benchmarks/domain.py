"""Does each shipped preset know its domain? In-domain inputs kept valid,
out-of-domain inputs flagged, for the four applications in one run.

| application | in domain (must stay valid) | out of domain (must be flagged) |
|---|---|---|
| dates | the hand-written real dates (`tests/applications/dates/data/real_dates.tsv`) | the hand-written non-dates (`non_dates.txt`) |
| translation | the Bible test verses of the preset's split | the hand-written modern English of `tests/applications/translation/data/modern_english.txt` |
| captioning | the preset's generated test scenes | scikit-image's sample photos and generated natural-looking images (`tests/applications/captioning/natural_images.py`) |
| summarization | the preset's test package descriptions | the modern English sentences, and Bible verses |

The targets (issue 37): at least 99 % of in-domain inputs valid and at
least 95 % of out-of-domain inputs flagged. Each row prints the rates and
the reasons given most often.

Usage:

    python -m benchmarks.domain                 # all four
    python -m benchmarks.domain --apps captioning translation
    python -m benchmarks.domain --limit 300     # at most 300 in-domain inputs an app
"""

from __future__ import annotations

import argparse
import collections
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from attention_zoo.applications import registry  # noqa: E402
from attention_zoo.applications.common.config import saved_config  # noqa: E402
from attention_zoo.presets import preset_folder  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _lines(path) -> list[str]:
    with open(path, encoding="utf-8") as f:
        return [x for x in f.read().splitlines() if x and not x.startswith("#")]


def _config(cls, predictor):
    return saved_config(cls, predictor.config)


def modern_english() -> list[str]:
    return _lines(
        os.path.join(ROOT, "tests/applications/translation/data/modern_english.txt")
    )


def dates_sets(limit):
    from tests.applications.dates.hand_written import read_non_dates, read_real_dates

    real = [text for _, _, text in read_real_dates()][:limit]
    return real, {"non-dates": read_non_dates()}


def translation_sets(limit, predictor):
    from attention_zoo.applications.translation.config import TrainConfig
    from attention_zoo.applications.translation.corpus import load_corpus

    _, _, test = load_corpus(_config(TrainConfig, predictor))
    return [p.source for p in test][:limit], {"modern English": modern_english()}


def captioning_sets(limit, predictor):
    from attention_zoo.applications.captioning.config import TrainConfig
    from attention_zoo.applications.captioning.dataset import load_dataset
    from tests.applications.captioning.natural_images import (
        natural_looking,
        sample_photos,
    )

    _, _, test = load_dataset(_config(TrainConfig, predictor))
    return [i.image for i in test][:limit], {
        "scikit-image photos": [str(p) for p in sample_photos()],
        "natural-looking": natural_looking(90, seed=1),
    }


def summarization_sets(limit, predictor):
    from attention_zoo.applications.summarization.config import TrainConfig
    from attention_zoo.applications.summarization.training import load_corpus
    from attention_zoo.applications.translation import data as bible

    _, _, test = load_corpus(_config(TrainConfig, predictor))
    verses = [p.source for p in bible.bible_pairs()][::97][:150]
    return [e.text for e in test][:limit], {
        "modern English": modern_english(),
        "Bible verses": verses,
    }


def rates(predictor, inputs) -> tuple[float, collections.Counter]:
    items = predictor(inputs)
    reasons = collections.Counter(
        (i["reason"] or "").split(" (")[0].split(":")[0][:60]
        for i in items
        if not i["valid"]
    )
    return sum(i["valid"] for i in items) / max(len(items), 1), reasons


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--apps",
        nargs="*",
        default=[a.name for a in registry.applications()],
        help="applications (default: all four)",
    )
    parser.add_argument(
        "--limit",
        type=int,
        default=2000,
        help="in-domain inputs per application, at most (default 2000)",
    )
    args = parser.parse_args(argv)
    sets = {
        "dates": lambda p: dates_sets(args.limit),
        "translation": lambda p: translation_sets(args.limit, p),
        "captioning": lambda p: captioning_sets(args.limit, p),
        "summarization": lambda p: summarization_sets(args.limit, p),
    }
    print("| application (preset) | inputs | n | valid | flagged | most given reason |")
    print("|---|---|---:|---:|---:|---|")
    for name in args.apps:
        app = registry.get(name)
        preset = app.command.default_preset
        predictor = app.predictor(preset_folder(preset))
        inside, outside = sets[name](predictor)
        valid, reasons = rates(predictor, inside)
        top = reasons.most_common(1)[0][0] if reasons else ""
        print(
            f"| {name} ({preset}) | in domain | {len(inside)} | "
            f"{100 * valid:.1f} % | {100 * (1 - valid):.1f} % | {top} |"
        )
        for label, inputs in outside.items():
            valid, reasons = rates(predictor, inputs)
            top = reasons.most_common(1)[0][0] if reasons else ""
            print(
                f"| {name} ({preset}) | {label} | {len(inputs)} | "
                f"{100 * valid:.1f} % | {100 * (1 - valid):.1f} % | {top} |"
            )


if __name__ == "__main__":
    main()
