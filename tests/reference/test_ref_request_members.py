"""OpenAI request members: defaults dropped only while they hold the default, `verbosity` carried between
the OpenAI dialects (corpus/RULES.md "Settings")."""

import pytest
from ref_helpers import refusal, run

CHAT = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


@pytest.mark.parametrize("member, value", [("n", 1), ("logprobs", False), ("top_logprobs", 0)])
def test_chat_defaults_are_dropped(member, value):
    assert run("request", {**CHAT, member: value}, "openai-chat", "anthropic")["messages"]


@pytest.mark.parametrize("member, value", [("n", 2), ("n", True), ("logprobs", True), ("top_logprobs", 1)])
def test_chat_other_values_are_refused(member, value):
    assert refusal("request", {**CHAT, member: value}, "openai-chat", "anthropic") == (
        "request.unsupported_field",
        f"/{member}",
    )


def test_verbosity_between_the_openai_dialects_and_dropped_elsewhere():
    out = run("request", {**CHAT, "verbosity": "high"}, "openai-chat", "openai-responses")
    assert out["text"] == {"verbosity": "high"}
    assert run("request", out, "openai-responses", "openai-chat")["verbosity"] == "high"
    assert "verbosity" not in run("request", {**CHAT, "verbosity": "high"}, "openai-chat", "gemini")
    assert refusal("request", {**CHAT, "verbosity": "loud"}, "openai-chat", "canonical") == (
        "payload.invalid",
        "/verbosity",
    )
    responses = {"model": "m", "input": "hi", "text": {"verbosity": 1}}
    assert refusal("request", responses, "openai-responses", "canonical") == (
        "payload.invalid",
        "/text/verbosity",
    )


def test_verbosity_beside_a_response_format():
    responses = {"model": "m", "input": "hi", "text": {"format": {"type": "json_object"}, "verbosity": "low"}}
    out = run("request", responses, "openai-responses", "openai-responses")
    assert out["text"] == {"format": {"type": "json_object"}, "verbosity": "low"}
