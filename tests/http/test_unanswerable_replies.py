"""A reply the provider never gives the request a proxy sent upstream is not handed to the proxy: two calls
answering ``parallel_tool_calls: false`` (claude-code-router's Responses transformer always asks so). The
check is skipped with the reason, not blamed on the proxy; with parallel calls allowed it is judged."""

from __future__ import annotations

import types
from typing import Any

import pytest
from toolwire.adapters.http import HttpAdapter
from toolwire.endpoints import http_client
from toolwire.protocol import UNSUPPORTED, TranslationRefusal

CALL = {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}
TWO_CALLS = {"output": [CALL, {**CALL, "call_id": "d"}]}


@pytest.mark.parametrize(
    ("dialect", "request_", "reply", "beyond"),
    [
        ("openai-responses", {"parallel_tool_calls": False}, TWO_CALLS, 2),
        ("openai-responses", {"parallel_tool_calls": True}, TWO_CALLS, None),
        ("openai-responses", {}, TWO_CALLS, None),
        ("openai-responses", {"parallel_tool_calls": False}, {"output": [CALL, {"type": "message"}]}, None),
        (
            "anthropic",
            {"tool_choice": {"type": "auto", "disable_parallel_tool_use": True}},
            {"content": [{"type": "tool_use"}, {"type": "text"}, {"type": "tool_use"}]},
            2,
        ),
        (
            "openai-chat",
            {"parallel_tool_calls": False},
            {"choices": [{"message": {"tool_calls": [{"id": "a"}, {"id": "b"}]}}]},
            2,
        ),
    ],
)
def test_calls_beyond_one_where_one_was_asked(dialect: str, request_: Any, reply: Any, beyond: Any) -> None:
    assert http_client(dialect).calls_beyond_one(request_, lambda: reply) == beyond


def test_the_adapter_skips_a_reply_the_provider_never_gives() -> None:
    adapter = types.SimpleNamespace(upstream="openai-responses")
    with pytest.raises(TranslationRefusal) as refused:
        HttpAdapter._refuse_unanswerable(adapter, {"body": {"parallel_tool_calls": False}}, lambda: TWO_CALLS)  # type: ignore[arg-type]
    assert refused.value.code == UNSUPPORTED and "2 calls" in refused.value.message
    HttpAdapter._refuse_unanswerable(adapter, {"body": {"model": "m"}}, lambda: TWO_CALLS)  # type: ignore[arg-type]


REFUSAL = {
    "choices": [{"message": {"role": "assistant", "content": None, "refusal": "I can't help with that."}}]
}
CUSTOM_CALL = {
    "choices": [{"message": {"tool_calls": [{"id": "c", "type": "custom", "custom": {"name": "t"}}]}}]
}


@pytest.mark.parametrize(
    ("request_", "reply", "skipped"),
    [
        ({"messages": []}, REFUSAL, "Structured Outputs"),
        ({"response_format": {"type": "json_schema", "json_schema": {"name": "x"}}}, REFUSAL, None),
        ({"tools": [{"type": "function", "function": {"name": "f", "strict": True}}]}, REFUSAL, None),
        (
            {"tools": [{"type": "function", "function": {"name": "f", "strict": False}}]},
            REFUSAL,
            "Structured",
        ),
        ({"messages": []}, {"choices": [{"message": {"refusal": None, "content": "hi"}}]}, None),
        ({"tools": [{"type": "function", "function": {"name": "t"}}]}, CUSTOM_CALL, "custom"),
        ({"tools": [{"type": "custom", "custom": {"name": "t"}}]}, CUSTOM_CALL, None),
    ],
)
def test_a_member_the_provider_gives_only_when_asked(request_: Any, reply: Any, skipped: Any) -> None:
    """A Chat refusal answers only a Structured Outputs request; a custom call only a request declaring a
    custom tool (LiteLLM's Responses bridge sends custom tools upstream as functions)."""
    why = http_client("openai-chat").unasked(request_, lambda: reply)
    assert (why is None) if skipped is None else (skipped in why)


def test_the_adapter_skips_a_reply_that_was_never_asked_for() -> None:
    adapter = types.SimpleNamespace(upstream="openai-chat")
    with pytest.raises(TranslationRefusal) as refused:
        HttpAdapter._refuse_unanswerable(adapter, {"body": {"model": "m"}}, lambda: REFUSAL)  # type: ignore[arg-type]
    assert refused.value.code == UNSUPPORTED and "never gets this reply" in refused.value.message


def test_the_client_request_asks_for_what_the_reply_needs() -> None:
    """A reply with a refusal is sent to a client request that asked for Structured Outputs in its own
    dialect; a proxy that forwards the format upstream is then judged on the reply."""
    chat = http_client("openai-chat")
    asked = chat.asking_for("openai-responses", lambda: REFUSAL)
    assert asked["text"]["format"]["type"] == "json_schema"
    assert "response_format" in chat.asking_for("openai-chat", lambda: REFUSAL)
    assert "output_config" in chat.asking_for("anthropic", lambda: REFUSAL)
    assert (
        chat.asking_for("anthropic", lambda: {"choices": [{"message": {"content": "hi", "refusal": None}}]})
        == {}
    )
    forwarded = {"response_format": asked and {"type": "json_schema", "json_schema": {"name": "answer"}}}
    assert chat.unasked(forwarded, lambda: REFUSAL) is None
