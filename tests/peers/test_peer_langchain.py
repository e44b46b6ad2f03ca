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
