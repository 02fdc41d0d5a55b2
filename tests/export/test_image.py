"""In-graph image decoding: every file gives a defined row, bad files are flagged."""

import doctest
import io
import json
import os
import struct
import subprocess
import sys
import zlib

import numpy as np
import pytest
from PIL import Image

from attention_zoo.export import image as image_module
from attention_zoo.export.image import decode_image_array, decode_images
from attention_zoo.image_codec import MAX_PIXELS, decode_image

pytestmark = pytest.mark.tf_only
SIZE = 8


def encode(image, fmt, **kwargs):
    buffer = io.BytesIO()
    image.save(buffer, fmt, **kwargs)
    return buffer.getvalue()


def black_png(width, height):
    """A properly encoded 1-bit black PNG, built row by row (a few KB)."""

    def chunk(kind, body):
        crc = struct.pack(">I", zlib.crc32(kind + body))
        return struct.pack(">I", len(body)) + kind + body + crc

    row = bytes(1 + (width + 7) // 8)  # filter type 0, then the packed bits
    compressor = zlib.compressobj(9)
    idat = b"".join(compressor.compress(row) for _ in range(height))
    idat += compressor.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", idat)
        + chunk(b"IEND", b"")
    )


def patched_png_size(data, width, height):
    """The PNG with its IHDR size replaced (the chunk CRC is left wrong)."""
    return data[:16] + struct.pack(">II", width, height) + data[24:]


def resize(pixels, size=SIZE):
    import tensorflow as tf

    pixels = np.asarray(pixels)
    if pixels.ndim == 2:
        pixels = np.repeat(pixels[..., None], 3, axis=-1)
    resized = tf.image.resize(pixels, [size, size], "bilinear", antialias=True)
    return resized.numpy()


rng = np.random.default_rng(0)
RGB = rng.integers(0, 256, (9, 12, 3), dtype=np.uint8)  # (H, W, 3)
GRAY = rng.integers(0, 256, (9, 12), dtype=np.uint8)
ALPHA = rng.integers(0, 256, (9, 12, 1), dtype=np.uint8)
GRAY16 = rng.integers(0, 65536, (9, 12)).astype(np.uint16)
yy, xx = np.mgrid[0:32, 0:40]
SMOOTH = np.stack([xx * 6, yy * 7, (xx + yy) * 3], axis=-1).astype(np.uint8)
PNG = encode(Image.fromarray(RGB), "PNG")
JPEG = encode(Image.fromarray(SMOOTH), "JPEG", quality=95)
PALETTE_IMAGE = Image.fromarray(RGB).quantize(8)
GIF_FRAMES = [Image.fromarray(np.full((9, 12, 3), v, np.uint8)) for v in (30, 220)]
BMP = encode(Image.fromarray(RGB), "BMP")
# Height stored negative: the same rows read top-down, i.e. flipped.
BMP_TOP_DOWN = BMP[:22] + struct.pack("<i", -9) + BMP[26:]


def bmp_bytes(indices, palette, bits, top_down=False, compression=0):
    """An uncompressed palette BMP written by hand (PIL writes 1- and 8-bit only)."""
    height, width = indices.shape
    stride = (width * bits + 31) // 32 * 4
    per_byte = 8 // bits
    rows = []
    for row in indices if top_down else indices[::-1]:
        padded = np.zeros(stride * per_byte, np.uint8)
        padded[:width] = row
        groups = padded.reshape(-1, per_byte)
        shifts = 8 - bits * (np.arange(per_byte) + 1)
        rows.append(np.bitwise_or.reduce(groups << shifts, axis=1).astype(np.uint8))
    table = b"".join(bytes([b, g, r, 0]) for r, g, b in palette)
    offset = 14 + 40 + len(table)
    pixels = b"".join(r.tobytes() for r in rows)
    info = struct.pack(
        "<IiiHHIIiiII",
        40,
        width,
        -height if top_down else height,
        1,
        bits,
        compression,
        len(pixels),
        2835,
        2835,
        len(palette),
        0,
    )
    header = b"BM" + struct.pack("<IHHI", offset + len(pixels), 0, 0, offset)
    return header + info + table + pixels


def bmp_bitfields(pixels, masks=(0xFF0000, 0xFF00, 0xFF)):
    """A 32-bit BI_BITFIELDS BMP of RGB pixels stored as BGRA."""
    height, width = pixels.shape[:2]
    alpha = np.full((height, width, 1), 255, np.uint8)
    rows = np.concatenate([pixels[..., ::-1], alpha], -1)[::-1]  # bottom-up
    offset = 14 + 40 + 12
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 32, 3, 0, 0, 0, 0, 0)
    header = b"BM" + struct.pack("<IHHI", offset + rows.size, 0, 0, offset)
    return header + info + struct.pack("<III", *masks) + rows.tobytes()


PALETTE = rng.integers(0, 256, (16, 3), dtype=np.uint8)
INDICES = rng.integers(0, 16, (9, 12), dtype=np.uint8)


def gif_bytes():
    buffer = io.BytesIO()
    GIF_FRAMES[0].save(buffer, "GIF", save_all=True, append_images=GIF_FRAMES[1:])
    return buffer.getvalue()


def _gif(width, height, frames):
    from tests.applications.captioning.odd_images import gif

    return gif(width, height, frames)


GIF_RGB = RGB.copy()
GIF_RGB[0, :3] = (7, 7, 7)  # the transparent colour
GIF_TRANSPARENT = _gif(12, 9, [(GIF_RGB, 0, 0, (7, 7, 7))])
GIF_TRANSPARENT_PIXELS = np.where((GIF_RGB == 7).all(-1, keepdims=True), 0, GIF_RGB)
GIF_PARTIAL = _gif(12, 9, [(RGB[:4, :5].copy(), 2, 3, None), (RGB, 0, 0, None)])
GIF_PARTIAL_PIXELS = np.zeros_like(RGB)
GIF_PARTIAL_PIXELS[3:7, 2:7] = RGB[:4, :5]
GIF_LARGER = _gif(6, 5, [(RGB[:5, :6].copy(), 0, 0, None), (RGB, 0, 0, None)])
GIF_SMALL = _gif(24, 18, [(RGB, 0, 0, None)])

# name -> (bytes, expected pixels before the resize, or None when invalid);
# module level stays free of TensorFlow, so collection on other backends is cheap.
CASES = {
    "png_rgb": (PNG, RGB),
    "png_gray": (encode(Image.fromarray(GRAY), "PNG"), GRAY),
    "png_rgba": (
        encode(Image.fromarray(np.concatenate([RGB, ALPHA], -1)), "PNG"),
        RGB,
    ),
    "png_palette": (
        encode(PALETTE_IMAGE, "PNG"),
        np.asarray(PALETTE_IMAGE.convert("RGB")),
    ),
    # 16-bit samples keep their high byte: exact 8-bit values.
    "png_16bit": (encode(Image.fromarray(GRAY16), "PNG"), GRAY16 >> 8),
    "png_1x1": (
        encode(Image.new("RGB", (1, 1), (10, 20, 30)), "PNG"),
        np.uint8([[[10, 20, 30]]]),
    ),
    "gif_first_frame": (gif_bytes(), np.full((9, 12, 3), 30, np.uint8)),
    "bmp": (BMP, RGB),
    "bmp_top_down": (BMP_TOP_DOWN, RGB[::-1]),
    # The accurate DCT: PIL's pixels exactly.
    "jpeg": (JPEG, np.asarray(Image.open(io.BytesIO(JPEG)).convert("RGB"))),
    # TensorFlow alone read 8-bit palette BMPs as grey indices and refused
    # 1- and 4-bit ones; PIL (the CLI) decodes them all.
    "bmp_palette_8bit": (encode(PALETTE_IMAGE, "BMP"), "pil"),
    "bmp_1bit": (encode(Image.fromarray(RGB[..., 0] > 127), "BMP"), "pil"),
    "bmp_1bit_odd_colours": (
        bmp_bytes(INDICES % 2, [(200, 10, 30), (5, 90, 250)], 1),
        "pil",
    ),
    "bmp_4bit": (bmp_bytes(INDICES, PALETTE, 4), PALETTE[INDICES]),
    "bmp_4bit_top_down": (bmp_bytes(INDICES, PALETTE, 4, top_down=True), "pil"),
    "bmp_8bit_gray": (encode(Image.fromarray(GRAY), "BMP"), "pil"),
    "bmp_rgba": (
        encode(Image.fromarray(np.concatenate([RGB, RGB[..., :1]], -1)), "BMP"),
        RGB,
    ),
    "bmp_32bit_bitfields": (bmp_bitfields(RGB), RGB),
    # Layouts TensorFlow would misread: refused instead of served wrong.
    "bmp_32bit_rgba_masks": (bmp_bitfields(RGB, (0xFF000000, 0xFF0000, 0xFF00)), None),
    "bmp_rle4": (bmp_bytes(INDICES, PALETTE, 4, compression=2), None),
    "bmp_16bit": (BMP[:28] + struct.pack("<H", 16) + BMP[30:], None),
    "bmp_2bit": (bmp_bytes(INDICES % 4, PALETTE[:4], 2), None),  # PIL too
    "truncated_bmp_palette": (bmp_bytes(INDICES, PALETTE, 4)[:-5], None),
    "empty": (b"", None),
    "not_an_image": (b"not an image", None),
    "truncated_png": (PNG[: len(PNG) // 2], None),
    "truncated_jpeg": (JPEG[: len(JPEG) // 2], None),
    "png_header_only": (PNG[:24], None),
    "png_claims_30000x30000": (patched_png_size(PNG, 30000, 30000), None),
    # Properly encoded, 50 million pixels > MAX_PIXELS, 3 KB.
    "png_20000x2500": (black_png(20000, 2500), None),
    "png_0x5": (patched_png_size(PNG, 0, 5), None),
    # Round 4: transparent GIF pixels are black in TensorFlow (PIL gave
    # their palette colour); TensorFlow's canvas is the largest frame.
    "gif_transparent": (GIF_TRANSPARENT, GIF_TRANSPARENT_PIXELS),
    "gif_first_frame_partial": (GIF_PARTIAL, GIF_PARTIAL_PIXELS),
    "gif_later_frame_larger": (GIF_LARGER, None),
    "gif_smaller_than_screen": (GIF_SMALL, None),
}
NAMES = list(CASES)
BATCH = [CASES[name][0] for name in NAMES]


@pytest.fixture(scope="module")
def graph_fn():
    import tensorflow as tf

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def fn(image_bytes):
        return decode_images(image_bytes, SIZE)

    return fn


@pytest.fixture(scope="module")
def decoded(graph_fn):
    eager_images, eager_valid = decode_images(BATCH, SIZE)
    images, valid = graph_fn(BATCH)
    np.testing.assert_array_equal(valid.numpy(), eager_valid.numpy())
    np.testing.assert_array_equal(images.numpy(), eager_images.numpy())
    return dict(zip(NAMES, zip(images.numpy(), valid.numpy())))


@pytest.mark.parametrize("name", NAMES)
def test_every_file_gives_a_defined_row(name, decoded):
    image, valid = decoded[name]
    expected = CASES[name][1]
    assert image.shape == (SIZE, SIZE, 3) and image.dtype == np.float32
    assert bool(valid) == (expected is not None)
    if expected is None:
        assert not image.any()
    elif isinstance(expected, str):  # what PIL, hence the CLI, decodes
        pil = Image.open(io.BytesIO(CASES[name][0])).convert("RGB")
        np.testing.assert_array_equal(image, resize(np.asarray(pil)))
    else:
        np.testing.assert_array_equal(image, resize(expected))


def test_native_size_gives_the_pil_pixels_unchanged():
    images, valid = decode_images([encode(Image.fromarray(RGB[:, :9]), "PNG")], 9)
    assert valid.numpy().tolist() == [True]
    np.testing.assert_array_equal(images[0].numpy(), RGB[:, :9])


@pytest.mark.parametrize("subsampling", [0, 2])  # 4:4:4 and 4:2:0
def test_jpeg_pixels_equal_pil_pixels(subsampling):
    import tensorflow as tf

    noisy = rng.integers(0, 256, (32, 32, 3), dtype=np.uint8)
    jpeg = encode(Image.fromarray(noisy), "JPEG", quality=75, subsampling=subsampling)
    pil = np.asarray(Image.open(io.BytesIO(jpeg)).convert("RGB"))
    fast = tf.io.decode_image(jpeg, channels=3).numpy()
    assert not np.array_equal(fast, pil)  # the default DCT would differ
    images, valid = decode_images([jpeg], 32)  # native size: no resize
    assert valid.numpy().tolist() == [True]
    np.testing.assert_array_equal(images[0].numpy(), pil)
    np.testing.assert_array_equal(decode_image_array(jpeg, 32), pil)


def test_max_pixels_boundary():
    data = black_png(300, 200)
    _, valid = decode_images([data, data], SIZE, max_pixels=60_000)
    assert valid.numpy().tolist() == [True, True]
    _, valid = decode_images([data], SIZE, max_pixels=59_999)
    assert valid.numpy().tolist() == [False]


def test_empty_batch_and_unknown_batch_size(graph_fn):
    import tensorflow as tf

    for fn in (graph_fn, lambda x: decode_images(x, SIZE)):
        images, valid = fn(tf.constant([], tf.string))
        assert images.shape == (0, SIZE, SIZE, 3)
        assert valid.shape == (0,)
    spec = graph_fn.get_concrete_function().structured_outputs
    assert spec[0].shape.as_list() == [None, SIZE, SIZE, 3]
    assert spec[1].shape.as_list() == [None]
    # All invalid: still one defined row each.
    images, valid = graph_fn(tf.constant([b"", b"x", PNG[:30]]))
    assert valid.numpy().tolist() == [False] * 3
    assert images.shape == (3, SIZE, SIZE, 3) and not images.numpy().any()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"image_size": 0}, "Received: image_size=0"),
        ({"image_size": 2.5}, "Received: image_size=2.5"),
        ({"image_size": True}, "Received: image_size=True"),
        ({"image_size": 4, "max_pixels": 0}, "Received: max_pixels=0"),
        ({"image_size": 4, "max_pixels": None}, "Received: max_pixels=None"),
    ],
)
def test_argument_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        decode_images([PNG], **kwargs)
    with pytest.raises(ValueError, match=message):
        decode_image_array(PNG, **kwargs)


@pytest.mark.parametrize(
    "name", ["png_rgb", "png_16bit", "jpeg", "gif_first_frame", "bmp_4bit"]
)
def test_decode_image_array_equals_the_graph(name, decoded):
    array = decode_image_array(CASES[name][0], SIZE)
    assert array.dtype == np.float32 and array.shape == (SIZE, SIZE, 3)
    np.testing.assert_array_equal(array, decoded[name][0])


@pytest.mark.parametrize(
    "name, message",
    [
        ("empty", "image bytes are empty"),
        ("not_an_image", r"Received: 12 bytes starting with b'not an image'"),
        ("truncated_png", r"Invalid PNG data.*Received: \d+ bytes starting with"),
        ("truncated_jpeg", r"cannot decode the image bytes .*Received: \d+ bytes"),
        (
            "png_claims_30000x30000",
            "30000 x 30000 = 900,000,000 pixels.*max_pixels=40,000,000",
        ),
        ("png_20000x2500", "Received: height=2500, width=20000"),
        ("bmp_rle4", r"unsupported BMP: bits.\n4\nb.compression.\n2"),
    ],
)
def test_decode_image_array_errors(name, message):
    with pytest.raises(ValueError, match=message):
        decode_image_array(CASES[name][0], SIZE)


def test_docstring_example():
    result = doctest.testmod(image_module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


LOAD_SCRIPT = """
import json, resource, sys
import numpy as np
import tensorflow as tf
loaded = tf.saved_model.load(sys.argv[1])
batch = json.loads(open(sys.argv[2]).read())
batch = [bytes.fromhex(item) for item in batch]
images, valid = loaded.decode(tf.constant(batch[:-1]))
empty_images, empty_valid = loaded.decode(tf.constant([], tf.string))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
_, big_valid = loaded.decode(tf.constant(batch[-1:]))
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
np.save(sys.argv[3], images.numpy())
print(json.dumps({
    "valid": valid.numpy().tolist(),
    "empty": [empty_images.shape.as_list(), empty_valid.shape.as_list()],
    "big_valid": big_valid.numpy().tolist(),
    "big_growth_mb": (after - before) / 1024,
    "modules": sorted(m for m in sys.modules if m.startswith("attention_zoo")),
}))
"""


def test_saved_model_reloads_without_attention_zoo(tmp_path, decoded):
    import keras
    import tensorflow as tf

    archive = keras.export.ExportArchive()
    archive.add_endpoint(
        "decode",
        lambda image_bytes: decode_images(image_bytes, SIZE),
        input_signature=[tf.TensorSpec([None], tf.string, name="image_bytes")],
    )
    archive.write_out(str(tmp_path / "saved"), verbose=False)
    # 8000 x 8000 (64 million pixels, 192 MB decoded) in a 25 KB file: the
    # served graph must refuse it from its header, without decoding it.
    big = black_png(8000, 8000)
    (tmp_path / "batch.json").write_text(json.dumps([b.hex() for b in BATCH + [big]]))
    (tmp_path / "load.py").write_text(LOAD_SCRIPT)
    run = subprocess.run(
        [sys.executable, "load.py", "saved", "batch.json", "images.npy"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2"},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    got = json.loads(run.stdout.strip().splitlines()[-1])
    assert got["modules"] == []
    assert got["valid"] == [bool(decoded[name][1]) for name in NAMES]
    np.testing.assert_array_equal(
        np.load(tmp_path / "images.npy"), np.stack([decoded[n][0] for n in NAMES])
    )
    assert got["empty"] == [[0, SIZE, SIZE, 3], [0]]
    assert got["big_valid"] == [False]
    assert got["big_growth_mb"] < 100


# Files the graph refuses and PIL alone would read. Round 4: none; the BMP
# layouts the graph refuses rather than misread (RGBA masks, RLE, 16-bit)
# were read by PIL, so `Captioner` captioned what the SavedModel refused.
PIL_ONLY = set()


@pytest.mark.parametrize("name", NAMES)
def test_the_tf_free_decoder_agrees_with_the_graph(name, decoded):
    """`image_codec.decode_image` (PIL, for machines without TensorFlow)."""
    image, valid = decoded[name]
    if not valid and name not in PIL_ONLY:
        with pytest.raises(ValueError):
            decode_image(CASES[name][0], SIZE)
        return
    pixels = decode_image(CASES[name][0], SIZE)
    assert bool(valid) == (name not in PIL_ONLY)
    if not valid:
        return
    assert pixels.dtype == np.uint8 and pixels.shape == (SIZE, SIZE, 3)
    assert np.abs(pixels.astype(int) - np.round(image)).max() <= 1


def test_both_decoders_share_the_pixel_limit():
    assert image_module.MAX_PIXELS is MAX_PIXELS
