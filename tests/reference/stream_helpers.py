"""Helpers for the reference's stream tests: the real streams, and the `response`-kind oracle.

A translated stream must accumulate to what the `response` kind gives for the accumulated input. The
accumulators and grammars are the harness's (toolwire.streams); this module only normalises the few
members a stream legitimately cannot reproduce (see corpus/RULES.md "Streams").
"""

from __future__ import annotations

import json
from typing import Any

import stream_captures
from toolwire.streams.dialects import accumulate
from toolwire_reference.profiles import resolve_profile
from toolwire_reference.registry import BY_NAME, NAMES

DIALECTS = NAMES
# The real streams: the loader the harness's stream tests use too (tests/support/stream_captures.py).
capture_streams = stream_captures.streams


def expected(events: list, source: str, target: str, profile: dict | None = None) -> Any:
    """The `response` kind applied to the accumulated source stream (thinking dropped unless kept)."""
    resolved = resolve_profile(profile)
    canonical = BY_NAME[source].response.decode_response(accumulate(events, source), resolved)
    if resolved["stream.thinking"] == "drop" or target == "openai-chat":
        canonical["content"] = [p for p in canonical["content"] if p["type"] != "thinking"]
    return normalise(BY_NAME[target].response.encode_response(canonical, resolved), target)


def _arguments(text: str) -> str:
    try:
        return json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False)
    except ValueError:
        return text


def normalise(body: Any, dialect: str) -> Any:
    """Drop what a stream cannot reproduce: creation times, item ids the `response` kind derives from
    the whole content, argument-text spacing (fragments pass through verbatim), Responses reasoning
    signatures (re-encrypted in `response.completed`), chat `logprobs: null`, canonical `item_id`."""
    body = json.loads(json.dumps(body))
    if not isinstance(body, dict):
        return body
    body.pop("created", None)
    body.pop("created_at", None)
    for choice in body.get("choices") or []:
        if choice.get("logprobs", 0) is None:
            del choice["logprobs"]
        for call in choice.get("message", {}).get("tool_calls") or []:
            call["function"]["arguments"] = _arguments(call["function"]["arguments"])
    for item in body.get("output") if isinstance(body.get("output"), list) else []:
        if item.get("type") in ("message", "reasoning"):
            item.pop("id", None)
        if item.get("type") == "function_call":
            item["arguments"] = _arguments(item["arguments"])
        item.pop("encrypted_content", None)
    for part in body.get("content") or []:
        if isinstance(part, dict):
            part.pop("item_id", None)
            if part.get("type") == "thinking":
                part.pop("signature", None)
    for candidate in body.get("candidates") or []:
        for part in (candidate.get("content") or {}).get("parts") or []:
            if part.get("thought"):
                part.pop("thoughtSignature", None)
    return body


def accumulated(events: list, target: str) -> Any:
    return normalise(accumulate(events, target), target)
