"""TensorFlow-only helpers for SavedModel export (TensorFlow is imported lazily).

The library's layers, decoders and decoding never import TensorFlow; these
helpers do, lazily, as do the applications (their exports and `tf.data`
sources) and the command's start-up, to quiet TensorFlow's logging
(tests/test_package_rules.py keeps the rule). They run inside `tf.function`
graphs that a SavedModel serves, so string and image preprocessing travels
with the model.
They are library code: they import no application.
"""

from attention_zoo.export.image import decode_image_array, decode_images
from attention_zoo.export.text import (
    TokenTables,
    ascii_digits,
    normalize_strings,
    split_punctuation,
)

__all__ = [
    "TokenTables",
    "ascii_digits",
    "decode_image_array",
    "decode_images",
    "normalize_strings",
    "split_punctuation",
]

# Names that moved up to the application layer, with their new home.
MOVED = {"load_exported": "attention_zoo.applications"}


def __getattr__(name: str):
    # An ImportError, not an AttributeError: `from attention_zoo.export
    # import load_exported` turns an AttributeError into a bare "cannot
    # import name" and loses the new home.
    if name in MOVED:
        raise ImportError(
            f"`{name}` moved to the application layer, beside `from_preset`: "
            f"`from {MOVED[name]} import {name}`. Received: "
            f"attention_zoo.export.{name}"
        )
    raise AttributeError(f"module 'attention_zoo.export' has no attribute {name!r}")
