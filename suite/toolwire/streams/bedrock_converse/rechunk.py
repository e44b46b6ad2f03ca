"""Bedrock ConverseStream fragments: how re-chunking (:mod:`toolwire.streams.rechunk`) reads and writes a
`contentBlockDelta`'s text, `toolUse.input` or `reasoningContent.text`."""

from __future__ import annotations

from typing import Any

from ...jsonvalue import json_copy
from ..rechunk import Key, Rechunker


def _fragment(delta: Any) -> tuple[dict, str, str] | None:
    """(the object holding the fragment, its member, its kind) of a ConverseStream delta."""
    if not isinstance(delta, dict) or len(delta) != 1:
        return None
    if isinstance(delta.get("text"), str):
        return delta, "text", "text"
    inner = delta.get("toolUse") or delta.get("reasoningContent")
    if isinstance(inner, dict) and set(inner) in ({"input"}, {"text"}):
        member = next(iter(inner))
        return inner, member, "arguments" if member == "input" else "text"
    return None


def get_fragment(data: Any) -> tuple[Key, str, str] | None:
    if not isinstance(data, dict) or "contentBlockIndex" not in data:
        return None
    found = _fragment(data.get("delta"))
    if found is None or not isinstance(found[0][found[1]], str):
        return None
    holder, member, kind = found
    return ("block", data["contentBlockIndex"]), kind, holder[member]


def put_fragment(data: Any, text: str, position: int, count: int) -> Any:
    new = json_copy(data)
    holder, member, _ = _fragment(new["delta"])  # type: ignore[misc]
    holder[member] = text
    return new


RECHUNKER = Rechunker(get_fragment, put_fragment)
