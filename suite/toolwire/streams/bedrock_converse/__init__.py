"""Bedrock ConverseStream streams (decoded event-stream frames): the grammar (:mod:`.grammar`), the
accumulator (:mod:`.accumulate`) and the re-chunker (:mod:`.rechunk`), side by side."""

from .accumulate import ACCUMULATOR
from .grammar import GRAMMAR
from .rechunk import RECHUNKER

__all__ = ["ACCUMULATOR", "GRAMMAR", "RECHUNKER"]
