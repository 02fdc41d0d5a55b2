import pytest  # noqa: F401


def pytest_generate_tests(metafunc):
    """Run a decoder battery's tests once per decoder in its `DECODERS`."""
    decoders = getattr(metafunc.cls, "DECODERS", None)
    if decoders and "name" in metafunc.fixturenames:
        metafunc.parametrize("name", list(decoders))
