"""Helpers for the reference's stream tests: the real streams, and the `response`-kind oracle.

A translated stream must accumulate to what the `response` kind gives for the accumulated input. The
accumulators and grammars are the harness's (toolwire.streams); this module only normalises the few
members a stream legitimately cannot reproduce (see corpus/RULES.md "Streams").
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from toolwire.streams.accumulate import accumulate
from toolwire.streams.payload import events_from_jsonl, split_streams
from toolwire.streams.sse import events_from_sse
from toolwire_reference.profiles import resolve_profile
from toolwire_reference.translate import codec

DIALECTS = ("canonical", "openai-chat", "openai-responses", "anthropic", "gemini")
CAPTURES = Path(
    os.environ.get("TOOLWIRE_REAL_CAPTURES", Path(__file__).resolve().parents[3] / "shared" / "real-captures")
)
FILES = {
    "openai-chat": [
        "08_stream_single_tool_call_strict.sse",
        "09_stream_parallel_tool_calls.sse",
        "10_stream_non_strict_tool_call.sse",
        "11_stream_tool_call_2026.response.sse",
        "12_stream_followup_after_tool.response.sse",
    ],
    "anthropic": [
        "11_stream_tool_use.response.sse",
        "12_stream_followup_after_tool_result.response.sse",
        "13_stream_text_then_tool_use.sse",
        "14_stream_tool_use_datalines.chunks.jsonl",
        "15_stream_text_then_tool_use_no_args.chunks.jsonl",
    ],
    "gemini": [
        "09_stream_function_call.response.sse",
        "10_stream_followup_after_functionResponse.response.sse",
        "12_stream_function_call_gemini3.chunks.jsonl",
        "13_stream_vertex_partialArgs.chunks.jsonl",
    ],
    "openai-responses": [
        "09_stream_function_call_2025-03.response.sse",
        "10_stream_followup_2025-03.response.sse",
        "14_stream_reasoning_then_function_call_2025-09.response.sse",
        "11_stream_reasoning_then_function_call_2025-12.chunks.jsonl",
        "12_stream_function_call_azure_2026-02.chunks.jsonl",
    ],
}


def capture_streams() -> list[tuple[str, str, list]]:
    """(label, dialect, events) for every recorded stream; back-to-back recordings are split."""
    out = []
    if not CAPTURES.is_dir():
        return out
    for dialect, names in FILES.items():
        for name in names:
            path = CAPTURES / dialect / name
            if name.endswith(".sse"):
                events = events_from_sse(path.read_bytes())
            else:
                events = events_from_jsonl(path.read_text(encoding="utf-8"), dialect)
            parts = split_streams(events, dialect)
            for k, part in enumerate(parts):
                out.append((f"{dialect}/{name}" + (f"#{k}" if len(parts) > 1 else ""), dialect, part))
    return out


def expected(events: list, source: str, target: str, profile: dict | None = None) -> Any:
    """The `response` kind applied to the accumulated source stream (thinking dropped unless kept)."""
    resolved = resolve_profile(profile)
    canonical = codec(source, "response").decode_response(accumulate(events, source), resolved)
    if resolved["stream.thinking"] == "drop" or target == "openai-chat":
        canonical["content"] = [p for p in canonical["content"] if p["type"] != "thinking"]
    return normalise(codec(target, "response").encode_response(canonical, resolved), target)


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
    for item in body.get("output") or []:
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
