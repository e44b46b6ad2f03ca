"""peer:langchain (suite/toolwire/peers/langchain.py): loads, declares well-formed capabilities,
runs real corpus checks without a harness error of its own.
Skipped when the `langchain` extra is not installed."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from peer_support import check_capabilities, require, run_subset

NAME = "langchain"
SELECTION = " or ".join(
    [
        "choice/openai-chat-required",
        "tools/from-openai",
        "messages/anthropic-capture-tool-choice",
    ]
)


def test_capabilities() -> None:
    require(NAME)
    check_capabilities(NAME, "langchain-core")


def test_corpus_subset_runs(tmp_path: Path) -> None:
    require(NAME)
    run_subset(tmp_path, NAME, SELECTION)


#: (source, target, the source's choice members, what ``bind_tools`` is handed): strings as they are (no
#: ``"required"`` -> ``"any"``: LangChain's own reading of it is judged), a provider's dict in its vocabulary
CHOICES = [
    ("openai-chat", "anthropic", {"tool_choice": "required"}, {"tool_choice": "required"}),
    ("openai-chat", "anthropic", {"tool_choice": "none"}, {"tool_choice": "none"}),
    (
        "openai-chat",
        "anthropic",
        {"tool_choice": {"type": "function", "function": {"name": "f"}}},
        {"tool_choice": "f"},
    ),
    (
        "openai-chat",
        "openai-responses",
        {"tool_choice": "required", "parallel_tool_calls": False},
        {"tool_choice": "required", "parallel_tool_calls": False},
    ),
    (
        "anthropic",
        "openai-chat",
        {"tool_choice": {"type": "any", "disable_parallel_tool_use": True}},
        {"tool_choice": "any", "parallel_tool_calls": False},
    ),
    ("anthropic", "openai-chat", {"tool_choice": {"type": "tool", "name": "f"}}, {"tool_choice": "f"}),
]


@pytest.mark.parametrize(("source", "target", "choice", "handed"), CHOICES)
def test_bind_tools_gets_the_choice_a_user_writes(
    source: str, target: str, choice: dict[str, Any], handed: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No string is rewritten before ``bind_tools`` sees it (the adapter once turned ``"required"`` into
    ``"any"``, hiding LangChain reading it as a tool's name); a provider's dict is spelled as a LangChain user
    writes it (a tool's name, a mode), since nobody hands ``ChatOpenAI`` an Anthropic dict."""
    require(NAME)
    from langchain_anthropic import ChatAnthropic
    from langchain_openai import ChatOpenAI
    from toolwire.peers.langchain import LangChainTranslator

    seen: list[dict[str, Any]] = []
    for cls in (ChatAnthropic, ChatOpenAI):
        original = cls.bind_tools

        def record(self: Any, tools: Any, *, _original: Any = original, **kwargs: Any) -> Any:
            seen.append(dict(kwargs))
            return _original(self, tools, **kwargs)

        monkeypatch.setattr(cls, "bind_tools", record)
    LangChainTranslator().translate("tool_choice", source, target, copy.deepcopy(choice), {})
    assert seen == [handed]


def test_anthropic_history_reaches_chat_openai_as_tool_calls_and_tool_messages() -> None:
    """Anthropic messages go through LangChain's converter for provider-format messages
    (``convert_to_openai_messages``), as a LangChain user with an Anthropic history does: a ``tool_use``
    block is a tool call of the assistant message, a ``tool_result`` block a ``tool`` message. Handed to
    ``convert_to_messages`` alone (the adapter once did), they stayed raw blocks: an assistant message with
    ``content: []`` and no ``tool_calls``, a user message holding the ``tool_result`` block."""
    require(NAME)
    from toolwire.peers.langchain import LangChainTranslator

    weather = {"type": "object", "properties": {"city": {"type": "string"}}}
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "tools": [{"name": "get_weather", "description": "Weather.", "input_schema": weather}],
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}]},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "22C"}],
            },
        ],
    }
    sent = LangChainTranslator().translate("request", "anthropic", "openai-chat", copy.deepcopy(body), {})
    assistant, tool = sent["messages"][1:]
    assert assistant["role"] == "assistant"
    assert [(c["id"], c["function"]["name"]) for c in assistant["tool_calls"]] == [("toolu_1", "get_weather")]
    assert tool == {"role": "tool", "tool_call_id": "toolu_1", "content": "22C"}


@pytest.mark.parametrize(
    ("kind", "payload"),
    [
        (
            "tool_choice",
            {"tool_choice": {"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": []}}},
        ),
        (
            "request",
            {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "web_search_options": {}},
        ),
    ],
)
def test_another_providers_members_are_not_handed_to_chat_anthropic(
    kind: str, payload: dict[str, Any]
) -> None:
    """``bind_tools`` and the call's keywords take the chat model's own provider format: an OpenAI-only choice
    dict or request member handed to ``ChatAnthropic`` is nothing a LangChain user writes, so the check is
    skipped (``protocol.unsupported``) rather than LangChain blamed for passing it on."""
    require(NAME)
    from toolwire.peers.langchain import LangChainTranslator
    from toolwire.protocol import UNSUPPORTED, TranslationRefusal

    with pytest.raises(TranslationRefusal) as refused:
        LangChainTranslator().translate(kind, "openai-chat", "anthropic", copy.deepcopy(payload), {})
    assert refused.value.code == UNSUPPORTED


def test_anthropic_thinking_is_not_handed_to_chat_openai() -> None:
    """``ChatOpenAI`` forwards unknown keywords to OpenAI as they are: Anthropic's ``thinking`` handed to it
    is nothing a LangChain user writes (its knob is ``reasoning_effort``), so the check is skipped; the rest
    of an Anthropic request still reaches it."""
    require(NAME)
    from toolwire.peers.langchain import LangChainTranslator
    from toolwire.protocol import UNSUPPORTED, TranslationRefusal

    messages = [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    body = {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": messages}
    thinking = {**body, "thinking": {"type": "enabled", "budget_tokens": 1024}}
    with pytest.raises(TranslationRefusal) as refused:
        LangChainTranslator().translate("request", "anthropic", "openai-chat", thinking, {})
    assert refused.value.code == UNSUPPORTED and "thinking" in str(refused.value)
    sent = LangChainTranslator().translate("request", "anthropic", "openai-chat", body, {})
    assert "thinking" not in sent and sent["messages"][0]["role"] == "user"
