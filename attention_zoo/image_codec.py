"""Encoded image files to uint8 pixels and back, eagerly and without TensorFlow.

Images (PNG, JPEG, GIF or BMP) are decoded by `decode_image` as an exported
graph decodes them (`attention_zoo.export.decode_images`, the in-graph
decoder, which shares `MAX_PIXELS` and the error wording with this one):
alpha is dropped, 16-bit samples keep their high byte, JPEG EXIF orientation
is ignored, only the first frame of an animation is read (black where it is
transparent or does not reach, as TensorFlow reads it; a GIF whose largest
frame is not its screen, and a BMP layout the graph refuses, are refused
here too), and the aspect ratio is not preserved. The graph that gives the same pixels is
`tf.io.decode_image(channels=3, expand_animations=False)`, except for JPEG:
`tf.io.decode_jpeg(channels=3, dct_method="INTEGER_ACCURATE")` (PIL's DCT;
TensorFlow's default fast DCT differs by up to about 9 levels, 1.3 on
average), then `tf.image.resize(method="bilinear", antialias=True)` to a
square, rounded: within one intensity level of PIL's bilinear resize (without
`antialias`, a downscale differs by up to 150 levels on a noisy image).

Examples:
    >>> pixels = np.zeros((2, 3, 3), np.uint8)
    >>> decode_image(encode_png(pixels), image_size=4).shape
    (4, 4, 3)
"""

from __future__ import annotations

import io
import struct
import warnings
from pathlib import Path

import numpy as np
from PIL import Image

# Both decoders refuse larger images from their header, before any pixel is
# decoded: a small file can claim 30,000 x 30,000 pixels.
MAX_PIXELS = 40_000_000
# The formats `tf.io.decode_image` reads and whose header gives the size
# cheaply; others (WebP, TIFF, ...) are refused, as in the serving graph.
IMAGE_FORMATS = ("PNG", "JPEG", "GIF", "BMP")


def describe_bytes(data: bytes) -> str:
    """Length and first 16 bytes of a file, for error messages.

    >>> describe_bytes(b"not an image")
    "12 bytes starting with b'not an image'"
    """
    return f"{len(data)} bytes starting with {data[:16]!r}"


def checked_image_bytes(data) -> bytes:
    """`data` as `bytes`; an error for other types and for empty bytes.

    Raises:
        TypeError: `data` is not bytes, a bytearray or a memoryview.
        ValueError: `data` is empty.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(
            f"`data` must be bytes. Received: type(data)={type(data).__name__}"
        )
    data = bytes(data)
    if not data:
        raise ValueError("image bytes are empty")
    return data


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
    data = checked_image_bytes(data)
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
            f"Received: {describe_bytes(data)}"
        ) from None
    except Image.UnidentifiedImageError:
        # PIL's message names its BytesIO object, nothing a user gave.
        raise ValueError(
            "cannot decode the image bytes (not a PNG, JPEG, GIF or BMP file). "
            f"Received: {describe_bytes(data)}"
        ) from None
    except Exception as error:  # any parser failure on untrusted bytes
        raise ValueError(
            f"cannot decode the image bytes ({error}). Received: {describe_bytes(data)}"
        ) from error
    width, height = image.size
    if width * height > MAX_PIXELS:
        raise ValueError(
            f"image refused: {width * height:,} pixels, more than "
            f"MAX_PIXELS={MAX_PIXELS:,}. Received: width={width}, height={height}"
        )
    if image.format == "BMP":
        check_bmp_layout(data)
    try:
        image.load()
        if image.format == "GIF":
            pixels = _gif_first_frame(image, data)
        elif image.mode.startswith("I"):  # 16-bit (or 32-bit) grayscale
            values = np.asarray(image).astype(np.int64) >> 8
            pixels = np.clip(values, 0, 255).astype(np.uint8)
            pixels = np.repeat(pixels[..., None], 3, axis=-1)
        else:
            pixels = np.asarray(image if image.mode == "RGB" else image.convert("RGB"))
    except Exception as error:  # any decoder failure on untrusted bytes
        raise ValueError(
            f"cannot decode the image bytes ({type(error).__name__}: {error}). "
            f"Received: {describe_bytes(data)}"
        ) from error
    if image_size is not None and pixels.shape[:2] != (image_size, image_size):
        resized = Image.fromarray(pixels).resize(
            (int(image_size), int(image_size)), Image.BILINEAR
        )
        pixels = np.asarray(resized)
    return np.array(pixels, dtype=np.uint8)  # a writable copy


def check_bmp_layout(data: bytes) -> None:
    """Raise ValueError for a BMP layout the SavedModel's graph refuses
    (`attention_zoo.export.image`, `_decode_bmp`: TensorFlow would misread
    it), so that every entry point refuses it: only uncompressed 1-, 4-,
    8-, 24- and 32-bit files and 32-bit BGRA bit fields, with a header of
    40 bytes or more, are read."""
    head = data[:66].ljust(66, b"\0")
    info_size, bits = int.from_bytes(head[14:18], "little"), head[28] + 256 * head[29]
    compression = int.from_bytes(head[30:34], "little")
    masks = [int.from_bytes(head[54 + 4 * i : 58 + 4 * i], "little") for i in range(3)]
    plain = compression == 0 and bits in (1, 4, 8, 24, 32)
    bgra = compression == 3 and bits == 32 and masks == [0xFF0000, 0xFF00, 0xFF]
    if info_size < 40 or not (plain or bgra):
        raise ValueError(
            f"cannot decode the image bytes (unsupported BMP: bits {bits}, "
            f"compression {compression}, header {info_size}). "
            f"Received: {describe_bytes(data)}"
        )


def gif_frames(data: bytes) -> list[tuple[int, int, int, int]]:
    """`(left, top, width, height)` of each frame of a GIF file, read from
    its image descriptors (blocks skipped, nothing decoded); a file cut
    short gives the frames before the cut, as giflib and PIL read it.

    Raises:
        ValueError: a block of a kind GIF does not have.
    """
    flags = data[10] if len(data) > 10 else 0
    pos = 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)
    frames = []
    while pos < len(data) and data[pos] != 0x3B:  # the trailer
        if data[pos] == 0x21:  # an extension: its label, then sub-blocks
            pos += 2
        elif data[pos] == 0x2C:  # an image descriptor, a colour table, LZW
            left, top, width, height, bits = struct.unpack_from(
                "<HHHHB", data.ljust(pos + 10, b"\0"), pos + 1
            )
            frames.append((left, top, width, height))
            pos += 11 + (3 << ((bits & 7) + 1) if bits & 0x80 else 0)
        else:
            raise ValueError(
                f"cannot decode the image bytes (GIF block 0x{data[pos]:02x} at "
                f"byte {pos}). Received: {describe_bytes(data)}"
            )
        while pos < len(data) and data[pos]:  # sub-blocks: a length, its bytes
            pos += data[pos] + 1
        pos += 1
    return frames


def _gif_first_frame(image, data: bytes) -> np.ndarray:
    """The first frame of a GIF as TensorFlow decodes it (the SavedModel's
    `tf.io.decode_image`): on a canvas of the largest frame's width and
    height, black where the first frame does not reach and where its pixels
    are transparent. PIL's canvas is the file's logical screen, filled with
    its background colour, transparent pixels in their palette colour: a
    file whose canvases differ is refused (the screen clips what PIL
    reads), the rest painted black as TensorFlow leaves it."""
    frames = gif_frames(data)
    width, height = image.size
    canvas = (max(f[2] for f in frames), max(f[3] for f in frames)) if frames else None
    if canvas != (width, height):
        raise ValueError(
            f"a GIF whose frames do not match its {width} x {height} screen "
            f"(largest frame {canvas[0] if canvas else 0} x "
            f"{canvas[1] if canvas else 0}) is not read"
        )
    image.seek(0)
    rgba = np.array(image.convert("RGBA"))
    left, top, frame_width, frame_height = frames[0]
    shown = np.zeros((height, width), bool)
    shown[top : top + frame_height, left : left + frame_width] = True
    rgba[~(shown & (rgba[..., 3] > 0))] = 0
    return np.ascontiguousarray(rgba[..., :3])


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
