"""The README's two presets served as a user starts them: progress lines
while loading, every option a request may ask for answered after ready
without a compilation, the background warm-up compiling the other
shapes, and answers through a padded shape equal to the predictor's own."""

import time

import numpy as np
import pytest

from tests.serving.live import call, serve

pytestmark = pytest.mark.tf_only

# Batches of 1 and 2: a request of 3 runs through shapes padded or split,
# and the background warm-up has few shapes to compile.
MAX_BATCH = "2"
TEXTS = [
    "In the beginning God created the heaven and the earth.",
    "And God said, Let there be light: and there was light.",
    "Jesus wept.",
]
# Every option a request may ask the translator for (its own beam width
# is 4: /v1/models).
OPTIONS = [
    {},
    {"beam_width": 1},
    {"beam_width": 4},
    {"n_best": True},
    {"beam_width": 1, "n_best": True},
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    cache = tmp_path_factory.mktemp("compiled")
    flags = ["--preset", "dates_multilingual", "bible_en_es", "--max-batch", MAX_BATCH]
    env = {"ATTENTION_ZOO_COMPILATION_CACHE": str(cache)}
    # Two models and five searches compiled: minutes on a machine shared
    # with other work (docs/benchmarks.md, "Serving: time to ready").
    for process, url in serve(*flags, env=env, seconds=900):
        lines = []
        while not lines or "ready in" not in lines[-1]:
            lines.append(process.stderr.readline())
            assert lines[-1], "the server's standard error ended before ready"
        yield url, [line for line in lines if line.startswith("attention-zoo serve:")]


def models(url) -> dict:
    return {m["app"]: m for m in call(f"{url}/v1/models")[1]["models"]}


def test_loading_and_warming_say_what_they_did_with_seconds(server):
    _, lines = server
    said = "".join(lines)
    assert "dates (preset dates_multilingual): loaded in " in said
    assert "translation (preset bible_en_es): loaded in " in said
    assert "translation: every search compiled at one shape in " in said
    assert "beam_width=1 n_best" in said
    assert lines[-1].startswith("attention-zoo serve: ready in ")
    assert all(" s" in line for line in lines if "compiled" in line or "loaded" in line)


def test_every_option_is_answered_without_a_compilation(server):
    url, _ = server
    for options in OPTIONS:
        status, body = call(
            f"{url}/v1/translation/predict", {"inputs": TEXTS, **options}
        )
        assert status == 200, (options, body)
        assert len(body["answers"]) == 3
        assert ("n_best" in body["answers"][0]) == bool(options.get("n_best"))
    assert call(f"{url}/v1/dates/predict", {"inputs": ["3 May 1979"] * 3})[0] == 200
    for app, described in models(url).items():
        assert described["compiled_on_request"] == 0, app


def test_the_background_compiles_the_other_shapes(server):
    url, _ = server
    # The date normalizer's one search, at 1 row before ready, then 2.
    deadline = time.monotonic() + 300
    while models(url)["dates"]["compiled_shapes"] < 2:
        assert time.monotonic() < deadline, models(url)["dates"]
        time.sleep(0.5)
    assert call(f"{url}/v1/dates/predict", {"inputs": ["3 May 1979"] * 2})[0] == 200
    assert models(url)["dates"]["compiled_on_request"] == 0


def test_answers_through_compiled_shapes_are_the_predictors_own(server):
    from attention_zoo.applications import registry

    url, _ = server
    expected = registry.from_preset("bible_en_es")(TEXTS)  # its own shapes
    status, body = call(f"{url}/v1/translation/predict", {"inputs": TEXTS})
    assert status == 200
    for answer, item in zip(body["answers"], expected):
        assert answer["output"] == item["text"]
        np.testing.assert_allclose(answer["score"], item["score"], rtol=1e-4, atol=1e-5)
