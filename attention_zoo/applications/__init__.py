"""Applications built on attention_zoo: dates, translation, captioning,
summarization (the list is `registry.MODULES`).

`from_preset(name)` loads the predictor of any shipped preset or preset
folder, `load_exported(folder)` runs any export of `attention-zoo APP
export`; the applications are listed in `registry`.
"""

from attention_zoo.applications.exported_loader import load_exported
from attention_zoo.applications.registry import from_preset

__all__ = ["from_preset", "load_exported"]
