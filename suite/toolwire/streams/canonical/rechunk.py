"""Canonical stream fragments: how re-chunking (:mod:`toolwire.streams.rechunk`) reads and writes a
`text_delta`, `thinking_delta` or `tool_call_delta` fragment."""

from __future__ import annotations

from typing import Any

from ..rechunk import Key, Rechunker


def get_fragment(data: Any) -> tuple[Key, str, str] | None:
    if not isinstance(data, dict):
        return None
    if data.get("type") in ("text_delta", "thinking_delta") and isinstance(data.get("text"), str):
        if "signature" in data:
            return None
        return ("block", data.get("index")), "text", data["text"]
    if data.get("type") == "tool_call_delta" and isinstance(data.get("arguments"), str):
        return ("block", data.get("index")), "arguments", data["arguments"]
    return None


def put_fragment(data: Any, text: str, position: int, count: int) -> Any:
    new = dict(data)
    new["arguments" if data["type"] == "tool_call_delta" else "text"] = text
    return new


RECHUNKER = Rechunker(get_fragment, put_fragment)
