"""Our searches against keras-hub's samplers on the same trained decoder.

keras-hub's `GreedySampler` and `BeamSampler` are what a Keras user would
pick for decoding (Keras 3, every backend, `ops.while_loop`). This script
drives them and `attention_zoo.decoding` with one step function: the shipped
translator's (`bible_en_es`: a bidirectional GRU encoder, a GRU decoder
with Bahdanau attention, 5,000 target words), on the same batch of encoded
test-slice verses, the same constants (the decoder reads them once per
sequence, for every hypothesis) and the same backend compilation (XLA on
TensorFlow, `jax.jit` on JAX), timed interleaved.

The adapter (`hub_next`) is keras-hub's `next(prompt, cache, index) ->
(logits, hidden_states, cache)` around our `step_fn(tokens, state,
constants) -> (logits, state, attention)`: the prompt holds `<start>` then
the tokens written so far, the cache is the decoder state.

What is compared, and where the algorithms differ:

- greedy: the same algorithm; the outputs must be identical up to and
  with each sequence's `<end>` (checked, the run fails otherwise). Ours also
  returns each step's attention, the scores and the lengths.
- beam 4, no length penalty: keras-hub keeps extending a hypothesis after
  its `<end>` (its score goes on adding the log-probabilities of what it
  writes after it), ours freezes a finished hypothesis; they pick the same
  best output where no hypothesis ends before the best one does. The
  table gives the share of identical best outputs.

Why both sit far below the machine's limit: `--rows 16 64 256 1024` adds
a table of our greedy search alone at those batch sizes (the same verses
repeated), with the time of one loop step (the batch's time over its
longest answer, the steps the loop runs) and the share of the machine's
limit. If the time of a step grows much slower than its rows, a step
costs fixed overhead (the loop, the ops' dispatch and small kernels), not
floating-point work.

Usage (keras-hub is a benchmark dependency, not one of the package's:
`pip install keras-hub`):

    python -m benchmarks.samplers
    KERAS_BACKEND=jax python -m benchmarks.samplers --batch 64 --repeats 5
    python -m benchmarks.samplers --rows 16 64 256 1024
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("KERAS_BACKEND", "tensorflow")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import keras  # noqa: E402
import numpy as np  # noqa: E402
from keras import ops  # noqa: E402

from benchmarks import flops, harness  # noqa: E402
from benchmarks.compiling import compile_fn  # noqa: E402


def hub_next(step_fn, constants):
    """keras-hub's `next` callback around our step function."""

    def next_fn(prompt, cache, index):
        tokens = ops.take(prompt, index - 1, axis=1)  # the token written last
        logits, state, _ = step_fn(tokens, list(cache), constants)
        return logits, None, tuple(state)

    return next_fn


def build(preset: str, beam_width: int, max_length: int):
    """name -> `fn(source_ids)` returning tokens `(B, max_length)`."""
    import keras_hub

    from attention_zoo.applications import registry
    from attention_zoo.applications.common.source_encoder import source_encoder
    from attention_zoo.applications.common.text import END_ID, PAD_ID, START_ID
    from attention_zoo.decoding import decode_memory, make_step_fn

    translator = registry.from_preset(preset)
    model = translator.model
    encode = source_encoder(model, PAD_ID)
    decoder = model.get_layer("decoder")
    norm, logits = model.get_layer("output_norm"), model.get_layer("logits")
    step_fn = make_step_fn(
        decoder, model.get_layer("target_embedding"), lambda x: logits(norm(x))
    )

    def ours(width):
        def fn(source_ids):
            memory, mask, states = encode(source_ids)
            out = decode_memory(
                step_fn, decoder, memory, START_ID, END_ID, max_length,
                memory_mask=mask, initial_state=states, beam_width=width,
                pad_token=PAD_ID, alpha=0.0,
            )  # fmt: skip
            return out["tokens"]

        return fn

    def hub(sampler):
        def fn(source_ids):
            memory, mask, states = encode(source_ids)
            constants = decoder.get_constants(memory, mask)
            state = decoder.get_initial_state(memory, mask, initial_state=states)
            batch = ops.shape(memory)[0]
            prompt = ops.concatenate(
                [
                    ops.full((batch, 1), START_ID, "int32"),
                    ops.full((batch, max_length), PAD_ID, "int32"),
                ],
                axis=1,
            )
            out = sampler(
                hub_next(step_fn, constants),
                prompt,
                cache=tuple(state),
                index=1,
                stop_token_ids=[END_ID],
            )
            return out[:, 1:]

        return fn

    fns = {
        "ours greedy": ours(1),
        "keras-hub GreedySampler": hub(keras_hub.samplers.GreedySampler()),
        f"ours beam {beam_width}": ours(beam_width),
        f"keras-hub BeamSampler({beam_width})": hub(
            keras_hub.samplers.BeamSampler(num_beams=beam_width)
        ),
    }
    return translator, model.weights, fns


def until_end(row, end_id: int) -> tuple:
    """A sequence up to and with its first `<end>` (all of it without one)."""
    row = [int(t) for t in row]
    return tuple(row[: row.index(end_id) + 1]) if end_id in row else tuple(row)


def main(argv=None) -> int:
    parser = harness.argument_parser(__doc__)
    parser.add_argument("--preset", default="bible_en_es")
    parser.add_argument("--batch", type=int, default=64, help="verses per call")
    parser.add_argument("--beam-width", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument(
        "--max-length", type=int, default=None, help="default: the translator's"
    )
    parser.add_argument(
        "--rows",
        type=int,
        nargs="*",
        default=[],
        help="also time our greedy search alone at these batch sizes",
    )
    args = parser.parse_args(argv)
    if keras.backend.backend() not in ("tensorflow", "jax"):
        parser.error(
            "the searches are timed compiled (XLA on TensorFlow, jax.jit on JAX); "
            f"KERAS_BACKEND={keras.backend.backend()} has no such mode here"
        )
    if any(r < 1 for r in args.rows):
        parser.error(f"--rows must be positive batch sizes; got {args.rows}")
    try:
        import keras_hub  # noqa: F401
    except ImportError as error:
        sys.exit(
            f"benchmarks/samplers.py needs keras-hub: pip install keras-hub ({error})"
        )
    from attention_zoo.applications.common.text import END_ID
    from attention_zoo.applications.translation.predictor import MAX_OUTPUT_TOKENS
    from attention_zoo.presets import PRESETS_DIR

    max_length = args.max_length or MAX_OUTPUT_TOKENS
    harness.print_header("Our searches against keras-hub's samplers")
    translator, variables, fns = build(args.preset, args.beam_width, max_length)
    limit = harness.matmul_flops()
    from attention_zoo.applications import registry

    app = registry.get("translation")
    texts = app.test_slice.inputs(PRESETS_DIR / args.preset / "test_slice.json")
    texts = (texts * (args.batch // len(texts) + 1))[: args.batch]
    source_ids, _ = translator.encode(texts)
    mode = "jit"
    compiled = {name: compile_fn(fn, variables, mode) for name, fn in fns.items()}
    outputs = {
        name: keras.ops.convert_to_numpy(fn(source_ids))
        for name, fn in compiled.items()
    }
    names = list(fns)
    pairs = [(names[0], names[1]), (names[2], names[3])]
    same = {}
    for ours, theirs in pairs:
        a = [until_end(r, END_ID) for r in outputs[ours]]
        b = [until_end(r, END_ID) for r in outputs[theirs]]
        same[ours] = np.mean([x == y for x, y in zip(a, b)])
    if same[names[0]] != 1.0:
        print(f"FAIL: greedy outputs differ on {100 * (1 - same[names[0]]):.1f} %")
        return 1
    timings = harness.time_interleaved(
        {
            name: (lambda f=fn: harness.to_numpy(f(source_ids)))
            for name, fn in compiled.items()
        },
        args.repeats,
    )
    per_step = flops.decoder_step(translator.model, source_ids.shape[1])
    rows = []
    for (ours, theirs), width in zip(pairs, (1, args.beam_width)):
        for name in (ours, theirs):
            rate = args.batch / timings[name].median
            ratio = timings[theirs].median / timings[name].median
            # The useful work: every hypothesis of a sequence, for as many
            # steps as the search's answer has tokens (its <end> included).
            steps = sum(len(until_end(r, END_ID)) for r in outputs[name])
            work = per_step * width * steps / timings[name].median
            rows.append(
                [
                    name,
                    f"{rate:,.1f}",
                    harness.fmt_ms(timings[name]),
                    f"{ratio:.2f}x" if name == ours else "1.00x",
                    f"{100 * same[ours]:.1f} %",
                    f"{100 * work / limit:.1f} %",
                ]
            )
    harness.print_table(
        [
            "search",
            "sequences/s",
            "ms per batch",
            "speed vs keras-hub",
            "same output",
            "share of the machine's limit",
        ],
        rows,
    )
    harness.print_facts(
        [
            f"preset {args.preset}, batch {args.batch} verses of its test slice, "
            f"source width {source_ids.shape[1]}, at most {max_length} tokens, "
            f"{keras.backend.backend()} ({mode}), {args.repeats} interleaved repeats",
            f"share of the machine's limit: {per_step / 1e6:.2f} MFLOP a decoder "
            "step and hypothesis (`flops.decoder_step`) x steps of the answers / time, "
            f"over {limit / 1e9:.1f} GFLOP/s, a 2048 x 2048 float32 matmul "
            "measured in this run",
            *harness.run_facts(),
        ]
    )
    if args.rows:
        rows_table(translator, compiled[names[0]], texts, args, per_step, limit)
    return 0


def rows_table(translator, greedy, texts, args, per_step, limit) -> None:
    """Our greedy search at each of `args.rows` batch sizes: what a loop
    step costs as the rows it multiplies grow."""
    from attention_zoo.applications.common.text import END_ID

    batches = {}
    for rows in args.rows:
        batch = (texts * (rows // len(texts) + 1))[:rows]
        batches[rows], _ = translator.encode(batch)
    outputs = {r: keras.ops.convert_to_numpy(greedy(x)) for r, x in batches.items()}
    timings = harness.time_interleaved(
        {r: (lambda x=x: harness.to_numpy(greedy(x))) for r, x in batches.items()},
        args.repeats,
    )
    table = []
    for rows, timing in timings.items():
        lengths = [len(until_end(r, END_ID)) for r in outputs[rows]]
        step_ms = 1e3 * timing.median / max(lengths)
        work = per_step * sum(lengths) / timing.median
        table.append(
            [
                f"{rows}",
                f"{max(lengths)}",
                f"{step_ms:.2f}",
                f"{1e3 * step_ms / rows:.1f}",
                f"{rows / timing.median:,.1f}",
                f"{100 * work / limit:.1f} %",
            ]
        )
    print("\nOur greedy search by batch size (the same verses repeated):\n")
    harness.print_table(
        [
            "rows",
            "loop steps",
            "ms a step",
            "µs a step and row",
            "sequences/s",
            "share of the machine's limit",
        ],
        table,
        numeric_columns=True,
    )


if __name__ == "__main__":
    sys.exit(main())
