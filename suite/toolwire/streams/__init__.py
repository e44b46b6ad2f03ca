"""Streams, harness side: SSE framing (:mod:`.sse`), stream payloads (:mod:`.payload`), one folder per dialect
holding its grammar, accumulator and re-chunker side by side (``<dialect>/grammar.py``, ``accumulate.py``,
``rechunk.py``)
over the shared engines (:mod:`.grammar`, :mod:`.accumulate`), found by name in :mod:`.dialects`;
re-chunking (:mod:`.rechunk`) and the incrementality measure (:mod:`.incremental`). Payload model:
``corpus/RULES.md, "Streams"``. Per-event wire validation is :mod:`toolwire.corpus.stream_wire`; judging a
``stream`` check is :mod:`toolwire.judge.streams`. Imports nothing of the harness but
:mod:`toolwire.jsonvalue` and :mod:`toolwire.paths`."""

from .dialects import accumulate, check_stream, rechunk
from .grammar import Violation
from .incremental import measure
from .payload import StreamError, events_from_jsonl, stream_events
from .rechunk import STRATEGIES
from .sse import events_from_sse, sse_from_events

__all__ = [
    "STRATEGIES",
    "StreamError",
    "Violation",
    "accumulate",
    "check_stream",
    "events_from_jsonl",
    "events_from_sse",
    "measure",
    "rechunk",
    "sse_from_events",
    "stream_events",
]
