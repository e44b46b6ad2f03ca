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


#: (source, target, the source's choice members) → handed to ``bind_tools`` exactly as carried
CHOICES = [
    ("openai-chat", "anthropic", {"tool_choice": "required"}),
    ("openai-chat", "anthropic", {"tool_choice": "none"}),
    ("openai-chat", "anthropic", {"tool_choice": {"type": "function", "function": {"name": "f"}}}),
    ("openai-chat", "openai-responses", {"tool_choice": "required", "parallel_tool_calls": False}),
    ("anthropic", "openai-chat", {"tool_choice": {"type": "any", "disable_parallel_tool_use": True}}),
    ("anthropic", "openai-chat", {"tool_choice": {"type": "tool", "name": "f"}}),
]


@pytest.mark.parametrize(("source", "target", "choice"), CHOICES)
def test_bind_tools_gets_the_source_choice_unchanged(
    source: str, target: str, choice: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The adapter rewrites no tool choice into LangChain's vocabulary before ``bind_tools`` sees it (a
    user porting a request hands over what the request carries); what ``bind_tools`` makes of it is judged."""
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
    assert seen == [choice]
