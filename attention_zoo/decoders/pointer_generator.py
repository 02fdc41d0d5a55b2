"""`PointerGenerator`: copy attention, the vocabulary distribution mixed with
a copy distribution over the source words (See et al. 2017)."""

from __future__ import annotations

import keras
from keras import ops

from attention_zoo._checks import checked_bool, is_int


@keras.saving.register_keras_serializable(package="attention_zoo")
class PointerGenerator(keras.layers.Layer):
    """The pointer-generator output: generate a word or copy one from the source.

    At each decoder step, the attention weights `a` over the source become a
    copy distribution, mixed with the decoder's vocabulary distribution by a
    learned gate:

        P(w) = p_gen P_vocab(w) + (1 - p_gen) sum_{i: x_i = w} a_i
        p_gen = sigmoid(w_c^T c + w_s^T s + w_x^T x + b),  c = sum_i a_i h_i

    with `c` the context vector (recomputed from `attention` and `memory`, so
    any step decoder and any attention mechanism can feed it), `s` the
    decoder's output and `x` its input embedding.

    The distribution is over the **extended vocabulary**: the `vocab_size`
    words, then one id per source position, `vocab_size + i`. A source word
    outside the vocabulary gets the id `vocab_size + i` of the first
    position `i` that holds it (`extended_source_ids` computes them), so the
    attention of all its positions adds up on one id, and the extended size
    `vocab_size + Tx` is static for a given source length. An application
    maps an emitted id `>= vocab_size` back to the source word at that
    position, and feeds `unk_id` to the decoder's embedding in its place.

    Sizes: `B` batch, `T` target steps (absent for one step), `Tx` source
    length, `V` `vocab_size`, `D` memory size, `H` decoder output size, `E`
    input embedding size.

    Args:
        vocab_size: int, the vocabulary of `logits`, `V`.
        epsilon: float; the floor of the probabilities whose logarithm
            `call` returns with `return_log_probs` (a word nothing gives any
            probability costs `-log(epsilon)`, never infinity).

    Call arguments:
        logits: `(B, [T,] V)`, the decoder's vocabulary logits.
        attention: `(B, [T,] Tx)`, its attention weights over the source.
        memory: `(B, Tx, D)`, the attended values (the encoder's outputs).
        decoder_output: `(B, [T,] H)`, the decoder's output `s`.
        decoder_input: `(B, [T,] E)`, the embedded input token `x`.
        source_ids: `(B, Tx)` int, the source's extended ids
            (`extended_source_ids`); padding positions carry attention 0 and
            add nothing wherever their id points.
        return_p_gen: bool; also return `p_gen`.
        return_log_probs: bool; return `log(max(P, epsilon))` instead of `P`
            (a step function for `attention_zoo.decoding` returns it as its
            logits: its log-softmax is itself).

    Returns:
        `P` `(B, [T,] V + Tx)`, float32 whatever the dtype policy (it is a
        distribution, summed in float32), and with `return_p_gen`, `p_gen`
        `(B, [T,] 1)`.

    Examples:
        >>> import numpy as np
        >>> layer = PointerGenerator(vocab_size=5)
        >>> probs, p_gen = layer(
        ...     np.zeros((2, 5), "float32"),            # logits: uniform words
        ...     np.array([[1.0, 0.0], [0.5, 0.5]]),     # attention (B, Tx)
        ...     np.ones((2, 2, 3), "float32"),          # memory (B, Tx, D)
        ...     np.ones((2, 4), "float32"),             # decoder output (B, H)
        ...     np.ones((2, 3), "float32"),             # input embedding (B, E)
        ...     np.array([[3, 5], [5, 5]]),             # source ids, 5 = position 0
        ...     return_p_gen=True,
        ... )
        >>> tuple(probs.shape), tuple(p_gen.shape)
        ((2, 7), (2, 1))
        >>> np.allclose(keras.ops.convert_to_numpy(probs).sum(-1), 1.0)
        True

    References:
        See, Liu and Manning, "Get To The Point: Summarization with
        Pointer-Generator Networks", ACL 2017; Vinyals, Fortunato and
        Jaitly, "Pointer Networks", NeurIPS 2015; Gu et al., "Incorporating
        Copying Mechanism in Sequence-to-Sequence Learning", ACL 2016.
    """

    def __init__(self, vocab_size: int, epsilon: float = 1e-9, **kwargs):
        super().__init__(**kwargs)
        if not is_int(vocab_size) or vocab_size < 1:
            raise ValueError(
                "PointerGenerator: `vocab_size` must be a positive integer. "
                f"Received: vocab_size={vocab_size!r}"
            )
        if not isinstance(epsilon, (int, float)) or not 0 < epsilon < 1:
            raise ValueError(
                "PointerGenerator: `epsilon` must be a number in (0, 1). "
                f"Received: epsilon={epsilon!r}"
            )
        self.vocab_size = int(vocab_size)
        self.epsilon = float(epsilon)
        # The decoder's target mask (on `logits`) passes through.
        self.supports_masking = True

    def build(
        self,
        logits_shape,
        attention_shape=None,
        memory_shape=None,
        decoder_output_shape=None,
        decoder_input_shape=None,
        source_ids_shape=None,
    ):
        # One gate over [c; s; x]: a Dense of the concatenation is the
        # paper's three vectors and bias. Built here, from the shapes of the
        # first call (Keras keeps them to rebuild a loaded layer), so its
        # weights exist when a `.keras` file's are read.
        self._gate = keras.layers.Dense(1, name="gate", dtype=self.dtype_policy)
        features = memory_shape[-1] + decoder_output_shape[-1]
        self._gate.build((None, features + decoder_input_shape[-1]))
        self.built = True

    def call(
        self,
        logits,
        attention,
        memory,
        decoder_output,
        decoder_input,
        source_ids,
        return_p_gen: bool = False,
        return_log_probs: bool = False,
    ):
        return_p_gen = checked_bool("PointerGenerator", "return_p_gen", return_p_gen)
        return_log_probs = checked_bool(
            "PointerGenerator", "return_log_probs", return_log_probs
        )
        self._check_shapes(logits, attention, memory, source_ids)
        step = len(logits.shape) == 2
        memory = ops.cast(memory, self.compute_dtype)
        weights = ops.cast(attention, self.compute_dtype)
        context = (
            ops.einsum("bi,bid->bd", weights, memory)
            if step
            else ops.einsum("bti,bid->btd", weights, memory)
        )  # (B, [T,] D)
        features = ops.concatenate(
            [
                context,
                ops.cast(decoder_output, self.compute_dtype),
                ops.cast(decoder_input, self.compute_dtype),
            ],
            axis=-1,
        )
        p_gen = ops.sigmoid(ops.cast(self._gate(features), "float32"))  # (B, [T,] 1)
        vocab = ops.softmax(ops.cast(logits, "float32"), axis=-1)  # (B, [T,] V)
        attention = ops.cast(attention, "float32")
        copy = copy_distribution(attention, source_ids, self.vocab_size)
        tx = ops.shape(attention)[-1]
        padding = [[0, 0]] * (len(vocab.shape) - 1) + [[0, tx]]
        probs = p_gen * ops.pad(vocab, padding) + (1.0 - p_gen) * copy
        if return_log_probs:
            probs = ops.log(ops.maximum(probs, self.epsilon))
        return (probs, p_gen) if return_p_gen else probs

    def _check_shapes(self, logits, attention, memory, source_ids):
        rank = len(logits.shape)
        if rank not in (2, 3) or len(attention.shape) != rank:
            raise ValueError(
                "PointerGenerator: `logits` and `attention` must both be "
                "(batch_size, V) and (batch_size, Tx), or (batch_size, T, V) "
                f"and (batch_size, T, Tx). Received: logits.shape={logits.shape}, "
                f"attention.shape={attention.shape}"
            )
        if logits.shape[-1] is not None and logits.shape[-1] != self.vocab_size:
            raise ValueError(
                f"PointerGenerator: the last axis of `logits` must be vocab_size="
                f"{self.vocab_size}. Received: logits.shape={logits.shape}"
            )
        if len(memory.shape) != 3 or len(source_ids.shape) != 2:
            raise ValueError(
                "PointerGenerator: `memory` must be (batch_size, Tx, D) and "
                f"`source_ids` (batch_size, Tx). Received: memory.shape="
                f"{memory.shape}, source_ids.shape={source_ids.shape}"
            )
        tx = {d for d in (attention.shape[-1], memory.shape[1], source_ids.shape[1])}
        if len(tx - {None}) > 1:
            raise ValueError(
                "PointerGenerator: `attention`, `memory` and `source_ids` must "
                f"have the same source length Tx. Received: attention.shape="
                f"{attention.shape}, memory.shape={memory.shape}, "
                f"source_ids.shape={source_ids.shape}"
            )

    def compute_mask(self, logits, *args, mask=None, **kwargs):
        if isinstance(mask, (list, tuple)):
            return mask[0]
        return mask

    def compute_output_shape(self, logits_shape, attention_shape, *args, **kwargs):
        tx = attention_shape[-1]
        extended = None if tx is None else self.vocab_size + tx
        return (*logits_shape[:-1], extended)

    def get_config(self):
        return {
            **super().get_config(),
            "vocab_size": self.vocab_size,
            "epsilon": self.epsilon,
        }


def copy_distribution(attention, source_ids, vocab_size: int):
    """The attention weights summed onto the extended ids of their words.

    The positions holding the same id are first summed onto the first of
    them (a `(Tx, Tx)` equality matrix), so that the scatter into the
    extended vocabulary writes each id at most once per row. A scatter or a
    segment sum with repeated ids would be the direct form, but exported to
    ONNX a segment sum becomes a sort and a dense `(segments, count)`
    scatter over every row's `V + Tx` segments (slow in ONNX Runtime for
    the summarizer: docs/export.md), and ONNX's `ScatterND` leaves repeated
    indices undefined; a scatter of distinct indices means the same thing in
    TensorFlow, JAX, PyTorch, LiteRT and ONNX.

    Args:
        attention: `(B, [T,] Tx)` float32.
        source_ids: `(B, Tx)` int, extended ids in `[0, vocab_size + Tx)`.
        vocab_size: `V`.

    Returns:
        `(B, [T,] V + Tx)`: entry `w` is the sum of the weights of the
        positions whose id is `w`.
    """
    shape = ops.shape(attention)
    tx = shape[-1]
    extended = vocab_size + tx
    ids = ops.cast(source_ids, "int32")
    same = ops.cast(ops.equal(ids[:, :, None], ids[:, None, :]), attention.dtype)
    # Position i is the first of its id when no earlier j holds the same id.
    earlier = ops.tril(ops.ones((tx, tx), attention.dtype), k=-1)
    first = ops.equal(ops.sum(same * earlier, axis=-1), 0.0)  # (B, Tx)
    if len(attention.shape) == 3:
        summed = ops.einsum("btj,bij->bti", attention, same)
        first = ops.repeat(first, shape[1], axis=0)  # (B*T, Tx), row b*T + t
        ids = ops.repeat(ids, shape[1], axis=0)
    else:
        summed = ops.einsum("bj,bij->bi", attention, same)
    rows = ops.reshape(summed, (-1, tx))  # (N, Tx), N = B or B*T
    n = ops.shape(rows)[0]
    # A position that is not the first of its id carries 0 to a column of
    # its own past the extended vocabulary, cut off below.
    spare = extended + ops.arange(tx, dtype="int32")
    columns = ops.where(first, ids, spare[None, :])  # (N, Tx), distinct per row
    row_index = ops.repeat(ops.arange(n, dtype="int32")[:, None], tx, axis=1)
    indices = ops.stack([row_index, columns], axis=-1)  # (N, Tx, 2)
    scattered = ops.scatter(
        ops.reshape(indices, (-1, 2)),
        ops.reshape(ops.where(first, rows, 0.0), (-1,)),
        (n, extended + tx),
    )
    return ops.reshape(scattered[:, :extended], (*shape[:-1], extended))


def extended_source_ids(tokens, vocabulary_index: dict, unk_id: int, vocab_size: int):
    """Extended ids of a tokenized source (see `PointerGenerator`).

    A word of the vocabulary keeps its id; a word outside it gets
    `vocab_size + i`, `i` the first position of that word in `tokens`.

    Args:
        tokens: the source's words, in order.
        vocabulary_index: `{word: id}` of the vocabulary.
        unk_id: the id of the unknown word (what the encoder reads for an
            out-of-vocabulary word; not used in the extended ids).
        vocab_size: `V`.

    Returns:
        `(ids, extended)`: the encoder's ids (unknown words as `unk_id`) and
        the extended ids, two lists of ints as long as `tokens`.

    Examples:
        >>> extended_source_ids(["debian", "zork", "tool", "zork"], {"debian": 4, "tool": 5}, 1, 10)
        ([4, 1, 5, 1], [4, 11, 5, 11])
    """
    ids, extended, first = [], [], {}
    for position, token in enumerate(tokens):
        known = vocabulary_index.get(token)
        if known is not None and known < vocab_size:
            ids.append(known)
            extended.append(known)
        else:
            ids.append(unk_id)
            extended.append(vocab_size + first.setdefault(token, position))
    return ids, extended
