"""The translator, as the registry sees it."""

from attention_zoo.applications.common.application import Application
from attention_zoo.applications.translation.attention_plot import plot
from attention_zoo.applications.translation.cli import COMMAND
from attention_zoo.applications.translation.config import TrainConfig
from attention_zoo.applications.translation.evaluation import format_metrics
from attention_zoo.applications.translation.export import (
    ExportedTranslator,
    export,
    export_core,
)
from attention_zoo.applications.translation.predictor import Translator
from attention_zoo.applications.translation.preset import PRESETS, TEST_SLICE
from attention_zoo.applications.translation.training import calibrate, train

APPLICATION = Application(
    name="translation",
    title="Machine translation",
    predictor=Translator,
    config_class=TrainConfig,
    train=train,
    format_metrics=format_metrics,
    plot=plot,
    export=export,
    command=COMMAND,
    presets=PRESETS,
    test_slice=TEST_SLICE,
    calibrate=calibrate,
    export_core=export_core,
    exported_predictor=ExportedTranslator,
    n_best=True,
)
