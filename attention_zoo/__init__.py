"""attention-zoo: Keras 3 attention mechanisms, decoders and applications.

Importing the package registers every layer, loss and metric with Keras
serialization, so a `.keras` file that uses them loads after
`import attention_zoo`.
"""

# ruff: noqa: E402 (the imports below come after the start-up calls on purpose)

# Before anything imports Keras, which imports TensorFlow: its log lines stay
# off standard error unless ATTENTION_ZOO_VERBOSE=1 (attention_zoo/_quiet.py).
from attention_zoo import _quiet

_quiet.install()

from attention_zoo import _quiet_startup

if _quiet_startup.running_as_command():
    _quiet_startup.start_command()

from attention_zoo import (
    decoders,
    decoding,
    encoders,
    layers,
    losses,
    metrics,
    ops,
)
from attention_zoo.decoders import (
    AttentionRNNDecoder,
    ParallelAttentionDecoder,
    PointerGenerator,
    ShowAttendTellDecoder,
)
from attention_zoo.encoders import BidirectionalRNNEncoder
from attention_zoo.layers import (
    BahdanauAttention,
    BaseAttention,
    CoverageAttention,
    LocalAttention,
    LocationSensitiveAttention,
    LuongAttention,
    MonotonicAttention,
    MonotonicChunkwiseAttention,
)
from attention_zoo.losses import (
    CoverageLoss,
    DoublyStochasticAttentionLoss,
    MaskedSequenceCrossEntropy,
)
from attention_zoo.metrics import MaskedTokenAccuracy, SequenceExactMatch
from attention_zoo.version import __version__

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
