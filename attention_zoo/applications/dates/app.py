"""The date normalizer, as the registry sees it."""

import functools

from attention_zoo.applications.common.application import Application
from attention_zoo.applications.dates.cli import COMMAND
from attention_zoo.applications.dates.config import TrainConfig
from attention_zoo.applications.dates.evaluation import format_metrics
from attention_zoo.applications.dates.export import (
    ExportedNormalizer,
    export,
    export_core,
)
from attention_zoo.applications.dates.listing import LISTING
from attention_zoo.applications.dates.predictor import Normalizer, plot
from attention_zoo.applications.dates.preset import PRESETS, TEST_SLICE
from attention_zoo.applications.dates.training import train

APPLICATION = Application(
    name="dates",
    title="Date normalization",
    predictor=Normalizer,
    config_class=TrainConfig,
    train=train,
    format_metrics=functools.partial(format_metrics, per_format=False),
    plot=plot,
    export=export,
    command=COMMAND,
    presets=PRESETS,
    test_slice=TEST_SLICE,
    export_core=export_core,
    exported_predictor=ExportedNormalizer,
    beam_search=LISTING.beam_search,
    reference=True,
)
