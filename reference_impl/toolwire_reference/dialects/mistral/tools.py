"""Mistral tools and tool choice: ``{"type"?: "function", "function": {"name", "description"?, "parameters",
"strict"?}}`` (the SDK's ``Tool`` and ``Function``: ``type`` defaults to ``function``, ``parameters`` is
required), ``tool_choice`` ``auto`` / ``none`` / ``any`` / ``required`` (``any`` and ``required`` both force
some call) or ``{"type"?: "function", "function": {"name"}}`` (one named tool), ``parallel_tool_calls``.

Mistral has no strict-mode schema rewrite (the ``openai.strict`` profile is OpenAI's): schemas are sent as
the source gave them, ``strict`` as declared. A required choice is written ``any`` (the older, documented
spelling every Mistral model takes; LiteLLM and pydantic-ai send it); a choice among several named tools,
or an ``auto`` one restricted to some, has no Mistral form (``choice.unsupported``; degrade: ``any`` /
``auto`` over every tool).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..._json import MISSING, expect_object, invalid
from ...choice import refuse_or_degrade
from ...custom import without_custom_choice
from ...errors import SchemaProblem, fail
from ...model import Choice, Tool
from ...schema.keywords import require_array_items
from ...schema.walk import transform
from .. import openai_common
from ..common import head, read_function, schema_copy, tool_list
from .rules import RULES

NAME = RULES.name
_ARRAY_ITEMS = require_array_items(target="Mistral")
#: Mistral's string tool choices, each its canonical mode
STRINGS = {"auto": "auto", "none": "none", "any": "required", "required": "required"}


def decode_tools(payload: object, profile: Mapping[str, str]) -> list[Tool]:
    tools = []
    for i, item in enumerate(tool_list(payload)):
        obj = item if type(item) is dict else expect_object(item, (i,), "a tool")
        kind = obj.get("type", "function")
        if kind != "function":
            if isinstance(kind, str):
                raise fail(
                    "tool.unsupported_type",
                    f"a `{kind}` tool has no equivalent in other dialects",
                    (i, "type"),
                )
            raise invalid('a tool\'s `type` is "function"', (i, "type"))
        function = expect_object(obj.get("function", MISSING), (i, "function"), "`function`")
        tools.append(
            read_function(
                function, (i, "function"), params_key="parameters", null_strict=True, tool_path=(i,)
            )
        )
    return tools


def copies_schemas(profile: Mapping[str, str]) -> bool:
    """Never: every schema is checked for arrays without ``items`` (schemas/wire/mistral/tools.schema.json
    takes OpenAI's parameter rules), though it is otherwise sent as the source gave it."""
    return False


def function_fields(tool: Tool) -> dict:
    """``{name, description?, parameters, strict?}`` (``parameters`` is required: an empty object schema
    for a tool without one); an array schema without ``items`` is refused (``schema.array_missing_items``)."""
    out = head(tool)
    if tool.has_parameters:
        try:
            out["parameters"] = transform(schema_copy(tool), pre=_ARRAY_ITEMS)
        except SchemaProblem as problem:
            raise tool.params_origin.error(problem) from None
    else:
        out["parameters"] = {"type": "object", "properties": {}}
    if tool.strict is not MISSING:
        out["strict"] = tool.strict
    return out


def encode_tools(tools: list[Tool], profile: Mapping[str, str]) -> list[dict]:
    return [{"type": "function", "function": function_fields(tool)} for tool in tools]


def _read_ref(ref: Any, kind: str) -> str | None:
    inner = ref.get(kind)
    name = inner.get("name") if isinstance(inner, dict) else None
    return name if isinstance(name, str) else None


def decode_tool_choice(payload: object, profile: Mapping[str, str]) -> Choice:
    return openai_common.decode_choice(
        payload,
        profile,
        read_ref=_read_ref,
        allowed_members=None,
        unsupported_types=frozenset(),
        legacy=False,
        dialect=NAME,
        strings=STRINGS,
        default_type="function",
    )


def encode_tool_choice(choice: Choice, profile: Mapping[str, str]) -> dict:
    choice = without_custom_choice(choice, profile, NAME)
    out: dict = {}
    mode, tools = choice.mode, choice.tools
    if mode == "required" and tools and len(tools) == 1:
        out["tool_choice"] = {"type": "function", "function": {"name": tools[0]}}
    elif mode is not None:
        if tools:
            what = (
                "restrict an `auto` choice to some tools" if mode == "auto" else "force one of several tools"
            )
            refuse_or_degrade(
                profile, "choice.unsupported", f"Mistral cannot {what}", choice.tools_path, None
            )
        out["tool_choice"] = "any" if mode == "required" else mode
    if choice.parallel is not None:
        out["parallel_tool_calls"] = choice.parallel
    return out
