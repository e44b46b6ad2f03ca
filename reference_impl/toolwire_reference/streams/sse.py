"""A small server-sent-events reader and writer (WHATWG HTML "Server-sent events"), for the CLI.

Reading (:func:`read_sse`) is incremental over lines: lines end with LF, CRLF or CR; ``:`` starts a
comment; ``field: value`` loses one space after the colon; ``data`` lines join with ``"\\n"``; a blank
line dispatches the pending message (none without data); at the end of the input a pending message with
data is dispatched too (real streams end without the last blank line:
corpus/captures/anthropic/13_stream_text_then_tool_use.sse). Each message becomes a stream event
``{"event"?, "data"}``: ``data`` JSON-decoded (spaces around the JSON are allowed: Anthropic pads it),
except OpenAI's ``[DONE]``, kept as the string. Writing (:func:`write_sse`) gives one message per event.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from ..errors import TranslationError

DONE = "[DONE]"


def _lines(chunks: Iterable[str]) -> Iterator[str]:
    pending = ""
    for chunk in chunks:
        pending += chunk
        start = 0
        while True:
            cr, lf = pending.find("\r", start), pending.find("\n", start)
            if cr == -1 and lf == -1:
                break
            if cr != -1 and (lf == -1 or cr < lf):
                if cr == len(pending) - 1:  # a CR at the end of a chunk may be the first half of CRLF
                    break
                yield pending[start:cr]
                start = cr + (2 if pending[cr + 1] == "\n" else 1)
            else:
                yield pending[start:lf]
                start = lf + 1
        pending = pending[start:]
    if pending.endswith("\r"):
        pending = pending[:-1]
        yield pending
        pending = ""
    if pending:
        yield pending


def read_sse(chunks: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The stream events of SSE text given in chunks (a whole text is one chunk)."""
    if isinstance(chunks, str):
        chunks = [chunks]
    name: str | None = None
    data: list[str] = []
    count = 0
    first = True
    for line in _lines(chunks):
        if first:
            line, first = line.removeprefix("\ufeff"), False
        if line == "":
            if data:
                yield _event(name, data, count)
                count += 1
            name, data = None, []
            continue
        if line.startswith(":"):
            continue
        field, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if field == "data":
            data.append(value)
        elif field == "event":
            name = value
    if data:
        yield _event(name, data, count)


def _event(name: str | None, lines: list[str], index: int) -> dict[str, Any]:
    text = "\n".join(lines)
    if text.strip() == DONE:
        data: Any = DONE
    else:
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise TranslationError(
                "stream.invalid_event", f"SSE message {index}: data is not JSON ({exc})", f"/{index}/data"
            ) from exc
    return {"data": data} if name is None else {"event": name, "data": data}


def format_event(event: dict[str, Any]) -> str:
    """One SSE message (``event:`` line when the event has a name, one ``data:`` line, blank line)."""
    data = event["data"]
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    head = f"event: {event['event']}\n" if event.get("event") else ""
    return head + "".join(f"data: {line}\n" for line in text.split("\n")) + "\n"


def write_sse(events: Iterable[dict[str, Any]]) -> Iterator[str]:
    for event in events:
        yield format_event(event)
