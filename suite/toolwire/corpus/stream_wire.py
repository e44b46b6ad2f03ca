"""Wire validation of a whole stream: every event's ``data`` against the dialect's ``stream`` schema
(``schemas/wire/<dialect>/stream.schema.json`` describes ONE event's ``data``; canonical:
``schemas/canonical/stream.schema.json``). Ordering is the grammar's business
(:mod:`toolwire.streams.dialects`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..streams.payload import StreamError, stream_events
from ..streams.sse import DONE
from . import wire

__all__ = ["MAX_ERRORS", "stream_wire_errors"]

MAX_ERRORS = 20


def stream_wire_errors(dialect: str, payload: Any, schemas: Path | None = None) -> list[str] | None:
    """``"<json pointer>: <message>"`` for every invalid event member (pointers into the event list:
    ``/3/data/delta/type``); [] when valid; None when the dialect has no stream schema. A payload may be a
    list of events or ``{"sse": text}`` (then the pointers index the parsed events). Members the schema
    does not know are not errors: clients ignore them (``toolwire.judge.checks.READ_BY_CLIENTS``)."""
    if wire.validate(dialect, "stream", {}, schemas=schemas) is None:
        return None
    try:
        events = stream_events(payload)
    except StreamError as exc:
        return [f"/: {exc}"]
    errors: list[str] = []
    for i, event in enumerate(events):
        if i == len(events) - 1 and _done_ends_stream(dialect, event):
            continue
        if not isinstance(event, dict) or "data" not in event or set(event) - {"event", "data"}:
            errors.append(f'/{i}: an event is an object {{"event"?: name, "data": ...}}')
            continue
        if "event" in event and not isinstance(event["event"], str):
            errors.append(f"/{i}/event: the event name must be a string")
        found = wire.validate_tolerant(dialect, "stream", event["data"], schemas=schemas)
        for error in found[0] if found else ():
            pointer, _, message = error.partition(": ")
            errors.append(f"/{i}/data{'' if pointer == '/' else pointer}: {message}")
        if len(errors) >= MAX_ERRORS:
            errors.append("(more errors not shown)")
            break
    return errors


def _done_ends_stream(dialect: str, event: Any) -> bool:
    """Whether ``event`` is a closing ``[DONE]`` line that the dialect's SDK reads as the end of the stream
    (``Grammar.done_ends_stream``; where it may stand is the grammar's business)."""
    from ..streams.dialects import GRAMMARS

    if not isinstance(event, dict) or event.get("data") != DONE or set(event) - {"data"}:
        return False
    grammar = GRAMMARS.get(dialect)
    return grammar is not None and grammar.done_ends_stream
