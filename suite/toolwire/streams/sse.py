"""Server-sent events, read and written per the WHATWG HTML standard ("Server-sent events", §9.2.6
"Interpreting an event stream"), plus the stream payload model of ``corpus/RULES.md, "Streams"``.

Reading: the byte stream is UTF-8 decoded incrementally (a chunk may end inside a multi-byte character;
invalid bytes become U+FFFD, a leading BOM is dropped); lines end with CRLF, LF or CR (a CR at the end of
a chunk waits for the next chunk, which may start with the LF of the same line end); a line starting with
``:`` is a comment; ``field: value`` loses one space after the colon; a line without a colon is a field
with an empty value; ``data`` lines accumulate joined with ``"\\n"``; ``event``, ``id`` (ignored when it
holds U+0000) and ``retry`` (ASCII digits only) set the pending message's fields; unknown fields are
ignored; a blank line dispatches the pending message unless no ``data`` line was seen.

One deliberate leniency: at the end of the input, a pending message that has data is dispatched
(``flush_at_eof=True``, the default), where the standard discards it. Real streams end without the final
blank line (corpus/captures/anthropic/13_stream_text_then_tool_use.sse, an anthropic-sdk-python fixture,
ends right after ``data: {"type":"message_stop"}``) and SDK decoders accept them.

Payload model: one event per SSE message, ``{"event": name, "data": value}`` with ``event`` absent when
the message has no ``event`` field, ``data`` JSON-decoded, except OpenAI's terminator ``[DONE]`` which
stays the string ``"[DONE]"``. JSON parsing tolerates the spaces Anthropic pads after the JSON object
(corpus/captures/anthropic/11_stream_tool_use.response.sse).
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "DONE",
    "SSEError",
    "SSEMessage",
    "SSEParser",
    "event_from_message",
    "events_from_sse",
    "message_from_event",
    "parse_sse",
    "sse_from_events",
    "write_sse",
]

DONE = "[DONE]"


class SSEError(ValueError):
    """A message's data is not JSON (and not ``[DONE]``): ``index`` is the message's position."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(f"SSE message {index}: {message}")
        self.index = index
        self.code = "stream.invalid_event"


@dataclass(frozen=True)
class SSEMessage:
    """One dispatched SSE message (``event`` None when the message had no ``event`` field)."""

    data: str
    event: str | None = None
    id: str | None = None
    retry: int | None = None


class SSEParser:
    """Incremental SSE parser: ``feed`` bytes or str split anywhere, get the messages completed so far."""

    def __init__(self, *, flush_at_eof: bool = True) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._started = False
        self._flush_at_eof = flush_at_eof
        self._data: list[str] = []
        self._has_data = False
        self._event: str | None = None
        self._id: str | None = None  # the last event id buffer persists across messages (WHATWG)
        self._retry: int | None = None
        self._closed = False

    def feed(self, chunk: bytes | bytearray | str) -> list[SSEMessage]:
        if self._closed:
            raise ValueError("SSEParser.feed after close")
        text = self._decoder.decode(bytes(chunk)) if isinstance(chunk, bytes | bytearray) else chunk
        if not self._started and text:
            if text.startswith("\ufeff"):
                text = text[1:]
            self._started = True
        self._buffer += text
        return self._lines(final=False)

    def close(self) -> list[SSEMessage]:
        """End of input: the last line (if unterminated) is processed; see ``flush_at_eof``."""
        if self._closed:
            return []
        tail = self._decoder.decode(b"", final=True)
        if not self._started and tail.startswith("\ufeff"):
            tail = tail[1:]
        self._buffer += tail
        out = self._lines(final=True)
        if self._buffer:
            line, self._buffer = self._buffer, ""
            self._line(line, out)
        if self._flush_at_eof and self._has_data:
            self._dispatch(out)
        self._closed = True
        return out

    def _lines(self, *, final: bool) -> list[SSEMessage]:
        out: list[SSEMessage] = []
        buf = self._buffer
        start = 0
        n = len(buf)
        cr = buf.find("\r")
        lf = buf.find("\n")
        while cr >= 0 or lf >= 0:
            if lf < 0 or (0 <= cr < lf):
                # a CR: part of CRLF when an LF follows; at the end of the buffer, wait for more input
                if cr + 1 == n and not final:
                    break
                end = cr + 2 if cr + 1 < n and buf[cr + 1] == "\n" else cr + 1
                self._line(buf[start:cr], out)
            else:
                end = lf + 1
                self._line(buf[start:lf], out)
            start = end
            if 0 <= cr < start:
                cr = buf.find("\r", start)
            if 0 <= lf < start:
                lf = buf.find("\n", start)
        self._buffer = buf[start:]
        return out

    def _line(self, line: str, out: list[SSEMessage]) -> None:
        if line == "":
            self._dispatch(out)
            return
        if line.startswith(":"):
            return
        field, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if field == "event":
            self._event = value
        elif field == "data":
            self._data.append(value)
            self._has_data = True
        elif field == "id" and "\0" not in value:
            self._id = value
        elif field == "retry" and value and all("0" <= c <= "9" for c in value):
            self._retry = int(value)

    def _dispatch(self, out: list[SSEMessage]) -> None:
        if self._has_data:
            event = self._event if self._event else None
            out.append(SSEMessage(data="\n".join(self._data), event=event, id=self._id, retry=self._retry))
        self._data = []
        self._has_data = False
        self._event = None
        self._retry = None


def parse_sse(source: str | bytes | Iterable[str | bytes], *, flush_at_eof: bool = True) -> list[SSEMessage]:
    """Every message of an SSE stream given whole (str/bytes) or as an iterable of chunks."""
    parser = SSEParser(flush_at_eof=flush_at_eof)
    chunks: Iterable[str | bytes] = [source] if isinstance(source, str | bytes) else source
    out: list[SSEMessage] = []
    for chunk in chunks:
        out.extend(parser.feed(chunk))
    out.extend(parser.close())
    return out


def event_from_message(message: SSEMessage, index: int = 0) -> dict[str, Any]:
    """The payload-model event of one SSE message (``data`` JSON-decoded unless ``[DONE]``)."""
    if message.data.strip() == DONE:
        data: Any = DONE
    else:
        try:
            data = json.loads(message.data)
        except ValueError as exc:
            raise SSEError(index, f"data is not JSON: {exc}: {message.data[:120]!r}") from exc
    event: dict[str, Any] = {}
    if message.event is not None:
        event["event"] = message.event
    event["data"] = data
    return event


def events_from_sse(
    source: str | bytes | Iterable[str | bytes], *, flush_at_eof: bool = True
) -> list[dict[str, Any]]:
    """Raw SSE text (or bytes, or chunks) -> a list of ``{"event"?, "data"}`` events."""
    return [event_from_message(m, i) for i, m in enumerate(parse_sse(source, flush_at_eof=flush_at_eof))]


def message_from_event(event: dict[str, Any]) -> SSEMessage:
    """The SSE message of one payload-model event (compact JSON, non-ASCII kept as is)."""
    data = event.get("data")
    text = data if data == DONE else json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return SSEMessage(data=text, event=event.get("event"))


def write_sse(messages: Iterable[SSEMessage], *, newline: str = "\n") -> str:
    """SSE text: ``event:``/``id:``/``retry:`` lines, one ``data:`` line per line of data, a blank line."""
    if newline not in ("\n", "\r\n", "\r"):
        raise ValueError("newline must be LF, CRLF or CR")
    parts: list[str] = []
    for m in messages:
        if m.event is not None:
            if any(c in m.event for c in "\r\n"):
                raise ValueError(f"event name {m.event!r} contains a line break")
            parts.append(f"event: {m.event}{newline}")
        if m.id is not None:
            parts.append(f"id: {m.id}{newline}")
        if m.retry is not None:
            parts.append(f"retry: {m.retry}{newline}")
        for line in m.data.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
            parts.append(f"data: {line}{newline}")
        parts.append(newline)
    return "".join(parts)


def sse_from_events(events: Iterable[dict[str, Any]], *, newline: str = "\n") -> str:
    """A list of ``{"event"?, "data"}`` events -> SSE text that :func:`events_from_sse` reads back."""
    return write_sse((message_from_event(e) for e in events), newline=newline)
