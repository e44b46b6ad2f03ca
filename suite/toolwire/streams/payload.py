"""Stream payloads: a list of ``{"event"?, "data"}`` events, or ``{"sse": "<raw SSE text>"}`` (framing
cases), per ``corpus/RULES.md, "Streams"``; and the framing-stripped ``*.chunks.jsonl`` recordings."""

from __future__ import annotations

import json
from typing import Any

from ..descriptors import descriptor
from .sse import events_from_sse

__all__ = [
    "StreamError",
    "events_from_eventstream_jsonl",
    "events_from_jsonl",
    "stream_events",
]


def _named_events(dialect: str) -> bool:
    """Whether ``dialect``'s SSE messages carry an event name (equal to ``data.type``): its descriptor's
    ``stream_framing`` (``event_names`` over ``sse``)."""
    framing = descriptor(dialect).get("stream_framing") or {}
    return framing.get("transport") == "sse" and framing.get("event_names") is True


class StreamError(Exception):
    """A stream cannot be read or accumulated: ``code`` is ``stream.truncated`` or ``stream.invalid_event``;
    ``index`` is the event's position (None: the stream as a whole)."""

    def __init__(self, code: str, message: str, index: int | None = None) -> None:
        super().__init__(message if index is None else f"event {index}: {message}")
        self.code = code
        self.message = message
        self.index = index


def stream_events(payload: Any) -> list[dict[str, Any]]:
    """The event list of a stream payload (a list as is; ``{"sse": text}`` parsed)."""
    if isinstance(payload, dict) and set(payload) == {"sse"} and isinstance(payload["sse"], str):
        try:
            return events_from_sse(payload["sse"])
        except ValueError as exc:
            raise StreamError("stream.invalid_event", str(exc)) from exc
    if isinstance(payload, list):
        return payload
    raise StreamError("stream.invalid_event", 'a stream payload is a list of events or {"sse": "<text>"}')


def events_from_jsonl(text: str, dialect: str) -> list[dict[str, Any]]:
    """Events of a recording that kept one ``data`` JSON per line (vercel/ai ``*.chunks.txt``,
    ``framing-stripped`` in corpus/captures/provenance.json): the event names the SSE framing carried are
    restored as ``data.type`` for the dialects that send them (Anthropic, Responses), and the terminator
    (``stream_framing.terminator`` of the dialect's descriptor: ``[DONE]``) after the last line."""
    named = _named_events(dialect)
    events: list[dict[str, Any]] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        data = json.loads(line)
        if named and isinstance(data, dict) and isinstance(data.get("type"), str):
            events.append({"event": data["type"], "data": data})
        else:
            events.append({"data": data})
    terminator = (descriptor(dialect).get("stream_framing") or {}).get("terminator")
    if terminator and events and events[-1]["data"] != terminator:
        events.append({"data": terminator})
    return events


def events_from_eventstream_jsonl(text: str) -> list[dict[str, Any]]:
    """Events of a decoded AWS event stream (``decoded`` in corpus/captures/provenance.json: one frame a
    line, ``{"headers", "payload"}``): ``{"event": <:event-type, or :exception-type>, "data": payload}``,
    the form Bedrock ConverseStream cases use (corpus/RULES.md, "Streams")."""
    events: list[dict[str, Any]] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        frame = json.loads(line)
        headers = frame["headers"]
        name = headers.get(":exception-type") if headers.get(":message-type") == "exception" else None
        events.append({"event": name or headers[":event-type"], "data": frame["payload"]})
    return events
