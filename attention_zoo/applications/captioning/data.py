"""Images and captions for the Show-Attend-Tell captioning application.

Sources:

- `generate_scenes(n)` / `scene_splits(...)`: the offline default, seeded
  scenes of 1-3 coloured shapes with captions from a small grammar. Every
  object's box is known, so attention can be checked against ground truth
  (`Scene.word_objects`, `SceneObject.grid_mask`);
- `read_flickr8k(images_dir, captions_file)` and
  `read_coco_json(images_dir, annotations_file)`: a folder of images plus a
  captions file in the Flickr8k or COCO layout, split with `flickr8k_splits`
  (the official lists) or `split_images` (seeded, whole images);
- `tfds_coco_captions(split)`: `tensorflow_datasets`' `coco_captions` for
  users online (tests run it offline with `tfds.testing.mock_data`).

Scene captions (lower-case words separated by single spaces):

    a small red circle
    a large blue star above a small green square
    a small yellow triangle to the left of a large purple diamond
    a small red circle , a large blue star and a small green square

An object is "a {size} {colour} {shape}"; two objects are joined by the
relation their box centres show ("above" when the vertical offset is at
least twice the horizontal one, "to the left of" when the horizontal one is
at least twice the vertical one; layouts in between are resampled), the
upper or the left object first; three objects, with x-centres at least 0.15
apart, are listed from left to right. The shapes of one scene differ, so a
shape word names one object. `Scene.references` holds every caption the
grammar allows for the scene (two for two objects: "B below A", "B to the
right of A"), for BLEU.

Objects are red, orange, yellow, green, blue or purple (saturated, each
jittered by up to 12 per channel), on greyish backgrounds (solid, linear
gradient, or smooth noise, with grain) whose chroma stays at most 27, so a
background is never an object colour. Boxes are squares: "small" 0.20-0.26
of the image side, "large" 0.32-0.40, at least 0.03 apart and 0.02 from the
edges, so every object covers a cell centre of a 7 x 7 feature grid.

Images (PNG, JPEG, GIF or BMP) are decoded by `decode_image` as an exported
graph decodes them: alpha is dropped, 16-bit samples keep their high byte,
JPEG EXIF orientation is ignored, only the first frame of an animation is
read, and the aspect ratio is not preserved. The graph that gives the same pixels is
`tf.io.decode_image(channels=3, expand_animations=False)`, except for JPEG:
`tf.io.decode_jpeg(channels=3, dct_method="INTEGER_ACCURATE")` (PIL's DCT;
TensorFlow's default fast DCT differs by up to about 9 levels, 1.3 on
average), then `tf.image.resize(method="bilinear", antialias=True)` to a
square, rounded: within one intensity level of PIL's bilinear resize (without
`antialias`, a downscale differs by up to 150 levels on a noisy image).

Example:

>>> scenes = generate_scenes(3, seed=0, image_size=64)
>>> scenes[0].image.shape, scenes[0].image.dtype
((64, 64, 3), dtype('uint8'))
>>> normalize_caption("A child in a pink dress, climbing  stairs.")
'a child in a pink dress , climbing stairs .'
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import os
import random
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

# ------------------------------------------------------------------ scenes

SHAPES = ("circle", "square", "triangle", "star", "diamond")
# Saturated colours (chroma, max - min channel, of 125 or more) far from the
# greyish backgrounds, whose chroma never exceeds BACKGROUND_MAX_CHROMA.
COLOURS = {
    "red": (215, 30, 35),
    "orange": (245, 130, 20),
    "yellow": (240, 215, 35),
    "green": (40, 165, 60),
    "blue": (35, 85, 215),
    "purple": (140, 60, 190),
}
COLOUR_JITTER = 12  # per channel, uniform, one draw per object
BACKGROUND_MAX_CHROMA = 27  # 24, plus rounding of the base and two ramps
SIZES = ("small", "large")
# Box side as a fraction of the image side, uniform in the range.
SIZE_RANGES = {"small": (0.20, 0.26), "large": (0.32, 0.40)}
MIN_BOX_FRACTION = 0.20  # every side covers a cell centre of a 7x7 grid
GAP = 0.03  # between two boxes, as a fraction of the image side
BORDER = 0.02  # between a box and the image edge
RELATION_RATIO = 2.0  # dominant over minor centre offset, two objects
MIN_X_GAP = 0.15  # between the x-centres of three objects
OBJECT_COUNT_PROBABILITIES = (0.2, 0.4, 0.4)  # 1, 2, 3 objects
BACKGROUNDS = ("solid", "gradient", "noise")
RELATIONS = ("above", "below", "to the left of", "to the right of")
MAX_CAPTION_WORDS = 14  # "a small red circle , a ... square and a ... star"
_MIN_IMAGE_SIZE = 32
_LAYOUT_TRIES = 100
_PLACEMENT_TRIES = 20
_SUPERSAMPLING = 4


def scene_vocabulary() -> list[str]:
    """Every word a scene caption can hold, in a fixed order."""
    return [
        "a",
        *SIZES,
        *COLOURS,
        *SHAPES,
        "above",
        "below",
        "to",
        "the",
        "left",
        "right",
        "of",
        ",",
        "and",
    ]


@dataclass
class SceneObject:
    """One shape of a scene.

    `box` is `(x0, y0, x1, y1)` as fractions of the image side (x to the
    right, y down), the square the shape is drawn in.
    """

    shape: str
    colour: str
    size: str
    box: tuple[float, float, float, float]

    @property
    def centre(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return (x0 + x1) / 2, (y0 + y1) / 2

    @property
    def phrase(self) -> str:
        return f"a {self.size} {self.colour} {self.shape}"

    def grid_mask(self, grid_size: int = 7) -> np.ndarray:
        """`(grid_size, grid_size)` booleans: the cells whose centre is in the box.

        Row `i`, column `j` is the cell centred at `((j + 0.5) / grid_size,
        (i + 0.5) / grid_size)`, the layout of a CNN feature grid flattened
        row by row to `(H * W, C)`. Cell centres are `1 / grid_size` apart,
        so a box side of at least 0.2 covers at least one of them on any grid
        of 5 x 5 or finer (7 x 7: a 224-pixel image through a stride-32 CNN).
        """
        centres = (np.arange(grid_size) + 0.5) / grid_size
        x0, y0, x1, y1 = self.box
        inside_x = (centres >= x0) & (centres <= x1)
        inside_y = (centres >= y0) & (centres <= y1)
        return inside_y[:, None] & inside_x[None, :]


@dataclass
class Scene:
    """An image, its training caption, every correct caption, and its objects."""

    image: np.ndarray  # (image_size, image_size, 3) uint8
    caption: str
    references: list[str]
    objects: list[SceneObject]
    background: str = "solid"

    def object_for_word(self, word: str) -> SceneObject | None:
        """The object a shape word names, or None (other words, absent shapes)."""
        for obj in self.objects:
            if obj.shape == word:
                return obj
        return None

    def word_objects(
        self, words=None, include_adjectives: bool = False
    ) -> dict[int, SceneObject]:
        """`{word_index: object}` for the words of a caption that name an object.

        Args:
            words: a caption as a string or a list of words (for example a
                model's output); defaults to `self.caption`.
            include_adjectives: also map the size and colour words directly
                before a shape word to that object.

        The shape noun decides the object: in a generated caption with a wrong
        colour ("a small blue circle" for a red circle) the words still map to
        the circle.
        """
        if words is None:
            words = self.caption
        if isinstance(words, str):
            words = words.split()
        out = {}
        for i, word in enumerate(words):
            obj = self.object_for_word(word)
            if obj is None:
                continue
            out[i] = obj
            if include_adjectives:
                if i >= 1 and words[i - 1] in COLOURS:
                    out[i - 1] = obj
                if i >= 2 and words[i - 2] in SIZES:
                    out[i - 2] = obj
        return dict(sorted(out.items()))

    def layout_key(self) -> tuple:
        """The full object description; equal keys mean the same layout."""
        return (
            self.caption,
            tuple((o.shape, o.colour, o.size, o.box) for o in self.objects),
        )


def captions_for(objects: list[SceneObject]) -> tuple[str, list[str]]:
    """The canonical caption and every correct one for 1-3 placed objects.

    Raises:
        ValueError: when the layout is ambiguous for the grammar (two objects
            neither clearly beside nor clearly above each other, three
            objects with x-centres closer than `MIN_X_GAP`).
    """
    if len(objects) == 1:
        caption = objects[0].phrase
        return caption, [caption]
    if len(objects) == 2:
        a, b = objects
        dx = b.centre[0] - a.centre[0]
        dy = b.centre[1] - a.centre[1]
        # The tolerance forgives float rounding of pixel boxes turned fractions.
        if abs(dy) >= RELATION_RATIO * abs(dx) - 1e-9:
            upper, lower = (a, b) if dy > 0 else (b, a)
            caption = f"{upper.phrase} above {lower.phrase}"
            return caption, [caption, f"{lower.phrase} below {upper.phrase}"]
        if abs(dx) >= RELATION_RATIO * abs(dy) - 1e-9:
            left, right = (a, b) if dx > 0 else (b, a)
            caption = f"{left.phrase} to the left of {right.phrase}"
            return caption, [caption, f"{right.phrase} to the right of {left.phrase}"]
        raise ValueError(
            "two objects are neither clearly beside nor clearly above each "
            f"other. Received: dx={dx:.3f}, dy={dy:.3f}"
        )
    if len(objects) == 3:
        ordered = sorted(objects, key=lambda o: o.centre[0])
        xs = [o.centre[0] for o in ordered]
        if min(xs[1] - xs[0], xs[2] - xs[1]) < MIN_X_GAP - 1e-9:
            raise ValueError(
                "three objects need x-centres at least "
                f"{MIN_X_GAP} apart. Received: x-centres={xs}"
            )
        a, b, c = (o.phrase for o in ordered)
        caption = f"{a} , {b} and {c}"
        return caption, [caption]
    raise ValueError(f"a scene has 1 to 3 objects. Received: {len(objects)} objects")


_PHRASE = rf"a ({'|'.join(SIZES)}) ({'|'.join(COLOURS)}) ({'|'.join(SHAPES)})"
_CAPTION_FORMS = [
    (re.compile(rf"^{_PHRASE}$"), None),
    *(
        (re.compile(rf"^{_PHRASE} {relation} {_PHRASE}$"), relation)
        for relation in RELATIONS
    ),
    (re.compile(rf"^{_PHRASE} , {_PHRASE} and {_PHRASE}$"), ","),
]


def parse_caption(
    caption: str,
) -> tuple[list[tuple[str, str, str]], str | None] | None:
    """`(phrases, relation)` of a grammatical scene caption, else None.

    `phrases` lists `(size, colour, shape)` in caption order; `relation` is
    None for one object, one of `RELATIONS` for two, "," for three (listed
    from left to right).

    >>> parse_caption("a small red circle above a large blue star")
    ([('small', 'red', 'circle'), ('large', 'blue', 'star')], 'above')
    >>> parse_caption("a red circle") is None
    True
    """
    for pattern, relation in _CAPTION_FORMS:
        match = pattern.match(caption)
        if match:
            groups = match.groups()
            phrases = [tuple(groups[i : i + 3]) for i in range(0, len(groups), 3)]
            return phrases, relation
    return None


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

    The first `k` scenes of a seed are the same for every `n >= k`. About
    1.3 ms of CPU a scene at 224 px (10,000 in 13 s); 10,000 scenes hold
    1.5 GB of pixels, so stream larger sets with `iter_scenes`.
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


# ---------------------------------------------------------------- decoding

MAX_PIXELS = 40_000_000
# The formats `tf.io.decode_image` reads and whose header gives the size
# cheaply; others (WebP, TIFF, ...) are refused, as in the serving graph.
IMAGE_FORMATS = ("PNG", "JPEG", "GIF", "BMP")


def _bytes_summary(data: bytes) -> str:
    return f"{len(data)} bytes starting with {data[:16]!r}"


def decode_image(data: bytes, image_size: int | None = None) -> np.ndarray:
    """`(H, W, 3)` uint8 pixels of an encoded PNG, JPEG, GIF or BMP file.

    Decodes as `tf.io.decode_image(channels=3, expand_animations=False)`
    does, pixel for pixel (JPEG: as `tf.io.decode_jpeg(channels=3,
    dct_method="INTEGER_ACCURATE")`): grayscale is repeated into three
    channels, palette images take their palette colours, alpha is dropped
    (not composited), 16-bit samples keep their high byte, JPEG EXIF
    orientation is ignored, an animation gives its first frame.

    Args:
        data: the encoded file.
        image_size: when given, the image is resized to `(image_size,
            image_size)` with PIL's bilinear filter, aspect ratio not
            preserved (a 1 x 1 image becomes a uniform square). The graph's
            `tf.image.resize(method="bilinear", antialias=True)` agrees
            within one intensity level.

    Raises:
        ValueError: empty bytes, bytes that are not one of `IMAGE_FORMATS`
            (the message gives their length and first bytes), a truncated or
            corrupted file, or an image with
            more than `MAX_PIXELS` pixels (refused from its header, before the
            pixels are decoded; PIL's decompression-bomb error and warning
            become this error too).
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(
            f"`data` must be bytes. Received: type(data)={type(data).__name__}"
        )
    data = bytes(data)
    if not data:
        raise ValueError("image bytes are empty")
    if image_size is not None and (
        not isinstance(image_size, (int, np.integer)) or image_size < 1
    ):
        raise ValueError(
            f"`image_size` must be a positive integer or None. "
            f"Received: image_size={image_size}"
        )
    try:
        with warnings.catch_warnings():
            # Our own, lower limit is checked below; the warning never escapes.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=IMAGE_FORMATS)
    except Image.DecompressionBombError as error:
        raise ValueError(
            f"image refused: more than MAX_PIXELS={MAX_PIXELS:,} pixels ({error}). "
            f"Received: {_bytes_summary(data)}"
        ) from None
    except Exception as error:  # any parser failure on untrusted bytes
        raise ValueError(
            f"cannot decode the image bytes ({error}). Received: {_bytes_summary(data)}"
        ) from error
    width, height = image.size
    if width * height > MAX_PIXELS:
        raise ValueError(
            f"image refused: {width * height:,} pixels, more than "
            f"MAX_PIXELS={MAX_PIXELS:,}. Received: width={width}, height={height}"
        )
    try:
        image.load()
        if image.mode.startswith("I"):  # 16-bit (or 32-bit) grayscale
            values = np.asarray(image).astype(np.int64) >> 8
            pixels = np.clip(values, 0, 255).astype(np.uint8)
            pixels = np.repeat(pixels[..., None], 3, axis=-1)
        else:
            pixels = np.asarray(image if image.mode == "RGB" else image.convert("RGB"))
    except Exception as error:  # any decoder failure on untrusted bytes
        raise ValueError(
            f"cannot decode the image bytes ({type(error).__name__}: {error}). "
            f"Received: {_bytes_summary(data)}"
        ) from error
    if image_size is not None and pixels.shape[:2] != (image_size, image_size):
        resized = Image.fromarray(pixels).resize(
            (int(image_size), int(image_size)), Image.BILINEAR
        )
        pixels = np.asarray(resized)
    return np.array(pixels, dtype=np.uint8)  # a writable copy


def load_image(path, image_size: int | None = None) -> np.ndarray:
    """`decode_image` of a file; errors name the path."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"image file not found: {path}")
    try:
        return decode_image(path.read_bytes(), image_size)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from error


def _check_pixels(array, allowed_channels) -> np.ndarray:
    array = np.asarray(array)
    if array.dtype != np.uint8:
        raise ValueError(f"pixels must be uint8. Received: dtype={array.dtype}")
    channels = 1 if array.ndim == 2 else array.shape[-1] if array.ndim == 3 else None
    if channels not in allowed_channels or min(array.shape[:2], default=0) < 1:
        raise ValueError(
            f"pixels must be (H, W) or (H, W, C) with C in {allowed_channels}. "
            f"Received: shape={array.shape}"
        )
    return array[..., 0] if array.ndim == 3 and channels == 1 else array


def encode_png(array) -> bytes:
    """PNG bytes of uint8 pixels `(H, W)`, `(H, W, 1)`, `(H, W, 3)` or `(H, W, 4)`."""
    array = _check_pixels(array, (1, 3, 4))
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format="PNG")
    return buffer.getvalue()


def encode_jpeg(array, quality: int = 95) -> bytes:
    """JPEG bytes of uint8 pixels `(H, W)`, `(H, W, 1)` or `(H, W, 3)`."""
    if not isinstance(quality, (int, np.integer)) or not 1 <= quality <= 100:
        raise ValueError(
            f"`quality` must be an integer in [1, 100]. Received: quality={quality}"
        )
    array = _check_pixels(array, (1, 3))
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format="JPEG", quality=int(quality))
    return buffer.getvalue()


# ------------------------------------------------------------ real datasets

# ASCII punctuation and the other marks the word vocabulary's tokenizer
# (`attention_zoo.applications.translation.tokenizer.PUNCTUATION`) splits off, spelled out
# for RE2 (`attention_zoo.export`): the vocabulary's words of a normalised
# caption are then its space-separated pieces, as BLEU's references are.
CAPTION_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~¿¡“”‘’«»—–…"
CAPTION_PUNCTUATION_CLASS = "[" + re.escape(CAPTION_PUNCTUATION) + "]"
_PUNCT = re.compile(f"({CAPTION_PUNCTUATION_CLASS})")
_SPACE = re.compile(r"[ \t\n\r\f\v]+")


def normalize_caption(text: str) -> str:
    """Lower case, a space on each side of every ASCII punctuation mark, runs of
    ASCII whitespace collapsed to one space, stripped.

    The words of a caption are then `text.split(" ")`; "stairs." gives
    "stairs .", "man's" gives "man ' s". Scene captions are already in this
    form. In a graph: `normalize_strings(split_punctuation(texts,
    CAPTION_PUNCTUATION_CLASS))` from `attention_zoo.export`.
    """
    return _SPACE.sub(" ", _PUNCT.sub(r" \1 ", text.lower())).strip(" \t\n\r\f\v")


@dataclass
class CaptionedImage:
    """An image file and its captions (as written in the captions file)."""

    path: str
    captions: list[str] = field(default_factory=list)


def _check_inputs(images_dir, captions_file) -> tuple[Path, Path]:
    images_dir, captions_file = Path(images_dir), Path(captions_file)
    if not captions_file.is_file():
        raise FileNotFoundError(f"captions file not found: {captions_file}")
    if not images_dir.is_dir():
        raise FileNotFoundError(f"images directory not found: {images_dir}")
    return images_dir, captions_file


def _collect(images_dir: Path, captions: dict, source: Path) -> list[CaptionedImage]:
    """Items for the images present; warns about captions of missing images."""
    items, missing, skipped = [], [], 0
    for name, texts in captions.items():
        path = images_dir / name
        if path.is_file():
            items.append(CaptionedImage(str(path), list(texts)))
        else:
            missing.append(name)
            skipped += len(texts)
    if not items:
        raise ValueError(
            f"none of the {len(captions)} images named in {source} is in "
            f"{images_dir} (e.g. {next(iter(captions), None)!r})"
        )
    if missing:
        warnings.warn(
            f"skipped {skipped} captions of {len(missing)} images not found in "
            f"{images_dir} (e.g. {missing[0]!r})",
            stacklevel=3,
        )
    return sorted(items, key=lambda item: item.path)


def _flickr_captions(captions_file: Path) -> dict[str, list[str]]:
    """{image name: captions} of a Flickr8k/30k token file or `image,caption` CSV."""
    captions: dict[str, list[str]] = {}
    with captions_file.open(encoding="utf-8-sig", newline="") as f:
        lines = f.read().splitlines()
    if lines and lines[0].strip().lower() == "image,caption":
        # The CSV layout of the Kaggle copy of Flickr8k (`captions.txt`); an
        # unquoted comma belongs to the caption.
        rows = (
            (n, row[:1] + [",".join(row[1:])] if len(row) > 2 else row)
            for n, row in enumerate(csv.reader(lines[1:]), start=2)
        )
        separator = ","
    else:
        rows = ((n, line.split("\t", 1)) for n, line in enumerate(lines, start=1))
        separator = "\t"
    for number, row in rows:
        if not row or not "".join(row).strip():
            continue
        if len(row) != 2 or not row[0].strip():
            expected = "image,caption" if separator == "," else "image#N<TAB>caption"
            raise ValueError(
                f"{captions_file}, line {number}: expected '{expected}'. "
                f"Received: {separator.join(row)[:100]!r}"
            )
        name, text = row[0].strip(), row[1].strip()
        if "#" in name and name.rsplit("#", 1)[1].isdigit():
            name = name.rsplit("#", 1)[0]
        if not text:
            raise ValueError(
                f"{captions_file}, line {number}: empty caption. Received: {row!r}"
            )
        captions.setdefault(name, []).append(text)
    if not captions:
        raise ValueError(f"no captions in {captions_file}")
    return captions


def read_flickr8k(images_dir, captions_file) -> list[CaptionedImage]:
    """Images and captions in the Flickr8k layout, sorted by path.

    `captions_file` is `Flickr8k.token.txt` (lines `1000268201_693b08cb0e.jpg#0
    <TAB> A child in a pink dress ...`; Flickr30k's token file has the same
    layout) or the Kaggle `captions.txt` CSV with an `image,caption` header.
    Captions are kept as written (see `normalize_caption`). Captions of images
    missing from `images_dir` are skipped with a warning that counts them
    (Flickr8k's token file names `2258277193_586949ec62.jpg.1`, which does
    not exist).

    Raises:
        FileNotFoundError: a missing captions file or images directory.
        ValueError: a malformed line (the message gives its number), or no
            named image in `images_dir`.
    """
    images_dir, captions_file = _check_inputs(images_dir, captions_file)
    return _collect(images_dir, _flickr_captions(captions_file), captions_file)


def read_coco_json(images_dir, annotations_file) -> list[CaptionedImage]:
    """Images and captions in the COCO captions layout, sorted by path.

    `annotations_file` is like `captions_val2014.json`: `{"images": [{"id",
    "file_name", ...}], "annotations": [{"image_id", "caption", ...}]}`.
    Images without a caption are left out; captions of images missing from
    `images_dir` are skipped with a warning that counts them.

    Raises:
        FileNotFoundError: a missing annotations file or images directory.
        ValueError: invalid JSON, missing keys (the message names the entry),
            a caption whose `image_id` is not in "images", or no listed image
            in `images_dir`.
    """
    images_dir, annotations_file = _check_inputs(images_dir, annotations_file)
    try:
        with annotations_file.open(encoding="utf-8") as f:
            content = json.load(f)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ValueError(f"{annotations_file} is not valid JSON: {error}") from error
    if (
        not isinstance(content, dict)
        or not isinstance(content.get("images"), list)
        or not isinstance(content.get("annotations"), list)
    ):
        keys = sorted(content) if isinstance(content, dict) else type(content).__name__
        raise ValueError(
            f"{annotations_file}: expected a COCO captions file with 'images' and "
            f"'annotations' lists. Received: {keys}"
        )

    def require(entry, index, list_name, keys):
        missing = [k for k in keys if not isinstance(entry, dict) or k not in entry]
        if missing:
            raise ValueError(
                f"{annotations_file}: {list_name}[{index}] has no {missing[0]!r}. "
                f"Received: {str(entry)[:100]}"
            )

    names = {}
    for index, entry in enumerate(content["images"]):
        require(entry, index, "images", ("id", "file_name"))
        names[entry["id"]] = entry["file_name"]
    captions: dict[str, list[str]] = {}
    for index, entry in enumerate(content["annotations"]):
        require(entry, index, "annotations", ("image_id", "caption"))
        if entry["image_id"] not in names:
            raise ValueError(
                f"{annotations_file}: annotations[{index}] refers to an image "
                f"missing from 'images'. Received: image_id={entry['image_id']}"
            )
        caption = str(entry["caption"]).strip()
        captions.setdefault(names[entry["image_id"]], []).append(caption)
    if not captions:
        raise ValueError(f"no captions in {annotations_file}")
    return _collect(images_dir, captions, annotations_file)


def split_images(
    items, validation_fraction: float = 0.1, test_fraction: float = 0.1, seed=0
) -> tuple[list, list, list]:
    """Seeded train, validation and test lists of whole images.

    Items sharing a `path` go to the same split, so no image has captions in
    two splits. Each list keeps the input order.
    """
    if (
        not 0 <= validation_fraction < 1
        or not 0 <= test_fraction < 1
        or validation_fraction + test_fraction >= 1
    ):
        raise ValueError(
            "fractions must be >= 0 and sum to less than 1. Received: "
            f"validation_fraction={validation_fraction}, test_fraction={test_fraction}"
        )
    paths = sorted({item.path for item in items})
    random.Random(seed).shuffle(paths)
    n_validation = round(validation_fraction * len(paths))
    n_test = round(test_fraction * len(paths))
    validation = set(paths[:n_validation])
    test = set(paths[n_validation : n_validation + n_test])
    return (
        [i for i in items if i.path not in validation and i.path not in test],
        [i for i in items if i.path in validation],
        [i for i in items if i.path in test],
    )


FLICKR8K_SPLIT_FILES = (
    "Flickr_8k.trainImages.txt",
    "Flickr_8k.devImages.txt",
    "Flickr_8k.testImages.txt",
)


def flickr8k_splits(
    images_dir, captions_file, train_list=None, validation_list=None, test_list=None
) -> tuple[list[CaptionedImage], list[CaptionedImage], list[CaptionedImage]]:
    """The official Flickr8k train (6,000), dev (1,000) and test (1,000) images.

    Each list file names one image per line; a list left as None is read from
    its standard name (`FLICKR8K_SPLIT_FILES`) beside `captions_file`. Images
    in no list are left out. Without the lists, use `split_images`.
    """
    items = read_flickr8k(images_dir, captions_file)
    given = (train_list, validation_list, test_list)
    lists = []
    for path, default in zip(given, FLICKR8K_SPLIT_FILES):
        path = Path(path) if path is not None else Path(captions_file).parent / default
        if not path.is_file():
            raise FileNotFoundError(
                f"split list not found: {path}. Pass train_list=, validation_list= "
                "and test_list=, or split the images with split_images()"
            )
        lines = path.read_text(encoding="utf-8-sig").splitlines()
        lists.append({line.strip() for line in lines if line.strip()})
    split_names = ("train", "validation", "test")
    for i, j in itertools.combinations(range(3), 2):
        common = lists[i] & lists[j]
        if common:
            raise ValueError(
                f"images in both the {split_names[i]} and the {split_names[j]} "
                f"list. Received: {sorted(common)[:3]}"
            )
    return tuple(
        [item for item in items if os.path.basename(item.path) in names]
        for names in lists
    )


def tfds_coco_captions(
    split: str = "train",
    data_dir=None,
    download: bool = False,
    max_examples: int | None = None,
):
    """`(image, captions)` pairs of `tensorflow_datasets`' `coco_captions`.

    COCO 2014 with Karpathy and Li's splits: "train", "val" (alias
    "validation"), "test" (5,000 images each for val and test) and "restval".
    `image` is `(H, W, 3)` uint8, `captions` the raw caption strings (about
    five). With `download=False` (the default) nothing is fetched: a dataset
    not prepared in `data_dir` fails at once with a FileNotFoundError saying
    how to download it (tfds would otherwise wait minutes on an offline
    network). The dataset is opened when this function is called; the
    returned iterator reads it.
    """
    import tensorflow_datasets as tfds

    from attention_zoo.applications.common import tfds_builder, tfds_split

    if max_examples is not None and (
        not isinstance(max_examples, (int, np.integer)) or max_examples < 0
    ):
        raise ValueError(
            "`max_examples` must be a non-negative integer or None. "
            f"Received: max_examples={max_examples}"
        )
    split = {"validation": "val"}.get(split, split)
    builder = tfds_builder("coco_captions", data_dir, download)
    dataset = tfds_split(
        builder,
        split,
        "Download it once (about 20 GB of COCO 2014 images) with "
        "tfds_coco_captions(..., download=True) or `tfds build coco_captions`",
        shuffle_files=False,
    )
    if max_examples is not None:
        dataset = dataset.take(int(max_examples))

    def examples():
        for example in tfds.as_numpy(dataset):
            texts = [text.decode("utf-8") for text in example["captions"]["text"]]
            yield example["image"], texts

    return examples()
