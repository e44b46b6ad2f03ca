"""Bedrock ConverseStream streams (decoded event-stream frames): the grammar (:mod:`.grammar`)
and the accumulator (:mod:`.accumulate`), side by side."""

from .accumulate import ACCUMULATOR
from .grammar import GRAMMAR

__all__ = ["ACCUMULATOR", "GRAMMAR"]
