"""The names `train --model` and `--attention` accept, without Keras.

`model.py` builds what they name (`MODELS`, `ATTENTIONS`); the names live
here so that `config.py`, whose fields are the `train` flags, loads without
Keras and `attention-zoo dates train --help` answers at once
(docs/reliability.md, "The command answers at once").
"""

MODELS = ("default", "classic")

# The keys of `model.ATTENTIONS`, in its order (a test holds them equal).
ATTENTION_NAMES = (
    "bahdanau",
    "luong",
    "local-m",
    "local-p",
    "location",
    "coverage",
    "monotonic",
    "mocha",
    "bahdanau+luong",
)
