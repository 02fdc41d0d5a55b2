"""Applications built on attention_zoo: dates, translation, captioning.

`from_preset(name)` loads the predictor of any shipped preset or preset
folder; the applications are listed in `registry`.
"""

from attention_zoo.applications.registry import from_preset

__all__ = ["from_preset"]
