import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import keras  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _float32_policy_and_seed():
    """Every test starts from the float32 policy and a fixed seed."""
    keras.config.set_dtype_policy("float32")
    keras.utils.set_random_seed(1234)
    yield
    keras.config.set_dtype_policy("float32")


def pytest_generate_tests(metafunc):
    """Run a battery class's tests once per mechanism in its `MECHANISMS`."""
    mechanisms = getattr(metafunc.cls, "MECHANISMS", None)
    if mechanisms and "name" in metafunc.fixturenames:
        metafunc.parametrize("name", list(mechanisms))
