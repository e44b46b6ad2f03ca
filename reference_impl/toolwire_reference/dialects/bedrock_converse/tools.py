"""Bedrock Converse: ``toolConfig.tools`` entries ``{"toolSpec": {name, description?, inputSchema: {json},
strict?}}`` and ``toolConfig.toolChoice`` (``{auto: {}}``, ``{any: {}}``, ``{tool: {name}}``).

The ``tools`` payload is the list ``toolConfig.tools``; the ``tool_choice`` payload is the fragment
``{"toolConfig": {"toolChoice": …}}`` (its ``tools`` belong to the ``tools`` kind). ``cachePoint`` entries
(a prompt-cache hint) are dropped on decode; ``systemTool`` entries (hosted tools) are
``tool.unsupported_type``. Converse has no ``none`` choice and no parallel-calls setting: a ``none``
choice alone is ``choice.unsupported`` (a request leaves its tools out instead: ``request.py``), a
choice among several named tools ``choice.unsupported`` (degrade: ``any``), a restricted ``auto``
``choice.unsupported`` (degrade: ``auto``), ``parallel_tool_calls: false``
``choice.parallel_unsupported`` (degrade: dropped; dropped on ``none``).
"""

from __future__ import annotations

from collections.abc import Mapping

from ... import calls
from ..._json import MISSING, expect_object, invalid
from ...choice import invalid_choice, read_payload, refuse_or_degrade
from ...custom import without_custom_choice
from ...errors import fail
from ...model import Choice, SchemaOrigin, Tool
from ..common import head, read_function, schema_copy, tool_list
from .rules import RULES

NAME = RULES.name
EMPTY_INPUT_SCHEMA = {"type": "object", "properties": {}}
_CHOICE_PATH = "/toolConfig/toolChoice"


def decode_tools(payload: object, profile: Mapping[str, str]) -> list[Tool]:
    tools = []
    for i, item in enumerate(tool_list(payload)):
        entry = expect_object(item, (i,), "a tool")
        if "cachePoint" in entry and "toolSpec" not in entry:
            continue  # a prompt-cache hint (RULES.md, "Prompt-cache hints")
        if "toolSpec" not in entry:
            other = next(iter(entry), "toolSpec")
            if other == "systemTool":
                raise fail(
                    "tool.unsupported_type", "a Bedrock system tool has no equivalent elsewhere", (i, other)
                )
            raise invalid("a tool needs a `toolSpec`", (i, "toolSpec"))
        if len(entry) != 1:
            extra = next(key for key in entry if key != "toolSpec")
            raise invalid("a tool is a union: `toolSpec` and nothing else", (i, extra))
        path = (i, "toolSpec")
        spec = expect_object(entry["toolSpec"], path, "`toolSpec`")
        tool = read_function(spec, path, params_key=None, null_strict=False, tool_path=(i,))
        schema = expect_object(spec.get("inputSchema", MISSING), path + ("inputSchema",), "`inputSchema`")
        if "json" not in schema:
            raise invalid("`inputSchema` needs its `json` member", path + ("inputSchema", "json"))
        tool.parameters = schema["json"]
        tool.params_origin = SchemaOrigin(path + ("inputSchema", "json"))
        tools.append(tool)
    return tools


def copies_schemas(profile: Mapping[str, str]) -> bool:
    """True: ``encode_tools`` copies parameter schemas unchanged (``validate_tools(copies=...)``)."""
    return True


def encode_tools(tools: list[Tool], profile: Mapping[str, str]) -> list[dict]:
    out = []
    for tool in tools:
        spec = head(tool)
        if spec.get("description") == "":
            del spec["description"]  # `description` is a NonEmptyString: "" is no description
        params = (
            schema_copy(tool) if tool.parameters is not MISSING else dict(EMPTY_INPUT_SCHEMA, properties={})
        )
        spec["inputSchema"] = {"json": params}
        if tool.strict is not MISSING:
            spec["strict"] = tool.strict
        out.append({"toolSpec": spec})
    return out


def decode_tool_choice(payload: object, profile: Mapping[str, str]) -> Choice:
    obj = read_payload(payload, ("toolConfig",), NAME)
    choice = Choice(path=_CHOICE_PATH, tools_path=_CHOICE_PATH, parallel_path=_CHOICE_PATH)
    config = obj.get("toolConfig")
    if config is None:
        return choice
    expect_object(config, ("toolConfig",), "`toolConfig`")
    value = config.get("toolChoice")
    if value is None:
        return choice
    if not isinstance(value, dict) or len(value) != 1:
        raise invalid_choice(
            "`toolChoice` is an object with one member: `auto`, `any` or `tool`", _CHOICE_PATH
        )
    kind, body = next(iter(value.items()))
    if not isinstance(body, dict):
        raise invalid_choice(f"`toolChoice.{kind}` must be an object", _CHOICE_PATH)
    if kind == "tool":
        name = body.get("name")
        if not isinstance(name, str) or not name:
            raise invalid_choice("a `tool` choice needs a non-empty `name`", _CHOICE_PATH)
        choice.mode, choice.tools = "required", [name]
    elif kind in ("auto", "any"):
        choice.mode = "auto" if kind == "auto" else "required"
    else:
        raise invalid_choice(f"unknown tool choice {kind!r}", _CHOICE_PATH)
    return choice


def encode_tool_choice(choice: Choice, profile: Mapping[str, str]) -> dict:
    choice = without_custom_choice(choice, profile, NAME)
    value: dict | None = None
    if choice.mode == "none":
        refuse_or_degrade(
            profile,
            "choice.unsupported",
            "Bedrock Converse has no `none` tool choice (a request leaves its tools out instead)",
            choice.path,
            None,
        )
    elif choice.mode == "auto":
        value = {"auto": {}}
        if choice.tools:
            refuse_or_degrade(
                profile,
                "choice.unsupported",
                "Bedrock Converse cannot restrict an `auto` choice to some tools",
                choice.tools_path,
                None,
            )
    elif choice.mode == "required":
        if not choice.tools:
            value = {"any": {}}
        elif len(choice.tools) == 1:
            value = {"tool": {"name": choice.tools[0]}}
        else:
            value = refuse_or_degrade(
                profile,
                "choice.unsupported",
                "Bedrock Converse can force one named tool or any tool, not a choice among several",
                choice.tools_path,
                {"any": {}},
            )
    if choice.parallel is False and choice.mode != "none":
        refuse_or_degrade(
            profile,
            "choice.parallel_unsupported",
            "Bedrock Converse cannot turn parallel tool calls off",
            choice.parallel_path,
            None,
        )
    return {"toolConfig": {"toolChoice": value}} if value is not None else {}


def tool_use_id(call_id: str, profile: Mapping[str, str]) -> str:
    """The ``toolUseId`` of a canonical call id (``ids.prefix`` applied): unchanged when it fits
    ``ToolUseId`` (``[a-zA-Z0-9_.:-]``, 1 to 64 characters), else ``tooluse_`` + 24 hex digits of its
    SHA-256 (``calls.encode_call_id``, the rules' ``call_id_pattern``)."""
    return calls.encode_call_id(call_id, RULES, profile)
