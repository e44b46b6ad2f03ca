"""OpenAI strict-mode node functions (Structured Outputs "Supported schemas")."""

from __future__ import annotations

from ..errors import SchemaProblem, Segments
from .nullable import add_null, is_nullable
from .walk import NodeFn, child_slots, is_object_schema

_NULL_ALLOWED = frozenset({"const"})  # `const: null` is a value ("must be null"), not a missing keyword


def reject_nulls(node: dict, rel: Segments) -> dict:
    """A keyword (or subschema) whose value is null -> ``schema.null_value``."""
    for key, value in node.items():
        if value is None and key not in _NULL_ALLOWED:
            raise SchemaProblem("schema.null_value", f"`{key}` is null", rel + (key,))
    for sub_rel, value in child_slots(node):
        if value is None and len(sub_rel) == 2:
            raise SchemaProblem("schema.null_value", "a subschema is null", rel + sub_rel)
    return node


def close_additional_properties(*, degrade: bool) -> NodeFn:
    """``additionalProperties`` other than ``false`` cannot be expressed: refused, or set to ``false``."""

    def fn(node: dict, rel: Segments) -> dict:
        value = node.get("additionalProperties", False)
        if value is False:
            return node
        if not degrade:
            raise SchemaProblem(
                "schema.unsupported_keyword",
                "strict mode requires `additionalProperties: false`; an open or schema-valued "
                "`additionalProperties` cannot be expressed",
                rel + ("additionalProperties",),
            )
        return {**node, "additionalProperties": False}

    return fn


def require_all(*, nullable_optional: bool) -> NodeFn:
    """Object schemas: ``additionalProperties: false``, ``properties`` present, every property required.

    With ``nullable_optional`` a property the source left optional is made nullable first.
    """

    def fn(node: dict, rel: Segments) -> dict:
        if not is_object_schema(node):
            return node
        props = node.get("properties")
        props = props if isinstance(props, dict) else {}
        required = node.get("required")
        required = set(required) if isinstance(required, list) else set()
        if nullable_optional:
            props = {
                name: sub
                if name in required or not isinstance(sub, dict) or is_nullable(sub)
                else add_null(sub, wrap=True)
                for name, sub in props.items()
            }
        return {**node, "properties": dict(props), "required": list(props), "additionalProperties": False}

    return fn
