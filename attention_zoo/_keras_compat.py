"""Every private Keras (`keras.src`) name the package uses, in one place.

Each has no public equivalent in Keras 3.15; the comment beside it names the
public API that would replace it, so that an upgrade touches this file alone.
"""

# Public replacement: assigning `tensor._keras_mask = None` (the attribute
# Keras 2 exposed) does not work on every backend's tensors; Keras 3 reads
# masks through this helper. Used to drop an implicit mask a layer consumed.
from keras.src.backend import set_keras_mask

# Public replacement: none yet. `keras.ops` has no "am I tracing shapes"
# query; a layer's `compute_output_spec` runs `call` inside this scope, where
# lengths are placeholders that must not be checked against real limits.
from keras.src.backend.common.symbolic_scope import in_symbolic_scope

# Public replacement: `keras.losses.Loss.__call__`'s reduction, which also
# applies the mask riding on `y_pred`; the sequence losses mask from the
# labels themselves and need the reduction without it.
from keras.src.losses.loss import reduce_weighted_values

__all__ = [
    "in_symbolic_scope",
    "reduce_weighted_values",
    "set_keras_mask",
    "tensorflow_trainer_module",
]


def tensorflow_trainer_module():
    """`keras.src.backend.tensorflow.trainer`, imported when called (it
    imports TensorFlow).

    Public replacement: none. `applications.common.distribute` patches two
    of its functions that fail under `MultiWorkerMirroredStrategy` in Keras
    3.15 (the first batch's shapes and the reduction of each step's logs);
    a Keras release that trains nested batches under several workers makes
    the patch, and this accessor, unnecessary.
    """
    from keras.src.backend.tensorflow import trainer

    return trainer
