"""In-graph decoding of encoded image bytes for SavedModel serving signatures.

`decode_images` turns a batch of encoded files (JPEG, PNG, GIF, BMP) into
`(batch_size, image_size, image_size, 3)` float32 RGB pixels in `[0, 255]`
and a validity flag per file; a file that cannot be read never fails the
call. `decode_image_array` runs the same TensorFlow ops eagerly on one file,
raising `ValueError` where the graph would flag the file invalid: the served
pixels exactly. Without TensorFlow, `attention_zoo.image_codec.decode_image`
(PIL) gives the same uint8 pixels for the files both accept, resized within
one intensity level; both refuse files over `MAX_PIXELS` (defined there) from
their header, with the same wording.

Decoding rule (both functions here): `tf.io.decode_image(channels=3,
expand_animations=False)` to uint8, except for JPEG:
`tf.io.decode_jpeg(channels=3, dct_method="INTEGER_ACCURATE")`, the DCT of
PIL's libjpeg, so the pixels equal PIL's (`tf.io.decode_image`'s fast DCT
differs by up to about 9 levels). Grayscale is repeated into three channels,
palette images take their palette colours, alpha is dropped (not
composited), 16-bit samples keep their high byte (`v >> 8`, exact 8-bit
values; decoding to float32 would give `v / 65535` instead), JPEG EXIF
orientation is ignored and an animation gives its first frame (a GIF's
transparent pixels black; a GIF whose largest frame, TensorFlow's canvas,
is not its logical screen, PIL's canvas, is refused). BMP:
uncompressed 1-, 4- and 8-bit palette files are decoded through their
palette here (`tf.io.decode_image` reads 8-bit ones as grayscale indices and
refuses the others), 24- and 32-bit ones by `tf.io.decode_image`; compressed
(RLE), 2- and 16-bit, OS/2 and non-BGRA bit-field files are refused rather
than misread (PIL decodes some of them). Then
`tf.image.resize(method="bilinear", antialias=True)` to a square, aspect
ratio not preserved, values not rounded.

The pixel count is read from the file header (`tf.io.extract_jpeg_shape`,
the PNG IHDR chunk, the GIF logical screen, the BMP info header) and checked
against `max_pixels` before any pixel is decoded, so a small file claiming
30,000 x 30,000 pixels is refused without allocating them. Other formats
that `tf.io.decode_image` reads (WebP, JPEG XL) are refused: their size is
not checked.
"""

from __future__ import annotations

import numpy as np

from attention_zoo._checks import is_int
from attention_zoo.image_codec import MAX_PIXELS, checked_image_bytes, describe_bytes

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_HEADER_BYTES = 26  # the BMP height ends at byte 26, the furthest field read
_BMP_HEADER_BYTES = 66  # to the end of the bit-field masks after a 40-byte header


def _tf():
    import tensorflow as tf

    return tf


def _check_arguments(image_size, max_pixels):
    if not is_int(image_size) or image_size < 1:
        raise ValueError(
            f"`image_size` must be a positive integer. Received: image_size={image_size!r}"
        )
    if not is_int(max_pixels) or max_pixels < 1:
        raise ValueError(
            f"`max_pixels` must be a positive integer. Received: max_pixels={max_pixels!r}"
        )
    return int(image_size), int(max_pixels)


def _header_shape(data):
    """int64 `(height, width)` from the header of one encoded file (scalar string).

    Raises `InvalidArgumentError` (at run time in a graph) for an unknown
    format or a header too short to hold the size.
    """
    tf = _tf()
    # Pad so short inputs read zeros instead of failing on an index.
    head = tf.strings.substr(data, 0, _HEADER_BYTES)
    padded = tf.strings.join([head, b"\0" * _HEADER_BYTES])
    head = tf.strings.substr(padded, 0, _HEADER_BYTES)
    b = tf.cast(tf.io.decode_raw(head, tf.uint8), tf.int64)
    b = tf.ensure_shape(b, [_HEADER_BYTES])

    def big_endian(start, n):
        return sum(b[start + i] * 256 ** (n - 1 - i) for i in range(n))

    def little_endian(start, n):
        return sum(b[start + i] * 256**i for i in range(n))

    def signed32(value):  # BMP sizes are int32; a negative height is top-down.
        return tf.abs(tf.where(value >= 2**31, value - 2**32, value))

    def jpeg():
        shape = tf.io.extract_jpeg_shape(data, output_type=tf.int32)
        return tf.cast(shape[0], tf.int64), tf.cast(shape[1], tf.int64)

    def png():
        return big_endian(20, 4), big_endian(16, 4)

    def gif():
        return little_endian(8, 2), little_endian(6, 2)

    def bmp():
        return signed32(little_endian(22, 4)), signed32(little_endian(18, 4))

    def unknown():
        check = tf.debugging.Assert(
            False, ["unknown image format; first bytes:", tf.strings.substr(data, 0, 8)]
        )
        with tf.control_dependencies([check]):
            return tf.constant(0, tf.int64), tf.constant(0, tf.int64)

    # The magic numbers `tf.io.decode_image` tells formats apart by; PNG also
    # needs its first chunk to be IHDR, where the size is read.
    is_png = tf.logical_and(
        tf.equal(tf.strings.substr(head, 0, 8), _PNG_MAGIC),
        tf.equal(tf.strings.substr(head, 12, 4), b"IHDR"),
    )
    branch = tf.where(
        tf.equal(tf.strings.substr(head, 0, 3), b"\xff\xd8\xff"),
        0,
        tf.where(
            is_png,
            1,
            tf.where(
                tf.equal(tf.strings.substr(head, 0, 4), b"GIF8"),
                2,
                tf.where(tf.equal(tf.strings.substr(head, 0, 2), b"BM"), 3, 4),
            ),
        ),
    )
    return tf.switch_case(branch, [jpeg, png, gif, bmp, unknown])


def _size_check(data, max_pixels):
    """An op that fails unless the header gives 1 to `max_pixels` pixels."""
    tf = _tf()
    height, width = _header_shape(data)
    pixels = height * width
    return tf.debugging.Assert(
        tf.logical_and(pixels > 0, pixels <= max_pixels),
        ["image has", height, "x", width, "pixels; at most", max_pixels, "allowed"],
    )


def _decode_bmp(data):
    """uint8 `(height, width, 3)` pixels of a BMP file (scalar string).

    `tf.io.decode_image` reads an 8-bit BMP as grayscale, ignoring its
    palette (a palette image became flat grey), and fails on 1- and 4-bit
    ones: those are decoded here, through their palette. 24- and
    32-bit files go to `tf.io.decode_image`. Other layouts (RLE or other
    compression, 2- and 16-bit, 32-bit with non-BGRA masks, OS/2 headers),
    which TensorFlow would misread or refuse, fail.
    """
    tf = _tf()
    head = tf.strings.substr(
        tf.strings.join([tf.strings.substr(data, 0, _BMP_HEADER_BYTES), b"\0" * 70]),
        0,
        _BMP_HEADER_BYTES,
    )
    b = tf.ensure_shape(
        tf.cast(tf.io.decode_raw(head, tf.uint8), tf.int64), [_BMP_HEADER_BYTES]
    )

    def field(start, n):  # little-endian unsigned
        return sum(b[start + i] * 256**i for i in range(n))

    offset, info_size = field(10, 4), field(14, 4)
    width, height = field(18, 4), field(22, 4)
    height = tf.where(height >= 2**31, height - 2**32, height)  # < 0: top-down
    bits, compression, colours = field(28, 2), field(30, 4), field(46, 4)
    masks = [field(54 + 4 * i, 4) for i in range(3)]  # after a 40-byte header
    bgra_masks = tf.reduce_all(tf.stack(masks) == [0xFF0000, 0xFF00, 0xFF])
    # 2-bit is valid BMP, but PIL (the CLI's decoder) refuses it too.
    palette_bits = tf.reduce_any(tf.equal(bits, [1, 4, 8]))
    supported = tf.logical_and(
        info_size >= 40,
        tf.logical_or(
            tf.logical_and(
                tf.equal(compression, 0),
                tf.logical_or(palette_bits, tf.reduce_any(tf.equal(bits, [24, 32]))),
            ),
            tf.logical_and(
                tf.equal(compression, 3), tf.logical_and(tf.equal(bits, 32), bgra_masks)
            ),
        ),
    )
    check = tf.debugging.Assert(
        supported,
        [
            "unsupported BMP: bits",
            bits,
            "compression",
            compression,
            "header",
            info_size,
        ],
    )

    def true_colour():
        return tf.io.decode_image(
            data, channels=3, dtype=tf.uint8, expand_animations=False
        )

    def palette():
        rows, stride = tf.abs(height), (width * bits + 31) // 32 * 4
        n = tf.where(colours > 0, colours, 2**bits)
        table = tf.io.decode_raw(
            tf.strings.substr(data, 14 + info_size, 4 * n), tf.uint8
        )
        table = tf.reshape(table, [-1, 4])  # (n, 4) BGRX
        table = tf.pad(table[:, 2::-1], [[0, 256 - tf.shape(table)[0]], [0, 0]])
        pixels = tf.io.decode_raw(
            tf.strings.substr(data, offset, rows * stride), tf.uint8
        )
        pixels = tf.reshape(pixels, [rows, stride])  # fails on a truncated file
        per_byte = 8 // bits
        shifts = tf.cast(8 - bits * (tf.range(per_byte) + 1), tf.uint8)
        indices = tf.bitwise.bitwise_and(
            tf.bitwise.right_shift(pixels[:, :, None], shifts),
            tf.cast(2**bits - 1, tf.uint8),
        )  # (rows, stride, per_byte), the leftmost pixel in the high bits
        indices = tf.reshape(indices, [rows, stride * per_byte])[:, :width]
        image = tf.gather(table, tf.cast(indices, tf.int32))  # (rows, width, 3)
        return tf.cond(height > 0, lambda: tf.reverse(image, [0]), lambda: image)

    with tf.control_dependencies([check]):
        return tf.cond(palette_bits, palette, true_colour)


def _decode(data):
    """uint8 `(height, width, 3)` pixels of one encoded file (scalar string)."""
    tf = _tf()

    def jpeg():
        # PIL's (libjpeg's) DCT: the pixels then agree exactly. The default
        # fast DCT, the only one `tf.io.decode_image` uses, differs by up to
        # about 9 levels.
        return tf.io.decode_jpeg(data, channels=3, dct_method="INTEGER_ACCURATE")

    def other():
        return tf.io.decode_image(
            data, channels=3, dtype=tf.uint8, expand_animations=False
        )

    def bmp():
        return _decode_bmp(data)

    def gif():
        # TensorFlow's canvas is the largest frame, not the logical screen
        # that PIL (the Python decoder) paints on: a file where they differ
        # is refused on both sides (`image_codec.gif_frames`).
        image = other()
        height, width = _header_shape(data)
        check = tf.debugging.Assert(
            tf.reduce_all(tf.cast(tf.shape(image)[:2], tf.int64) == [height, width]),
            ["a GIF whose frames do not match its screen", height, "x", width],
        )
        with tf.control_dependencies([check]):
            return tf.identity(image)

    is_bmp = tf.equal(tf.strings.substr(data, 0, 2), b"BM")
    is_gif = tf.equal(tf.strings.substr(data, 0, 4), b"GIF8")
    branch = tf.where(
        tf.io.is_jpeg(data), 0, tf.where(is_bmp, 1, tf.where(is_gif, 3, 2))
    )
    return tf.switch_case(branch, [jpeg, bmp, other, gif])


def _decode_resize(data, image_size, check):
    tf = _tf()
    # Explicit dependency: in a graph, nothing else orders the (stateless)
    # decode after the check; without it a refused large PNG was still
    # decoded before the failed check dropped it (docs/benchmarks.md,
    # "Figures that docstrings used to carry").
    with tf.control_dependencies([] if check is None else [check]):
        image = _decode(data)
    image = tf.image.resize(
        image, [image_size, image_size], method="bilinear", antialias=True
    )
    return tf.cast(image, tf.float32)  # (image_size, image_size, 3)


def decode_images(image_bytes, image_size: int, max_pixels: int = MAX_PIXELS):
    """Decode and resize a batch of encoded images; bad files give zeros.

    Works eagerly and inside a `tf.function` (a SavedModel signature with
    `tf.TensorSpec([None], tf.string)`), for any batch size including 0.

    Args:
        image_bytes: string tensor `(batch_size,)` of encoded JPEG, PNG, GIF
            or BMP files.
        image_size: side of the square output images.
        max_pixels: files whose header gives more pixels (height x width)
            are refused before being decoded.

    Returns:
        `(images, valid)`: float32 `(batch_size, image_size, image_size, 3)`
        RGB values in `[0, 255]`, zeros where `valid` is False; bool
        `(batch_size,)`, False for an empty, truncated, undecodable or
        unknown-format file or one with more than `max_pixels` pixels.

    Examples:
        >>> import io
        >>> from PIL import Image
        >>> buffer = io.BytesIO()
        >>> Image.new("RGB", (3, 2), (255, 0, 0)).save(buffer, "PNG")
        >>> images, valid = decode_images([buffer.getvalue(), b"junk"], image_size=4)
        >>> images.shape, valid.numpy().tolist()
        (TensorShape([2, 4, 4, 3]), [True, False])
        >>> images[0, 0, 0].numpy().tolist(), float(images[1].numpy().max())
        ([255.0, 0.0, 0.0], 0.0)
    """
    image_size, max_pixels = _check_arguments(image_size, max_pixels)
    tf = _tf()
    image_bytes = tf.convert_to_tensor(image_bytes, tf.string)
    image_bytes = tf.ensure_shape(image_bytes, [None])
    batch_size = tf.shape(image_bytes)[0]
    limit = tf.constant(max_pixels, tf.int64)

    # A failing element raises inside the map function; `ignore_errors`
    # drops it instead of failing the whole call. The survivors are gathered
    # into one batch and scattered back to their rows by index.
    def decode_one(index, data):
        return index, _decode_resize(data, image_size, _size_check(data, limit))

    dataset = (
        tf.data.Dataset.from_tensor_slices((tf.range(batch_size), image_bytes))
        .map(decode_one, num_parallel_calls=tf.data.AUTOTUNE, deterministic=False)
        .ignore_errors()
        .batch(tf.cast(tf.maximum(batch_size, 1), tf.int64))
    )
    # With no survivors (or batch_size 0) `batch` yields nothing; fall back
    # to an empty batch so there is always exactly one element to take.
    empty = tf.data.Dataset.from_tensors(
        (
            tf.zeros([0], tf.int32),
            tf.zeros([0, image_size, image_size, 3], tf.float32),
        )
    )
    indices, decoded = dataset.concatenate(empty).take(1).get_single_element()
    indices = indices[:, None]  # (N, 1)
    images = tf.scatter_nd(indices, decoded, [batch_size, image_size, image_size, 3])
    hits = tf.scatter_nd(indices, tf.ones_like(indices[:, 0]), [batch_size])
    return images, hits > 0


def decode_image_array(
    data: bytes, image_size: int, max_pixels: int = MAX_PIXELS
) -> np.ndarray:
    """Eager twin of `decode_images` for one file: same ops, same pixels.

    Args:
        data: one encoded JPEG, PNG, GIF or BMP file.
        image_size: side of the square output image.
        max_pixels: files whose header gives more pixels are refused before
            being decoded.

    Returns:
        float32 `(image_size, image_size, 3)` RGB values in `[0, 255]`.

    Raises:
        ValueError: empty bytes, bytes of an unknown format or that do not
            decode (truncated, corrupt; the message gives their length and
            first bytes), or more than `max_pixels` pixels.
    """
    image_size, max_pixels = _check_arguments(image_size, max_pixels)
    data = checked_image_bytes(data)
    tf = _tf()
    tensor = tf.constant(data, tf.string)
    try:
        height, width = (int(v) for v in _header_shape(tensor))
    except tf.errors.InvalidArgumentError:
        raise ValueError(
            "cannot decode the image bytes (no JPEG, PNG, GIF or BMP header giving "
            "the image size). "
            f"Received: {describe_bytes(data)}"
        ) from None
    if not 0 < height * width <= max_pixels:
        raise ValueError(
            f"image refused: {height} x {width} = {height * width:,} pixels, "
            f"allowed 1 to max_pixels={max_pixels:,}. "
            f"Received: height={height}, width={width}"
        )
    try:
        image = _decode_resize(tensor, image_size, None)
    except tf.errors.InvalidArgumentError as error:
        reason = error.message.split("}}")[-1].split("[Op:")[0].strip()
        raise ValueError(
            f"cannot decode the image bytes ({reason}). Received: {describe_bytes(data)}"
        ) from None
    return image.numpy()
