"""A trained captioning run: images in, captions and attention out.

Documented rules for inputs (CLI, `Captioner` and the SavedModel): an image
is decoded as RGB (alpha dropped, grayscale replicated, the first frame of
an animation) and resized to the encoder's square input, aspect ratio not
kept; empty or undecodable bytes and images of more than `MAX_PIXELS`
pixels are refused (the CLI exits with an error naming the file; the
SavedModel returns an empty caption, zero attention and `valid=False` for
that element and captions the rest).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from attention_zoo import image_codec
from attention_zoo.applications.captioning import model as models
from attention_zoo.applications.captioning.config import TrainConfig
from attention_zoo.applications.captioning.domain import (
    DOMAIN_FILE,
    ImageDomain,
    pooled,
)
from attention_zoo.applications.captioning.features import (
    build_encoder,
    image_array,
    rgb_array,
)
from attention_zoo.applications.common import InputError, RunPredictor, output_folder
from attention_zoo.applications.common.config import saved_config
from attention_zoo.applications.common.errors import quoted_path
from attention_zoo.applications.common.search import ranking_scores
from attention_zoo.applications.common.text import (
    WordVocabulary,
    detokenize,
)

MAX_PIXELS = image_codec.MAX_PIXELS


class Captioner(RunPredictor):
    """A trained run: images in, captions and attention out."""

    app = "captioning"
    required_files = ("model.keras", "encoder.keras", "config.json", "vocabulary.json")
    optional_files = (DOMAIN_FILE,)

    def __init__(self, run_dir, beam_width: int | None = None):
        super().__init__(run_dir)
        # The config first: a damaged config.json is named before the models
        # it describes are read.
        with self.reading("config.json"):
            self.image_size = int(self.config["resolved_image_size"])
            self.grid_shape = tuple(self.config["grid_shape"])
            self.max_length = int(self.config["max_caption_length"])
            self.beam_width = beam_width or self.config["beam_width"]
        self.vocabulary = WordVocabulary.load(self.run_dir / "vocabulary.json")
        self.load_models()
        domain = self.run_dir / DOMAIN_FILE
        # A run trained before the domain was kept has none: every image is
        # in it, as before.
        self.domain = (
            ImageDomain.load(domain, self.feature_channels())
            if domain.is_file()
            else None
        )

    def load_models(self) -> None:
        """`encoder` and `model`: the run's encoder and caption model,
        checked against its vocabulary (an exported captioner has neither:
        `export.ExportedCaptioner`)."""
        encoder = self.read_model_file("encoder.keras")
        model = self.read_model_file(model_names=("captioner",))
        self.check_sizes(
            model,
            {"vocabulary.json": (len(self.vocabulary), ("word_embedding", "logits"))},
        )
        self.encoder, self.model = encoder, model

    def feature_channels(self) -> int:
        """The channels `C` of the encoder's features `(L, C)`."""
        return int(self.model.get_layer("features").output.shape[-1])

    def rebuilt_models(self) -> dict:
        """The encoder, when it is the frozen EfficientNet-Lite0 with the
        ImageNet weights the package reads offline: a preset stores only the
        decoder's weights."""
        config = self.config
        frozen = not config.get("fine_tune_blocks")
        offline = config.get("backbone") == "efficientnet_lite0" and (
            str(config.get("weights")).lower() == "imagenet"
        )
        if not (frozen and offline):
            return {}
        settings = saved_config(TrainConfig, config)
        return {"encoder.keras": lambda: build_encoder(settings)}

    def encode_function(self):
        """The compiled encoder: images `(B, S, S, 3)` to features `(B, L, C)`."""
        # No XLA for the encoder: see `captioning.model.compiled`.
        return self.compiled(
            "encode",
            lambda: lambda x: self.encoder(x, training=False),
            (self.image_size, self.image_size, 3),
            jit_compile=False,
        )

    def search_function(self, beam_width: int, keep_beams: bool = False):
        """The compiled decoding function: features to tokens and attention
        (every hypothesis with `keep_beams`)."""
        return self.compiled(
            (beam_width, keep_beams) if keep_beams else beam_width,
            lambda: models.make_caption_fn(
                self.model,
                self.max_length,
                beam_width=beam_width,
                alpha=self.config["alpha"] if beam_width > 1 else 0.0,
                keep_beams=keep_beams,
            ),
            tuple(self.model.get_layer("features").output.shape[1:]),
        )

    def caption_features(
        self, features, beam_width=None, batch_size: int = 64, n_best: bool = False
    ):
        """Captions, attention `(T, L)` and scores (log-probability per
        token) per row of cached features; with `n_best`, then the n-best
        list of each (`_run`)."""
        fn = self.search_function(beam_width or self.beam_width, n_best)
        return self._run(
            fn, features, batch_size, lambda b: b.astype("float32"), n_best
        )

    def caption_images(self, images, beam_width=None, batch_size: int = 32):
        """Captions, attention and scores for the images `rgb_array` reads."""
        fn, encode = self.search_function(beam_width or self.beam_width), self.encode_function()
        return self._run(
            lambda x: fn(encode(x)),
            list(images),
            batch_size,
            lambda b: np.stack([image_array(i, self.image_size) for i in b]),
        )

    def check(self, image) -> None:
        """Raise `InputError` for an image that cannot be read: a path that
        is no image file, bytes that do not decode, an array of another shape."""
        if isinstance(image, (str, Path)):
            read_image_file(image)
            return
        try:
            rgb_array(image)
        except ValueError as error:
            raise InputError(str(error)) from None

    def predict_items(
        self,
        inputs,
        beam_width: int | None = None,
        batch_size: int = 32,
        n_best: bool = False,
    ) -> list[dict]:
        """`{"text", "score", "valid", "reason", "notes", "distance",
        "tokens", "attention"}` per image (`notes` empty: an image is read
        whole or refused by `check`).

        The captioner's one prediction path (`RunPredictor.__call__`).
        Images are file paths, encoded bytes, PIL images or arrays
        (`features.rgb_array`); one `(H, W)` or `(H, W, C)` array or one PIL
        image is one image. `text` is the caption detokenised (`common.text`),
        `tokens` its words; `score` is the search's log-probability of the
        caption per token (`<end>` included); `valid` is False, with the `reason`, for an
        image unlike the training images (`domain`, its `distance`) or a
        caption without a word.

        Args:
            inputs: the images.
            beam_width: 1 for greedy search; default: the run's.
            batch_size: images encoded and captioned at once.
            n_best: add `n_best`, every hypothesis of the search in its
                order (best first by its length-penalized score,
                `ranking_score`): `{"text", "score", "ranking_score"}` each
                (one under greedy search).
        """
        if not isinstance(n_best, bool):
            raise TypeError(f"`n_best` must be a bool. Received: n_best={n_best!r}")
        if (hasattr(inputs, "ndim") and inputs.ndim in (2, 3)) or hasattr(
            inputs, "mode"
        ):
            inputs = [inputs]
        images = [rgb_array(i) for i in inputs]
        if not images:
            return []
        captions, attention, scores, means, alternatives = self.answer_images(
            images, beam_width, batch_size, n_best
        )
        distances = self.distances(means)
        items = [
            {
                "text": detokenize(caption.split()),
                "score": score,
                "valid": not self.reason(caption, distance),
                "reason": self.reason(caption, distance),
                # Every application's answer has notes; an image read at
                # all is read whole, so the captioner's are empty.
                "notes": [],
                "distance": distance,
                "tokens": caption.split(),
                "attention": weights,
            }
            for caption, weights, score, distance in zip(
                captions, attention, scores, distances
            )
        ]
        for item, more in zip(items, alternatives or ()):
            item["n_best"] = more
        return items

    def answer_images(self, images, beam_width, batch_size: int, n_best=False):
        """Hook: captions, attention `(T, L)` and scores per image (`_run`),
        the images' pooled features `(N, C)` (`domain.pooled`), and the
        n-best list of each image with `n_best` (else None), of RGB arrays
        (an exported captioner runs its core instead:
        `export.ExportedCaptioner`)."""
        # Encoded once: the features give the captions and the distances.
        features = np.concatenate(
            [
                batch[1]
                for batch in self.run_batches(
                    lambda x: (self.encode_function()(x),),
                    images,
                    batch_size,
                    lambda b: np.stack([image_array(i, self.image_size) for i in b]),
                )
            ]
        )
        captions, attention, scores, *alternatives = self.caption_features(
            features, beam_width, batch_size, n_best
        )
        return (
            captions, attention, scores, pooled(features),
            alternatives[0] if alternatives else None,
        )  # fmt: skip

    def distances(self, means) -> list[float]:
        """Each image's distance to the training images (`domain`) from its
        pooled features `(N, C)`, 0 without a domain file."""
        if self.domain is None:
            return [0.0] * len(means)
        return [float(d) for d in self.domain.distances(means)]

    def reason(self, caption: str, distance: float) -> str:
        """Why a caption is not valid ("" when it is)."""
        if self.domain is not None and self.domain.reason(distance):
            return self.domain.reason(distance)
        if not caption:
            return "the model wrote no word"
        return ""

    def _run(self, fn, inputs, batch_size, prepare, n_best: bool = False):
        """Captions, attention and scores of `fn`'s search over `inputs`;
        with `n_best` (a search that kept its beams), the best of each and
        then its n-best list, `{"text", "score", "ranking_score"}` per
        hypothesis (`search.ranking_scores`)."""
        captions, attention, scores, alternatives = [], [], [], []
        batches = self.run_batches(fn, inputs, batch_size, prepare)
        for _, tokens, weights, row_scores in batches:
            if n_best:
                # The search's penalty: `search_function`'s, none for greedy.
                alpha = self.config["alpha"] if tokens.shape[1] > 1 else 0.0
                for row, beam_scores in zip(tokens, row_scores):
                    texts = [self.vocabulary.decode(r) for r in row]
                    ranking = ranking_scores(beam_scores, row, alpha)
                    alternatives.append(
                        [
                            {
                                "text": detokenize(t.split()),
                                "score": float(s) if np.isfinite(s) else None,
                                "ranking_score": (
                                    float(k) if np.isfinite(s) else None
                                ),
                            }
                            for t, s, k in zip(texts, beam_scores, ranking)
                        ]
                    )
                tokens, weights, row_scores = (
                    tokens[:, 0], weights[:, 0], row_scores[:, 0]
                )  # fmt: skip
            more = self.captions(tokens, weights, row_scores)
            for mine, theirs in zip((captions, attention, scores), more):
                mine.extend(theirs)
        if n_best:
            return captions, attention, scores, alternatives
        return captions, attention, scores

    def captions(self, tokens, attention, scores):
        """The captions, attention `(words + 1, L)` (the `<end>` row last;
        one row for no word) and float scores of a search's batch."""
        captions, weights = [], []
        for row, w in zip(tokens, attention):
            caption = self.vocabulary.decode(row)
            captions.append(caption)
            weights.append(w[: len(caption.split()) + 1] if caption else w[:1])
        return captions, weights, [float(s) for s in scores]


def read_image_file(path) -> bytes:
    """The bytes of an image file; InputError if it cannot be read as one,
    its path quoted at most `MAX_QUOTED` characters, its end kept
    (`quoted_path`)."""
    name = quoted_path(path)
    path = Path(path)
    try:
        if path.is_dir():
            raise InputError(f"{name} is a folder, not an image file")
        if not path.is_file():
            raise InputError(f"image file not found: {name}")
        content = path.read_bytes()
    except OSError as error:  # a name too long, a file it may not read
        # The error's own text repeats the path whole: its cause only.
        raise InputError(
            f"{name}: cannot read it ({error.strerror or type(error).__name__})"
        ) from None
    try:
        image_codec.decode_image(content)
    except ValueError as error:
        raise InputError(f"{name}: {error}") from None
    return content


def plot(run_dir, images, output_dir, beam_width=None, captioner=None) -> list[Path]:
    """One PNG per image: the image, then each word with its attention overlay."""
    from attention_zoo.plotting import save_image_attention_plot

    output_dir = output_folder(output_dir)
    captioner = captioner or Captioner(run_dir, beam_width=beam_width)
    images = [read_image_file(i) if isinstance(i, (str, Path)) else i for i in images]
    captions, attention, _ = captioner.caption_images(images, beam_width)
    paths = []
    for i, (image, text, weights) in enumerate(zip(images, captions, attention)):
        # A caption cut at max_caption_length has no <end>.
        words = [*text.split(), "<end>"][: len(weights)]
        path = output_dir / f"attention_{i}.png"
        save_image_attention_plot(
            path,
            image_array(image, captioner.image_size).astype("uint8"),
            words,
            weights,
            captioner.grid_shape,
        )
        paths.append(path)
    return paths
