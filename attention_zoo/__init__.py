"""attention-zoo: Keras 3 attention mechanisms, decoders and applications.

Importing the package registers every layer, loss and metric with Keras
serialization, so a `.keras` file that uses them loads after
`import attention_zoo`.

The `attention-zoo` command is the exception: it imports the package
without Keras, so that `--help`, `--version` and an argument error answer
at once, and imports what a model needs only when a task needs one. Its
public names are then loaded on first use (PEP 562 `__getattr__`), the
same names either way.
"""

# ruff: noqa: E402 (the imports below come after the start-up call on purpose)

# Before anything imports Keras, which imports TensorFlow: its log lines stay
# off standard error unless ATTENTION_ZOO_VERBOSE=1 (attention_zoo/_quiet.py).
from attention_zoo import _quiet

_quiet.install()

from attention_zoo import _lazy, _quiet_startup
from attention_zoo.version import __version__

_SUBMODULES = ("decoders", "decoding", "encoders", "layers", "losses", "metrics", "ops")
# The public names of the package, and the module each comes from.
_ORIGINS = {
    **{name: f"attention_zoo.{name}" for name in _SUBMODULES},
    **{
        name: f"attention_zoo.{module}"
        for module, names in {
            "decoders": (
                "AttentionRNNDecoder",
                "ParallelAttentionDecoder",
                "PointerGenerator",
                "ShowAttendTellDecoder",
            ),
            "encoders": ("BidirectionalRNNEncoder",),
            "layers": (
                "BahdanauAttention",
                "BaseAttention",
                "CoverageAttention",
                "LocalAttention",
                "LocationSensitiveAttention",
                "LuongAttention",
                "MonotonicAttention",
                "MonotonicChunkwiseAttention",
            ),
            "losses": (
                "CoverageLoss",
                "DoublyStochasticAttentionLoss",
                "MaskedSequenceCrossEntropy",
            ),
            "metrics": ("MaskedTokenAccuracy", "SequenceExactMatch"),
        }.items()
        for name in names
    },
}

__all__ = [
    "AttentionRNNDecoder",
    "BahdanauAttention",
    "BaseAttention",
    "BidirectionalRNNEncoder",
    "DoublyStochasticAttentionLoss",
    "CoverageAttention",
    "CoverageLoss",
    "LocalAttention",
    "LocationSensitiveAttention",
    "LuongAttention",
    "MaskedSequenceCrossEntropy",
    "MaskedTokenAccuracy",
    "MonotonicAttention",
    "MonotonicChunkwiseAttention",
    "ParallelAttentionDecoder",
    "PointerGenerator",
    "SequenceExactMatch",
    "ShowAttendTellDecoder",
    "__version__",
    "decoders",
    "decoding",
    "encoders",
    "layers",
    "losses",
    "metrics",
    "ops",
]


__getattr__, __dir__ = _lazy.attributes(__name__, _ORIGINS, globals())

if _quiet_startup.running_as_command():
    _quiet_startup.check_backend()
else:
    # A library user's import registers every public class with Keras
    # serialization now, as the package always has.
    for _name in _ORIGINS:
        __getattr__(_name)
    del _name
