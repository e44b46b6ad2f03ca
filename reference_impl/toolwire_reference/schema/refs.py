"""``$ref`` handling: check that references resolve (kept), or inline them."""

from __future__ import annotations

from typing import Any

from ..errors import Segments
from .walk import NodeFn, RefInliner, RefResolver, transform


def refs_must_resolve(root: Any) -> NodeFn:
    """Node function: a ``$ref`` that resolves to nothing in ``root`` -> ``schema.unresolvable_ref``."""
    resolver = RefResolver(root)

    def fn(node: dict, rel: Segments) -> dict:
        if isinstance(node.get("$ref"), str):
            resolver.resolve(node["$ref"], rel + ("$ref",))
        return node

    return fn


def inline_refs(schema: Any) -> Any:
    """``schema`` with every ``$ref`` replaced by its target and ``$defs``/``definitions`` removed."""
    return transform(schema, inline=RefInliner(schema))
