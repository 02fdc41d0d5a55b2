"""The summarizer, as the registry sees it."""

from attention_zoo.applications.common.application import Application
from attention_zoo.applications.summarization.cli import COMMAND
from attention_zoo.applications.summarization.config import TrainConfig
from attention_zoo.applications.summarization.evaluation import format_metrics
from attention_zoo.applications.summarization.export import (
    ExportedSummarizer,
    export,
    export_core,
)
from attention_zoo.applications.summarization.predictor import Summarizer, plot
from attention_zoo.applications.summarization.preset import PRESETS, TEST_SLICE
from attention_zoo.applications.summarization.training import calibrate, train

APPLICATION = Application(
    name="summarization",
    title="Headline summarization",
    predictor=Summarizer,
    config_class=TrainConfig,
    train=train,
    format_metrics=format_metrics,
    plot=plot,
    export=export,
    export_core=export_core,
    exported_predictor=ExportedSummarizer,
    command=COMMAND,
    presets=PRESETS,
    test_slice=TEST_SLICE,
    calibrate=calibrate,
    n_best=True,
)
