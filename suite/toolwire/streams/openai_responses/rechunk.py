"""OpenAI Responses stream fragments: how re-chunking (:mod:`toolwire.streams.rechunk`) reads and writes the
`delta` of a `*.delta` event, then renumbers `sequence_number`."""

from __future__ import annotations

from typing import Any

from ...jsonvalue import json_copy
from ..rechunk import Key, Rechunker

DELTAS = (
    "response.output_text.delta",
    "response.refusal.delta",
    "response.function_call_arguments.delta",
    "response.reasoning_summary_text.delta",
    "response.reasoning_text.delta",
)


def get_fragment(data: Any) -> tuple[Key, str, str] | None:
    if not isinstance(data, dict) or data.get("type") not in DELTAS:
        return None
    if not isinstance(data.get("delta"), str):
        return None
    part = data.get("content_index", data.get("summary_index"))
    kind = "arguments" if data["type"] == "response.function_call_arguments.delta" else "text"
    return (data["type"], data.get("output_index"), part), kind, data["delta"]


def put_fragment(data: Any, text: str, position: int, count: int) -> Any:
    new = json_copy(data)
    new["delta"] = text
    return new


def renumber(events: list[Any]) -> None:
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


RECHUNKER = Rechunker(get_fragment, put_fragment, after=renumber)
