"""The canonical stream on the wire (corpus/RULES.md, "Streams"): events ``{"data": {...}}`` without names.

Decoding checks each event's shape and the block bookkeeping (a delta for an open block of its kind,
``message_end`` after every block is closed) and passes it on; encoding writes the events as they are,
with tool-call ids written as in the ``response`` kind (generated ids as ``call_<n>``) and internal
members (``item_id``) left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import signatures
from ...calls import CANONICAL_STOP_REASONS, encode_call_id
from ...streams.base import Decoder, Encoder
from .response import decode_usage
from .rules import RULES

NAME = RULES.name
_FIELDS = {
    "message_start": {"id": str, "model": str},
    "text_delta": {"index": int, "text": str, "signature": str, "origin": str},
    "thinking_delta": {"index": int, "text": str, "signature": str, "origin": str},
    "tool_call_start": {
        "index": int, "id": str, "name": str, "signature": str, "origin": str, "custom": bool
    },  # fmt: skip
    "tool_call_delta": {"index": int, "arguments": str, "input": str},
    "block_end": {"index": int},
    "message_end": {"stop_reason": str, "stop_sequence": (str, type(None)), "usage": dict},
    "error": {"error": dict},
}
_REQUIRED = {
    "text_delta": ("index", "text"),
    "thinking_delta": ("index", "text"),
    "tool_call_start": ("index", "id", "name"),
    "tool_call_delta": ("index",),
    "block_end": ("index",),
    "message_end": ("stop_reason",),
    "error": ("error",),
}
#: members that are not empty when given (the canonical stream schema's)
_NON_EMPTY = {"message_start": ("id", "model"), "tool_call_start": ("id", "name", "signature")}
_DELTA_KIND = {"text_delta": "text", "thinking_delta": "thinking", "tool_call_delta": "tool_call"}


class CanonicalDecoder(Decoder):
    dialect = NAME
    terminal = "message_end"

    def __init__(self, profile: Mapping[str, str]) -> None:
        super().__init__(profile)
        self.open: dict[int, str] = {}  # open block index -> kind
        self.custom: set[int] = set()  # blocks of custom (free-form) tool calls

    def on_data(self, data: Any) -> list[dict]:
        if self.ended:
            return self.after_end(data)
        if not isinstance(data, dict) or data.get("type") not in _FIELDS:
            raise self.invalid(
                "a canonical event is an object whose `type` is a canonical event type", "type"
            )
        kind = data["type"]
        fields = _FIELDS[kind]
        for key, value in data.items():
            if key == "type":
                continue
            if key not in fields:
                raise self.invalid(f"a {kind} event has no member `{key}`", key)
            if not isinstance(value, fields[key]) or (isinstance(value, bool) and fields[key] is not bool):
                raise self.invalid(f"`{key}` has the wrong type", key)
        for key in _REQUIRED.get(kind, ()):
            if key not in data:
                raise self.invalid(f"a {kind} event needs `{key}`")
        for key in _NON_EMPTY.get(kind, ()):
            if data.get(key) == "":
                raise self.invalid(f"`{key}` must not be empty", key)
        problem = signatures.origin_problem(data)
        if problem:
            raise self.invalid(problem, "origin")
        if kind == "error":
            error = data["error"]
            return self.error(error.get("code"), error.get("message"))
        if not self.started:
            if kind != "message_start":
                raise self.invalid(f"{kind} before message_start", "type")
            self.started = True
            return [dict(data)]
        if kind == "message_start":
            raise self.invalid("a second message_start", "type")
        if kind == "message_end":
            if self.open:
                raise self.invalid(f"message_end while block {min(self.open)} is open")
            if data["stop_reason"] not in CANONICAL_STOP_REASONS:
                raise self.invalid("`stop_reason` is not a canonical stop reason", "stop_reason")
            self.ended = True
            if "usage" in data:
                return [{**data, "usage": decode_usage(data["usage"], self.path("usage"))}]
            return [dict(data)]
        index = data["index"]
        if kind == "block_end":
            self.custom.discard(index)
            if self.open.pop(index, None) is None:
                raise self.invalid(f"block_end for block {index}, which is not open", "index")
            return [dict(data)]
        if kind == "tool_call_start" or (kind in ("text_delta", "thinking_delta") and index not in self.open):
            if index != self.blocks:
                raise self.invalid(
                    f"block {index} opens out of order (the next block is {self.blocks})", "index"
                )
            self.blocks += 1
            if kind == "tool_call_start":
                self.calls += 1
            self.open[index] = "tool_call" if kind == "tool_call_start" else _DELTA_KIND[kind]
            if data.get("custom"):
                self.custom.add(index)
            return [dict(data)]
        if self.open.get(index) != _DELTA_KIND[kind]:
            raise self.invalid(
                f"{kind} for block {index}, which is not an open {_DELTA_KIND[kind]} block", "index"
            )
        if kind == "tool_call_delta":
            member = "input" if index in self.custom else "arguments"  # a custom call's text is `input`
            if set(data) != {"type", "index", member}:
                raise self.invalid(f"a tool_call_delta of block {index} carries `{member}` (only)")
        return [dict(data)]


class CanonicalEncoder(Encoder):
    dialect = NAME

    def feed(self, event: dict) -> list[dict]:
        if self.ended:
            return []
        kind = event["type"]
        if kind in ("message_end", "error"):
            self.ended = True
        out = {k: v for k, v in event.items() if k not in ("item_id", "signed")}  # internal members
        if kind == "tool_call_start":
            out["id"] = encode_call_id(event["id"], RULES, self.profile)
        return [{"data": out}]
