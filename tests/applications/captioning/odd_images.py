"""Images a new user tries on a captioner: every entry point must give each
the same answer and validity (round 4, issue 55)."""

from __future__ import annotations

import io
import struct

import numpy as np
from PIL import Image


def _encoded(image, fmt, **options) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


def _gif_frame(array):
    """`(colour table, its size bits, LZW data)` of `array` as PIL writes a
    one-frame GIF."""
    image = Image.fromarray(array).convert("P", palette=Image.ADAPTIVE, colors=256)
    data = _encoded(image, "GIF")
    bits = data[10] & 7
    table = data[13 : 13 + 3 * 2 ** (bits + 1)]
    pos = 13 + len(table)
    while data[pos] == 0x21:  # PIL's extensions: skipped
        pos += 2
        while data[pos]:
            pos += data[pos] + 1
        pos += 1
    start = pos + 10
    end = start + 1
    while data[end]:
        end += data[end] + 1
    return table, bits, data[start : end + 1]


def gif(width: int, height: int, frames) -> bytes:
    """A GIF of a `width` x `height` screen; `frames` are `(rgb array, left,
    top, transparent colour or None)`, each with its own colour table (the
    array's colours, when it has at most 256)."""
    out = b"GIF89a" + struct.pack("<HHBBB", width, height, 0, 0, 0)
    for array, left, top, transparent in frames:
        table, bits, data = _gif_frame(array)
        if transparent is not None:
            colours = np.frombuffer(table, np.uint8).reshape(-1, 3)
            # The table's colour nearest to it (exact below 257 colours).
            distance = np.abs(colours.astype(int) - transparent).sum(1)
            index = int(np.argmin(distance))
            out += b"\x21\xf9\x04" + bytes([1, 0, 0, index]) + b"\x00"
        rows, columns = array.shape[:2]
        out += b"\x2c" + struct.pack("<HHHHB", left, top, columns, rows, 0x80 | bits)
        out += table + data
    return out + b"\x3b"


def odd_images(scene, other) -> dict[str, bytes]:
    """Odd encodings of the RGB scenes `scene` and `other` (same size)."""
    height, width = scene.shape[:2]
    background = tuple(int(v) for v in scene[0, 0])
    image = Image.fromarray(scene)
    return {
        "png_1x1": _encoded(Image.fromarray(scene[:1, :1]), "PNG"),
        # The web's tracking pixel: one transparent white pixel, which
        # TensorFlow reads black.
        "gif_1x1_transparent": gif(
            1, 1, [(np.full((1, 1, 3), 255, np.uint8), 0, 0, (255,) * 3)]
        ),
        "gif_animated": _encoded(
            image, "GIF", save_all=True, append_images=[Image.fromarray(other)]
        ),
        "gif_animated_transparent_background": gif(
            width, height, [(scene, 0, 0, background), (other, 0, 0, None)]
        ),
        "gif_first_frame_partial": gif(
            width, height, [(scene[:8, :8].copy(), 4, 4, None), (other, 0, 0, None)]
        ),
        "gray_png": _encoded(image.convert("L"), "PNG"),
        "png_16bit": _encoded(
            Image.fromarray((scene.mean(-1) * 257).astype(np.uint16)), "PNG"
        ),
        "rgba_png": _encoded(image.convert("RGBA"), "PNG"),
        "cmyk_jpeg": _encoded(image.convert("CMYK"), "JPEG", quality=95),
    }


# Refused by every entry point: TensorFlow would read them otherwise than
# PIL (a frame larger than the screen), or misread them (RLE BMP).
def refused_images(scene) -> dict[str, bytes]:
    big = np.kron(scene, np.ones((2, 2, 1), np.uint8))
    height, width = scene.shape[:2]
    bmp = _encoded(Image.fromarray(scene), "BMP")
    return {
        "gif_later_frame_larger_than_screen": gif(
            width, height, [(scene, 0, 0, None), (big, 0, 0, None)]
        ),
        "bmp_16bit": bmp[:28] + struct.pack("<H", 16) + bmp[30:],
    }
