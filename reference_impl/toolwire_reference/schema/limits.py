"""Size limits of a strict schema: nesting depth, total properties, total enum values."""

from __future__ import annotations

from typing import Any

from ..errors import SchemaProblem, Segments
from .walk import RefInliner, is_object_schema, walk


def check_limits(
    schema: Any,
    *,
    max_depth: int,
    max_properties: int,
    max_enum_values: int,
    inline: RefInliner | None = None,
) -> None:
    """Raise at the place where a limit is first crossed (walking in document order).

    ``$defs`` count where they are written (a root definition is one level below the root); with
    ``inline`` references are followed instead, as the provider would see them.
    """
    totals = {"properties": 0, "enum": 0}

    def visit(node: dict, rel: Segments, level: int) -> None:
        if is_object_schema(node) and level > max_depth:
            raise SchemaProblem(
                "schema.too_deep", f"objects nest {level} levels deep; the limit is {max_depth}", rel
            )
        props = node.get("properties")
        if isinstance(props, dict):
            totals["properties"] += len(props)
            if totals["properties"] > max_properties:
                raise SchemaProblem(
                    "schema.too_many_properties",
                    f"the schema has more than {max_properties} object properties in total",
                    rel + ("properties",),
                )
        enum = node.get("enum")
        if isinstance(enum, list):
            totals["enum"] += len(enum)
            if totals["enum"] > max_enum_values:
                raise SchemaProblem(
                    "schema.enum_too_large",
                    f"the schema has more than {max_enum_values} enum values in total",
                    rel + ("enum",),
                )

    walk(schema, visit, inline=inline)
