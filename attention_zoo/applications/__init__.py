"""Applications built on attention_zoo, one folder each.

`from_preset(name)` loads the predictor of any shipped preset or preset
folder, `load_exported(folder)` runs any export of `attention-zoo APP
export`. Which applications there are is `registry.MODULES`, one line each
(`registry.applications()` lists them), so this docstring names none.
"""

from attention_zoo import _lazy

# Loaded on first use (PEP 562): the command line reads the registry, below
# this package, without the loader's imports (docs/reliability.md, "The
# command answers at once").
_ORIGINS = {
    "from_preset": "attention_zoo.applications.registry",
    "load_exported": "attention_zoo.applications.exported_loader",
}

__all__ = ["from_preset", "load_exported"]


__getattr__, __dir__ = _lazy.attributes(__name__, _ORIGINS, globals())
