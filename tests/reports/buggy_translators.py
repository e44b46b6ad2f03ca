"""Deliberately buggy translators: the reference with one bug each, to check that a report shows that bug
as one finding (``test_one_bug_one_finding.py``)."""

from __future__ import annotations

import copy
from typing import Any

from toolwire_reference.translator import Translator

#: JSON Schema keywords whose value is a schema, or a list or map of schemas
_SUBSCHEMA = frozenset({"items", "additionalProperties", "not", "if", "then", "else", "contains"})
_SUBSCHEMA_LISTS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
_SUBSCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions"})


def _nested_schemas(schema: Any) -> list[dict[str, Any]]:
    """Every schema nested in ``schema`` (not ``schema`` itself)."""
    out: list[dict[str, Any]] = []
    if not isinstance(schema, dict):
        return out
    children: list[Any] = []
    for key, value in schema.items():
        if key in _SUBSCHEMA:
            children.append(value)
        elif key in _SUBSCHEMA_LISTS and isinstance(value, list):
            children += value
        elif key in _SUBSCHEMA_MAPS and isinstance(value, dict):
            children += value.values()
    for child in children:
        if isinstance(child, dict):
            out.append(child)
            out += _nested_schemas(child)
    return out


def _tool_schemas(kind: str, payload: Any) -> list[Any]:
    """The JSON Schemas of an openai-chat tools list or request."""
    tools = payload if kind == "tools" else (payload.get("tools") if isinstance(payload, dict) else None)
    schemas = [
        t["function"]["parameters"]
        for t in tools or ()
        if isinstance(t, dict) and isinstance(t.get("function"), dict) and "parameters" in t["function"]
    ]
    if kind == "request" and isinstance(payload, dict):
        fmt = payload.get("response_format")
        if isinstance(fmt, dict) and isinstance(fmt.get("json_schema"), dict):
            schemas.append(fmt["json_schema"].get("schema"))
    return schemas


class ForgetsNestedAdditionalProperties(Translator):
    """Its openai-chat output loses ``additionalProperties`` from every nested schema (the root keeps it)."""

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: Any) -> Any:
        out = super().translate(kind, source, target, payload, profile)
        if target != "openai-chat" or kind not in ("tools", "request"):
            return out
        out = copy.deepcopy(out)
        for schema in _tool_schemas(kind, out):
            for nested in _nested_schemas(schema):
                nested.pop("additionalProperties", None)
        return out


class ReordersAssistantMessage(Translator):
    """Its openai-chat requests put the first assistant message that calls tools after the tool results
    that answer it."""

    def translate(self, kind: str, source: str, target: str, payload: Any, profile: Any) -> Any:
        out = super().translate(kind, source, target, payload, profile)
        if target != "openai-chat" or kind != "request" or not isinstance(out, dict):
            return out
        messages = out.get("messages")
        if not isinstance(messages, list):
            return out
        for i, message in enumerate(messages):
            if isinstance(message, dict) and message.get("role") == "assistant" and message.get("tool_calls"):
                end = i + 1
                while end < len(messages) and (messages[end] or {}).get("role") == "tool":
                    end += 1
                if end > i + 1:
                    out = dict(out)
                    out["messages"] = [*messages[:i], *messages[i + 1 : end], message, *messages[end:]]
                return out
        return out
