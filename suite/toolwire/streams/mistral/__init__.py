"""Mistral streams: the grammar (:mod:`.grammar`), the accumulator (:mod:`.accumulate`) and the re-chunker
(:mod:`.rechunk`), side by side:
OpenAI Chat's, with each tool call whole in one delta."""

from .accumulate import ACCUMULATOR
from .grammar import GRAMMAR
from .rechunk import RECHUNKER

__all__ = ["ACCUMULATOR", "GRAMMAR", "RECHUNKER"]
