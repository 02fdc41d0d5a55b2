"""Whether an image resembles the images a captioner was trained on.

A captioner trained on generated shapes captions a photo of a cat with
shapes, confidently. Its encoder knows better: the pooled feature vector
of a photo lies far from those of the training images. `ImageDomain`
keeps the mean and the covariance of the training images' pooled
features; an image's distance is its Mahalanobis distance to them
(divided by the square root of the channel count, so that it reads as an
RMS of whitened features), the covariance shrunk toward a multiple of
the identity (`SHRINK`, Ledoit & Wolf 2004) so that a few hundred images
of a hundred channels still give an invertible one. An image is in the
domain when its distance is at most the `QUANTILE` quantile of the
validation images' distances times `MARGIN`.

The run keeps it as `domain.json`: numbers only, read as data.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from attention_zoo.applications.common.errors import MalformedFileError

DOMAIN_FILE = "domain.json"
# The validation images the threshold leaves out, before the margin.
QUANTILE = 0.999
# Headroom over that quantile: the test images are other draws of the
# same distribution, and 99 % of them must stay valid.
MARGIN = 1.25
# Training images whose pooled features give the mean and spread, at most.
MAX_IMAGES = 4000
# The covariance plus SHRINK times its mean variance on the diagonal: of
# the values tried on the shipped captioner, the one that separated test
# scenes from photographs best; a diagonal covariance did worse
# (docs/captioning.md, "Knowing its domain").
SHRINK = 0.01


def pooled(features) -> np.ndarray:
    """`(N, C)` float64: the mean over the grid of features `(N, L, C)`."""
    return np.asarray(features, "float64").mean(axis=1)


class ImageDomain:
    """The training images' pooled features: mean, spread and threshold."""

    def __init__(self, mean, whitening, threshold: float):
        self.mean = np.asarray(mean, "float64")
        # `(C, C)`: the Cholesky factor L of the inverse covariance, so that
        # the Mahalanobis distance is the norm of `(x - mean) @ L`.
        self.whitening = np.asarray(whitening, "float64")
        self.threshold = float(threshold)

    @classmethod
    def fit(cls, train_features, validation_features) -> ImageDomain:
        """The domain of `train_features` `(N, L, C)`, its threshold chosen on
        `validation_features` (the training features when there are none)."""
        train = pooled(train_features[:MAX_IMAGES])
        if not len(train):
            raise ValueError("no training image to describe the domain with")
        centred = train - train.mean(0)
        covariance = centred.T @ centred / max(len(train) - 1, 1)
        ridge = SHRINK * np.trace(covariance) / len(covariance) + 1e-12
        covariance += ridge * np.eye(len(covariance))
        whitening = np.linalg.cholesky(np.linalg.inv(covariance))
        domain = cls(train.mean(0), whitening, math.inf)
        held_out = validation_features if len(validation_features) else train_features
        distances = domain.distances(pooled(held_out))
        domain.threshold = float(np.quantile(distances, QUANTILE) * MARGIN)
        return domain

    def distances(self, pooled_features) -> np.ndarray:
        """`(N,)`: each row's Mahalanobis distance over the root of `C`."""
        z = (np.asarray(pooled_features, "float64") - self.mean) @ self.whitening
        return np.sqrt((z**2).mean(-1))

    def reason(self, distance: float) -> str:
        """Why an image at `distance` is not in the domain ("" when it is)."""
        if distance <= self.threshold:
            return ""
        return (
            f"the image is unlike the training images (feature distance "
            f"{distance:.2f} > {self.threshold:.2f}): the model would describe "
            "it with the words of another kind of picture"
        )

    def save(self, path) -> None:
        content = {
            "mean": self.mean.tolist(),
            "whitening": self.whitening.tolist(),
            "threshold": self.threshold,
            "quantile": QUANTILE,
            "margin": MARGIN,
        }
        Path(path).write_text(json.dumps(content), encoding="utf-8")

    @classmethod
    def load(cls, path, channels: int) -> ImageDomain:
        """The domain of `path`, refused naming the file unless it holds
        `channels` finite means, a finite `(channels, channels)` whitening
        matrix and a finite positive threshold."""
        try:
            content = json.loads(Path(path).read_text(encoding="utf-8"))
            mean = np.asarray(content["mean"], "float64")
            whitening = np.asarray(content["whitening"], "float64")
            threshold = content["threshold"]
            ok = (
                mean.shape == (channels,)
                and whitening.shape == (channels, channels)
                and np.isfinite(mean).all()
                and np.isfinite(whitening).all()
                and not isinstance(threshold, bool)
                and isinstance(threshold, (int, float))
                and math.isfinite(threshold)
                and threshold > 0
            )
        except (ValueError, TypeError, KeyError, AttributeError, IndexError):
            ok = False
        if not ok:
            raise MalformedFileError(
                f"{path} is not the image domain of this run (it needs "
                f"{channels} finite means, a {channels} x {channels} whitening "
                "matrix and a positive threshold); train the run again or "
                "restore the file"
            )
        return cls(mean, whitening, threshold)
