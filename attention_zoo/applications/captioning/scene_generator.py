"""The generated scene dataset: seeded images of 1-3 shapes with known boxes.

`generate_scenes(n)` and `iter_scenes()` draw scenes; `scene_splits(...)`
gives train, validation and test scenes that never share a layout. Captions
follow the grammar of `scenes` (layouts it would find ambiguous are
resampled).

Objects are red, orange, yellow, green, blue or purple (saturated, each
jittered by up to 12 per channel), on greyish backgrounds (solid, linear
gradient, or smooth noise, with grain) whose chroma stays at most 27, so a
background is never an object colour. Boxes are squares: "small" 0.20-0.26
of the image side, "large" 0.32-0.40, at least 0.03 apart and 0.02 from the
edges, so every object covers a cell centre of a 7 x 7 feature grid.

Examples:
    >>> scenes = generate_scenes(3, seed=0, image_size=64)
    >>> scenes[0].image.shape, scenes[0].image.dtype
    ((64, 64, 3), dtype('uint8'))
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from attention_zoo.applications.captioning.scenes import (
    COLOURS,
    MIN_X_GAP,
    RELATION_RATIO,
    SHAPES,
    SIZES,
    Scene,
    SceneObject,
    captions_for,
)

COLOUR_JITTER = 12  # per channel, uniform, one draw per object
BACKGROUND_MAX_CHROMA = 27  # 24, plus rounding of the base and two ramps
# Box side as a fraction of the image side, uniform in the range.
SIZE_RANGES = {"small": (0.20, 0.26), "large": (0.32, 0.40)}
MIN_BOX_FRACTION = 0.20  # every side covers a cell centre of a 7x7 grid
GAP = 0.03  # between two boxes, as a fraction of the image side
BORDER = 0.02  # between a box and the image edge
OBJECT_COUNT_PROBABILITIES = (0.2, 0.4, 0.4)  # 1, 2, 3 objects
BACKGROUNDS = ("solid", "gradient", "noise")
_MIN_IMAGE_SIZE = 32
_LAYOUT_TRIES = 100
_PLACEMENT_TRIES = 20
_SUPERSAMPLING = 4


def _muted_colour(rng) -> np.ndarray:
    """A greyish colour: grey level 60-210, each channel tinted by at most 12."""
    grey = rng.uniform(60, 210)
    return grey + rng.uniform(-12, 12, size=3)


def _background(rng, size: int) -> tuple[np.ndarray, str]:
    """`(size, size, 3)` uint8 pixels with chroma <= BACKGROUND_MAX_CHROMA.

    Chroma (max - min channel) is convex, so a gradient between two muted
    colours stays muted; noise is added equally to the three channels, which
    leaves chroma unchanged (or lower where it clips). Integer arithmetic on
    broadcast ramps: the background is the bulk of a scene's time.
    """
    kind = BACKGROUNDS[rng.integers(len(BACKGROUNDS))]
    base = _muted_colour(rng)
    image = np.rint(base).astype(np.int16).reshape(1, 1, 3)
    if kind == "gradient":
        # t = (x cos a + y sin a) rescaled to [0, 1] is a sum of a row and a
        # column ramp, so the image is two broadcast additions.
        step = _muted_colour(rng) - base  # (3,)
        angle = rng.uniform(0, 2 * np.pi)
        u, v = np.cos(angle), np.sin(angle)
        span = abs(u) + abs(v)
        axis = np.arange(size) / (size - 1)
        row = np.rint(((u * axis - min(u, 0)) / span)[:, None] * step)  # (S, 3)
        column = np.rint(((v * axis - min(v, 0)) / span)[:, None] * step)  # (S, 3)
        image = image + column.astype(np.int16)[:, None, :]  # (S, 1, 3)
        image = image + row.astype(np.int16)[None, :, :]  # (S, S, 3)
        grain = int(rng.integers(0, 4))
    elif kind == "noise":
        cells = int(rng.integers(3, 9))
        blobs = rng.normal(0.0, rng.uniform(15, 35), (cells, cells))
        blobs = Image.fromarray(blobs.astype(np.float32))
        blobs = np.asarray(blobs.resize((size, size), Image.BILINEAR))
        image = image + np.rint(blobs).astype(np.int16)[..., None]  # (S, S, 3)
        grain = int(rng.integers(4, 12))
    else:
        grain = int(rng.integers(0, 4))  # sometimes faint sensor-like grain
    if grain:
        noise = rng.integers(-grain, grain + 1, size=(size, size, 1), dtype=np.int16)
        image = image + noise
    image = np.broadcast_to(image, (size, size, 3))
    return np.clip(image, 0, 255).astype(np.uint8), kind


def _shape_polygon(shape: str, side: float):
    """Vertices of a polygon shape inside the square (0, 0)-(side, side)."""
    h = side / 2
    if shape == "triangle":
        return [(h, 0), (side, side), (0, side)]
    if shape == "diamond":
        return [(h, 0), (side, h), (h, side), (0, h)]
    if shape == "star":
        outer, inner = h, 0.45 * h
        # A star's points span 1 + cos(36 deg) outer radii vertically: centre
        # it in the box.
        cy = h + (side - (1 + math.cos(math.pi / 5)) * outer) / 2
        points = []
        for k in range(10):
            r = outer if k % 2 == 0 else inner
            angle = -math.pi / 2 + k * math.pi / 5
            points.append((h + r * math.cos(angle), cy + r * math.sin(angle)))
        return points
    raise ValueError(f"unknown polygon shape. Received: shape={shape}")


def _draw(image: Image.Image, shape: str, colour, x0: int, y0: int, side: int):
    """Pastes an antialiased shape: a mask drawn at 4x, reduced to the box."""
    big = side * _SUPERSAMPLING
    mask = Image.new("L", (big, big), 0)
    draw = ImageDraw.Draw(mask)
    if shape == "circle":
        draw.ellipse((0, 0, big - 1, big - 1), fill=255)
    elif shape == "square":
        draw.rectangle((0, 0, big - 1, big - 1), fill=255)
    else:
        draw.polygon(_shape_polygon(shape, big), fill=255)
    mask = mask.reduce(_SUPERSAMPLING)
    image.paste(tuple(int(c) for c in colour), (x0, y0, x0 + side, y0 + side), mask)


def _compatible(a, b, gap: int, count: int, min_x_gap: float) -> bool:
    """Boxes `(x0, y0, side)` in pixels may share a scene of `count` objects.

    They are at least `gap` apart along one axis; two objects are clearly
    beside or clearly above each other; three have x-centres `min_x_gap`
    apart.
    """
    ax, ay, asz = a
    bx, by, bsz = b
    if not (
        ax + asz + gap <= bx
        or bx + bsz + gap <= ax
        or ay + asz + gap <= by
        or by + bsz + gap <= ay
    ):
        return False
    dx = abs((bx + bsz / 2) - (ax + asz / 2))
    dy = abs((by + bsz / 2) - (ay + asz / 2))
    if count == 2:
        return dy >= RELATION_RATIO * dx or dx >= RELATION_RATIO * dy
    if count == 3:
        return dx >= min_x_gap
    return True


def _layout(rng, shapes, colours, sizes, image_size: int) -> list[SceneObject]:
    """Non-overlapping boxes whose caption is unambiguous.

    Rejection sampling: each object tries `_PLACEMENT_TRIES` positions, a
    layout that cannot place every object starts again with new sides, at
    most `_LAYOUT_TRIES` times; then (never seen in 60,000 scenes, but it
    keeps the loop bounded) the objects become small and sit in a row.
    """
    s = image_size
    k = len(sizes)
    gap, border = math.ceil(GAP * s), math.ceil(BORDER * s)
    min_side = math.ceil(MIN_BOX_FRACTION * s)
    min_x_gap = MIN_X_GAP * s + 1e-6

    def objects_for(boxes, sizes_):
        return [
            SceneObject(shape, colour, size, (x / s, y / s, (x + d) / s, (y + d) / s))
            for shape, colour, size, (x, y, d) in zip(shapes, colours, sizes_, boxes)
        ]

    for _ in range(_LAYOUT_TRIES):
        boxes = []
        for size in sizes:
            low, high = SIZE_RANGES[size]
            side = max(min_side, int(round(rng.uniform(low, high) * s)))
            corners = rng.integers(
                border, s - border - side + 1, size=(_PLACEMENT_TRIES, 2)
            )
            for x, y in corners.tolist():
                box = (x, y, side)
                if all(_compatible(box, b, gap, k, min_x_gap) for b in boxes):
                    boxes.append(box)
                    break
            else:
                break
        if len(boxes) == k:
            return objects_for(boxes, sizes)
    # Fallback: small objects in a row, each in its own column.
    side = max(min_side, int(round(SIZE_RANGES["small"][0] * s)))
    y = int(rng.integers(border, s - border - side + 1))
    columns = np.linspace(border, s - border - side, k) if k > 1 else [(s - side) / 2]
    boxes = [(int(round(x)), y, side) for x in columns]
    return objects_for(boxes, ["small"] * k)


def _scene(rng, image_size: int) -> Scene:
    k = 1 + int(rng.choice(3, p=OBJECT_COUNT_PROBABILITIES))
    shapes = [SHAPES[i] for i in rng.choice(len(SHAPES), k, replace=False)]
    names = list(COLOURS)
    colours = [names[i] for i in rng.integers(len(names), size=k)]
    sizes = [SIZES[i] for i in rng.integers(len(SIZES), size=k)]
    objects = _layout(rng, shapes, colours, sizes, image_size)
    pixels, kind = _background(rng, image_size)
    image = Image.fromarray(pixels)
    for obj in objects:
        x0, y0, x1, _ = (int(round(v * image_size)) for v in obj.box)
        jitter = rng.integers(-COLOUR_JITTER, COLOUR_JITTER + 1, size=3)
        colour = np.clip(np.add(COLOURS[obj.colour], jitter), 0, 255)
        _draw(image, obj.shape, colour, x0, y0, x1 - x0)
    caption, references = captions_for(objects)
    return Scene(np.array(image), caption, references, objects, kind)


def _check_image_size(image_size) -> None:
    if not isinstance(image_size, (int, np.integer)) or image_size < _MIN_IMAGE_SIZE:
        raise ValueError(
            f"`image_size` must be an integer >= {_MIN_IMAGE_SIZE}. "
            f"Received: image_size={image_size}"
        )


def iter_scenes(seed=0, image_size: int = 224):
    """An endless, seeded stream of scenes (`generate_scenes` is its prefix)."""
    _check_image_size(image_size)
    rng = np.random.default_rng(seed)
    while True:
        yield _scene(rng, int(image_size))


def generate_scenes(n: int, seed=0, image_size: int = 224) -> list[Scene]:
    """`n` seeded scenes: 20 % with one object, 40 % with two, 40 % with three.

    The first `k` scenes of a seed are the same for every `n >= k`. Every
    scene is held in memory (224 x 224 x 3 bytes at 224 px), so stream
    larger sets with `iter_scenes`.
    """
    if not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"`n` must be a non-negative integer. Received: n={n}")
    stream = iter_scenes(seed, image_size)
    return [next(stream) for _ in range(n)]


def scene_splits(
    n_train: int, n_validation: int, n_test: int, seed: int = 0, image_size: int = 224
) -> tuple[list[Scene], list[Scene], list[Scene]]:
    """Train, validation and test scenes that never share a layout.

    Each split has its own stream (seeds `[seed, 0]`, `[seed, 1]`,
    `[seed, 2]`); a scene whose `layout_key()` (caption and every object's
    shape, colour, size and pixel box) appeared in this or an earlier split
    is dropped and replaced by the next one.
    """
    counts = {"n_train": n_train, "n_validation": n_validation, "n_test": n_test}
    for name, value in counts.items():
        if not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(
                f"`{name}` must be a non-negative integer. Received: {name}={value}"
            )
    seen = set()
    splits = []
    for index, n in enumerate(counts.values()):
        stream = iter_scenes([seed, index], image_size)
        scenes = []
        for _ in range(2 * n + 1000):
            if len(scenes) == n:
                break
            scene = next(stream)
            key = scene.layout_key()
            if key not in seen:
                seen.add(key)
                scenes.append(scene)
        if len(scenes) < n:
            raise RuntimeError(f"could only generate {len(scenes)} of {n} scenes")
        splits.append(scenes)
    return tuple(splits)
