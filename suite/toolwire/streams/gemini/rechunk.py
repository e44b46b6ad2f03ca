"""Gemini stream fragments: how re-chunking (:mod:`toolwire.streams.rechunk`) reads and writes a chunk's
single text part (Gemini joins only consecutive text parts: a run ends at any other content, and an emptied
chunk is kept for its other members)."""

from __future__ import annotations

from typing import Any

from ...jsonvalue import json_copy
from ..rechunk import Getter, Key, Rechunker


def get_fragment(data: Any) -> tuple[Key, str, str] | None:
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("candidates"), list)
        or len(data["candidates"]) != 1
    ):
        return None
    cand = data["candidates"][0]
    parts = ((cand.get("content") or {}).get("parts")) if isinstance(cand, dict) else None
    if not isinstance(parts, list) or len(parts) != 1 or not isinstance(parts[0], dict):
        return None
    part = parts[0]
    if set(part) - {"text", "thought"} or not isinstance(part.get("text"), str):
        return None
    return ("text", cand.get("index", 0), bool(part.get("thought"))), "text", part["text"]


def put_fragment(data: Any, text: str, position: int, count: int) -> Any:
    new = json_copy(data)
    cand = new["candidates"][0]
    cand["content"]["parts"][0]["text"] = text
    if position < count - 1:  # finishReason stays on the last chunk
        for key in ("finishReason", "finishMessage"):
            cand.pop(key, None)
    return new


def run_keys(events: list[Any], get: Getter) -> list[Key | None]:
    """Gemini joins only consecutive text parts: a run of text chunks ends at any other content."""
    run = 0
    keys: list[Key | None] = []
    for event in events:
        data = event.get("data") if isinstance(event, dict) else None
        found = get(data)
        if found is None:
            if isinstance(data, dict) and data.get("candidates"):
                run += 1
            keys.append(None)
        else:
            keys.append((*found[0], run))
    return keys


RECHUNKER = Rechunker(get_fragment, put_fragment, droppable=False, keys=run_keys)
