"""OpenAI Responses: flat ``{"type": "function", name, description, parameters, strict}`` tools, and
custom (free-form) ``{"type": "custom", name, description, format}`` tools.

A Responses tool without ``strict`` (or ``strict: null``) decodes to a tool that declares no
``strict``: the server then tries strict mode and falls back to non-strict, so "undeclared" is the
faithful reading, and a Chat Completions target must not receive ``strict: true`` for a schema that
strict mode would reject (case ``tools/from-openai-responses-strict-undeclared``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import custom
from ...model import Choice, Tool
from .. import openai_common
from ..common import read_function, tool_list
from .rules import RULES

NAME = RULES.name
# Responses tool-choice forms naming a hosted or MCP tool.
_UNSUPPORTED_CHOICES = frozenset(
    {
        "file_search",
        "web_search",
        "web_search_preview",
        "web_search_preview_2025_03_11",
        "web_search_2025_08_26",
        "computer_use_preview",
        "computer_use",
        "image_generation",
        "code_interpreter",
        "mcp",
        "apply_patch",
        "shell",
        "local_shell",
    }
)


def decode_tools(payload: object, profile: Mapping[str, str]) -> list[Tool]:
    tools = []
    for i, item in enumerate(tool_list(payload)):
        obj = openai_common.openai_tool(item, i)
        if obj["type"] == "custom":
            tools.append(custom.read_tool(obj, (i,), tool_path=(i,), nested=False))
            continue
        # the OpenAPI FunctionTool has `description: string | null`; real clients send null
        tools.append(
            read_function(obj, (i,), params_key="parameters", null_strict=True, null_description=True)
        )
    return tools


copies_schemas = openai_common.copies_schemas


def encode_tools(tools: list[Tool], profile: Mapping[str, str]) -> list[dict]:
    return [
        {"type": "custom", **custom.write_tool(tool, nested=False)}
        if tool.custom
        else {
            "type": "function",
            **openai_common.function_fields(tool, profile, always_parameters=True, undeclared_strict=False),
        }
        for tool in tools
    ]


def _tool_ref(name: str, is_custom: bool) -> dict:
    return {"type": "custom" if is_custom else "function", "name": name}


def _read_ref(ref: Any, kind: str) -> str | None:
    name = ref.get("name")
    return name if isinstance(name, str) else None


def _allowed_members(value: dict) -> tuple[Any, Any]:
    return value.get("mode"), value.get("tools")


def decode_tool_choice(payload: object, profile: Mapping[str, str]) -> Choice:
    return openai_common.decode_choice(
        payload,
        profile,
        read_ref=_read_ref,
        allowed_members=_allowed_members,
        unsupported_types=_UNSUPPORTED_CHOICES,
        legacy=False,
        dialect=NAME,
    )


def encode_tool_choice(choice: Choice, profile: Mapping[str, str]) -> dict:
    return openai_common.encode_choice(
        choice,
        tool_ref=_tool_ref,
        allowed=lambda mode, refs: {"type": "allowed_tools", "mode": mode, "tools": refs},
    )
