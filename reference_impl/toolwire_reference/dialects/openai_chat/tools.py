"""OpenAI Chat Completions: ``{"type": "function", "function": {...}}`` and custom (free-form)
``{"type": "custom", "custom": {...}}`` tools, ``tool_choice``, ``parallel_tool_calls`` and the legacy
``function_call`` (decode only)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import custom
from ..._json import MISSING, expect_object
from ...model import Choice, Tool
from .. import openai_common
from ..common import read_function, tool_list
from .rules import RULES

NAME = RULES.name
_UNSUPPORTED_CHOICES: frozenset[str] = frozenset()


def decode_tools(payload: object, profile: Mapping[str, str]) -> list[Tool]:
    tools = []
    for i, item in enumerate(tool_list(payload)):
        obj = openai_common.openai_tool(item, i)
        if obj["type"] == "custom":
            inner = expect_object(obj.get("custom", MISSING), (i, "custom"), "`custom`")
            tools.append(custom.read_tool(inner, (i, "custom"), tool_path=(i,), nested=True))
            continue
        function = obj.get("function", MISSING)
        if type(function) is not dict:  # (the usual case without a call)
            function = expect_object(function, (i, "function"), "`function`")
        tools.append(
            read_function(
                function, (i, "function"), params_key="parameters", null_strict=True, tool_path=(i,)
            )
        )
    return tools


copies_schemas = openai_common.copies_schemas


def encode_tools(tools: list[Tool], profile: Mapping[str, str]) -> list[dict]:
    return [
        {"type": "custom", "custom": custom.write_tool(tool, nested=True)}
        if tool.custom
        else {
            "type": "function",
            "function": openai_common.function_fields(
                tool, profile, always_parameters=False, undeclared_strict=MISSING
            ),
        }
        for tool in tools
    ]


def _tool_ref(name: str, is_custom: bool) -> dict:
    kind = "custom" if is_custom else "function"
    return {"type": kind, kind: {"name": name}}


def _read_ref(ref: Any, kind: str) -> str | None:
    inner = ref.get(kind)  # {"type": "function", "function": {"name"}}, or "custom" alike
    name = inner.get("name") if isinstance(inner, dict) else None
    return name if isinstance(name, str) else None


def _allowed_members(value: dict) -> tuple[Any, Any]:
    inner = value.get("allowed_tools")
    return (inner.get("mode"), inner.get("tools")) if isinstance(inner, dict) else (None, None)


def decode_tool_choice(payload: object, profile: Mapping[str, str]) -> Choice:
    return openai_common.decode_choice(
        payload,
        profile,
        read_ref=_read_ref,
        allowed_members=_allowed_members,
        unsupported_types=_UNSUPPORTED_CHOICES,
        legacy=True,
        dialect=NAME,
    )


def encode_tool_choice(choice: Choice, profile: Mapping[str, str]) -> dict:
    """Chat's tool-choice members; under ``custom.tools=wrap`` a choice naming a custom tool names the
    function it became."""
    if custom.wrapping(profile):
        choice = custom.without_custom_choice(choice, profile, NAME)
    return openai_common.encode_choice(
        choice,
        tool_ref=_tool_ref,
        allowed=lambda mode, refs: {"type": "allowed_tools", "allowed_tools": {"mode": mode, "tools": refs}},
    )
