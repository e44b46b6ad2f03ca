"""Nullability: telling whether a schema admits null, and making it admit null."""

from __future__ import annotations

from typing import Any

from ..errors import Segments


def is_null_schema(schema: Any) -> bool:
    """``{"type": "null"}`` (or ``["null"]``), possibly with annotations."""
    return isinstance(schema, dict) and schema.get("type") in ("null", ["null"])


def is_nullable(schema: dict) -> bool:
    """True when ``schema`` already says null is allowed."""
    kind = schema.get("type")
    if kind is not None:
        return kind == "null" or (isinstance(kind, list) and "null" in kind)
    if schema.get("nullable") is True:
        return True
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and any(is_null_schema(b) for b in branches):
            return True
    enum = schema.get("enum")
    return isinstance(enum, list) and None in enum


def add_null(schema: dict, *, wrap: bool) -> dict:
    """A copy of ``schema`` that also admits null.

    ``type: T`` -> ``[T, "null"]`` (null appended to ``enum`` too); no ``type``: a ``null`` branch
    appended to ``anyOf``, or ``null`` to ``enum``; otherwise wrapped as ``anyOf: [schema, null]``
    when ``wrap``, else returned unchanged (a schema without ``type`` already admits null).
    """
    if is_nullable(schema):
        return schema
    out = dict(schema)
    kind = out.get("type")
    if isinstance(kind, str):
        out["type"] = [kind, "null"]
    elif isinstance(kind, list):
        out["type"] = [*kind, "null"]
    elif isinstance(out.get("anyOf"), list):
        out["anyOf"] = [*out["anyOf"], {"type": "null"}]
        return out
    elif not isinstance(out.get("enum"), list):
        return {"anyOf": [out, {"type": "null"}]} if wrap else schema
    if isinstance(out.get("enum"), list) and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    return out


def nullable_to_union(node: dict, rel: Segments) -> dict:
    """Node function: OpenAPI's ``nullable: true`` -> a JSON Schema union with null; ``nullable`` removed."""
    if "nullable" not in node:
        return node
    rest = {k: v for k, v in node.items() if k != "nullable"}
    return add_null(rest, wrap=False) if node["nullable"] is True else rest
