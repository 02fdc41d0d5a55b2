"""What a generated scene is, and the grammar of its captions.

Scene captions (lower-case words separated by single spaces):

    a small red circle
    a large blue star above a small green square
    a small yellow triangle to the left of a large purple diamond
    a small red circle , a large blue star and a small green square

An object is "a {size} {colour} {shape}"; two objects are joined by the
relation their box centres show ("above" when the vertical offset is at
least twice the horizontal one, "to the left of" when the horizontal one is
at least twice the vertical one), the upper or the left object first; three
objects, with x-centres at least 0.15 apart, are listed from left to right.
The shapes of one scene differ, so a shape word names one object.
`Scene.references` holds every caption the grammar allows for the scene (two
for two objects: "B below A", "B to the right of A"), for BLEU.

Every object's box is known, so attention can be checked against ground
truth (`Scene.word_objects`, `SceneObject.grid_mask`). The scenes themselves
are drawn by `scene_generator`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

SHAPES = ("circle", "square", "triangle", "star", "diamond")
# Saturated colours (chroma, max - min channel, of 125 or more) far from the
# greyish backgrounds, whose chroma never exceeds
# `scene_generator.BACKGROUND_MAX_CHROMA`.
COLOURS = {
    "red": (215, 30, 35),
    "orange": (245, 130, 20),
    "yellow": (240, 215, 35),
    "green": (40, 165, 60),
    "blue": (35, 85, 215),
    "purple": (140, 60, 190),
}
SIZES = ("small", "large")
RELATION_RATIO = 2.0  # dominant over minor centre offset, two objects
MIN_X_GAP = 0.15  # between the x-centres of three objects
RELATIONS = ("above", "below", "to the left of", "to the right of")
MAX_CAPTION_WORDS = 14  # "a small red circle , a ... square and a ... star"


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
