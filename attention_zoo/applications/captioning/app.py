"""The captioner, as the registry sees it."""

from attention_zoo.applications.captioning.cli import COMMAND
from attention_zoo.applications.captioning.config import TrainConfig
from attention_zoo.applications.captioning.evaluation import format_metrics
from attention_zoo.applications.captioning.export import (
    ExportedCaptioner,
    export,
    export_core,
)
from attention_zoo.applications.captioning.listing import LISTING
from attention_zoo.applications.captioning.predictor import Captioner, plot
from attention_zoo.applications.captioning.preset import PRESETS, TEST_SLICE
from attention_zoo.applications.captioning.training import calibrate, train
from attention_zoo.applications.common.application import Application

APPLICATION = Application(
    name="captioning",
    title="Image captioning",
    predictor=Captioner,
    config_class=TrainConfig,
    train=train,
    format_metrics=format_metrics,
    plot=plot,
    export=export,
    export_core=export_core,
    exported_predictor=ExportedCaptioner,
    command=COMMAND,
    presets=PRESETS,
    test_slice=TEST_SLICE,
    calibrate=calibrate,
    input_kind=LISTING.input_kind,
    n_best=True,
)
