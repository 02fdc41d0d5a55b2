import pytest


@pytest.fixture(scope="session")
def summarizer():
    """The shipped summarizer, loaded once for the rule tests that ask it."""
    from attention_zoo.applications.summarization.predictor import Summarizer

    return Summarizer.from_preset("debian_synopsis")
