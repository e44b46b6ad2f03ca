"""Every real recorded stream satisfies its dialect's grammar, its events are valid for the dialect's stream
schema, and it accumulates to a body valid for the dialect's response schema."""

from __future__ import annotations

import json

import pytest
import stream_captures
from toolwire.corpus import wire
from toolwire.streams.dialects import accumulate, check_stream

STREAMS = stream_captures.streams()


def by_label(prefix: str) -> tuple[str, list]:
    for label, dialect, events in STREAMS:
        if label.startswith(prefix):
            return dialect, events
    raise KeyError(prefix)


@pytest.mark.parametrize("label,dialect,events", STREAMS, ids=[s[0] for s in STREAMS])
def test_capture_satisfies_grammar_schemas_and_accumulates(label: str, dialect: str, events: list) -> None:
    assert check_stream(events, dialect) == []
    for i, event in enumerate(events):
        assert wire.validate(dialect, "stream", event["data"]) == [], (label, i)
    body = accumulate(events, dialect)
    assert wire.validate(dialect, "response", body) in ([], None)


def test_accumulated_openai_chat_parallel_calls() -> None:
    body = accumulate(*reversed(by_label("openai-chat/09")))
    message = body["choices"][0]["message"]
    assert body["object"] == "chat.completion" and body["choices"][0]["finish_reason"] == "tool_calls"
    assert message["content"] is None
    assert [c["function"]["name"] for c in message["tool_calls"]] == ["GetWeatherArgs", "get_stock_price"]
    assert json.loads(message["tool_calls"][1]["function"]["arguments"]) == {
        "ticker": "AAPL",
        "exchange": "NASDAQ",
    }
    assert body["usage"]["total_tokens"] == 209


def test_accumulated_openai_chat_text() -> None:
    body = accumulate(*reversed(by_label("openai-chat/12")))
    assert body["choices"][0]["message"]["content"].startswith("The capital")
    assert "tool_calls" not in body["choices"][0]["message"] and body["service_tier"] == "default"


def test_accumulated_anthropic() -> None:
    body = accumulate(*reversed(by_label("anthropic/11")))
    assert body["content"][0]["input"] == {"location": "San Francisco, CA", "units": "f"}
    assert body["stop_reason"] == "tool_use" and body["usage"]["output_tokens"] == 74
    body = accumulate(*reversed(by_label("anthropic/15")))  # no arguments: a single partial_json ""
    assert body["content"][1] == {
        "type": "tool_use",
        "id": "toolu_01QE1WLsSVp5hy5Q3GmGTmjP",
        "name": "updateIssueList",
        "input": {},
    }
    assert body["content"][0]["text"] == "I'll update the issue list for you."


def test_accumulated_gemini() -> None:
    body = accumulate(*reversed(by_label("gemini/09")))
    parts = body["candidates"][0]["content"]["parts"]
    assert len(parts) == 1 and parts[0]["functionCall"] == {"name": "get_country", "args": {}}
    assert body["candidates"][0]["finishReason"] == "STOP"
    body = accumulate(*reversed(by_label("gemini/10")))
    assert body["candidates"][0]["content"]["parts"] == [{"text": "The capital of Mexico is Mexico City."}]
    body = accumulate(*reversed(by_label("gemini/13")))  # Vertex streamed arguments
    calls = [p["functionCall"] for p in body["candidates"][0]["content"]["parts"]]
    assert calls == [
        {"name": "getWeather", "args": {"location": "Boston"}},
        {"name": "getWeather", "args": {"location": "San Francisco"}},
    ]


def test_accumulated_openai_responses() -> None:
    dialect, events = by_label("openai-responses/09")
    body = accumulate(events, dialect)
    assert body == events[-1]["data"]["response"]
    assert body["output"][0]["arguments"] == '{"country":"France"}'
    # a completed event without `output`: the streamed items are used
    stripped = [*events[:-1], {"event": "response.completed", "data": {**events[-1]["data"]}}]
    stripped[-1]["data"]["response"] = {k: v for k, v in body.items() if k != "output"}
    assert accumulate(stripped, dialect)["output"] == body["output"]
