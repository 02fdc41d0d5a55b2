"""A one-minute demonstration of an attention layer learning an alignment.

Task: reverse a sequence of digits. Each output step asks a learned position
query "which input do I copy?"; `BahdanauAttention` has to learn to look at
input position `T - 1 - t`, and the printed attention matrix shows the
anti-diagonal it found.
"""

from __future__ import annotations

import time

import keras
import numpy as np

from attention_zoo.layers import BahdanauAttention


def make_data(n: int, length: int, seed: int):
    rng = np.random.default_rng(seed)
    tokens = rng.integers(1, 10, size=(n, length)).astype("int32")
    return tokens, tokens[:, ::-1].copy()


class PositionQueries(keras.layers.Layer):
    """One learned query vector per output position, repeated over the batch."""

    def __init__(self, length: int, units: int, **kwargs):
        super().__init__(**kwargs)
        self.length, self.units = length, units

    def build(self, input_shape):
        self.queries = self.add_weight(
            name="queries", shape=(self.length, self.units), initializer="normal"
        )

    def call(self, tokens):
        batch = keras.ops.shape(tokens)[0]
        return keras.ops.broadcast_to(
            self.queries[None], (batch, self.length, self.units)
        )  # (B, T, units)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.length, self.units)


def build_model(length: int, vocab: int = 10, units: int = 32) -> keras.Model:
    tokens = keras.Input((length,), dtype="int32", name="tokens")
    memory = keras.layers.Embedding(vocab, units, mask_zero=True)(tokens)
    memory = keras.layers.Bidirectional(
        keras.layers.GRU(units, return_sequences=True), merge_mode="sum"
    )(memory)  # (B, T, units)
    queries = PositionQueries(length, units)(tokens)  # (B, T, units)
    context, weights = BahdanauAttention(units, name="attention")(
        queries, memory, return_attention_scores=True
    )
    logits = keras.layers.Dense(vocab, name="logits")(context)
    return keras.Model(tokens, [logits, weights])


def run(epochs: int = 8, length: int = 8, seed: int = 0) -> dict:
    keras.utils.set_random_seed(seed)
    x_train, y_train = make_data(4000, length, seed)
    x_test, y_test = make_data(500, length, seed + 1)
    model = build_model(length)
    model.compile(
        optimizer=keras.optimizers.Adam(3e-3),
        loss=[keras.losses.SparseCategoricalCrossentropy(from_logits=True), None],
        metrics=[["accuracy"], None],
    )
    print(f"backend: {keras.backend.backend()}, parameters: {model.count_params()}")
    start = time.perf_counter()
    model.fit(x_train, y_train, batch_size=64, epochs=epochs, verbose=2)
    seconds = time.perf_counter() - start
    logits, attention = model.predict(x_test, verbose=0)
    predicted = logits.argmax(-1)
    accuracy = float((predicted == y_test).mean())
    exact = float((predicted == y_test).all(-1).mean())
    print(f"\ntrained {epochs} epochs in {seconds:.1f} s")
    print(f"test digit accuracy {accuracy:.4f}, whole-sequence exact match {exact:.4f}")
    print(f"\ninput  {' '.join(map(str, x_test[0]))}")
    print(f"output {' '.join(map(str, predicted[0]))}")
    print("attention (rows: output steps, columns: input positions; # >= 0.5):")
    for t, row in enumerate(attention[0]):
        cells = "".join("#" if w >= 0.5 else ("+" if w >= 0.1 else ".") for w in row)
        print(f"  step {t}: {cells}  peak at input {int(row.argmax())}")
    return {"accuracy": accuracy, "exact_match": exact, "attention": attention}
