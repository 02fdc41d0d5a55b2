"""What every entry point refuses of an input before a model reads it.

Apart from `predictor.py` (which imports Keras) so that the command line's
argument checks and its line reader load without Keras
(docs/reliability.md, "The command answers at once").
"""

from __future__ import annotations

# Characters of one text input that any entry point reads (the command
# line's lines, the server's texts): a paragraph, more than every model
# reads (dates 64 characters, translation 128 words, summarization 80
# words); a longer input is refused as too long before it costs memory.
MAX_INPUT_CHARS = 5_000


class InputError(ValueError):
    """An input the command line refuses, with the reason."""
