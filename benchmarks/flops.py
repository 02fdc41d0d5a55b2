"""Floating-point operations counted from a model's shapes: the numerator of
the benchmarks' "share of the machine's limit" (`harness.matmul_flops`, a
large float32 matmul timed in the same run, is the denominator).

A multiply-add counts 2. Counted: every product with a weight matrix or a
convolution kernel, and the attention's scores and context. Left out:
biases, gates, softmax, norms and other elementwise work, and embedding
lookups (a gather, not a product). Elementwise work is not always small
beside the products: `benchmarks/step_parts.py` finds the `tanh` of
Bahdanau's score taking 40 % of a decoding step for 5 % of its count.

Training counts `TRAINING_FACTOR` = 3 times the forward pass: the backward
pass multiplies by each weight matrix twice, once for the gradient of its
input and once for the gradient of the weight (Kaplan et al. 2020, "Scaling
laws for neural language models", sec. 2.1: 6N operations per token against
2N for the forward pass). A frozen part of a model (the captioner's encoder)
runs forward only.

The sequence models here share one layout, named by their layers: an
`encoder` (bidirectional RNN) over the source positions, a `decoder`
(attention RNN) with its attention's `key_dense` applied once per memory
position, and a `logits` layer applied per output step.
"""

from __future__ import annotations

TRAINING_FACTOR = 3


def kernels(weights) -> int:
    """2ab for each `(a, b)` weight matrix among `weights`, biases left out
    (a GRU's bias is 2-D too: `(2, 3 * units)`)."""
    return sum(
        2 * w.shape[0] * w.shape[1]
        for w in weights
        if len(w.shape) == 2 and not w.path.endswith("bias")
    )


def key_projection(model) -> tuple:
    """`(memory_width, attention_units)` of the decoder's key projection."""
    for w in model.get_layer("decoder").weights:
        if "key_dense" in w.path and len(w.shape) == 2:
            return tuple(w.shape)
    raise ValueError(
        f"model {model.name!r}: its decoder has no attention key projection"
    )


def decoder_step(model, source_width: int) -> int:
    """One decoder step for one sequence: every matrix of the decoder and
    the `logits` layer but the key projection (applied once per memory
    position, `memory_position`), plus the attention over `source_width`
    positions (each position's score against `attention_v`, and the
    context, the weighted sum of the memory)."""
    weights = model.get_layer("decoder").weights + model.get_layer("logits").weights
    memory_width, attention_units = key_projection(model)
    key = 2 * memory_width * attention_units
    return kernels(weights) - key + 2 * source_width * (attention_units + memory_width)


def memory_position(model) -> int:
    """The attention's key projection of one memory position."""
    memory_width, attention_units = key_projection(model)
    return 2 * memory_width * attention_units


def encoder_position(model) -> int:
    """One source position through the `encoder` (both directions) and the
    key projection."""
    return kernels(model.get_layer("encoder").weights) + memory_position(model)


def sequence_to_sequence(model, source_length: int, steps: int) -> int:
    """The forward pass of one pair: `source_length` positions encoded,
    `steps` decoder steps over them (teacher forcing takes as many steps as
    the target has tokens with `<end>`; a greedy answer as many as it
    writes)."""
    return source_length * encoder_position(model) + steps * decoder_step(
        model, source_length
    )


def layers_forward(model) -> int:
    """The forward pass of one example through a functional model, from
    each layer's output shape: a convolution (depthwise too) or a dense
    layer with kernel `k` whose output holds `n` positions (its shape but
    the batch and channel axes) costs `2 n k.size`. Nested models are
    followed; layers without such a kernel count 0."""
    total = 0
    for layer in model.layers:
        if hasattr(layer, "layers"):
            total += layers_forward(layer)
            continue
        kernel = next(
            (
                w
                for w in layer.weights
                if w.path.endswith("kernel") and len(w.shape) >= 2
            ),
            None,
        )
        if kernel is None:
            continue
        positions = 1
        for d in layer.output.shape[1:-1]:
            positions *= int(d)
        size = 1
        for d in kernel.shape:
            size *= int(d)
        total += 2 * positions * size
    return total


def caption(model, steps: int) -> int:
    """The forward pass of one caption of `steps` decoder steps over the
    caption model's feature grid: the feature projection (and the key
    projection) of every grid position once, then the decoder steps."""
    grid = int(model.get_layer("features").output.shape[1])
    projection = kernels(model.get_layer("feature_projection").weights)
    return grid * (projection + memory_position(model)) + steps * decoder_step(
        model, grid
    )
