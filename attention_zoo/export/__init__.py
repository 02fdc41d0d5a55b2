"""TensorFlow-only helpers for SavedModel export (TensorFlow is imported lazily).

Nothing else in attention_zoo imports TensorFlow; these functions run inside
`tf.function` graphs that a SavedModel serves, so string preprocessing travels
with the model.
"""

from attention_zoo.export.text import TokenTables, normalize_strings, split_punctuation

__all__ = ["TokenTables", "normalize_strings", "split_punctuation"]
