"""TensorFlow-only helpers for SavedModel export (TensorFlow is imported lazily).

The library's layers, decoders and decoding never import TensorFlow; these
helpers do, lazily, as do the applications (their exports and `tf.data`
sources) and the command's start-up, to quiet TensorFlow's logging
(tests/test_package_rules.py keeps the rule). They run inside `tf.function`
graphs that a SavedModel serves, so string and image preprocessing travels
with the model.
"""

from attention_zoo.export.image import decode_image_array, decode_images
from attention_zoo.export.loader import load_exported
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
    "load_exported",
    "normalize_strings",
    "split_punctuation",
]
