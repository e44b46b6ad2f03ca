"""Canonical tools and tool choice on the wire: toolwire's own model (closed: unknown members are
invalid)."""

from __future__ import annotations

from collections.abc import Mapping

from ... import custom
from ..._json import MISSING, expect_object, invalid
from ...choice import MODES, invalid_choice, read_flag, read_names, read_payload
from ...model import Choice, Tool
from ..common import head, read_function, schema_copy, tool_list
from .rules import RULES

NAME = RULES.name
_TOOL_MEMBERS = ("name", "description", "parameters", "strict")
_CUSTOM_TOOL_MEMBERS = ("type", "name", "description", "format")


def decode_tools(payload: object, profile: Mapping[str, str]) -> list[Tool]:
    tools = []
    for i, item in enumerate(tool_list(payload)):
        obj = expect_object(item, (i,), "a tool")
        is_custom = "type" in obj
        if is_custom and obj["type"] != "custom":
            raise invalid('a canonical tool\'s `type` is "custom" (a function tool has none)', (i, "type"))
        for key in obj:
            if key not in (_CUSTOM_TOOL_MEMBERS if is_custom else _TOOL_MEMBERS):
                raise invalid(f"a canonical tool has no member `{key}`", (i, key))
        if is_custom:
            tools.append(custom.read_tool(obj, (i,), tool_path=(i,), nested=False))
        else:
            tools.append(read_function(obj, (i,), params_key="parameters", null_strict=False))
    return tools


def copies_schemas(profile: Mapping[str, str]) -> bool:
    """True: ``encode_tools`` copies parameter schemas unchanged (``validate_tools(copies=...)``)."""
    return True


def encode_tools(tools: list[Tool], profile: Mapping[str, str]) -> list[dict]:
    out = []
    for tool in tools:
        if tool.custom:
            out.append({"type": "custom", **custom.write_tool(tool, nested=False)})
            continue
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
            if key not in ("mode", "tools", "custom"):
                raise invalid_choice(f"`tool_choice` has no member `{key}`", "/tool_choice")
        if value.get("mode") not in MODES:
            raise invalid_choice(f"`mode` must be one of {', '.join(MODES)}", "/tool_choice/mode")
        choice.mode = value["mode"]
        if "tools" in value:
            if choice.mode == "none":
                raise invalid_choice("`mode: none` cannot restrict the tools", "/tool_choice/tools")
            choice.tools = read_names(value["tools"], "/tool_choice/tools")
        if "custom" in value:
            names = read_names(value["custom"], "/tool_choice/custom")
            if any(name not in (choice.tools or ()) for name in names):
                raise invalid_choice("`custom` names tools that `tools` lists", "/tool_choice/custom")
            choice.custom = frozenset(names)
    choice.parallel = read_flag(obj, "parallel_tool_calls", "/parallel_tool_calls", null_is_absent=False)
    return choice


def encode_tool_choice(choice: Choice, profile: Mapping[str, str]) -> dict:
    out: dict = {}
    if choice.mode is not None:
        out["tool_choice"] = {"mode": choice.mode}
        if choice.tools:
            out["tool_choice"]["tools"] = list(choice.tools)
            if choice.custom:
                out["tool_choice"]["custom"] = [name for name in choice.tools if name in choice.custom]
    if choice.parallel is not None:
        out["parallel_tool_calls"] = choice.parallel
    return out
