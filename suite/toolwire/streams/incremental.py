"""Incrementality: does a translator emit what it can as soon as the input allows it?

:func:`measure` is a pure function. It takes the input events (``source`` dialect) and, for each input
event, the output events the implementation emitted right after being given it (``outputs_after[i]``; an
optional extra last list holds what it emitted at the end of the stream, after the last input). For
every output text/thinking/argument fragment and every tool-call start it finds the earliest input event
that made it emittable, and reports how many input events it lagged behind:

- text (and thinking) is matched by position in the whole text of the message: an output fragment that
  ends at character ``e`` of the output text became emittable at the input event where the input text
  reached ``e`` characters (scaled by input/output length when the two differ, e.g. re-serialised JSON);
- tool-call arguments likewise, per call (calls matched by order of appearance);
- a tool-call start became emittable with the input call's start (its id and name);
- target constraints are taken into account: a target that sends calls whole (Gemini) can emit a call
  only at the input event that tells the call is complete (``content_block_stop``, ``finish_reason``,
  ``output_item.done``, ``block_end``), and a target whose blocks come one after the other (Anthropic,
  Gemini) can emit what follows a call only once the input has completed that call (an OpenAI source may
  interleave parallel calls until its ``finish_reason``).

``lag = emitted_after - available_at`` (the end of the stream counts as position ``len(inputs)``). A
``tolerance`` (default 1) accepts one event of look-ahead. A translator that holds a tool call
until the end is reported with how many events it lagged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .accumulate import Fragment
from .dialects import GRAMMARS, fragments

__all__ = ["SEQUENTIAL", "WHOLE_CALLS", "Incrementality", "Lag", "measure"]

#: target dialects whose tool calls are sent whole (their grammar's ``whole_calls``)
WHOLE_CALLS = tuple(sorted(name for name, grammar in GRAMMARS.items() if grammar.whole_calls))
#: target dialects whose blocks come one after the other (their grammar's ``sequential``)
SEQUENTIAL = tuple(sorted(name for name, grammar in GRAMMARS.items() if grammar.sequential))


@dataclass(frozen=True)
class Lag:
    output_index: int  # position of the output event in the whole output stream
    emitted_after: int  # input event position (len(inputs): the end of the stream)
    available_at: int  # the earliest input event that made it emittable
    fragment: Fragment

    @property
    def lag(self) -> int:
        return self.emitted_after - self.available_at

    def describe(self, inputs: int) -> str:
        what = {
            "text": "text",
            "thinking": "thinking text",
            "arguments": f"arguments of tool call {self.fragment.call}",
            "call_start": f"the start of tool call {self.fragment.call}",
        }[self.fragment.kind]
        when = (
            "at the end of the stream"
            if self.emitted_after >= inputs
            else f"after input event {self.emitted_after}"
        )
        return (
            f"{what} (output event {self.output_index}) was emitted {when}, but was available since input "
            f"event {self.available_at}: {self.lag} event{'s' if self.lag != 1 else ''} late"
        )


@dataclass
class Incrementality:
    inputs: int
    lags: list[Lag] = field(default_factory=list)

    @property
    def measured(self) -> int:
        return len(self.lags)

    @property
    def worst(self) -> Lag | None:
        return max(self.lags, key=lambda lag: (lag.lag, -lag.output_index), default=None)

    @property
    def max_lag(self) -> int:
        worst = self.worst
        return worst.lag if worst is not None else 0

    def ok(self, tolerance: int = 1) -> bool:
        return self.max_lag <= tolerance

    def summary(self, tolerance: int = 1) -> str:
        if not self.lags:
            return "nothing to measure (no text, thinking or tool call in the output)"
        worst = self.worst
        assert worst is not None
        late = [lag for lag in self.lags if lag.lag > tolerance]
        if not late:
            return f"incremental: {self.measured} fragments, at most {self.max_lag} input event(s) late"
        calls_held = sorted(
            {
                lag.fragment.call
                for lag in late
                if lag.fragment.call is not None and lag.emitted_after >= self.inputs - 1
            }
        )
        head = (
            f"{len(late)} of {self.measured} output fragments lagged more than {tolerance} "
            "input event(s); worst: "
        )
        text = head + worst.describe(self.inputs)
        if calls_held:
            text += f"; tool call(s) {', '.join(map(str, calls_held))} held until the end of the stream"
        return text


def _availability(frags: list[list[Fragment]]) -> tuple[dict[str, Any], dict[int, int], dict[int, int]]:
    """Per text kind and per call: the cumulative length reached at each input event; call starts."""
    text: dict[str, list[tuple[int, int]]] = {"text": [], "thinking": []}
    calls: dict[int, list[tuple[int, int]]] = {}
    starts: dict[int, int] = {}
    ends: dict[int, int] = {}
    totals: dict[Any, int] = {}
    for i, event_frags in enumerate(frags):
        for f in event_frags:
            if f.kind in ("text", "thinking"):
                totals[f.kind] = totals.get(f.kind, 0) + len(f.text)
                text[f.kind].append((i, totals[f.kind]))
            elif f.kind == "call_start" and f.call is not None:
                starts.setdefault(f.call, i)
            elif f.kind == "call_end" and f.call is not None:
                ends.setdefault(f.call, i)
            elif f.kind == "arguments" and f.call is not None:
                key = ("call", f.call)
                totals[key] = totals.get(key, 0) + len(f.text)
                calls.setdefault(f.call, []).append((i, totals[key]))
    return {"text": text, "calls": calls}, starts, ends


def _earliest(progress: list[tuple[int, int]], needed: int) -> int | None:
    for index, reached in progress:
        if reached >= needed:
            return index
    return progress[-1][0] if progress else None


def measure(inputs: list[Any], source: str, outputs_after: list[list[Any]], target: str) -> Incrementality:
    """How late each output fragment was emitted (see the module doc)."""
    n = len(inputs)
    in_frags = fragments(inputs, source)
    progress, starts, ends = _availability(in_frags)
    flat: list[Any] = []
    positions: list[int] = []
    for i, batch in enumerate(outputs_after):
        for event in batch:
            flat.append(event)
            positions.append(min(i, n))
    out_frags = fragments(flat, target)
    in_total = {k: (v[-1][1] if v else 0) for k, v in progress["text"].items()}
    in_call_total = {c: (v[-1][1] if v else 0) for c, v in progress["calls"].items()}
    out_total: dict[Any, int] = {}
    for event_frags in out_frags:
        for f in event_frags:
            key = f.kind if f.kind in ("text", "thinking") else ("call", f.call)
            if f.kind != "call_start":
                out_total[key] = out_total.get(key, 0) + len(f.text)
    result = Incrementality(inputs=n)
    reached: dict[Any, int] = {}
    started: list[int] = []
    for k, event_frags in enumerate(out_frags):
        for f in event_frags:
            available: int | None = None
            if f.kind == "call_start":
                available = starts.get(f.call) if f.call is not None else None
            elif f.kind == "call_end":
                continue
            elif f.text:
                key = f.kind if f.kind in ("text", "thinking") else ("call", f.call)
                reached[key] = reached.get(key, 0) + len(f.text)
                if f.kind in ("text", "thinking"):
                    total_in, series = in_total.get(f.kind, 0), progress["text"].get(f.kind, [])
                else:
                    total_in, series = in_call_total.get(f.call, 0), progress["calls"].get(f.call, [])
                total_out = out_total.get(key, 0)
                if total_in and total_out:
                    needed = -(-reached[key] * total_in // total_out)  # ceil
                    available = _earliest(series, needed)
            if available is None:
                continue
            if f.call is not None and target in WHOLE_CALLS and f.call in ends:
                available = max(available, ends[f.call])  # the call can only be sent whole
            if target in SEQUENTIAL:  # what follows a call waits until the input says it is complete
                before = [ends[j] for j in started if j != f.call and j in ends]
                available = max([available, *before])
            if f.kind == "call_start" and f.call is not None:
                started.append(f.call)
            result.lags.append(Lag(k, positions[k], available, f))
    return result
