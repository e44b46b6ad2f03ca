"""Streams (issue 4, harness side): SSE framing (:mod:`.sse`), a grammar per dialect (:mod:`.grammar` and
``grammar_<dialect>``), accumulators (:mod:`.accumulate`), re-chunking (:mod:`.rechunk`), the
incrementality measure (:mod:`.incremental`), per-event wire validation (:mod:`.validate`) and the judging
of ``stream`` checks (:mod:`.judge`). Payload model: ``corpus/RULES.md, "Streams"``."""

from .accumulate import accumulate
from .grammar import Violation, check_stream
from .incremental import measure
from .payload import StreamError, events_from_jsonl, stream_events
from .rechunk import STRATEGIES, rechunk
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
