"""Re-chunking gives a valid stream of the same dialect that accumulates to the same result."""

from __future__ import annotations

import pytest
import stream_captures
from toolwire.corpus import wire
from toolwire.streams.dialects import accumulate, check_stream, fragments, rechunk
from toolwire.streams.incremental import WHOLE_CALLS
from toolwire.streams.rechunk import STRATEGIES
from toolwire.streams.sse import events_from_sse, sse_from_events

STREAMS = stream_captures.streams()


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("label,dialect,events", STREAMS, ids=[s[0] for s in STREAMS])
def test_rechunked_capture_is_valid_and_accumulates_the_same(label, dialect, events, strategy) -> None:
    again = rechunk(events, dialect, strategy)
    assert check_stream(again, dialect) == []
    assert all(wire.validate(dialect, "stream", e["data"]) == [] for e in again)
    assert accumulate(again, dialect) == accumulate(events, dialect)
    assert events_from_sse(sse_from_events(again)) == again
    pieces = [f for batch in fragments(again, dialect) for f in batch if f.kind in ("text", "arguments")]
    if strategy == "chars" and dialect not in WHOLE_CALLS:  # whole calls are not re-cut
        assert all(len(f.text) <= 1 for f in pieces)


def chat(*fragments: str) -> list:
    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {
            "data": {
                "id": "c",
                "object": "chat.completion.chunk",
                "created": 1,
                "model": "m",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
        }

    first = {
        "index": 0,
        "id": "call_1",
        "type": "function",
        "function": {"name": "f", "arguments": fragments[0]},
    }
    events = [chunk({"role": "assistant", "tool_calls": [first]})]
    events += [chunk({"tool_calls": [{"index": 0, "function": {"arguments": f}}]}) for f in fragments[1:]]
    return [*events, chunk({}, "tool_calls"), {"data": "[DONE]"}]


def arguments(events: list) -> list[str]:
    return [f.text for batch in fragments(events, "openai-chat") for f in batch if f.kind == "arguments"]


def test_escape_cuts_inside_escape_sequences() -> None:
    events = chat('{"q": "a\\"b\\', 'u00e9 \\ud83d\\ude00"}')
    again = rechunk(events, "openai-chat", "escape")
    assert arguments(again) == [
        '{"q": "a\\',
        '"b\\',
        "u",
        "00",
        "e9 \\",
        "u",
        "d8",
        "3d\\",
        "u",
        "de",
        '00"}',
    ]
    assert accumulate(again, "openai-chat") == accumulate(events, "openai-chat")
    assert check_stream(again, "openai-chat") == []
    # only the first fragment of the call carries id and name
    assert "id" not in again[2]["data"]["choices"][0]["delta"]["tool_calls"][0]


def test_utf8_isolates_multibyte_characters_and_whole_joins() -> None:
    events = chat('{"q": "', "né✓", '"}')
    assert arguments(rechunk(events, "openai-chat", "utf8")) == ['{"q": "', "n", "é", "✓", '"}']
    whole = rechunk(events, "openai-chat", "whole")
    assert arguments(whole) == ['{"q": "né✓"}'] and len(whole) == 3
    assert accumulate(whole, "openai-chat") == accumulate(events, "openai-chat")


def test_unknown_strategy() -> None:
    with pytest.raises(ValueError, match="unknown re-chunking strategy"):
        rechunk([], "openai-chat", "words")
