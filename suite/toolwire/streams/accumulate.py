"""The accumulator engine: a stream of one dialect -> that dialect's NON-streaming response body, so a stream
case states its expected result once (``accumulated``, ``corpus/RULES.md, "Streams"``).

Each dialect's accumulator is one small class over this engine (:class:`Accumulator`: ``feed(event)`` then
``result()``) in ``streams/<dialect>/accumulate.py``, beside the dialect's grammar; its docstring says
exactly which body it builds (a case's ``accumulated`` is compared with it by INTERPRETING.md's rules).
:mod:`toolwire.streams.dialects` finds them by dialect name (``accumulate``, ``fragments``). Besides building
the body, ``feed`` returns the event's content *fragments* (text, thinking, tool-call starts and argument
fragments), which re-chunking and the incrementality measure use.

A stream that carries an error event accumulates to ``{"error": <the error object>}``. A stream without
its terminal event raises :class:`StreamError` ``stream.truncated``; a stream an accumulator cannot read
raises ``stream.invalid_event``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .payload import StreamError

__all__ = ["Accumulator", "Fragment", "parse_object"]


@dataclass(frozen=True)
class Fragment:
    """Content carried by one event: ``kind`` is ``text``, ``thinking``, ``call_start``, ``arguments`` or
    ``call_end`` (the event that tells a reader the call is complete); ``call`` is the tool call's ordinal
    (0, 1 … in order of appearance) for the last three."""

    kind: str
    text: str = ""
    call: int | None = None


class Accumulator:
    """The engine of one dialect's accumulator: subclasses implement ``on_data`` and ``build``."""

    dialect = ""

    def __init__(self) -> None:
        self.index = -1
        self.finished = False
        self.error: Any = None
        self.calls = 0

    def feed(self, event: Any) -> list[Fragment]:
        self.index += 1
        if self.error is not None:  # a client raises at an error event: what follows is never read
            return []
        data = event.get("data") if isinstance(event, dict) else None
        try:
            return self.on_data(data) or []
        except StreamError:
            raise
        except Exception as exc:  # a malformed event: never a traceback
            raise StreamError(
                "stream.invalid_event",
                f"cannot read {self.dialect} event: {type(exc).__name__}: {exc}",
                self.index,
            ) from exc

    def on_data(self, data: Any) -> list[Fragment] | None:
        raise NotImplementedError

    def result(self) -> Any:
        if self.error is not None:
            return {"error": self.error}
        if not self.finished:
            raise StreamError(
                "stream.truncated", f"the {self.dialect} stream ended before its terminal event"
            )
        try:
            return self.build()
        except StreamError:
            raise
        except Exception as exc:
            raise StreamError(
                "stream.invalid_event", f"cannot build the {self.dialect} response: {exc}"
            ) from exc

    def build(self) -> Any:
        raise NotImplementedError

    def new_call(self) -> int:
        self.calls += 1
        return self.calls - 1

    def invalid(self, message: str) -> StreamError:
        return StreamError("stream.invalid_event", message, self.index)


def parse_object(text: str) -> Any:
    """A call's joined argument text as a JSON object (``{}`` for ``""``); ValueError otherwise."""
    if text == "":
        return {}
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError("not a JSON object")
    return value
