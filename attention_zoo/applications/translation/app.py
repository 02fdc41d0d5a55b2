"""The translation application, as the registry sees it."""

from attention_zoo.applications.common.application import Application
from attention_zoo.applications.translation.predictor import Translator

APPLICATION = Application(name="translation", predictor=Translator)
