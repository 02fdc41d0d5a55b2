"""The source side of the text applications (dates, translation): token ids
embedded (`source_embedding`) and read by a bidirectional GRU (`encoder`)."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo.encoders import BidirectionalRNNEncoder


def encode_source(
    source,
    vocab_size: int,
    embedding_dim: int,
    units: int,
    dropout: float = 0.0,
    seed: int | None = None,
):
    """Builds the source encoder on the symbolic ids `source` `(B, Tx)`.

    Args:
        source: the model's int32 input of source ids, 0 for padding.
        vocab_size: source ids.
        embedding_dim: size of the `source_embedding` vectors.
        units: GRU units per direction of the `encoder`.
        dropout: the encoder's dropout.
        seed: seed of the encoder's dropout.

    Returns:
        `(memory (B, Tx, 2 * units), final states)`, the states of both
        directions concatenated, for the decoder's initial state.
    """
    embedded = keras.layers.Embedding(
        vocab_size, embedding_dim, mask_zero=True, name="source_embedding"
    )(source)
    return BidirectionalRNNEncoder(
        units, cell_type="gru", dropout=dropout, seed=seed, name="encoder"
    )(embedded)


def source_encoder(model: keras.Model, pad_id: int = 0):
    """The trained source encoder of `model` (built by `encode_source`).

    Returns:
        `encode(source_ids (B, Tx)) -> (memory, mask (B, Tx), states)`, the
        mask false at `pad_id`.
    """
    embedding = model.get_layer("source_embedding")
    encoder = model.get_layer("encoder")

    def encode(source_ids):
        source_ids = ops.cast(source_ids, "int32")
        mask = ops.not_equal(source_ids, pad_id)
        memory, states = encoder(embedding(source_ids), mask=mask)
        return memory, mask, states

    return encode
