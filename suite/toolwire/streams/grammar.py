"""The shared engine of the stream grammars: one state machine per dialect (``streams/<dialect>/grammar.py``,
found by dialect name by :mod:`toolwire.streams.dialects`).

A grammar sees the events of one stream in order (``event(index, name, data)``), then the end of the
stream (``end()``); a rule broken raises :class:`GrammarViolation` naming the event index and the rule,
e.g. ``event 7: content_block_delta for index 2 but block 2 was never started``, and checking stops
there (what follows would mostly repeat it). A rule whose breach leaves the stream readable (a chunk's id,
an event's name) is recorded with :meth:`Grammar.note` instead and checking goes on, so it never hides a
second bug (:func:`toolwire.streams.dialects.check_stream` reports every rule broken, each once).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .sse import DONE

__all__ = ["Grammar", "GrammarViolation", "Violation", "describe", "is_json_object_text"]


@dataclass(frozen=True)
class Violation:
    """A broken rule: ``index`` is the event's position (None: at the end of the stream)."""

    index: int | None
    rule: str
    message: str

    def __str__(self) -> str:
        where = f"event {self.index}" if self.index is not None else "end of stream"
        return f"{where}: {self.message} [{self.rule}]"


class GrammarViolation(Exception):
    """Raised by a grammar at a rule a stream breaks (the event that broke it is not taken further)."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(str(violation))
        self.violation = violation


class Grammar:
    """Base class: subclasses implement :meth:`on_event` and :meth:`on_end` and call :meth:`fail`."""

    dialect = ""
    #: the dialect sends a tool call only whole (Gemini ``functionCall`` parts, Mistral ``tool_calls``): a
    #: call is emittable only once the input says it is complete (``incremental``)
    whole_calls = False
    #: the dialect's blocks come one after the other (Anthropic: one open block at a time): what follows a
    #: call in the output is emittable only once that call is complete (``incremental``)
    sequential = False
    #: a ``[DONE]`` line after the terminal event is the end of the stream to the dialect's SDK (its SSE
    #: reader stops there), though the provider sends none
    done_ends_stream = False
    #: None: the event name may be absent or equal to ``data.type``; True: it must equal ``data.type``;
    #: False: it must be absent
    event_names: bool | None = None
    #: whether the event name repeats ``data.type`` (False: the name alone says the type, as the
    #: ``:event-type`` header of AWS's event stream does)
    names_in_data = True

    def __init__(self) -> None:
        self.index = -1
        self.ended = False  # a terminal event was seen: nothing may follow
        self.raised = False  # an error event was seen: a client raises there and reads nothing after it
        self.noted: list[Violation] = []  # rules broken without stopping the event (:meth:`note`)

    def fail(self, rule: str, message: str, *, at_end: bool = False) -> GrammarViolation:
        return GrammarViolation(Violation(None if at_end else self.index, f"{self.dialect}.{rule}", message))

    def note(self, rule: str, message: str) -> None:
        """Record a broken rule that leaves the rest of the event readable (a chunk's id, its object
        name): the event is checked further, so a second bug in it is not hidden behind this one."""
        self.noted.append(Violation(self.index, f"{self.dialect}.{rule}", message))

    def event(self, index: int, event: Any) -> None:
        self.index = index
        if not isinstance(event, dict) or "data" not in event:
            raise self.fail("event-shape", 'an event is an object {"event"?: name, "data": ...}')
        extra = sorted(set(event) - {"event", "data"})
        if extra:
            raise self.fail("event-shape", f"unexpected member(s) {', '.join(map(repr, extra))} in an event")
        name = event.get("event")
        if "event" in event and not isinstance(name, str):
            raise self.fail("event-name", "the event name must be a string")
        data = event["data"]
        if name is None and data == DONE and self.event_names:
            return  # a client that dispatches on event names never sees it (the Anthropic SDK skips it)
        if self.raised or (self.ended and data == DONE and self.done_ends_stream):
            return
        if self.ended:
            raise self.fail("after-end", f"an event after the end of the stream ({describe(data)})")
        if self.event_names is False and name is not None:
            raise self.fail("event-name", f"{self.dialect} events carry no SSE event name (got {name!r})")
        if isinstance(data, dict) and self.event_names is not False and self.names_in_data:
            kind = data.get("type")
            if name is None and self.event_names:
                self.note(
                    "event-name", f"the SSE event name is missing (clients dispatch on it; expected {kind!r})"
                )
            elif name is not None and name != kind:
                self.note("event-name", f"SSE event name {name!r} differs from data.type {kind!r}")
        self.on_event(name, data)

    def end(self, count: int) -> None:
        self.index = count
        self.on_end()

    def on_event(self, name: str | None, data: Any) -> None:
        raise NotImplementedError

    def on_end(self) -> None:
        raise NotImplementedError


def describe(data: Any) -> str:
    """An event's data in a few words for a message: its ``type``, or the start of its JSON."""
    if isinstance(data, dict):
        if isinstance(data.get("type"), str):
            return data["type"]
        return "object"
    return json.dumps(data)[:40]


def is_json_object_text(text: str) -> bool:
    """Whether ``text`` is the JSON text of an object."""
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False
