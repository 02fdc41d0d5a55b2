"""attention-zoo: Keras 3 attention mechanisms, decoders and applications.

Importing the package registers every layer with Keras serialization, so a
`.keras` file that uses them loads after `import attention_zoo`.
"""

from attention_zoo import layers, ops
from attention_zoo.layers import BahdanauAttention, BaseAttention, LuongAttention
from attention_zoo.version import __version__

__all__ = [
    "BahdanauAttention",
    "BaseAttention",
    "LuongAttention",
    "__version__",
    "layers",
    "ops",
]
