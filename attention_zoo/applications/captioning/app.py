"""The captioning application, as the registry sees it."""

from attention_zoo.applications.captioning.predictor import Captioner
from attention_zoo.applications.common.application import Application

APPLICATION = Application(name="captioning", predictor=Captioner)
