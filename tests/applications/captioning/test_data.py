import collections
import doctest
import itertools
import json
import struct
import time
import warnings
import zlib

import numpy as np
import pytest
from PIL import Image

from attention_zoo.applications.captioning import data

# ------------------------------------------------------------------ scenes


@pytest.fixture(scope="module")
def scenes():
    return data.generate_scenes(600, seed=11, image_size=64)


def _chroma(pixels):
    pixels = np.asarray(pixels, dtype=np.int32)
    return pixels.max(axis=-1) - pixels.min(axis=-1)


def test_module_docstring_examples():
    result = doctest.testmod(data, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_scenes_are_seeded_and_a_prefix_of_longer_runs():
    a = data.generate_scenes(8, seed=5, image_size=48)
    b = data.generate_scenes(12, seed=5, image_size=48)[:8]
    assert [s.caption for s in a] == [s.caption for s in b]
    assert all(np.array_equal(x.image, y.image) for x, y in zip(a, b))
    assert [s.layout_key() for s in a] == [s.layout_key() for s in b]
    other = data.generate_scenes(8, seed=6, image_size=48)
    assert [s.caption for s in a] != [s.caption for s in other]


def test_argument_errors_name_the_value():
    with pytest.raises(ValueError, match="Received: n=-1"):
        data.generate_scenes(-1)
    with pytest.raises(ValueError, match="Received: image_size=8"):
        data.generate_scenes(1, image_size=8)
    with pytest.raises(ValueError, match="Received: n_test=-2"):
        data.scene_splits(1, 1, -2)


def test_objects_have_distinct_shapes_valid_sizes_and_never_overlap(scenes):
    counts = collections.Counter(len(s.objects) for s in scenes)
    assert set(counts) == {1, 2, 3}
    assert 0.13 < counts[1] / len(scenes) < 0.27
    size = scenes[0].image.shape[0]
    assert data.SIZE_RANGES["small"][1] < data.SIZE_RANGES["large"][0]
    for scene in scenes:
        assert scene.image.shape == (size, size, 3) and scene.image.dtype == np.uint8
        assert len({o.shape for o in scene.objects}) == len(scene.objects)
        for obj in scene.objects:
            assert obj.shape in data.SHAPES and obj.colour in data.COLOURS
            x0, y0, x1, y1 = obj.box
            assert data.BORDER - 1e-9 <= x0 < x1 <= 1 - data.BORDER + 1e-9
            assert data.BORDER - 1e-9 <= y0 < y1 <= 1 - data.BORDER + 1e-9
            assert x1 - x0 == pytest.approx(y1 - y0)  # squares
            low, high = data.SIZE_RANGES[obj.size]
            side = x1 - x0
            assert side >= data.MIN_BOX_FRACTION
            assert low - 1 / size <= side <= high + 1 / size
            assert obj.grid_mask(7).any()
        for a, b in itertools.combinations(scene.objects, 2):
            gap = data.GAP - 1e-9
            assert (
                a.box[2] + gap <= b.box[0]
                or b.box[2] + gap <= a.box[0]
                or a.box[3] + gap <= b.box[1]
                or b.box[3] + gap <= a.box[1]
            )


def test_grid_mask_marks_the_cells_whose_centre_is_in_the_box():
    obj = data.SceneObject("circle", "red", "small", (0.0, 0.0, 0.2, 0.3))
    mask = obj.grid_mask(5)  # cell centres at 0.1, 0.3, 0.5, ...
    expected = np.zeros((5, 5), bool)
    expected[0:2, 0] = True  # rows (y) 0.1 and 0.3, column (x) 0.1
    np.testing.assert_array_equal(mask, expected)


def test_captions_parse_back_to_the_objects_and_their_layout(scenes):
    vocabulary = set(data.scene_vocabulary())
    for scene in scenes:
        assert scene.caption in scene.references
        assert len(set(scene.references)) == len(scene.references)
        assert data.normalize_caption(scene.caption) == scene.caption
        assert len(scene.caption.split(" ")) <= data.MAX_CAPTION_WORDS
        described = sorted((o.size, o.colour, o.shape) for o in scene.objects)
        for reference in scene.references:
            assert set(reference.split(" ")) <= vocabulary
            phrases, relation = data.parse_caption(reference)
            assert sorted(phrases) == described
            by_shape = {o.shape: o for o in scene.objects}
            first, *rest = (by_shape[shape] for _, _, shape in phrases)
            if relation is None:
                assert len(scene.objects) == 1
            elif relation == ",":
                xs = [first.centre[0]] + [o.centre[0] for o in rest]
                assert all(
                    b - a >= data.MIN_X_GAP - 1e-9 for a, b in itertools.pairwise(xs)
                )
            else:
                (second,) = rest
                dx = second.centre[0] - first.centre[0]
                dy = second.centre[1] - first.centre[1]
                ratio = data.RELATION_RATIO - 1e-6
                expected = {
                    "above": dy > 0 and abs(dy) >= ratio * abs(dx),
                    "below": dy < 0 and abs(dy) >= ratio * abs(dx),
                    "to the left of": dx > 0 and abs(dx) >= ratio * abs(dy),
                    "to the right of": dx < 0 and abs(dx) >= ratio * abs(dy),
                }
                assert expected[relation], (reference, first.box, second.box)
        # The training caption puts the upper or the left object first.
        assert data.parse_caption(scene.caption)[1] in (
            None,
            ",",
            "above",
            "to the left of",
        )
    relations = collections.Counter(data.parse_caption(s.caption)[1] for s in scenes)
    assert relations["above"] > 50 and relations["to the left of"] > 50
    assert {w for s in scenes for r in s.references for w in r.split()} == vocabulary


def test_parse_caption_rejects_captions_outside_the_grammar():
    assert data.parse_caption("a small red circle above") is None
    assert data.parse_caption("a small red circle near a large blue star") is None
    assert data.parse_caption("a  small red circle") is None
    assert data.parse_caption(
        "a small red circle , a small blue star and a large green square"
    ) == (
        [
            ("small", "red", "circle"),
            ("small", "blue", "star"),
            ("large", "green", "square"),
        ],
        ",",
    )


def test_captions_for_refuses_ambiguous_layouts():
    a = data.SceneObject("circle", "red", "small", (0.1, 0.1, 0.3, 0.3))
    b = data.SceneObject("star", "blue", "small", (0.4, 0.4, 0.6, 0.6))  # diagonal
    with pytest.raises(ValueError, match="neither clearly beside nor clearly above"):
        data.captions_for([a, b])
    c = data.SceneObject("square", "red", "small", (0.2, 0.7, 0.4, 0.9))
    with pytest.raises(ValueError, match="x-centres"):
        data.captions_for([a, b, c])


def test_words_map_to_the_objects_they_name(scenes):
    scene = next(s for s in scenes if len(s.objects) == 3)
    words = scene.caption.split(" ")
    mapping = scene.word_objects()
    assert sorted(mapping) == [3, 8, 13]
    assert all(mapping[i].shape == words[i] for i in mapping)
    full = scene.word_objects(include_adjectives=True)
    assert sorted(full) == [1, 2, 3, 6, 7, 8, 11, 12, 13]
    assert full[1] is full[3] and full[1].size == words[1]
    # A model's caption with a wrong colour and an absent shape.
    target = scene.objects[0]
    absent = next(s for s in data.SHAPES if scene.object_for_word(s) is None)
    output = f"a large blue {target.shape} above a small red {absent}"
    assert scene.word_objects(output) == {3: target}
    assert scene.object_for_word("red") is None


def test_pixels_show_the_objects_on_a_muted_background():
    scenes = data.generate_scenes(30, seed=2, image_size=224)
    assert {s.background for s in scenes} == set(data.BACKGROUNDS)
    for rgb in data.COLOURS.values():
        # The least saturated jittered version of each object colour.
        assert _chroma(rgb) - 2 * data.COLOUR_JITTER > 3 * data.BACKGROUND_MAX_CHROMA
    for scene in scenes:
        size = scene.image.shape[0]
        outside = np.ones((size, size), bool)
        for obj in scene.objects:
            x0, y0, x1, y1 = (int(round(v * size)) for v in obj.box)
            outside[y0:y1, x0:x1] = False
            cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
            patch = scene.image[cy - 2 : cy + 3, cx - 2 : cx + 3].reshape(-1, 3)
            assert (patch == patch[0]).all()  # a flat, filled interior
            difference = np.abs(patch[0].astype(int) - data.COLOURS[obj.colour])
            assert difference.max() <= data.COLOUR_JITTER, (obj, patch[0])
        assert _chroma(scene.image[outside]).max() <= data.BACKGROUND_MAX_CHROMA


def test_the_fallback_layout_keeps_every_rule(monkeypatch):
    monkeypatch.setattr(data, "_LAYOUT_TRIES", 0)
    scenes = data.generate_scenes(30, seed=0, image_size=64)
    for scene in scenes:
        assert all(o.size == "small" for o in scene.objects)
        data.captions_for(scene.objects)  # unambiguous
        for a, b in itertools.combinations(scene.objects, 2):
            assert (
                a.box[2] + data.GAP - 1e-9 <= b.box[0]
                or b.box[2] + data.GAP - 1e-9 <= a.box[0]
            )


def test_splits_never_share_a_layout():
    train, validation, test = data.scene_splits(150, 40, 40, seed=3, image_size=32)
    assert (len(train), len(validation), len(test)) == (150, 40, 40)
    keys = [{s.layout_key() for s in split} for split in (train, validation, test)]
    assert [len(k) for k in keys] == [150, 40, 40]
    assert not (keys[0] & keys[1] or keys[0] & keys[2] or keys[1] & keys[2])


def test_splits_drop_repeated_layouts(monkeypatch):
    pool = data.generate_scenes(6, seed=0, image_size=32)
    monkeypatch.setattr(data, "iter_scenes", lambda seed, size: itertools.cycle(pool))
    train, validation, test = data.scene_splits(2, 2, 2, image_size=32)
    assert [s.caption for s in train + validation + test] == [s.caption for s in pool]
    with pytest.raises(RuntimeError, match="could only generate 0 of 1"):
        data.scene_splits(4, 2, 1, image_size=32)


# ---------------------------------------------------------------- decoding


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
        "rgb": (data.encode_png(RGB), RGB),
        "rgba_alpha_dropped": (data.encode_png(RGBA), RGBA[..., :3]),
        "gray": (data.encode_png(GRAY), np.repeat(GRAY[..., None], 3, -1)),
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
    pixels = data.decode_image(encoded)
    assert pixels.dtype == np.uint8 and pixels.shape == (5, 7, 3)
    np.testing.assert_array_equal(pixels, expected)
    assert pixels.flags.writeable


def test_decode_image_matches_tensorflow_decoding_and_resize():
    tf = pytest.importorskip("tensorflow")
    smooth = np.asarray(Image.fromarray(RGB).resize((90, 60), Image.BILINEAR))
    jpeg = data.encode_jpeg(smooth)
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
        np.testing.assert_array_equal(data.decode_image(encoded), graph.numpy(), name)
        resized = tf.image.resize(graph, (32, 32), method="bilinear", antialias=True)
        resized = tf.cast(tf.clip_by_value(tf.round(resized), 0, 255), tf.uint8)
        ours = data.decode_image(encoded, image_size=32).astype(int)
        assert np.abs(ours - resized.numpy()).max() <= 1, name
    fast_dct = tf.io.decode_image(jpeg, channels=3).numpy()
    difference = np.abs(data.decode_image(jpeg).astype(int) - fast_dct)
    assert 0 < difference.mean() < 3


def test_decode_image_errors():
    with pytest.raises(ValueError, match="image bytes are empty"):
        data.decode_image(b"")
    with pytest.raises(
        ValueError, match=r"Received: 17 bytes starting with b'not an image at "
    ):
        data.decode_image(b"not an image at a")
    truncated = data.encode_png(RNG.integers(0, 256, (64, 64, 3), dtype=np.uint8))[:300]
    with pytest.raises(ValueError, match="cannot decode the image bytes"):
        data.decode_image(truncated)
    import io

    webp = io.BytesIO()
    Image.fromarray(RGB).save(webp, format="WEBP")
    with pytest.raises(ValueError, match="starting with b'RIFF"):
        data.decode_image(webp.getvalue())  # not read by the serving graph
    with pytest.raises(TypeError, match="Received: type\\(data\\)=str"):
        data.decode_image("abc")
    with pytest.raises(ValueError, match="Received: image_size=0"):
        data.decode_image(data.encode_png(RGB), image_size=0)


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
            pixels = data.decode_image(bytes(damaged), image_size=8)
        except ValueError:
            continue
        assert pixels.shape == (8, 8, 3) and pixels.dtype == np.uint8


@pytest.mark.parametrize(
    "width, height",
    [(7000, 7000), (10000, 10000), (20000, 20000)],
    ids=["over_ours", "over_pil_warning", "over_pil_error"],
)
def test_huge_images_are_refused_from_the_header(width, height):
    assert width * height > data.MAX_PIXELS
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no DecompressionBombWarning escapes
        with pytest.raises(ValueError, match="MAX_PIXELS"):
            data.decode_image(_png_header_only(width, height))


def test_tiny_and_non_square_images_are_resized_to_a_square():
    dot = data.decode_image(data.encode_png(np.array([[[10, 200, 30]]], np.uint8)), 8)
    assert dot.shape == (8, 8, 3)
    assert (dot == [10, 200, 30]).all()
    assert data.decode_image(data.encode_png(RGB)[:], image_size=16).shape == (
        16,
        16,
        3,
    )
    assert data.decode_image(data.encode_png(RGB)).shape == (5, 7, 3)


def test_jpeg_round_trip_is_close():
    smooth = np.asarray(Image.fromarray(RGB).resize((96, 64), Image.BILINEAR))
    decoded = data.decode_image(data.encode_jpeg(smooth, quality=95))
    assert decoded.shape == (64, 96, 3)
    assert np.abs(decoded.astype(int) - smooth).mean() < 2
    scene = data.generate_scenes(1, seed=0, image_size=96)[0]  # grainy
    decoded = data.decode_image(data.encode_jpeg(scene.image, quality=95))
    assert np.abs(decoded.astype(int) - scene.image).mean() < 5
    with pytest.raises(ValueError, match="Received: quality=0"):
        data.encode_jpeg(scene.image, quality=0)
    with pytest.raises(ValueError, match="Received: dtype=float64"):
        data.encode_png(scene.image / 255.0)
    with pytest.raises(ValueError, match=r"Received: shape=\(4, 4, 2\)"):
        data.encode_png(np.zeros((4, 4, 2), np.uint8))


def test_load_image_names_the_path(tmp_path):
    path = tmp_path / "a.png"
    path.write_bytes(data.encode_png(RGB))
    np.testing.assert_array_equal(data.load_image(path), RGB)
    assert data.load_image(str(path), image_size=4).shape == (4, 4, 3)
    with pytest.raises(FileNotFoundError, match="missing.png"):
        data.load_image(tmp_path / "missing.png")
    (tmp_path / "bad.jpg").write_bytes(b"garbage")
    with pytest.raises(ValueError, match="bad.jpg: cannot decode"):
        data.load_image(tmp_path / "bad.jpg")


# ------------------------------------------------------------ real datasets


def test_normalize_caption():
    assert data.normalize_caption(
        "  A child in a pink dress is climbing up stairs.\n"
    ) == ("a child in a pink dress is climbing up stairs .")
    assert (
        data.normalize_caption("A man's T-shirt,   (red)!")
        == "a man ' s t - shirt , ( red ) !"
    )
    assert data.normalize_caption("\t") == ""
    # The word vocabulary's tokenizer finds the same words in a normalised
    # caption, so generated words and BLEU's references agree.
    from attention_zoo.applications.translation.tokenizer import tokenize

    for caption in ("R&B on a 50% “sale” — ok…", "¿Qué? a+b=c <x> @home ~ |"):
        normalized = data.normalize_caption(caption)
        assert tokenize(normalized) == normalized.split(" ")


def test_normalize_caption_matches_the_graph():
    tf = pytest.importorskip("tensorflow")
    from attention_zoo.export import normalize_strings, split_punctuation

    texts = [
        "  A child in a pink dress is climbing up stairs.\n",
        "A man's T-shirt,   (red)!",
        'Two "dogs" play; one@home #1 50% [x]{y}~',
        "ÉLAN café",
        "R&B “live” — ¿ok?…",
    ]
    graph = normalize_strings(
        split_punctuation(tf.constant(texts), data.CAPTION_PUNCTUATION_CLASS)
    )
    assert [t.decode() for t in graph.numpy()] == [
        data.normalize_caption(t) for t in texts
    ]


def _write_images(folder, names):
    folder.mkdir()
    for i, name in enumerate(names):
        (folder / name).write_bytes(data.encode_png(np.full((4, 4, 3), i, np.uint8)))


def test_read_flickr8k_groups_captions_and_skips_missing_images(tmp_path):
    images = tmp_path / "Images"
    _write_images(images, ["b.jpg", "a.jpg"])
    captions = tmp_path / "Flickr8k.token.txt"
    captions.write_text(
        "b.jpg#0\tA dog runs .\n"
        "a.jpg#0\tA child in a pink dress .\n"
        "missing.jpg#0\tNothing here .\n"
        "\n"
        "b.jpg#1\tThe dog is running\n"
        "missing.jpg#1\tStill nothing .\n",
        encoding="utf-8",
    )
    with pytest.warns(UserWarning, match="skipped 2 captions of 1 images"):
        items = data.read_flickr8k(images, captions)
    assert items == [
        data.CaptionedImage(str(images / "a.jpg"), ["A child in a pink dress ."]),
        data.CaptionedImage(
            str(images / "b.jpg"), ["A dog runs .", "The dog is running"]
        ),
    ]
    # The CSV layout of the Kaggle copy.
    kaggle = tmp_path / "captions.txt"
    kaggle.write_text('image,caption\na.jpg,"A child, in pink ."\nb.jpg,A dog, a cat\n')
    assert [i.captions for i in data.read_flickr8k(images, kaggle)] == [
        ["A child, in pink ."],
        ["A dog, a cat"],
    ]
    kaggle.write_text("image,caption\na.jpg,A dog\nb.jpg\n")
    with pytest.raises(ValueError, match="line 3: expected 'image,caption'"):
        data.read_flickr8k(images, kaggle)


def test_read_flickr8k_errors(tmp_path):
    images = tmp_path / "Images"
    _write_images(images, ["a.jpg"])
    with pytest.raises(FileNotFoundError, match="captions file not found"):
        data.read_flickr8k(images, tmp_path / "none.txt")
    captions = tmp_path / "captions.token"
    captions.write_text("a.jpg#0\tfine\na.jpg#1\tfine\na.jpg#2 no tab here\n")
    with pytest.raises(
        ValueError, match=r"line 3: expected .*Received: 'a.jpg#2 no tab here'"
    ):
        data.read_flickr8k(images, captions)
    captions.write_text("a.jpg#0\t  \n")
    with pytest.raises(ValueError, match="line 1: empty caption"):
        data.read_flickr8k(images, captions)
    captions.write_text("a.jpg#0\tfine\n")
    with pytest.raises(FileNotFoundError, match="images directory not found"):
        data.read_flickr8k(tmp_path / "nowhere", captions)
    captions.write_text("other.jpg#0\tfine\n")
    with pytest.raises(ValueError, match="none of the 1 images"):
        data.read_flickr8k(images, captions)


def test_flickr8k_splits_follow_the_list_files(tmp_path):
    images = tmp_path / "Images"
    names = [f"{i}.jpg" for i in range(6)]
    _write_images(images, names)
    text = tmp_path / "text"
    text.mkdir()
    captions = text / "Flickr8k.token.txt"
    captions.write_text(
        "".join(f"{n}#{k}\tcaption {k}\n" for n in names for k in range(2))
    )
    for list_name, members in zip(
        data.FLICKR8K_SPLIT_FILES, (names[:3], names[3:4], names[4:5])
    ):
        (text / list_name).write_text("\n".join(members) + "\n")
    train, validation, test = data.flickr8k_splits(images, captions)
    assert [len(split) for split in (train, validation, test)] == [
        3,
        1,
        1,
    ]  # 5.jpg: none
    assert validation[0].path.endswith("3.jpg") and len(validation[0].captions) == 2
    (text / data.FLICKR8K_SPLIT_FILES[2]).write_text("0.jpg\n")
    with pytest.raises(ValueError, match="both the train and the test list"):
        data.flickr8k_splits(images, captions)
    with pytest.raises(FileNotFoundError, match="split_images"):
        data.flickr8k_splits(images, captions, train_list=tmp_path / "none.txt")


def test_read_coco_json(tmp_path):
    images = tmp_path / "val2014"
    _write_images(images, ["COCO_1.jpg", "COCO_2.jpg"])
    annotations = {
        "info": {},
        "images": [
            {"id": 2, "file_name": "COCO_2.jpg", "width": 4, "height": 4},
            {"id": 1, "file_name": "COCO_1.jpg"},
            {"id": 3, "file_name": "COCO_3.jpg"},  # not on disk
            {"id": 4, "file_name": "COCO_2.jpg"},  # no caption: left out
        ],
        "annotations": [
            {"id": 10, "image_id": 2, "caption": "A cat on a mat. "},
            {"id": 11, "image_id": 1, "caption": "Two dogs"},
            {"id": 12, "image_id": 3, "caption": "lost"},
            {"id": 13, "image_id": 2, "caption": "a cat"},
        ],
    }
    path = tmp_path / "captions_val2014.json"
    path.write_text(json.dumps(annotations))
    with pytest.warns(UserWarning, match="skipped 1 captions of 1 images"):
        items = data.read_coco_json(images, path)
    assert items == [
        data.CaptionedImage(str(images / "COCO_1.jpg"), ["Two dogs"]),
        data.CaptionedImage(str(images / "COCO_2.jpg"), ["A cat on a mat.", "a cat"]),
    ]
    annotations["annotations"].append({"id": 14, "image_id": 9, "caption": "x"})
    path.write_text(json.dumps(annotations))
    with pytest.raises(ValueError, match=r"annotations\[4\] refers .*image_id=9"):
        data.read_coco_json(images, path)
    annotations["annotations"][1] = {"id": 11, "image_id": 1}
    path.write_text(json.dumps(annotations))
    with pytest.raises(ValueError, match=r"annotations\[1\] has no 'caption'"):
        data.read_coco_json(images, path)
    path.write_text('{"images": [}')
    with pytest.raises(ValueError, match="is not valid JSON"):
        data.read_coco_json(images, path)
    path.write_text('{"categories": []}')
    with pytest.raises(ValueError, match=r"Received: \['categories'\]"):
        data.read_coco_json(images, path)


def test_split_images_keeps_each_image_in_one_split():
    items = [data.CaptionedImage(f"{i % 20}.jpg", [str(i)]) for i in range(40)]
    train, validation, test = data.split_images(items, 0.1, 0.2, seed=1)
    assert (train, validation, test) == data.split_images(items, 0.1, 0.2, seed=1)
    paths = [{i.path for i in split} for split in (train, validation, test)]
    assert [len(p) for p in paths] == [14, 2, 4]
    assert not (paths[0] & paths[1] or paths[0] & paths[2] or paths[1] & paths[2])
    assert len(train) + len(validation) + len(test) == 40
    with pytest.raises(ValueError, match="validation_fraction=0.6, test_fraction=0.5"):
        data.split_images(items, 0.6, 0.5)


def test_tfds_coco_captions_offline_with_mock_data():
    tfds = pytest.importorskip("tensorflow_datasets")
    with tfds.testing.mock_data(num_examples=4):
        examples = list(data.tfds_coco_captions(split="validation", max_examples=3))
    assert len(examples) == 3
    for image, captions in examples:
        assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[-1] == 3
        assert captions and all(isinstance(c, str) for c in captions)


def test_tfds_coco_captions_not_prepared_fails_fast(tmp_path):
    pytest.importorskip("tensorflow_datasets")
    start = time.perf_counter()
    with pytest.raises(FileNotFoundError, match="download=True"):
        data.tfds_coco_captions(data_dir=str(tmp_path))
    assert time.perf_counter() - start < 30
    with pytest.raises(ValueError, match="Received: max_examples=-1"):
        data.tfds_coco_captions(max_examples=-1)


def test_tfds_coco_captions_failed_download_names_the_cause(tmp_path, monkeypatch):
    tfds = pytest.importorskip("tensorflow_datasets")

    def full_disk(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tfds.core.DatasetBuilder, "download_and_prepare", full_disk)
    with pytest.raises(RuntimeError, match=r"coco_captions into .*No space left"):
        data.tfds_coco_captions(data_dir=str(tmp_path), download=True)
