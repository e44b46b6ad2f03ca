"""The real streams of corpus/captures as (name, dialect, events) triples: the one loader the
stream tests (tests/streams) and the reference's stream tests (tests/reference) share."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from captures import CAPTURES
from toolwire.streams.payload import events_from_eventstream_jsonl, events_from_jsonl
from toolwire.streams.sse import events_from_sse


def split_streams(events: list[dict[str, Any]], dialect: str) -> list[list[dict[str, Any]]]:
    """Split consecutive streams recorded back to back (corpus/captures/openai-responses/11 holds the four
    streams of a multi-step run) at each ``response.created`` / ``message_start``."""
    first = {
        "openai-responses": "response.created",
        "anthropic": "message_start",
        "canonical": "message_start",
    }
    start_type = first.get(dialect)
    if start_type is None:
        return [events]
    out: list[list[dict[str, Any]]] = []
    for event in events:
        data = event.get("data")
        if isinstance(data, dict) and data.get("type") == start_type or not out:
            out.append([])
        out[-1].append(event)
    return out


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
    "bedrock-converse": [
        "08_converse_stream_tool_use.response.decoded.jsonl",
        "09_converse_stream_followup.response.decoded.jsonl",
    ],
    "mistral": ["07_stream_tool_call.chunks.jsonl"],
}


def sse_files() -> list[tuple[str, Path]]:
    return [(d, CAPTURES / d / f) for d, files in FILES.items() for f in files if f.endswith(".sse")]


def streams() -> list[tuple[str, str, list]]:
    """Every recorded stream; multi-stream recordings are split (``name#k``)."""
    out: list[tuple[str, str, list]] = []
    for dialect, files in FILES.items():
        for name in files:
            path = CAPTURES / dialect / name
            if name.endswith(".sse"):
                events = events_from_sse(path.read_bytes())
            elif name.endswith(".decoded.jsonl"):
                events = events_from_eventstream_jsonl(path.read_text(encoding="utf-8"))
            else:
                events = events_from_jsonl(path.read_text(encoding="utf-8"), dialect)
            parts = split_streams(events, dialect)
            for k, part in enumerate(parts):
                label = f"{dialect}/{name}" + (f"#{k}" if len(parts) > 1 else "")
                out.append((label, dialect, part))
    return out
