"""Where a decoding step of the shipped translator spends its time, part by
part, against the floating-point work each part does.

`benchmarks/samplers.py` finds our searches (and keras-hub's) near 10 % of
the machine's matmul rate, and its `--rows` table finds the time of a step
proportional to its rows from 16 to 1,024: not a fixed cost of the loop
or of dispatching its ops, but work per row. This script times the parts
of one step of `bible_en_es` (batch `--rows`, its test-slice verses
repeated, 96 source positions) each compiled alone as the searches compile
them (XLA on TensorFlow, `jax.jit` on JAX), interleaved:

- the whole step (`make_step_fn`: embedding, decoder step, output layer);
- the GRU cell alone; the attention alone (`attend`: Bahdanau's
  `v . tanh(W q + keys)` over every source position, the masked softmax,
  the context); the output layer alone (layer norm, 128 x 5,000 matrix);
- what the searches do with the logits: `log_softmax` over 5,000 words,
  greedy's `first_argmax`, and beam search's `top_k` of 4 over 4 x 5,000
  (as they did before this profile), then what they do instead:
  `logsumexp` (greedy and beam search), a `top_k` of 4 over each
  hypothesis's 5,000 (beam search until 2026-11-28), and the blocked top-k
  of 4 over 4 x 5,000 beam search takes on a CPU since
  (`decoding.ranking.best_extensions`: a maximum a block of 50, a `top_k`
  of 4 over the 400 blocks, one of 4 over their 200 values).

For each: microseconds a row and the floating-point work counted for it
(`benchmarks/flops.py`'s rule: products with matrices and the attention's
scores and context; nothing for `tanh`, softmax, argmax or `top_k`).

Usage:

    python -m benchmarks.step_parts
    KERAS_BACKEND=jax python -m benchmarks.step_parts --rows 1024
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import keras  # noqa: E402
from keras import ops  # noqa: E402

from benchmarks import flops, harness  # noqa: E402
from benchmarks.compiling import compile_fn  # noqa: E402


def parts(translator, rows: int) -> dict:
    """name -> (fn of one tensor, its argument, FLOPs a row)."""
    from attention_zoo.applications import registry
    from attention_zoo.applications.common.source_encoder import source_encoder
    from attention_zoo.applications.common.text import PAD_ID, START_ID
    from attention_zoo.decoders._multi_memory import attend
    from attention_zoo.decoding import make_step_fn
    from attention_zoo.decoding.greedy import first_argmax
    from attention_zoo.decoding.ranking import best_extensions, block_size
    from attention_zoo.presets import PRESETS_DIR

    model = translator.model
    app = registry.get("translation")
    texts = app.test_slice.inputs(PRESETS_DIR / "bible_en_es" / "test_slice.json")
    source_ids, _ = translator.encode((texts * (rows // len(texts) + 1))[:rows])
    memory, mask, states = source_encoder(model, PAD_ID)(source_ids)
    decoder = model.get_layer("decoder")
    embedding = model.get_layer("target_embedding")
    norm, logits_layer = model.get_layer("output_norm"), model.get_layer("logits")
    step_fn = make_step_fn(decoder, embedding, lambda x: logits_layer(norm(x)))
    constants = decoder.get_constants(memory, mask)
    state = decoder.get_initial_state(memory, mask, initial_state=states)
    tokens = ops.full((rows,), START_ID, "int32")
    logits = step_fn(tokens, state, constants)[0]
    hidden = state[0]
    width = int(source_ids.shape[1])
    memory_width, attention_units = flops.key_projection(model)
    beam_scores = ops.reshape(logits, (rows // 4, -1))
    vocab = int(logits.shape[-1])
    return {
        "whole step": (
            lambda t: step_fn(t, state, constants)[0],
            tokens,
            flops.decoder_step(model, width),
        ),
        "GRU cell": (
            lambda x: decoder.cell(x, [hidden])[0],
            embedding(tokens),
            flops.kernels(decoder.cell.weights),
        ),
        "attention (Bahdanau, 96 positions)": (
            lambda h: attend(decoder._mechanisms, h, constants, [], None, None, None)[
                0
            ],
            hidden,
            flops.kernels([w for w in decoder.weights if "query_dense" in w.path])
            + 2 * width * (attention_units + memory_width),
        ),
        "output layer (norm, 128 x 5,000)": (
            lambda x: logits_layer(norm(x)),
            ops.zeros((rows, int(norm.gamma.shape[0]))),
            flops.kernels(logits_layer.weights),
        ),
        "log_softmax (5,000)": (
            lambda x: ops.log_softmax(x, axis=-1),
            logits,
            0,
        ),
        "first_argmax (greedy)": (first_argmax, logits, 0),
        "top_k 4 of 4 x 5,000 (beam, before)": (
            lambda x: ops.top_k(x, 4)[1],
            beam_scores,
            0,
        ),
        "logsumexp (5,000)": (lambda x: ops.logsumexp(x, axis=-1), logits, 0),
        "top_k 4 of 5,000 (beam, a hypothesis)": (
            lambda x: ops.top_k(x, 4)[1],
            logits,
            0,
        ),
        "blocked top-k 4 of 4 x 5,000 (beam, now)": (
            lambda x: best_extensions(
                ops.reshape(x, (rows // 4, 4, vocab)),
                4,
                lambda v: v,
                block=block_size(vocab),
            )[2],  # fmt: skip
            logits,
            0,
        ),
    }


def main(argv=None) -> int:
    parser = harness.argument_parser(__doc__)
    parser.add_argument("--rows", type=int, default=256, help="rows of a step")
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args(argv)
    if keras.backend.backend() not in ("tensorflow", "jax"):
        parser.error(
            "the searches are timed compiled (XLA on TensorFlow, jax.jit on JAX); "
            f"KERAS_BACKEND={keras.backend.backend()} has no such mode here"
        )
    if args.rows < 4 or args.rows % 4:
        parser.error(f"--rows must be a positive multiple of 4; got {args.rows}")
    from attention_zoo.applications import registry

    harness.print_header("Where a decoding step's time goes")
    translator = registry.from_preset("bible_en_es")
    limit = harness.matmul_flops()
    cases = parts(translator, args.rows)
    compiled = {
        name: (compile_fn(fn, translator.model.weights, "jit"), x)
        for name, (fn, x, _) in cases.items()
    }
    timings = harness.time_interleaved(
        {
            name: (lambda f=f, x=x: harness.to_numpy(f(x)))
            for name, (f, x) in compiled.items()
        },
        args.repeats,
    )
    whole = timings["whole step"].median
    rows = []
    for name, timing in timings.items():
        work = cases[name][2]
        rows.append(
            [
                name,
                f"{1e6 * timing.median / args.rows:.2f}",
                f"{100 * timing.median / whole:.0f} %",
                f"{work / 1e6:.3f}",
                f"{100 * work * args.rows / timing.median / limit:.1f} %"
                if work
                else "-",
            ]
        )
    harness.print_table(
        [
            "part",
            "µs a row",
            "of the whole step",
            "MFLOP a row counted",
            "share of the machine's limit",
        ],
        rows,
        numeric_columns=True,
    )
    harness.print_facts(
        [
            f"{args.rows} rows, 96 source positions, {keras.backend.backend()} "
            f"(jit), {args.repeats} interleaved repeats; the machine's limit: "
            f"{limit / 1e9:.1f} GFLOP/s, a 2048 x 2048 float32 matmul in this run",
            *harness.run_facts(),
        ]
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
