"""Greedy search, sampling and beam search over a step function."""

from attention_zoo.decoding.search import (
    beam_search,
    best_hypothesis,
    coverage_penalty,
    greedy_search,
    length_penalty,
    sample,
)
from attention_zoo.decoding.step import make_step_fn

__all__ = [
    "beam_search",
    "best_hypothesis",
    "coverage_penalty",
    "greedy_search",
    "length_penalty",
    "make_step_fn",
    "sample",
]
