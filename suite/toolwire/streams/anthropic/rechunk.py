"""Anthropic Messages stream fragments: how re-chunking (:mod:`toolwire.streams.rechunk`) reads and writes the
single fragment of a `content_block_delta` (text, thinking or `partial_json`)."""

from __future__ import annotations

from typing import Any

from ...jsonvalue import json_copy
from ..rechunk import Key, Rechunker


def get_fragment(data: Any) -> tuple[Key, str, str] | None:
    if not isinstance(data, dict) or data.get("type") != "content_block_delta":
        return None
    delta = data.get("delta") or {}
    field = {"text_delta": "text", "input_json_delta": "partial_json", "thinking_delta": "thinking"}.get(
        delta.get("type")
    )
    if field is None or not isinstance(delta.get(field), str):
        return None
    kind = "arguments" if field == "partial_json" else "text"
    return ("block", data.get("index")), kind, delta[field]


def put_fragment(data: Any, text: str, position: int, count: int) -> Any:
    new = json_copy(data)
    delta = new["delta"]
    field = {"text_delta": "text", "input_json_delta": "partial_json", "thinking_delta": "thinking"}[
        delta["type"]
    ]
    delta[field] = text
    return new


RECHUNKER = Rechunker(get_fragment, put_fragment)
