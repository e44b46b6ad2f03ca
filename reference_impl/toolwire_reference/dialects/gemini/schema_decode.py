"""Gemini's OpenAPI-3.0 schema subset read back as JSON Schema (``parameters``, ``responseSchema``).

Accepts proto-JSON snake_case keywords (``any_of``, ``min_items``...), int64 values written as strings
(``"minItems": "1"``) and ``TYPE_UNSPECIFIED`` (no type); ``nullable: true`` becomes a union with null.
"""

from __future__ import annotations

from typing import Any

from ...errors import Segments
from ...schema.nullable import nullable_to_union
from ...schema.walk import compose, transform
from .rules import INT64_KEYWORDS, SCHEMA_ALIASES


def _rename_aliases(node: dict, rel: Segments) -> dict:
    if not any(k in SCHEMA_ALIASES for k in node):
        return node
    return {
        SCHEMA_ALIASES.get(k, k) if SCHEMA_ALIASES.get(k) not in node else k: v
        for k, v in node.items()
    }


def _lower_type_names(node: dict, rel: Segments) -> dict:
    kind = node.get("type")
    if isinstance(kind, str):
        if kind.upper() == "TYPE_UNSPECIFIED":
            return {k: v for k, v in node.items() if k != "type"}
        return {**node, "type": kind.lower()}
    if isinstance(kind, list):
        return {**node, "type": [t.lower() if isinstance(t, str) else t for t in kind]}
    return node


def _int64_strings(node: dict, rel: Segments) -> dict:
    fixes = {
        k: int(v)
        for k, v in node.items()
        if k in INT64_KEYWORDS and isinstance(v, str) and v.strip().lstrip("-").isdigit()
    }
    return {**node, **fixes} if fixes else node


def _drop_property_ordering(node: dict, rel: Segments) -> dict:
    return {k: v for k, v in node.items() if k != "propertyOrdering"} if "propertyOrdering" in node else node


def from_gemini_schema(schema: dict) -> dict:
    """Read a Gemini OpenAPI ``parameters`` schema as JSON Schema (structure unchanged, see module doc)."""
    pre = compose(_rename_aliases, _lower_type_names, _int64_strings, _drop_property_ordering)
    return transform(schema, pre=pre, post=nullable_to_union)


def source_segment(node: Any, segment: str | int) -> str | int:
    """The member name that a decoded segment had in the Gemini source node (aliases undone)."""
    if isinstance(node, dict) and segment not in node:
        for alias, canonical in SCHEMA_ALIASES.items():
            if canonical == segment and alias in node:
                return alias
    return segment
