"""Backend-agnostic test utilities."""

from __future__ import annotations

import keras
import numpy as np


def to_numpy(x):
    return keras.ops.convert_to_numpy(x)


def gradients(layer, args, kwargs, reduce_fn):
    """Gradients of `reduce_fn(layer(*args, **kwargs))` w.r.t. float args and weights.

    Returns a list of NumPy arrays: one per float array in `args`, then one per
    trainable weight of `layer`. An input the loss does not depend on gives
    `None` on TensorFlow and PyTorch and zeros on JAX.
    """
    backend = keras.backend.backend()
    float_positions = [
        i for i, a in enumerate(args) if np.issubdtype(np.asarray(a).dtype, np.floating)
    ]
    if backend == "tensorflow":
        import tensorflow as tf

        with tf.GradientTape() as tape:
            tensors = [tf.constant(a) for a in args]
            watched = [tensors[i] for i in float_positions]
            tape.watch(watched)
            loss = reduce_fn(layer(*tensors, **kwargs))
        grads = tape.gradient(loss, watched + list(layer.trainable_variables))
        return [None if g is None else to_numpy(g) for g in grads]
    if backend == "jax":
        import jax

        non_trainable = [v.value for v in layer.non_trainable_variables]

        def loss_fn(trainable, floats):
            full = list(args)
            for i, x in zip(float_positions, floats):
                full[i] = x
            out, _ = layer.stateless_call(trainable, non_trainable, *full, **kwargs)
            return reduce_fn(out)

        trainable = [v.value for v in layer.trainable_variables]
        floats = [jax.numpy.asarray(args[i]) for i in float_positions]
        g_weights, g_inputs = jax.grad(loss_fn, argnums=(0, 1))(trainable, floats)
        return [np.asarray(g) for g in list(g_inputs) + list(g_weights)]
    if backend == "torch":
        # On the device Keras computes on (a GPU's, where there is one).
        tensors = [keras.ops.convert_to_tensor(np.asarray(a)) for a in args]
        for i in float_positions:
            tensors[i].requires_grad_(True)
        for v in layer.trainable_variables:
            v.value.grad = None
        loss = reduce_fn(layer(*tensors, **kwargs))
        loss.backward()
        grads = [tensors[i].grad for i in float_positions]
        grads += [v.value.grad for v in layer.trainable_variables]
        return [None if g is None else g.detach().cpu().numpy() for g in grads]
    raise NotImplementedError(backend)


def run_json_script(folder, source, *args, env=None):
    """Run `source` as a script in a fresh Python process inside `folder`.

    Fails the test with the end of stderr if the script fails; returns the
    JSON object the script printed on its last line of output.
    """
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = Path(folder) / "script.py"
    script.write_text(source)
    proc = subprocess.run(
        [sys.executable, str(script), *map(str, args)],
        capture_output=True,
        text=True,
        cwd=folder,
        check=False,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", **(env or {})},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def assert_cli_refuses_a_file_as_output(main, capsys, tmp_path, app, commands):
    """`attention-zoo APP COMMAND ... --output FILE` exits 2 and names the flag.

    `commands`: argument lists after the app name, each taking `{file}` in
    place of its `--output` value. The file is left as it was.
    """
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    capsys.readouterr()
    for argv in commands:
        argv = [a.format(file=afile) for a in argv]
        assert main([app, *argv]) == 2, argv
        err = capsys.readouterr().err
        expected = (
            f"--output must be a folder to write into. Received: --output {afile}"
        )
        assert expected in err, err
    assert afile.read_text() == "not a folder"


def assert_compiled_matches_eager(decode, *args, atol=1e-5):
    """`decode(*args)` compiled (XLA through `tf.function(jit_compile=True)`,
    or `jax.jit`) gives what it gives eagerly; skipped on PyTorch, where no
    search is compiled."""
    import pytest

    backend = keras.backend.backend()
    if backend == "tensorflow":
        import tensorflow as tf

        compiled = tf.function(decode, jit_compile=True)
    elif backend == "jax":
        import jax

        compiled = jax.jit(decode)
    else:
        pytest.skip("no compiler is required on the torch backend")
    eager = [to_numpy(x) for x in decode(*args)]
    for a, b in zip(eager, [to_numpy(x) for x in compiled(*args)], strict=True):
        np.testing.assert_allclose(a, b, atol=atol)
