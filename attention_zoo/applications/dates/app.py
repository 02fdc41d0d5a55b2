"""The dates application, as the registry sees it."""

from attention_zoo.applications.common.application import Application
from attention_zoo.applications.dates.predictor import Normalizer

APPLICATION = Application(name="dates", predictor=Normalizer)
