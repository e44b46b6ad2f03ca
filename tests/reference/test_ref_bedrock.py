"""Bedrock Converse in the reference: the captures are valid wire, and the rules the cases state in JSON
(no ``none`` choice, ``toolUseId``, ``status``, the decoded event stream) hold on more inputs."""

from __future__ import annotations

import json

import pytest
from captures import CAPTURES
from ref_helpers import refusal, run
from toolwire.corpus import wire
from toolwire_reference import translate
from toolwire_reference.dialects.bedrock_converse.rules import RULES as BEDROCK_RULES
from toolwire_reference.dialects.bedrock_converse.tools import tool_use_id

BEDROCK = "bedrock-converse"
FILES = sorted((CAPTURES / BEDROCK).glob("*.json"))
WEATHER = {
    "name": "get_weather",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
}


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_capture_is_valid_wire(path):
    kind = "request" if ".request." in path.name else "response"
    assert wire.validate(BEDROCK, kind, json.loads(path.read_text())) == []


def _history(call_id):
    return [
        {"role": "user", "content": [{"type": "text", "text": "Weather?"}]},
        {
            "role": "assistant",
            "content": [{"type": "tool_call", "id": call_id, "name": "get_weather", "arguments": {}}],
        },
        {"role": "user", "content": [{"type": "tool_result", "call_id": call_id, "content": []}]},
    ]


@pytest.mark.parametrize(
    "call_id", ["call_1", "toolu_01A", "fc.x:1-2", "a b", "é", "x" * 64, "x" * 65, "call/1"]
)
def test_tool_use_ids_fit_the_rule_and_pair_up(call_id):
    out = run("request", {"messages": _history(call_id), "tools": [WEATHER]}, "canonical", BEDROCK)
    use = out["messages"][1]["content"][0]["toolUse"]["toolUseId"]
    result = out["messages"][2]["content"][0]["toolResult"]["toolUseId"]
    assert BEDROCK_RULES.id_rule(use) and use == result
    assert (use == call_id) == bool(BEDROCK_RULES.id_rule(call_id))
    assert wire.validate(BEDROCK, "request", out) == []


def test_a_mapped_id_is_a_pure_function_of_the_id():
    assert tool_use_id("a b", {}) == tool_use_id("a b", {}) != tool_use_id("a c", {})


def test_none_leaves_tool_config_out_unless_the_history_has_tool_blocks():
    first = {"messages": _history("call_1")[:1], "tools": [WEATHER], "tool_choice": {"mode": "none"}}
    assert "toolConfig" not in run("request", first, "canonical", BEDROCK)
    later = dict(first, messages=_history("call_1"))
    assert refusal("request", later, "canonical", BEDROCK) == ("choice.unsupported", "/tool_choice")
    degraded = run("request", later, "canonical", BEDROCK, unsupported="degrade")
    assert degraded["toolConfig"] == {
        "tools": [{"toolSpec": {"name": "get_weather", "inputSchema": {"json": WEATHER["parameters"]}}}]
    }


def test_tool_history_without_tools_is_refused_or_declared():
    body = {"messages": _history("call_1")}
    assert refusal("request", body, "canonical", BEDROCK) == ("content.unsupported", "/messages/1/content/0")
    out = run("request", body, "canonical", BEDROCK, unsupported="degrade")
    assert out["toolConfig"]["tools"][0]["toolSpec"]["name"] == "get_weather"


def test_status_error_is_the_error_flag_both_ways():
    body = {"messages": _history("call_1"), "tools": [WEATHER]}
    body["messages"][2]["content"][0]["is_error"] = True
    there = run("request", body, "canonical", BEDROCK)
    assert there["messages"][2]["content"][0]["toolResult"]["status"] == "error"
    back = run("request", there, BEDROCK, "anthropic")
    assert back["messages"][2]["content"][0]["is_error"] is True


def test_a_block_with_two_members_is_invalid():
    body = {"messages": [{"role": "user", "content": [{"text": "hi", "image": {}}]}]}
    assert refusal("request", body, BEDROCK, "canonical") == ("payload.invalid", "/messages/0/content/0")


def _events(*pairs):
    return [{"event": name, "data": data} for name, data in pairs]


START = ("messageStart", {"role": "assistant"})
TEXT = ("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": "hi"}})
STOP = ("contentBlockStop", {"contentBlockIndex": 0})


def test_a_stream_may_end_after_message_stop_without_metadata():
    events = _events(START, TEXT, STOP, ("messageStop", {"stopReason": "end_turn"}))
    out = translate("stream", events, source=BEDROCK, target="canonical")
    assert out[-1]["data"] == {"type": "message_end", "stop_reason": "end_turn"}


def test_a_stream_without_message_stop_is_truncated():
    code, path = refusal("stream", _events(START, TEXT), BEDROCK, "canonical")
    assert (code, path) == ("stream.truncated", "")


def test_an_exception_event_is_an_error():
    events = _events(START, TEXT, ("throttlingException", {"message": "slow down"}))
    out = translate("stream", events, source=BEDROCK, target="anthropic")
    assert out[-1]["data"]["error"] == {"type": "rate_limit_error", "message": "slow down"}
    back = translate("stream", out, source="anthropic", target=BEDROCK)
    assert back[-1] == {"event": "throttlingException", "data": {"message": "slow down"}}


def test_an_event_without_its_name_is_invalid():
    code, path = refusal("stream", [{"data": {"role": "assistant"}}], BEDROCK, "canonical")
    assert (code, path) == ("stream.invalid_event", "/0/data")
