"""The TF-free image codec: decoding as the serving graph does, and encoding."""

import doctest
import struct
import warnings
import zlib

import numpy as np
import pytest
from PIL import Image

from attention_zoo import image_codec
from attention_zoo.applications.captioning.scene_generator import generate_scenes
from attention_zoo.image_codec import (
    MAX_PIXELS,
    decode_image,
    encode_jpeg,
    encode_png,
    load_image,
)


def test_module_docstring_examples():
    result = doctest.testmod(image_codec, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def _chunk(kind: bytes, payload: bytes) -> bytes:
    crc = zlib.crc32(kind + payload) & 0xFFFFFFFF
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", crc)


def _png_16bit(array) -> bytes:
    """A 16-bit PNG (grayscale, RGB or RGBA) written by hand."""
    array = np.asarray(array, np.uint16)
    if array.ndim == 2:
        array = array[..., None]
    height, width, channels = array.shape
    colour_type = {1: 0, 3: 2, 4: 6}[channels]
    rows = b"".join(b"\x00" + array[y].astype(">u2").tobytes() for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 16, colour_type, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows))
        + _chunk(b"IEND", b"")
    )


def _png_header_only(width: int, height: int) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IEND", b"")


def _pil_png(image: Image.Image, **options) -> bytes:
    import io

    buffer = io.BytesIO()
    image.save(buffer, format="PNG", **options)
    return buffer.getvalue()


RNG = np.random.default_rng(0)
RGB = RNG.integers(0, 256, (5, 7, 3), dtype=np.uint8)
RGBA = RNG.integers(0, 256, (5, 7, 4), dtype=np.uint8)
GRAY = RNG.integers(0, 256, (5, 7), dtype=np.uint8)
GRAY16 = RNG.integers(0, 65536, (5, 7), dtype=np.uint16)
RGB16 = RNG.integers(0, 65536, (5, 7, 3), dtype=np.uint16)


def _variants():
    """{name: (encoded bytes, expected (H, W, 3) pixels)}."""
    palette = Image.fromarray(RGB).quantize(6)
    palette_rgb = np.asarray(palette.convert("RGB"))
    la = np.stack([GRAY, GRAY[::-1]], axis=-1)
    return {
        "rgb": (encode_png(RGB), RGB),
        "rgba_alpha_dropped": (encode_png(RGBA), RGBA[..., :3]),
        "gray": (encode_png(GRAY), np.repeat(GRAY[..., None], 3, -1)),
        "gray_alpha": (
            _pil_png(Image.fromarray(la, "LA")),
            np.repeat(GRAY[..., None], 3, -1),
        ),
        "palette_transparent": (_pil_png(palette, transparency=0), palette_rgb),
        "gray_16bit": (
            _png_16bit(GRAY16),
            np.repeat((GRAY16 >> 8).astype(np.uint8)[..., None], 3, -1),
        ),
        "rgb_16bit": (_png_16bit(RGB16), (RGB16 >> 8).astype(np.uint8)),
        "one_bit": (
            _pil_png(Image.fromarray(GRAY > 127)),
            np.repeat(np.where(GRAY > 127, 255, 0).astype(np.uint8)[..., None], 3, -1),
        ),
    }


@pytest.mark.parametrize("name", sorted(_variants()))
def test_decode_image_gives_rgb_uint8(name):
    encoded, expected = _variants()[name]
    pixels = decode_image(encoded)
    assert pixels.dtype == np.uint8 and pixels.shape == (5, 7, 3)
    np.testing.assert_array_equal(pixels, expected)
    assert pixels.flags.writeable


def test_decode_image_matches_tensorflow_decoding_and_resize():
    tf = pytest.importorskip("tensorflow")
    smooth = np.asarray(Image.fromarray(RGB).resize((90, 60), Image.BILINEAR))
    jpeg = encode_jpeg(smooth)
    cases = {name: encoded for name, (encoded, _) in _variants().items()}
    cases["jpeg"] = jpeg
    for name, encoded in cases.items():
        if name == "jpeg":
            # PIL's libjpeg uses the accurate integer DCT; TensorFlow's
            # default (and tf.io.decode_image's only) one is the fast DCT.
            graph = tf.io.decode_jpeg(
                encoded, channels=3, dct_method="INTEGER_ACCURATE"
            )
        else:
            graph = tf.io.decode_image(encoded, channels=3, expand_animations=False)
        np.testing.assert_array_equal(decode_image(encoded), graph.numpy(), name)
        resized = tf.image.resize(graph, (32, 32), method="bilinear", antialias=True)
        resized = tf.cast(tf.clip_by_value(tf.round(resized), 0, 255), tf.uint8)
        ours = decode_image(encoded, image_size=32).astype(int)
        assert np.abs(ours - resized.numpy()).max() <= 1, name
    fast_dct = tf.io.decode_image(jpeg, channels=3).numpy()
    difference = np.abs(decode_image(jpeg).astype(int) - fast_dct)
    assert 0 < difference.mean() < 3


def test_decode_image_errors():
    with pytest.raises(ValueError, match="image bytes are empty"):
        decode_image(b"")
    with pytest.raises(
        ValueError, match=r"Received: 17 bytes starting with b'not an image at "
    ):
        decode_image(b"not an image at a")
    truncated = encode_png(RNG.integers(0, 256, (64, 64, 3), dtype=np.uint8))[:300]
    with pytest.raises(ValueError, match="cannot decode the image bytes"):
        decode_image(truncated)
    import io

    webp = io.BytesIO()
    Image.fromarray(RGB).save(webp, format="WEBP")
    with pytest.raises(ValueError, match="starting with b'RIFF"):
        decode_image(webp.getvalue())  # not read by the serving graph
    with pytest.raises(TypeError, match="Received: type\\(data\\)=str"):
        decode_image("abc")
    with pytest.raises(ValueError, match="Received: image_size=0"):
        decode_image(encode_png(RGB), image_size=0)


@pytest.mark.parametrize("image_format", ["PNG", "JPEG", "GIF", "BMP"])
def test_corrupted_bytes_raise_value_error_only(image_format):
    import io

    buffer = io.BytesIO()
    Image.fromarray(RGB).resize((40, 30)).save(buffer, format=image_format)
    good = buffer.getvalue()
    rng = np.random.default_rng(1)
    for trial in range(60):
        damaged = bytearray(good)
        if trial % 2:
            damaged = damaged[: rng.integers(1, len(damaged))]
        else:
            for _ in range(rng.integers(1, 8)):
                damaged[rng.integers(0, min(len(damaged), 100))] = rng.integers(0, 256)
        try:
            pixels = decode_image(bytes(damaged), image_size=8)
        except ValueError:
            continue
        assert pixels.shape == (8, 8, 3) and pixels.dtype == np.uint8


@pytest.mark.parametrize(
    "width, height",
    [(7000, 7000), (10000, 10000), (20000, 20000)],
    ids=["over_ours", "over_pil_warning", "over_pil_error"],
)
def test_huge_images_are_refused_from_the_header(width, height):
    assert width * height > MAX_PIXELS
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no DecompressionBombWarning escapes
        with pytest.raises(ValueError, match="MAX_PIXELS"):
            decode_image(_png_header_only(width, height))


def test_tiny_and_non_square_images_are_resized_to_a_square():
    dot = decode_image(encode_png(np.array([[[10, 200, 30]]], np.uint8)), 8)
    assert dot.shape == (8, 8, 3)
    assert (dot == [10, 200, 30]).all()
    assert decode_image(encode_png(RGB)[:], image_size=16).shape == (
        16,
        16,
        3,
    )
    assert decode_image(encode_png(RGB)).shape == (5, 7, 3)


def test_jpeg_round_trip_is_close():
    smooth = np.asarray(Image.fromarray(RGB).resize((96, 64), Image.BILINEAR))
    decoded = decode_image(encode_jpeg(smooth, quality=95))
    assert decoded.shape == (64, 96, 3)
    assert np.abs(decoded.astype(int) - smooth).mean() < 2
    scene = generate_scenes(1, seed=0, image_size=96)[0]  # grainy
    decoded = decode_image(encode_jpeg(scene.image, quality=95))
    assert np.abs(decoded.astype(int) - scene.image).mean() < 5
    with pytest.raises(ValueError, match="Received: quality=0"):
        encode_jpeg(scene.image, quality=0)
    with pytest.raises(ValueError, match="Received: dtype=float64"):
        encode_png(scene.image / 255.0)
    with pytest.raises(ValueError, match=r"Received: shape=\(4, 4, 2\)"):
        encode_png(np.zeros((4, 4, 2), np.uint8))


def test_load_image_names_the_path(tmp_path):
    path = tmp_path / "a.png"
    path.write_bytes(encode_png(RGB))
    np.testing.assert_array_equal(load_image(path), RGB)
    assert load_image(str(path), image_size=4).shape == (4, 4, 3)
    with pytest.raises(FileNotFoundError, match="missing.png"):
        load_image(tmp_path / "missing.png")
    (tmp_path / "bad.jpg").write_bytes(b"garbage")
    with pytest.raises(ValueError, match="bad.jpg: cannot decode"):
        load_image(tmp_path / "bad.jpg")


def test_checked_image_bytes_and_describe_bytes():
    assert image_codec.checked_image_bytes(bytearray(b"ab")) == b"ab"
    assert image_codec.checked_image_bytes(memoryview(b"ab")) == b"ab"
    with pytest.raises(TypeError, match=r"Received: type\(data\)=list"):
        image_codec.checked_image_bytes([1, 2])
    with pytest.raises(ValueError, match="image bytes are empty"):
        image_codec.checked_image_bytes(b"")
    assert image_codec.describe_bytes(bytes(range(20))) == (
        "20 bytes starting with " + repr(bytes(range(16)))
    )
