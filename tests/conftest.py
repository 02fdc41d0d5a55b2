import os
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
# Most of the tests' time on JAX, and much of it in the TensorFlow tests of
# compiled predictors and SavedModels, is XLA compiling small programs. LLVM's
# lowest optimisation level without its expensive passes (the settings of
# JAX's `jax_disable_most_optimizations`) compiles them faster (compile time,
# not numerics: XLA's own HLO passes still run). The CPU backend's older
# fusion emitters compile each small program in about half the time of the
# new ones. On JAX, which compiles every eager operation once per shape and
# dtype and every jitted function once per model instance, a persistent
# compilation cache shared by the pytest-xdist workers (and kept for later
# runs) avoids compiling what another test or the other worker has compiled
# already. docs/design.md gives the measurements.
os.environ.setdefault(
    "XLA_FLAGS",
    "--xla_backend_optimization_level=0 --xla_llvm_disable_expensive_passes=true"
    " --xla_cpu_use_fusion_emitters=false",
)
# The float64 references hold float32 to about 1e-6; on a GPU, JAX's default
# float32 matmul runs at TF32's 10-bit mantissa (about 1e-3 off), which is a
# speed setting of the user's, not what these tests check.
os.environ.setdefault("JAX_DEFAULT_MATMUL_PRECISION", "highest")
if os.environ.get("KERAS_BACKEND") == "torch":
    import torch

    # The same for PyTorch's cuDNN recurrences (its matmuls are full float32
    # unless a user asks otherwise).
    torch.backends.cudnn.allow_tf32 = False
if os.environ.get("KERAS_BACKEND") == "jax":
    cache = Path.home() / ".cache" / "attention_zoo" / "jax-test-compilation-cache"
    os.environ.setdefault("JAX_COMPILATION_CACHE_DIR", str(cache))
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES", "-1")

import keras  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _float32_policy_and_seed():
    """Every test starts from the float32 policy and a fixed seed."""
    keras.config.set_dtype_policy("float32")
    keras.utils.set_random_seed(1234)
    yield
    keras.config.set_dtype_policy("float32")
