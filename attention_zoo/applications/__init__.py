"""Applications built on attention_zoo, one folder each.

`from_preset(name)` loads the predictor of any shipped preset or preset
folder, `load_exported(folder)` runs any export of `attention-zoo APP
export`. Which applications there are is `registry.MODULES`, one line each
(`registry.applications()` lists them), so this docstring names none.
"""

from attention_zoo.applications.exported_loader import load_exported
from attention_zoo.applications.registry import from_preset

__all__ = ["from_preset", "load_exported"]
