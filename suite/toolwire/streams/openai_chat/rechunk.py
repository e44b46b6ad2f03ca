"""OpenAI Chat stream fragments: how re-chunking (:mod:`toolwire.streams.rechunk`) reads and writes the single
fragment of a chunk (`delta.content`, or one tool call's arguments, or a custom call's input)."""

from __future__ import annotations

from typing import Any

from ...jsonvalue import json_copy
from ..rechunk import Key, Rechunker
from .fragments import text_member


def get_fragment(data: Any) -> tuple[Key, str, str] | None:
    if not isinstance(data, dict) or not isinstance(data.get("choices"), list) or len(data["choices"]) != 1:
        return None
    choice = data["choices"][0]
    if not isinstance(choice, dict) or choice.get("finish_reason") is not None:
        return None
    delta = choice.get("delta") or {}
    calls = delta.get("tool_calls") or []
    content = delta.get("content")
    if calls and not content and len(calls) == 1:
        member, field = text_member(calls[0])
        body = calls[0].get(member) or {}
        if isinstance(body.get(field), str):
            return ("call", choice.get("index"), calls[0].get("index")), "arguments", body[field]
        return None
    if isinstance(content, str) and not calls and not delta.get("refusal"):
        return ("content", choice.get("index")), "text", content
    return None


def put_fragment(data: Any, text: str, position: int, count: int) -> Any:
    new = json_copy(data)
    choice = new["choices"][0]
    delta = choice["delta"]
    if delta.get("tool_calls"):
        call = delta["tool_calls"][0]
        member, field = text_member(call)
        if position > 0:  # only the first fragment of a call carries id, type and name
            call = {"index": call["index"], member: {field: text}}
            delta = {"tool_calls": [call]}
        else:
            call[member][field] = text
    else:
        delta = {"content": text} if position > 0 else {**delta, "content": text}
    choice["delta"] = delta
    if position < count - 1 and new.get("usage") is not None:
        new["usage"] = None
    return new


RECHUNKER = Rechunker(get_fragment, put_fragment)
