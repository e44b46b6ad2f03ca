"""Re-chunking: the same stream with its text and argument fragments split at other boundaries.

``rechunk(events, dialect, strategy)`` returns a valid stream of the same dialect that accumulates to the
same result (tests prove it for every real capture and strategy). Only events that carry exactly one
text/thinking/argument fragment are re-cut; every other event is kept as is, in place. Strategies:

- ``chars``: one character per fragment;
- ``escape``: argument JSON text cut inside every escape sequence (right after the backslash, and in the
  middle of the hex digits of ``\\uXXXX``, so a ``\\ud83d\\ude00`` pair is also cut between its halves);
  decoded text cut right before and after every character JSON escapes (``"``, ``\\``, controls);
- ``utf8``: cut right before and after every non-ASCII character (each multi-byte character alone).
  Events carry decoded strings, so a split *inside* a UTF-8 sequence exists only on the SSE byte stream:
  :func:`sse_byte_chunks` gives the SSE bytes of a stream cut inside every multi-byte character, to feed
  an SSE reader;
- ``whole``: each block's fragments joined into its first fragment event (later ones dropped, or emptied
  where the event carries other members).

The original fragment boundaries are kept by ``chars``/``escape``/``utf8`` (cuts are only added), so a
fragment that a source already split mid-escape stays split there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..jsonvalue import json_copy
from .sse import sse_from_events

__all__ = ["STRATEGIES", "rechunk", "sse_byte_chunks"]

STRATEGIES = ("chars", "escape", "utf8", "whole")

Key = tuple[Any, ...]


# -- per dialect: the single fragment of an event, and the event with another fragment ---------------


def _anthropic_get(data: Any) -> tuple[Key, str, str] | None:
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


def _anthropic_put(data: Any, text: str, position: int, count: int) -> Any:
    new = json_copy(data)
    delta = new["delta"]
    field = {"text_delta": "text", "input_json_delta": "partial_json", "thinking_delta": "thinking"}[
        delta["type"]
    ]
    delta[field] = text
    return new


def _chat_get(data: Any) -> tuple[Key, str, str] | None:
    if not isinstance(data, dict) or not isinstance(data.get("choices"), list) or len(data["choices"]) != 1:
        return None
    choice = data["choices"][0]
    if not isinstance(choice, dict) or choice.get("finish_reason") is not None:
        return None
    delta = choice.get("delta") or {}
    calls = delta.get("tool_calls") or []
    content = delta.get("content")
    if calls and not content and len(calls) == 1:
        fn = calls[0].get("function") or {}
        if isinstance(fn.get("arguments"), str):
            return ("call", choice.get("index"), calls[0].get("index")), "arguments", fn["arguments"]
        return None
    if isinstance(content, str) and not calls and not delta.get("refusal"):
        return ("content", choice.get("index")), "text", content
    return None


def _chat_put(data: Any, text: str, position: int, count: int) -> Any:
    new = json_copy(data)
    choice = new["choices"][0]
    delta = choice["delta"]
    if delta.get("tool_calls"):
        call = delta["tool_calls"][0]
        if position > 0:  # only the first fragment of a call carries id, type and name
            call = {"index": call["index"], "function": {"arguments": text}}
            delta = {"tool_calls": [call]}
        else:
            call["function"]["arguments"] = text
    else:
        delta = {"content": text} if position > 0 else {**delta, "content": text}
    choice["delta"] = delta
    if position < count - 1 and new.get("usage") is not None:
        new["usage"] = None
    return new


def _mistral_get(data: Any) -> tuple[Key, str, str] | None:
    """Mistral sends each tool call whole: only text fragments are re-cut."""
    found = _chat_get(data)
    return found if found is not None and found[1] == "text" else None


_RESPONSES_DELTAS = (
    "response.output_text.delta",
    "response.refusal.delta",
    "response.function_call_arguments.delta",
    "response.reasoning_summary_text.delta",
    "response.reasoning_text.delta",
)


def _responses_get(data: Any) -> tuple[Key, str, str] | None:
    if not isinstance(data, dict) or data.get("type") not in _RESPONSES_DELTAS:
        return None
    if not isinstance(data.get("delta"), str):
        return None
    part = data.get("content_index", data.get("summary_index"))
    kind = "arguments" if data["type"] == "response.function_call_arguments.delta" else "text"
    return (data["type"], data.get("output_index"), part), kind, data["delta"]


def _responses_put(data: Any, text: str, position: int, count: int) -> Any:
    new = json_copy(data)
    new["delta"] = text
    return new


def _gemini_get(data: Any) -> tuple[Key, str, str] | None:
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


def _gemini_put(data: Any, text: str, position: int, count: int) -> Any:
    new = json_copy(data)
    cand = new["candidates"][0]
    cand["content"]["parts"][0]["text"] = text
    if position < count - 1:  # finishReason stays on the last chunk
        for key in ("finishReason", "finishMessage"):
            cand.pop(key, None)
    return new


def _canonical_get(data: Any) -> tuple[Key, str, str] | None:
    if not isinstance(data, dict):
        return None
    if data.get("type") in ("text_delta", "thinking_delta") and isinstance(data.get("text"), str):
        if "signature" in data:
            return None
        return ("block", data.get("index")), "text", data["text"]
    if data.get("type") == "tool_call_delta" and isinstance(data.get("arguments"), str):
        return ("block", data.get("index")), "arguments", data["arguments"]
    return None


def _canonical_put(data: Any, text: str, position: int, count: int) -> Any:
    new = dict(data)
    new["arguments" if data["type"] == "tool_call_delta" else "text"] = text
    return new


def _bedrock_fragment(delta: Any) -> tuple[dict, str, str] | None:
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


def _bedrock_get(data: Any) -> tuple[Key, str, str] | None:
    if not isinstance(data, dict) or "contentBlockIndex" not in data:
        return None
    found = _bedrock_fragment(data.get("delta"))
    if found is None or not isinstance(found[0][found[1]], str):
        return None
    holder, member, kind = found
    return ("block", data["contentBlockIndex"]), kind, holder[member]


def _bedrock_put(data: Any, text: str, position: int, count: int) -> Any:
    new = json_copy(data)
    holder, member, _ = _bedrock_fragment(new["delta"])  # type: ignore[misc]
    holder[member] = text
    return new


Getter = Callable[[Any], "tuple[Key, str, str] | None"]
Putter = Callable[[Any, str, int, int], Any]
_DIALECTS: dict[str, tuple[Getter, Putter, bool]] = {
    # (get, put, whether an emptied fragment event may be dropped)
    "anthropic": (_anthropic_get, _anthropic_put, True),
    "openai-chat": (_chat_get, _chat_put, True),
    "openai-responses": (_responses_get, _responses_put, True),
    "gemini": (_gemini_get, _gemini_put, False),
    "mistral": (_mistral_get, _chat_put, True),
    "canonical": (_canonical_get, _canonical_put, True),
    "bedrock-converse": (_bedrock_get, _bedrock_put, True),
}


# -- cut points ---------------------------------------------------------------------------------------


def _cuts(strategy: str, kind: str, text: str) -> set[int]:
    n = len(text)
    if strategy == "chars":
        return set(range(1, n))
    cuts: set[int] = set()
    if strategy == "escape":
        if kind == "arguments":
            i = 0
            while i < n:
                if text[i] == "\\" and i + 1 < n:
                    cuts.add(i + 1)
                    if text[i + 1] == "u":
                        cuts.update({i + 2, i + 4})
                        i += 6
                    else:
                        i += 2
                    continue
                i += 1
        else:
            for i, c in enumerate(text):
                if c in '"\\' or ord(c) < 0x20:
                    cuts.update({i, i + 1})
    elif strategy == "utf8":
        for i, c in enumerate(text):
            if ord(c) > 0x7F:
                cuts.update({i, i + 1})
    return {c for c in cuts if 0 < c < n}


# -- rechunk -----------------------------------------------------------------------------------------


def _gemini_run_keys(events: list[Any], get: Getter) -> list[Key | None]:
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


def rechunk(events: list[Any], dialect: str, strategy: str) -> list[Any]:
    """``events`` with their text and argument fragments re-cut by ``strategy`` (see the module doc)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown re-chunking strategy {strategy!r} (known: {', '.join(STRATEGIES)})")
    get, put, droppable = _DIALECTS[dialect]
    found = [get(e.get("data")) if isinstance(e, dict) else None for e in events]
    keys: list[Key | None] = (
        _gemini_run_keys(events, get) if dialect == "gemini" else [f[0] if f else None for f in found]
    )
    full: dict[Key, list[str]] = {}
    for f, key in zip(found, keys, strict=True):
        if f is not None and key is not None:
            full.setdefault(key, []).append(f[2])
    out: list[Any] = []
    offsets: dict[Key, int] = {}
    cut_sets: dict[Key, set[int]] = {}
    seen: set[Key] = set()
    for event, f, key in zip(events, found, keys, strict=True):
        if f is None or key is None:
            out.append(event)
            continue
        _, kind, text = f
        if strategy == "whole":
            if key not in seen:
                seen.add(key)
                out.append({**event, "data": put(event["data"], "".join(full[key]), 0, 1)})
            elif not droppable:
                out.append({**event, "data": put(event["data"], "", 0, 1)})
            continue
        if key not in cut_sets:
            cut_sets[key] = _cuts(strategy, kind, "".join(full[key]))
        start = offsets.get(key, 0)
        offsets[key] = start + len(text)
        local = sorted(c - start for c in cut_sets[key] if start < c < start + len(text))
        bounds = [0, *local, len(text)]
        pieces = [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False)] or [text]
        for i, piece in enumerate(pieces):
            out.append({**event, "data": put(event["data"], piece, i, len(pieces))})
    if dialect == "openai-responses":
        _renumber(out)
    return out


def _renumber(events: list[Any]) -> None:
    first = next(
        (
            e["data"]["sequence_number"]
            for e in events
            if isinstance(e.get("data"), dict) and isinstance(e["data"].get("sequence_number"), int)
        ),
        None,
    )
    if first is None:
        return
    for i, event in enumerate(events):
        data = event.get("data")
        if isinstance(data, dict) and "sequence_number" in data:
            event["data"] = {**data, "sequence_number": first + i}


def sse_byte_chunks(events: list[Any], *, newline: str = "\n") -> list[bytes]:
    """The SSE bytes of ``events`` cut inside every multi-byte UTF-8 character (and nowhere else), so a
    reader must join bytes across chunks before decoding."""
    data = sse_from_events(events, newline=newline).encode("utf-8")
    chunks: list[bytes] = []
    start = 0
    i = 0
    while i < len(data):
        b = data[i]
        width = 4 if b >= 0xF0 else 3 if b >= 0xE0 else 2 if b >= 0xC0 else 1
        if width > 1:
            chunks.append(data[start : i + 1])
            start = i + 1
        i += width if width > 1 else 1
    chunks.append(data[start:])
    return [c for c in chunks if c]
