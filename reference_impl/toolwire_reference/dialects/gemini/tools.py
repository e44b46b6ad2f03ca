"""Google Gemini: ``[{"functionDeclarations": [...]}]`` tools and ``toolConfig.functionCallingConfig``.

Decoding accepts the proto-JSON snake_case spellings (``function_declarations``,
``parameters_json_schema``, ``tool_config``, ``function_calling_config``, ``allowed_function_names``).
``parallel_tool_calls: false`` with a ``none`` choice is dropped under every profile (no call can
happen; RULES.md). Readings where RULES.md is silent: ``allowedFunctionNames`` with a mode other than
``ANY`` is ``choice.invalid``; declaration members without a canonical equivalent (``response``,
``behavior``...) are dropped.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..._json import MISSING, expect_list, expect_object, invalid, pick_alias
from ...choice import invalid_choice, read_names, read_payload, refuse_or_degrade
from ...custom import without_custom_choice
from ...errors import fail, pointer
from ...model import Choice, SchemaOrigin, Tool
from ...profiles import degrading
from ..common import head, read_function, schema_copy, tool_list
from .rules import RULES
from .schema import to_gemini_schema
from .schema_decode import from_gemini_schema, source_segment

NAME = RULES.name
_DECLARATIONS = ("functionDeclarations", "function_declarations")
_JSON_SCHEMA = ("parametersJsonSchema", "parameters_json_schema")


#: ``decode_tools`` rewrites the OpenAPI schemas it reads (a walk): the payload's depth is checked first
DECODE_WALKS_SCHEMAS = True


def decode_tools(payload: object, profile: Mapping[str, str]) -> list[Tool]:
    tools = []
    for i, item in enumerate(tool_list(payload)):
        entry = expect_object(item, (i,), "a tool entry")
        others = [key for key in entry if key not in _DECLARATIONS]
        if others:
            raise fail(
                "tool.unsupported_type",
                f"the `{others[0]}` tool has no equivalent in other dialects",
                (i, others[0]),
            )
        key, declarations = pick_alias(entry, _DECLARATIONS, (i,))
        if key is None:
            raise invalid("a tool entry needs `functionDeclarations`", (i, "functionDeclarations"))
        for j, declaration in enumerate(expect_list(declarations, (i, key), f"`{key}`")):
            path = (i, key, j)
            obj = expect_object(declaration, path, "a function declaration")
            tool = read_function(obj, path, params_key=None, null_strict=False, has_strict=False)
            json_key, json_schema = pick_alias(obj, _JSON_SCHEMA, path)
            if "parameters" in obj and json_key is not None:
                raise invalid(
                    "`parameters` and `parametersJsonSchema` exclude each other", path + (json_key,)
                )
            if json_key is not None:
                tool.parameters, tool.params_origin = json_schema, SchemaOrigin(path + (json_key,))
            elif "parameters" in obj:
                source = obj["parameters"]
                tool.parameters = from_gemini_schema(source) if isinstance(source, dict) else source
                tool.params_origin = SchemaOrigin(
                    path + ("parameters",), source=source, mapper=source_segment
                )
            tools.append(tool)
    return tools


def copies_schemas(profile: Mapping[str, str]) -> bool:
    """Whether ``encode_tools`` copies parameter schemas unchanged (``validate_tools(copies=...)``):
    under ``gemini.schema=json-schema`` only (the OpenAPI subset is rewritten)."""
    return profile["gemini.schema"] == "json-schema"


def encode_tools(tools: list[Tool], profile: Mapping[str, str]) -> list[dict]:
    if not tools:
        return []
    declarations = []
    for tool in tools:
        item = head(tool)
        if tool.has_parameters:
            if profile["gemini.schema"] == "json-schema":
                item["parametersJsonSchema"] = schema_copy(tool)
            else:
                with tool.params_origin.reporting():
                    params = to_gemini_schema(tool.parameters, degrade=degrading(profile))
                if params is not None:
                    item["parameters"] = params
        declarations.append(item)
    return [{"functionDeclarations": declarations}]


def decode_tool_choice(payload: object, profile: Mapping[str, str]) -> Choice:
    obj = read_payload(payload, ("toolConfig", "tool_config"), NAME)
    choice = Choice()
    key, config = pick_alias(obj, ("toolConfig", "tool_config"), ())
    if config is MISSING or config is None:
        return choice
    expect_object(config, (key,), f"`{key}`")
    fkey, calling = pick_alias(config, ("functionCallingConfig", "function_calling_config"), (key,))
    if calling is MISSING or calling is None:
        return choice
    base = (key, fkey)
    expect_object(calling, base, f"`{fkey}`")
    nkey, names = pick_alias(calling, ("allowedFunctionNames", "allowed_function_names"), base)
    mode = calling.get("mode")
    choice.path = pointer(base + ("mode",))
    choice.tools_path = pointer(base + (nkey or "allowedFunctionNames",))
    # an empty list is "unset" in proto JSON: no restriction
    names = None if names in (MISSING, None, []) else read_names(names, choice.tools_path)
    if mode == "VALIDATED":
        refuse_or_degrade(
            profile,
            "choice.unsupported",
            "Gemini's VALIDATED mode has no equivalent elsewhere",
            choice.path,
            None,
        )
        choice.mode = "auto"
        return choice
    if mode not in (None, "MODE_UNSPECIFIED", "AUTO", "ANY", "NONE"):
        raise invalid_choice(f"unknown function-calling mode {mode!r}", choice.path)
    if names and mode != "ANY":
        raise invalid_choice("`allowedFunctionNames` is only valid with mode ANY", choice.tools_path)
    choice.mode = {"AUTO": "auto", "ANY": "required", "NONE": "none"}.get(mode)
    choice.tools = names or None
    return choice


def encode_tool_choice(choice: Choice, profile: Mapping[str, str]) -> dict:
    choice = without_custom_choice(choice, profile, NAME)
    config: dict | None = None
    if choice.mode == "auto":
        config = {"mode": "AUTO"}
        if choice.tools:
            refuse_or_degrade(
                profile,
                "choice.unsupported",
                "Gemini restricts the callable functions only in mode ANY",
                choice.tools_path,
                None,
            )
    elif choice.mode == "none":
        config = {"mode": "NONE"}
    elif choice.mode == "required":
        config = {"mode": "ANY"}
        if choice.tools:
            config["allowedFunctionNames"] = list(choice.tools)
    if choice.parallel is False and choice.mode != "none":
        refuse_or_degrade(
            profile,
            "choice.parallel_unsupported",
            "Gemini cannot turn parallel function calls off",
            choice.parallel_path,
            None,
        )
    return {"toolConfig": {"functionCallingConfig": config}} if config is not None else {}
