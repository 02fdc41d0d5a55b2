"""The names of the decodings an evaluation reports: greedy, beam4, ..."""

from __future__ import annotations


def decoding_name(beam_width: int) -> str:
    """ "greedy" for a beam of 1, "beam{beam_width}" otherwise."""
    return "greedy" if beam_width == 1 else f"beam{beam_width}"


def decodings(metrics: dict) -> list[str]:
    """The decodings an evaluation holds: "greedy", "beam4", ..."""
    return [k for k in metrics if k == "greedy" or k.startswith("beam")]
