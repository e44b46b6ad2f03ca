"""The canonical dialect: toolwire's own model on the wire (closed: unknown members are invalid)."""

from __future__ import annotations

from collections.abc import Mapping

from .._json import MISSING, expect_object, invalid
from ..choice import MODES, invalid_choice, read_flag, read_names, read_payload
from ..model import Choice, Tool
from .common import head, read_function, schema_copy, tool_list

NAME = "canonical"
_TOOL_MEMBERS = ("name", "description", "parameters", "strict")


def decode_tools(payload: object, profile: Mapping[str, str]) -> list[Tool]:
    tools = []
    for i, item in enumerate(tool_list(payload)):
        obj = expect_object(item, (i,), "a tool")
        for key in obj:
            if key not in _TOOL_MEMBERS:
                raise invalid(f"a canonical tool has no member `{key}`", (i, key))
        tools.append(read_function(obj, (i,), params_key="parameters", null_strict=False))
    return tools


def copies_schemas(profile: Mapping[str, str]) -> bool:
    """True: ``encode_tools`` copies parameter schemas unchanged (``validate_tools(copies=...)``)."""
    return True


def encode_tools(tools: list[Tool], profile: Mapping[str, str]) -> list[dict]:
    out = []
    for tool in tools:
        item = head(tool)
        if tool.has_parameters:
            item["parameters"] = schema_copy(tool)
        if tool.strict is not MISSING:
            item["strict"] = tool.strict
        out.append(item)
    return out


def decode_tool_choice(payload: object, profile: Mapping[str, str]) -> Choice:
    obj = read_payload(payload, ("tool_choice", "parallel_tool_calls"), NAME)
    choice = Choice()
    value = obj.get("tool_choice", MISSING)
    if value is not MISSING:
        if not isinstance(value, dict):
            raise invalid_choice("`tool_choice` must be an object {mode, tools?}", "/tool_choice")
        for key in value:
            if key not in ("mode", "tools"):
                raise invalid_choice(f"`tool_choice` has no member `{key}`", "/tool_choice")
        if value.get("mode") not in MODES:
            raise invalid_choice(f"`mode` must be one of {', '.join(MODES)}", "/tool_choice/mode")
        choice.mode = value["mode"]
        if "tools" in value:
            if choice.mode == "none":
                raise invalid_choice("`mode: none` cannot restrict the tools", "/tool_choice/tools")
            choice.tools = read_names(value["tools"], "/tool_choice/tools")
    choice.parallel = read_flag(obj, "parallel_tool_calls", "/parallel_tool_calls", null_is_absent=False)
    return choice


def encode_tool_choice(choice: Choice, profile: Mapping[str, str]) -> dict:
    out: dict = {}
    if choice.mode is not None:
        out["tool_choice"] = {"mode": choice.mode}
        if choice.tools:
            out["tool_choice"]["tools"] = list(choice.tools)
    if choice.parallel is not None:
        out["parallel_tool_calls"] = choice.parallel
    return out
