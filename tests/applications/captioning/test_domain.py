"""The captioner's image domain (`captioning.domain`): photographs given to
a model of generated shapes are refused, the shapes kept."""

import json

import numpy as np
import pytest

from attention_zoo.applications.captioning.domain import ImageDomain, pooled
from attention_zoo.applications.common.errors import MalformedFileError


@pytest.fixture(scope="module")
def domain():
    rng = np.random.default_rng(0)
    train = rng.normal(0, 1, (200, 4, 8))
    validation = rng.normal(0, 1, (50, 4, 8))
    return ImageDomain.fit(train, validation)


def test_distance_is_the_mahalanobis_distance_of_pooled_features(domain):
    rng = np.random.default_rng(0)
    train = pooled(rng.normal(0, 1, (200, 4, 8)))
    covariance = np.cov(train.T)
    covariance += 0.01 * np.trace(covariance) / 8 * np.eye(8)
    features = np.arange(32, dtype="float64").reshape(1, 4, 8) / 10
    x = features.mean(1)[0] - train.mean(0)
    expected = np.sqrt(x @ np.linalg.inv(covariance) @ x / 8)
    assert np.isclose(domain.distances(pooled(features))[0], expected)


def test_features_of_another_distribution_are_refused(domain):
    rng = np.random.default_rng(1)
    same = domain.distances(pooled(rng.normal(0, 1, (100, 4, 8))))
    shifted = domain.distances(pooled(rng.normal(3, 1, (100, 4, 8))))
    assert (same <= domain.threshold).mean() >= 0.99
    assert (shifted > domain.threshold).all()
    assert "unlike the training images" in domain.reason(float(shifted[0]))


def test_a_saved_domain_loads_alike_and_a_damaged_one_is_refused(domain, tmp_path):
    path = tmp_path / "domain.json"
    domain.save(path)
    loaded = ImageDomain.load(path, channels=8)
    assert loaded.threshold == domain.threshold
    np.testing.assert_array_equal(loaded.whitening, domain.whitening)
    with pytest.raises(MalformedFileError, match="domain.json"):
        ImageDomain.load(path, channels=9)
    content = json.loads(path.read_text(encoding="utf-8"))
    content["whitening"][0][0] = float("nan")
    path.write_text(json.dumps(content), encoding="utf-8")
    with pytest.raises(MalformedFileError, match="domain.json"):
        ImageDomain.load(path, channels=8)


def test_the_shipped_captioner_refuses_photos_and_keeps_its_scenes():
    pytest.importorskip("skimage")
    from PIL import Image

    from attention_zoo.applications.captioning.predictor import Captioner
    from attention_zoo.presets import fixed_inputs
    from tests.applications.captioning.natural_images import sample_photos

    captioner = Captioner.from_preset("shapes")
    assert captioner.domain is not None
    photos = captioner([str(p) for p in sample_photos()])
    assert not any(item["valid"] for item in photos)
    assert all("unlike the training images" in item["reason"] for item in photos)
    scenes = captioner(fixed_inputs("shapes"))
    assert all(item["valid"] for item in scenes)
    # What users hold: a PIL image answers as its file does.
    (from_pil,) = captioner(Image.open(fixed_inputs("shapes")[0]))
    assert from_pil["text"] == scenes[0]["text"]
