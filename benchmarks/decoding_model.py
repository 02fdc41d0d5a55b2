"""The dates-sized encoder-decoder that `benchmarks.decoding` decodes with.

`DatesModel` builds the layers with random weights whose end token is never
chosen, so every decoding runs all `TY` steps; `make_functions` gives the
encode + decode functions that are timed, `random_sources` their input and
`describe_model` the line of the report that names the sizes.
"""

from __future__ import annotations

import keras
import numpy as np
from keras import ops

from attention_zoo.decoders import AttentionRNNDecoder
from attention_zoo.decoding import beam_search, greedy_search, make_step_fn
from attention_zoo.encoders import BidirectionalRNNEncoder
from attention_zoo.layers import BahdanauAttention

# Dates-sized model.
TX, TY = 30, 10
SOURCE_VOCAB = 40  # 0 = padding
TARGET_VOCAB = 13  # '0'-'9' = 0-9, '-' = 10, start, end
START, END = 11, 12
MIN_SOURCE_LENGTH = 12
SOURCE_EMBEDDING, TARGET_EMBEDDING = 32, 16
ENCODER_UNITS = 32  # per direction; concat gives the decoder's 64
DECODER_UNITS = ATTENTION_UNITS = 2 * ENCODER_UNITS
END_BIAS = -100.0  # random weights give logits of order 1: END is never chosen

BEAM_WIDTHS = (1, 4, 8)


class DatesModel:
    """The layers of the encoder-decoder, built, with random weights."""

    def __init__(self, seed: int, cell_type: str = "lstm"):
        keras.utils.set_random_seed(seed)
        self.cell_type = cell_type
        cell = keras.layers.LSTMCell if cell_type == "lstm" else keras.layers.GRUCell
        self.source_embedding = keras.layers.Embedding(
            SOURCE_VOCAB, SOURCE_EMBEDDING, name="source_embedding"
        )
        self.encoder = BidirectionalRNNEncoder(
            ENCODER_UNITS, cell_type=cell_type, merge_mode="concat", name="encoder"
        )
        self.target_embedding = keras.layers.Embedding(
            TARGET_VOCAB, TARGET_EMBEDDING, name="target_embedding"
        )
        self.decoder = AttentionRNNDecoder(
            cell(DECODER_UNITS),
            BahdanauAttention(ATTENTION_UNITS),
            name="decoder",
        )
        self.output_layer = keras.layers.Dense(TARGET_VOCAB, name="logits")
        # Build everything with one teacher-forced call.
        source = np.ones((2, TX), "int32")
        target = np.ones((2, TY), "int32")
        memory, states = self.encoder(self.source_embedding(source))
        outputs, _, _ = self.decoder(
            self.target_embedding(target), memory, initial_state=states
        )
        self.output_layer(outputs)
        kernel, bias = self.output_layer.get_weights()
        bias[END] = END_BIAS
        self.output_layer.set_weights([kernel, bias])
        self.step_fn = make_step_fn(
            self.decoder, self.target_embedding, self.output_layer
        )

    @property
    def layers(self):
        return [
            self.source_embedding,
            self.encoder,
            self.target_embedding,
            self.decoder,
            self.output_layer,
        ]

    @property
    def variables(self):
        return [v for layer in self.layers for v in layer.variables]

    def prepare(self, source):
        """Encode: `(state, constants, start_tokens)` for the search functions."""
        mask = ops.not_equal(source, 0)  # (B, Tx)
        memory, states = self.encoder(self.source_embedding(source), mask=mask)
        constants = self.decoder.get_constants(memory, mask)
        state = self.decoder.get_initial_state(memory, mask, initial_state=states)
        start = ops.full((ops.shape(source)[0],), START, "int32")
        return state, constants, start


def make_functions(model: DatesModel) -> dict:
    """`name -> fn(source)`, each encoding and decoding a batch of sources.

    Every function returns `(tokens, scores)`: greedy `(B, Ty)`, `(B,)`; beam
    search the best hypothesis of each sequence, `(B, Ty)`, `(B,)`; the
    Python loop `(B, Ty)` and no scores (zeros).
    """

    def python_loop(source):
        state, constants, tokens = model.prepare(source)
        emitted = []
        for _ in range(TY):
            logits, state, _ = model.step_fn(tokens, state, constants)
            tokens = ops.cast(ops.argmax(logits, axis=-1), "int32")
            emitted.append(tokens)
        return ops.stack(emitted, axis=1), ops.zeros((ops.shape(source)[0],))

    def greedy(source):
        state, constants, start = model.prepare(source)
        out = greedy_search(
            model.step_fn, state, start, END, TY, constants=constants, pad_token=END
        )
        return out["tokens"], out["scores"]

    def make_beam(width):
        def beam(source):
            state, constants, start = model.prepare(source)
            out = beam_search(
                model.step_fn,
                state,
                start,
                END,
                TY,
                beam_width=width,
                constants=constants,
                pad_token=END,
            )
            return out["tokens"][:, 0], out["scores"][:, 0]

        return beam

    functions = {"python loop": python_loop, "greedy": greedy}
    for width in BEAM_WIDTHS:
        functions[f"beam {width}"] = make_beam(width)
    return functions


def describe_model(cell: str, seed: int) -> str:
    """The sizes of the model, in one line of the report."""
    return (
        f"Embedding({SOURCE_VOCAB}, {SOURCE_EMBEDDING}) + "
        f'BidirectionalRNNEncoder({ENCODER_UNITS}, "{cell}", concat) + '
        f"Embedding({TARGET_VOCAB}, {TARGET_EMBEDDING}) + AttentionRNNDecoder("
        f"{cell.upper()}Cell({DECODER_UNITS}), "
        f"BahdanauAttention({ATTENTION_UNITS})) + "
        f"Dense({TARGET_VOCAB}); Tx {TX} (lengths {MIN_SOURCE_LENGTH}-{TX}, "
        f"padded, masked), Ty {TY}; random weights (seed {seed}), "
        f"end-token bias {END_BIAS:g} so that all {TY} steps always run"
    )


def random_sources(rng, batch: int) -> np.ndarray:
    """`(batch, Tx)` int32: characters 1..39, then padding 0."""
    source = rng.integers(1, SOURCE_VOCAB, (batch, TX)).astype("int32")
    lengths = rng.integers(MIN_SOURCE_LENGTH, TX + 1, batch)
    source[np.arange(TX)[None, :] >= lengths[:, None]] = 0
    return source
