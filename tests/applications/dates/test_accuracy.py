"""The accuracy claims of docs/dates.md, with the command line's defaults."""

import keras
import pytest

from attention_zoo.applications.dates.config import TrainConfig
from attention_zoo.applications.dates.predictor import Normalizer
from attention_zoo.applications.dates.training import train
from tests.applications.dates.hand_written import read_real_dates

pytestmark = [pytest.mark.slow, pytest.mark.tf_only]


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    if keras.backend.backend() != "tensorflow":
        pytest.skip("the application's reference run uses the TensorFlow backend")
    run = tmp_path_factory.mktemp("dates") / "run"
    metrics = train(run, TrainConfig(), verbose=2)
    return run, metrics


def test_default_model_reaches_99_percent_on_5000_test_dates(trained):
    # The claims of docs/dates.md for the seven-language generator with
    # non-dates (measured with 6 epochs: 99.08 % overall, languages
    # 97.99-99.48 %, the numeric family 94.61 %; with the 10 epochs of today's
    # default: 99.62 % and 99.66 % in two runs, numeric 97.72 % and 97.93 %);
    # the four-language generator reached 100 %.
    _, metrics = trained
    metrics = metrics["test"]
    assert metrics["n"] == 5000
    assert metrics["exact_match"] >= 0.99, metrics["errors"][:10]
    for name, result in metrics["by_language"].items():
        assert result["exact_match"] >= 0.97, (name, result)
    for name, result in metrics["by_family"].items():
        assert result["exact_match"] >= 0.94, (name, result)


def test_default_model_reaches_98_percent_on_the_hand_written_dates(trained):
    run, _ = trained
    rows = read_real_dates()
    normalizer = Normalizer(run)
    isos, *_ = normalizer.scored([text for _, _, text in rows])
    misses = [(text, iso, p) for (iso, _, text), p in zip(rows, isos) if p != iso]
    assert len(misses) <= 0.02 * len(rows), misses
