"""Anthropic Messages: ``{name, description, input_schema, strict}`` tools and ``tool_choice`` with
``disable_parallel_tool_use``.

Hint members (``cache_control``, ``defer_loading``, ``input_examples``, ...) are dropped on decode.
A missing ``input_schema`` is ``payload.invalid`` (Anthropic requires it). A root ``anyOf``, ``oneOf``
or ``allOf`` is refused on encode (``schema.root_not_object``, under every profile), and so is a top-level
property key Anthropic does not take (``schema.invalid_property_name``).
``disable_parallel_tool_use`` on a ``none`` choice is dropped on encode (no call can happen, so nothing
is lost).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..._json import MISSING, expect_object, invalid, json_type
from ...choice import invalid_choice, read_flag, read_payload, refuse_or_degrade
from ...custom import without_custom_choice
from ...errors import SchemaProblem, fail
from ...model import Choice, Tool
from ..common import head, read_function, schema_copy, tool_list
from .rules import PROPERTY_NAME_PATTERN, ROOT_UNSUPPORTED, RULES

NAME = RULES.name
EMPTY_INPUT_SCHEMA = {"type": "object", "properties": {}}
_ROOT_UNSUPPORTED = frozenset(ROOT_UNSUPPORTED)
_property_name = re.compile(PROPERTY_NAME_PATTERN).fullmatch


def decode_tools(payload: object, profile: Mapping[str, str]) -> list[Tool]:
    tools = []
    for i, item in enumerate(tool_list(payload)):
        obj = expect_object(item, (i,), "a tool")
        kind = obj.get("type", MISSING)
        if kind is not MISSING and kind != "custom":
            if isinstance(kind, str):
                raise fail(
                    "tool.unsupported_type",
                    f"the server tool `{kind}` has no equivalent in other dialects",
                    (i, "type"),
                )
            raise invalid(f"`type` must be a string, not {json_type(kind)}", (i, "type"))
        if "input_schema" not in obj:
            raise invalid("a tool needs an `input_schema`", (i, "input_schema"))
        tools.append(read_function(obj, (i,), params_key="input_schema", null_strict=False))
    return tools


def _reject_root_combinators(schema: dict) -> None:
    """Anthropic: "input_schema does not support oneOf, allOf, or anyOf at the top level", even next to
    ``type: object``. Merging or dropping the branches would change the schema's meaning: refused
    under every profile, at the keyword."""
    if _ROOT_UNSUPPORTED.isdisjoint(schema):
        return
    for key in schema:
        if key in ROOT_UNSUPPORTED:
            raise SchemaProblem(
                "schema.root_not_object",
                f"Anthropic's input_schema does not support `{key}` at the top level",
                (key,),
            )


def copies_schemas(profile: Mapping[str, str]) -> bool:
    """True: ``encode_tools`` copies parameter schemas unchanged (``validate_tools(copies=...)``)."""
    return True


def encode_tools(tools: list[Tool], profile: Mapping[str, str]) -> list[dict]:
    out = []
    for tool in tools:
        item = head(tool)
        if tool.parameters is not MISSING:
            if not _ROOT_UNSUPPORTED.isdisjoint(tool.parameters):
                try:
                    _reject_root_combinators(tool.parameters)
                except SchemaProblem as problem:
                    raise tool.params_origin.error(problem) from None
            properties = tool.parameters.get("properties")
            if type(properties) is dict and not all(map(_property_name, properties)):
                raise tool.params_origin.error(_bad_property_name(properties)) from None
            item["input_schema"] = schema_copy(tool)
        else:
            item["input_schema"] = dict(EMPTY_INPUT_SCHEMA, properties={})
        if tool.strict is not MISSING:
            item["strict"] = tool.strict
        out.append(item)
    return out


def _bad_property_name(properties: dict) -> SchemaProblem:
    name = next(k for k in properties if not _property_name(k))
    return SchemaProblem(
        "schema.invalid_property_name",
        f"Anthropic takes top-level property names matching {PROPERTY_NAME_PATTERN}, not {name!r}",
        ("properties", name),
    )


def decode_tool_choice(payload: object, profile: Mapping[str, str]) -> Choice:
    obj = read_payload(payload, ("tool_choice",), NAME)
    choice = Choice(parallel_path="/tool_choice/disable_parallel_tool_use")
    value = obj.get("tool_choice", MISSING)
    if value is MISSING:
        return choice
    if not isinstance(value, dict):
        raise invalid_choice("`tool_choice` must be an object with a `type`", "/tool_choice")
    kind = value.get("type")
    if kind == "tool":
        name = value.get("name")
        if not isinstance(name, str) or not name:
            raise invalid_choice("a `tool` choice needs a non-empty `name`", "/tool_choice")
        choice.mode, choice.tools = "required", [name]
    elif kind in ("auto", "any", "none"):
        choice.mode = {"auto": "auto", "any": "required", "none": "none"}[kind]
    else:
        raise invalid_choice(f"unknown tool choice type {kind!r}", "/tool_choice")
    disable = read_flag(value, "disable_parallel_tool_use", choice.parallel_path, null_is_absent=False)
    if disable is not None:
        choice.parallel = not disable
    return choice


def encode_tool_choice(choice: Choice, profile: Mapping[str, str]) -> dict:
    choice = without_custom_choice(choice, profile, NAME)
    value: dict | None = None
    if choice.mode == "none":
        value = {"type": "none"}
    elif choice.mode == "auto":
        value = {"type": "auto"}
        if choice.tools:
            refuse_or_degrade(
                profile,
                "choice.unsupported",
                "Anthropic cannot restrict an `auto` choice to some tools",
                choice.tools_path,
                None,
            )
    elif choice.mode == "required":
        if not choice.tools:
            value = {"type": "any"}
        elif len(choice.tools) == 1:
            value = {"type": "tool", "name": choice.tools[0]}
        else:
            value = refuse_or_degrade(
                profile,
                "choice.unsupported",
                "Anthropic can force one named tool or any tool, not a choice among several",
                choice.tools_path,
                {"type": "any"},
            )
    if choice.parallel is False:
        value = value or {"type": "auto"}
        if value["type"] != "none":
            value["disable_parallel_tool_use"] = True
    return {"tool_choice": value} if value is not None else {}
