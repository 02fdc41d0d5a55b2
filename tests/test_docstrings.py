"""Docstring examples are executed, so they cannot go stale."""

import doctest
import importlib

import pytest

MODULES = [
    "attention_zoo.ops",
    "attention_zoo.layers.bahdanau_attention",
    "attention_zoo.layers.luong_attention",
    "attention_zoo.layers.local_attention",
    "attention_zoo.layers.location_sensitive_attention",
    "attention_zoo.layers.coverage_attention",
    "attention_zoo.layers.monotonic_attention",
    "attention_zoo.layers.monotonic_chunkwise_attention",
    "attention_zoo.decoders.attention_rnn_decoder",
    "attention_zoo.decoders.show_attend_tell_decoder",
    "attention_zoo.decoders.fixed_context_decoder",
    "attention_zoo.decoding.step",
    "attention_zoo.encoders.bidirectional_rnn_encoder",
    "attention_zoo.encoders.efficientnet_lite0",
    "attention_zoo.encoders.efficientnet_lite0_layout",
    "attention_zoo.encoders.image_encoder",
    "attention_zoo.encoders.image_preprocessing",
    "attention_zoo.encoders.feature_grid",
    "attention_zoo.encoders.backbone_blocks",
    "attention_zoo.encoders.torch_file",
    "attention_zoo.losses",
    "attention_zoo.metrics",
    "attention_zoo.applications.registry",
]


def application_modules() -> list[str]:
    """Every module of every registered application's package."""
    import pkgutil

    from attention_zoo.applications import registry

    names = []
    for app in registry.applications():
        root = importlib.import_module(app.predictor.__module__.rsplit(".", 1)[0])
        names += [
            f"{root.__name__}.{info.name}"
            for info in pkgutil.iter_modules(root.__path__)
        ]
    return names


@pytest.mark.parametrize("module_name", application_modules())
def test_application_docstring_examples(module_name):
    """The examples of every application module the registry leads to run."""
    module = importlib.import_module(module_name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


@pytest.mark.parametrize("module_name", MODULES)
def test_docstring_examples(module_name):
    module = importlib.import_module(module_name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{module_name} has no examples"
    assert result.failed == 0


def test_loading_a_keras_file_needs_only_import_attention_zoo(tmp_path):
    """Every public class is registered by the package import itself."""
    import subprocess
    import sys

    import keras

    from attention_zoo import (
        AttentionRNNDecoder,
        BahdanauAttention,
        BidirectionalRNNEncoder,
        LuongAttention,
    )

    source = keras.Input((None,), dtype="int32")
    target = keras.Input((None, 4))
    memory, states = BidirectionalRNNEncoder(4, merge_mode="sum")(
        keras.layers.Embedding(9, 3, mask_zero=True)(source)
    )
    context = BahdanauAttention(5)(target, memory)
    outputs, _, _ = AttentionRNNDecoder(
        keras.layers.GRUCell(4), LuongAttention("dot"), style="luong"
    )(target, memory, initial_state=states)
    model = keras.Model([source, target], [context, outputs])
    path = tmp_path / "model.keras"
    model.save(path)
    code = (
        "import attention_zoo, keras, sys; "
        "keras.saving.load_model(sys.argv[1]); print('loaded')"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip().endswith("loaded")
