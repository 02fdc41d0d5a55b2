"""The accuracy claim of docs/dates.md, with the command line's defaults."""

import keras
import pytest

from attention_zoo.applications.dates import tasks


@pytest.mark.slow
@pytest.mark.tf_only
def test_default_model_reaches_99_9_percent_on_5000_test_dates(tmp_path):
    if keras.backend.backend() != "tensorflow":
        pytest.skip("the application's reference run uses the TensorFlow backend")
    metrics = tasks.train(tmp_path / "run", tasks.TrainConfig(), verbose=2)
    assert metrics["n"] == 5000
    assert metrics["exact_match"] >= 0.999, metrics["errors"][:10]
    for group in ("by_language", "by_family"):
        for name, result in metrics[group].items():
            assert result["exact_match"] >= 0.99, (group, name, result)
