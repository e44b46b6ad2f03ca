"""A small gateway's tool translation: OpenAI Chat tool definitions into Anthropic's, the way many
gateways write it by hand (and with the gaps they usually have: see toolwire-expectations.toml)."""

from __future__ import annotations

import os
from typing import Any

__all__ = ["ToolError", "openai_tool_choice_to_anthropic", "openai_tools_to_anthropic"]


class ToolError(ValueError):
    """A tool list that cannot be translated; ``path`` points into it."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message)
        self.path = path


def openai_tools_to_anthropic(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``tools`` of a Chat Completions request as the ``tools`` of a Messages request."""
    out = []
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict) or tool.get("type") != "function":
            raise ToolError("only function tools are supported", f"/{i}")
        function = tool.get("function")
        if not isinstance(function, dict):
            raise ToolError("`function` must be an object", f"/{i}/function")
        name = function.get("name")
        if not isinstance(name, str) or not name:
            raise ToolError("a tool needs a name", f"/{i}/function/name")
        converted: dict[str, Any] = {"name": name}
        description = function.get("description")
        # SAMPLE_GATEWAY_REGRESSION=1 plays a regression: descriptions are lost
        if description and not os.environ.get("SAMPLE_GATEWAY_REGRESSION"):
            converted["description"] = description
        converted["input_schema"] = function.get("parameters") or {"type": "object", "properties": {}}
        out.append(converted)
    return out


def openai_tool_choice_to_anthropic(members: dict[str, Any]) -> dict[str, Any]:
    """``tool_choice`` (and ``parallel_tool_calls``) of a Chat Completions request as a Messages request's
    ``tool_choice``, the way it is often first written: the mode's name kept as it is."""
    if "function_call" in members:
        raise ToolError("the legacy function_call is not supported", "/function_call")
    choice = members.get("tool_choice")
    if isinstance(choice, dict):
        function = choice.get("function")
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise ToolError("a named tool_choice needs function.name", "/tool_choice/function/name")
        return {"tool_choice": {"type": "tool", "name": function["name"]}}
    if choice is None or choice == "none":
        return {}
    return {"tool_choice": {"type": choice}}
