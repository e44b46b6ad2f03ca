"""Mistral streams: the grammar (:mod:`.grammar`) and the accumulator (:mod:`.accumulate`), side by side:
OpenAI Chat's, with each tool call whole in one delta."""

from .accumulate import ACCUMULATOR
from .grammar import GRAMMAR

__all__ = ["ACCUMULATOR", "GRAMMAR"]
