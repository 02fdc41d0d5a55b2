"""The application layer's export driver: an application's run folder or
preset exported in any format, the SavedModel by the application's own
`export` hook, LiteRT and ONNX from its `export_core`."""

from __future__ import annotations

from pathlib import Path

from attention_zoo.applications.common.exporting.portable import (
    FORMATS,
    write_portable,
)
from attention_zoo.presets import preset_folder


def export_application(
    application, model, output, format: str = "saved_model", **options
) -> Path:
    """Exports the run folder or preset `model` of `application` (an
    `Application`) as `format` into the folder `output`, and returns the
    folder. `attention_zoo.applications.registry.export` documents the
    formats; it looks the application up by name and calls this, so a caller
    that has the application in hand (its command) needs no registry.
    """
    if format not in FORMATS:
        raise ValueError(
            f"`format` must be one of {FORMATS}. Received: format={format!r}"
        )
    folder = Path(model)
    if isinstance(model, str) and not folder.exists() and "/" not in model:
        try:  # a shipped preset's name
            folder = preset_folder(model)
        except ValueError:
            pass  # the application names what is wrong with the folder
    if format == "saved_model":
        return application.export(folder, output, **options)
    if application.export_core is None:
        raise ValueError(
            f"the {application.name} application exports only format='saved_model' "
            f"so far. Received: format={format!r}"
        )
    core = application.export_core(folder, **options)
    return write_portable(core, folder, output, format, application.name)
