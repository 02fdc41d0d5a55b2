"""Images unlike the generated scenes, for the captioner's domain check.

`sample_photos` are scikit-image's bundled sample photographs (a cat, an
astronaut, coffee, coins, a rocket, ...: real camera images shipped with
the package, read offline). `natural_looking` generates images with the
statistics of natural scenes rather than drawn shapes: colour fields whose
power spectrum falls as 1/f^2 (Field 1987, the spectrum of natural
images), skies over textured ground, and soft overlapping blobs, each
seeded.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

SIZE = 256


def sample_photos() -> list[Path]:
    """The image files of scikit-image's data folder (colour and grey)."""
    import skimage

    folder = Path(skimage.__file__).parent / "data"
    return sorted(
        p
        for p in folder.iterdir()
        if p.suffix in (".png", ".jpg") and not p.name.startswith("chessboard")
    )


def _pink_noise(rng, size: int, channels: int = 3) -> np.ndarray:
    fy = np.fft.fftfreq(size)[:, None]
    fx = np.fft.fftfreq(size)[None, :]
    amplitude = 1.0 / np.maximum(np.hypot(fx, fy), 1.0 / size)
    out = []
    for _ in range(channels):
        phase = np.exp(2j * np.pi * rng.random((size, size)))
        field = np.real(np.fft.ifft2(amplitude * phase))
        out.append((field - field.mean()) / (field.std() + 1e-9))
    return np.stack(out, -1)


def _to_uint8(x) -> np.ndarray:
    lo, hi = np.percentile(x, 1), np.percentile(x, 99)
    return (np.clip((x - lo) / (hi - lo + 1e-9), 0, 1) * 255).astype("uint8")


def natural_looking(n: int, seed: int = 0) -> list[np.ndarray]:
    """`n` seeded `(SIZE, SIZE, 3)` uint8 images of three kinds, in turn."""
    rng = np.random.default_rng(seed)
    images = []
    y = np.linspace(0, 1, SIZE)[:, None, None]
    for i in range(n):
        kind = i % 3
        if kind == 0:  # a 1/f^2 colour field, tinted
            noise = _pink_noise(rng, SIZE)
            tint = rng.normal(0, 0.6, 3)
            images.append(_to_uint8(noise + tint))
        elif kind == 1:  # a sky over textured ground, horizon at random
            horizon = rng.uniform(0.3, 0.7)
            sky = np.array([0.4, 0.6, 0.95]) * (1 - 0.5 * y) + rng.normal(0, 0.05, 3)
            ground = np.array(rng.choice([[0.3, 0.5, 0.2], [0.6, 0.5, 0.3]]))
            texture = 0.15 * _pink_noise(rng, SIZE)
            image = np.where(y < horizon, sky, ground + texture)
            images.append((np.clip(image, 0, 1) * 255).astype("uint8"))
        else:  # soft overlapping blobs, as out-of-focus lights
            image = np.zeros((SIZE, SIZE, 3)) + rng.uniform(0, 0.3, 3)
            yy, xx = np.mgrid[0:SIZE, 0:SIZE]
            for _ in range(rng.integers(5, 15)):
                cy, cx = rng.uniform(0, SIZE, 2)
                radius = rng.uniform(10, 60)
                blob = np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * radius**2))
                image += blob[..., None] * rng.uniform(0, 0.8, 3)
            image += 0.03 * _pink_noise(rng, SIZE)
            images.append((np.clip(image, 0, 1) * 255).astype("uint8"))
    return images
