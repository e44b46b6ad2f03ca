"""peer:litellm (suite/toolwire/peers/litellm.py): loads, declares well-formed capabilities,
runs real corpus checks without a harness error of its own.
Skipped when the `litellm` extra is not installed."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from peer_support import check_capabilities, read_positions, require, run_subset

NAME = "litellm"
SELECTION = " or ".join(
    [
        "streams/anthropic-tool-use",
        "streams/openai-chat-parallel",
        "choice/openai-chat-required",
        "messages/anthropic-capture-tool-choice",
        "messages/responses-capture-tool-choice-named",
        "responses/anthropic-end-turn-capture",
        "streams/gemini-text-followup-capture",
    ]
)


def test_capabilities() -> None:
    require(NAME)
    check_capabilities(NAME, "litellm")


def test_corpus_subset_runs(tmp_path: Path) -> None:
    require(NAME)
    run_subset(tmp_path, NAME, SELECTION)


@pytest.mark.parametrize(
    ("case", "target"),
    [
        ("streams/anthropic-tool-use-capture", "openai-chat"),
        ("streams/gemini-function-call-thought-signature-capture", "openai-chat"),
        ("streams/openai-chat-parallel-calls-capture", "anthropic"),
        ("streams/anthropic-tool-use-capture", "openai-responses"),
        ("streams/gemini-function-call-thought-signature-capture", "anthropic"),
        ("streams/openai-responses-encrypted-reasoning-then-call-2025-09-capture", "anthropic"),
    ],
)
def test_streams_are_driven_lazily(case: str, target: str) -> None:
    """Each output event is yielded as LiteLLM yields it, with the input read only as far as LiteLLM read it
    (the ``incremental`` stream checks measure the library, not the adapter)."""
    require(NAME)
    positions, n = read_positions(NAME, case, target)
    assert positions and positions == sorted(positions)
    assert positions[0] <= min(2, n), positions
    assert len(set(positions)) > 1, positions


def test_anthropic_to_openai_chat_is_what_the_chat_completions_route_sends() -> None:
    """Toward OpenAI Chat the Anthropic request goes through ``litellm.anthropic.messages.create`` with
    LiteLLM's documented opt-out of the Responses route, and what the OpenAI SDK's client sends is judged
    (the /v1/messages adapter's intermediate dict is not what reaches OpenAI: ``completion`` moves a tool
    result's image out and strips thinking blocks). The model is an OpenAI one, as a user routing there
    names: LiteLLM copies ``cache_control`` only for models that consume it (Claude, Bedrock ARNs, Gemini)."""
    require(NAME)
    from toolwire.peers.litellm import LiteLLMTranslator

    cache = {"type": "ephemeral"}
    tool = {"name": "f", "description": "f", "input_schema": {"type": "object"}, "cache_control": cache}
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 512,
        "system": [{"type": "text", "text": "Be brief.", "cache_control": cache}],
        "tools": [tool],
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi", "cache_control": cache}]}],
    }
    translator = LiteLLMTranslator()
    sent = translator.translate("request", "anthropic", "openai-chat", copy.deepcopy(body), {})
    assert "cache_control" not in str(sent), sent
    assert sent["model"] == "gpt-4o" and sent["messages"][-1]["role"] == "user"
    import litellm

    assert litellm.use_chat_completions_url_for_anthropic_messages is False  # the setting is restored


def test_the_responses_bridges_are_driven_both_ways() -> None:
    """LiteLLM's Responses ↔ Chat bridges are routes of their own: ``litellm.responses`` with
    ``use_chat_completions_api`` sends a chat completion, ``litellm.completion(model="openai/responses/…")`` a
    Responses request, and each reads the other's answer back."""
    require(NAME)
    from toolwire.peers.litellm import LiteLLMTranslator

    translator = LiteLLMTranslator()
    tool = {"type": "function", "name": "f", "parameters": {"type": "object", "properties": {}}}
    body = {"model": "gpt-4o", "input": [{"role": "user", "content": "hi"}], "tools": [tool]}
    sent = translator.translate("request", "openai-responses", "openai-chat", body, {})
    assert sent["messages"] == [{"role": "user", "content": "hi"}]
    assert sent["tools"][0]["function"]["name"] == "f"
    chat = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "tool_choice": "required"}
    chat["tools"] = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]
    sent = translator.translate("request", "openai-chat", "openai-responses", chat, {})
    assert sent["input"][0]["role"] == "user" and sent["tool_choice"] == "required"
    caps = translator.capabilities()["kinds"]
    assert ["openai-chat", "openai-responses"] in caps["response"] + caps["stream"]
    assert ["openai-responses", "openai-chat"] in caps["response"] + caps["stream"]
