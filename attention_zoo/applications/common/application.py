"""`Application`: what one application tells the skeleton about itself."""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Application:
    """One application of the registry (`attention_zoo.applications.registry`).

    Attributes:
        name: the command's name (`attention-zoo NAME`), also the `app` of
            its run folders and presets.
        predictor: its `RunPredictor` subclass, which loads a run or preset
            folder.
    """

    name: str
    predictor: type

    def __post_init__(self):
        if not self.name.isidentifier():
            raise ValueError(
                f"`name` must be a Python identifier. Received: name={self.name!r}"
            )
        if getattr(self.predictor, "app", None) != self.name:
            raise ValueError(
                f"`predictor.app` must be the application's name {self.name!r}. "
                f"Received: {self.predictor.__name__}.app="
                f"{getattr(self.predictor, 'app', None)!r}"
            )
