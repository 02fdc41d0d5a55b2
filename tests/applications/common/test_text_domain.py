"""The text domain of the translator and the summarizer
(`common.text_domain`): a bigram model of the training sources, contrasted
with another, that flags texts unlike them."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from attention_zoo.applications.common.errors import MalformedFileError
from attention_zoo.applications.common.text_domain import TextDomain

TRAIN = [
    "and he said unto them , go ye into the city",
    "and they went into the city and he said unto them",
    "go ye and say unto the people",
    "and the people went unto the city",
] * 20
VALIDATION = ["and he said unto the people", "go ye into the city"]
OTHER = [
    "please send me the file before the meeting",
    "the file is on my laptop in the city",
    "he said the meeting is at noon",
    "go to the city and send the file",
] * 20
MODERN = Path(__file__).parents[1] / "translation" / "data" / "modern_english.txt"


def modern_english() -> list[str]:
    lines = MODERN.read_text(encoding="utf-8").splitlines()
    return [x for x in lines if x and not x.startswith("#")]


@pytest.fixture(scope="module")
def domain():
    return TextDomain.fit(TRAIN, VALIDATION)


@pytest.fixture(scope="module")
def contrasted():
    background = TextDomain.fit(OTHER, OTHER)
    return TextDomain.fit(TRAIN, VALIDATION + TRAIN[:4], background, 1.0)


def test_texts_like_the_training_texts_are_in_the_domain(domain):
    assert domain.reason("and he said unto them") == ""
    assert domain.reason("go ye into the city") == ""


def test_names_never_seen_are_no_unseen_words(domain):
    assert domain.unseen_share("and Hathach said unto Mehuman") == 0
    assert domain.unseen_share("and hathach said unto mehuman") == 0.4
    assert domain.unseen_share("Hathach said") == 0  # the first word too


def test_unseen_words_and_unlike_orders_are_named(domain):
    assert "never occur in the training texts" in domain.reason("my laptop crashed")
    assert "unlike the training texts" in domain.reason("city the unto said he and")


def test_surprisal_matches_a_hand_computed_bigram_model(domain):
    # "go ye": one transition after the first word is left (go -> ye).
    go, ye = domain.index["go"], domain.index["ye"]
    history = domain.counts[go]
    seen = domain.bigrams[(go, ye)]
    size = len(domain.words) + 1
    unigram = (domain.counts[ye] + 0.1) / (domain.tokens + 0.1 * size)
    p = (seen - 0.75) / history + (history - domain.kept[go]) / history * unigram
    assert math.isclose(domain.surprisal("go ye"), -math.log(p), rel_tol=1e-12)


def test_contrast_sums_the_log_ratios_of_the_inner_words_but_names(contrasted):
    background = contrasted.background
    words = ["and", "he", "said", "unto", "hathach", "the", "people"]
    here, there = contrasted.log_probs(words), background.log_probs(words)
    # Transitions 1..6 predict "he" .. "people"; "Hathach" (4) is a name.
    expected = sum(there[k] - here[k] for k in (1, 2, 3, 5, 6))
    got = contrasted.contrast("And he said unto Hathach the people")
    assert math.isclose(got, expected, rel_tol=1e-12)
    assert math.isclose(
        contrasted.contrast("and he said unto hathach the people"),
        expected + there[4] - here[4],
        rel_tol=1e-12,
    )
    assert math.isinf(TextDomain.fit(TRAIN, VALIDATION).contrast("go ye"))


def test_text_more_like_the_background_is_refused_for_its_evidence(contrasted):
    assert contrasted.contrast(TRAIN[1]) < 0
    assert contrasted.reason(TRAIN[1]) == ""
    # Every word and bigram seen in training, but more likely in the
    # background: only the contrast tells.
    text = "he said unto the city"
    assert contrasted.surprisal(text) <= contrasted.max_surprisal
    assert contrasted.unseen_share(text) == 0
    assert contrasted.contrast(text) > contrasted.max_contrast
    assert "too little evidence of the training texts" in contrasted.reason(text)


def test_a_background_is_only_a_model(contrasted):
    again = TextDomain.fit(TRAIN, VALIDATION, contrasted, 0.9)
    assert again.background.background is None
    with pytest.raises(ValueError, match="contrast_quantile"):
        TextDomain.fit(TRAIN, VALIDATION, contrasted, 0.0)


@pytest.mark.parametrize("which", ["domain", "contrasted"])
def test_a_saved_domain_loads_alike(which, request, tmp_path):
    domain = request.getfixturevalue(which)
    domain.save(tmp_path / "domain.json")
    loaded = TextDomain.load(tmp_path / "domain.json")
    texts = ["and he said unto them", "my laptop crashed", "go", "the file is on"]
    for text in texts:
        assert loaded.surprisal(text) == domain.surprisal(text)
        assert loaded.contrast(text) == domain.contrast(text)
        assert loaded.reason(text) == domain.reason(text)


@pytest.mark.parametrize(
    "change",
    [
        lambda c: c.update(max_surprisal=float("nan")),
        lambda c: c.update(max_surprisal="6"),
        lambda c: c.update(counts=c["counts"][:-1]),
        lambda c: c.update(bigrams=[[0, 10**6, 3]]),
        lambda c: c.update(words=["x", *c["words"][1:]]),
        lambda c: c.pop("words"),
        lambda c: c.update(max_contrast=float("inf")),
        lambda c: c.pop("max_contrast"),
        lambda c: c["background"].update(counts=[1]),
        lambda c: c["background"].update(bigrams=[[0, 10**6, 3]]),
        lambda c: c.update(background="debian_synopsis"),
    ],
    ids=[
        "nan",
        "string",
        "short-counts",
        "bigram-out-of-range",
        "no-start",
        "no-words",
        "infinite-contrast",
        "no-contrast-threshold",
        "short-background-counts",
        "background-bigram-out-of-range",
        "background-by-name",
    ],
)
def test_a_damaged_domain_file_is_refused_naming_it(contrasted, tmp_path, change):
    path = tmp_path / "domain.json"
    contrasted.save(path)
    content = json.loads(path.read_text(encoding="utf-8"))
    change(content)
    path.write_text(json.dumps(content), encoding="utf-8")
    with pytest.raises(MalformedFileError, match="domain.json"):
        TextDomain.load(path)


@pytest.mark.tf_only
@pytest.mark.parametrize("which", ["domain", "contrasted"])
def test_the_graph_twin_agrees_with_python(which, request):
    domain = request.getfixturevalue(which)
    import tensorflow as tf

    from attention_zoo.applications.common.text import cased_tokens, normalize
    from attention_zoo.applications.common.text_domain_graph import GraphDomain

    texts = [
        "and he said unto them",
        "go",
        "",
        "my laptop crashed",
        "city the unto said he and",
        "And he said unto them, go ye into the city.",
        "And Hathach said unto them",
        "and hathach said unto them",
        "he said unto the city",
        "And he said unto Hathach the people",
        "Please send me the file.",
        "please send me the file",
        # Hostile text: NUL, control characters, direction marks, odd case.
        "\x00And he said\x00 unto them",
        "and \x01he\x7f said",
        "\u200fAnd he said unto them\u200e",
        "ＡＮＤ he said ǅ ß İ",
        "and " * 200 + "them",
    ] + modern_english()[:20]
    words = tf.strings.split(tf.constant([normalize(t) for t in texts]))
    cased = tf.strings.split(tf.constant([" ".join(cased_tokens(t)) for t in texts]))
    got = GraphDomain(domain).in_domain(words, cased).numpy().tolist()
    assert got == [domain.in_domain(t) for t in texts]


def test_the_shipped_translator_flags_modern_english():
    """The measured figures of `python -m benchmarks.domain`, as floors."""
    from attention_zoo.applications.translation.predictor import Translator

    translator = Translator.from_preset("bible_en_es")
    assert translator.domain is not None
    modern = modern_english()
    flagged = np.mean([bool(translator.domain.reason(t)) for t in modern])
    assert flagged >= 0.95, flagged
    slice_ = json.loads(
        (translator.run_dir / "test_slice.json").read_text(encoding="utf-8")
    )
    verses = [p["source"] if isinstance(p, dict) else p[0] for p in slice_]
    valid = np.mean([translator.domain.reason(v) == "" for v in verses])
    assert valid >= 0.97, valid


def test_the_shipped_summarizer_flags_modern_english():
    """The measured figures of `python -m benchmarks.domain`, as floors: the
    summarizer's domain alone (its score and vocabulary checks add to it)."""
    from attention_zoo.applications.summarization.predictor import Summarizer

    summarizer = Summarizer.from_preset("debian_synopsis")
    assert summarizer.domain.background is not None
    flagged = np.mean([bool(summarizer.domain.reason(t)) for t in modern_english()])
    assert flagged >= 0.95, flagged
    slice_ = json.loads(
        (summarizer.run_dir / "test_slice.json").read_text(encoding="utf-8")
    )
    texts = [p["text"] if isinstance(p, dict) else p[0] for p in slice_]
    valid = np.mean([summarizer.domain.reason(t) == "" for t in texts])
    assert valid >= 0.97, valid
