"""Generic keyword-level node functions shared by the OpenAI and Gemini rewrites."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

from ..errors import SchemaProblem, Segments
from .walk import NodeFn


def unsupported(keyword: str, rel: Segments, target: str) -> SchemaProblem:
    """``schema.unsupported_keyword`` at ``keyword`` of the node at ``rel``."""
    return SchemaProblem(
        "schema.unsupported_keyword", f"`{keyword}` cannot be expressed for {target}", rel + (keyword,)
    )


def forbid_keywords(names: Iterable[str], *, degrade: bool, target: str) -> NodeFn:
    """Refuse (``schema.unsupported_keyword``) or, degrading, drop every keyword of ``names``."""
    banned = tuple(names)

    def fn(node: dict, rel: Segments) -> dict:
        found = [k for k in node if k in banned]
        if not found:
            return node
        if not degrade:
            raise unsupported(found[0], rel, target)
        return {k: v for k, v in node.items() if k not in banned}

    return fn


def require_array_items(*, target: str) -> NodeFn:
    """An array schema (``type`` array, or a list with it) without ``items`` -> ``schema.array_missing_items``
    at the array schema itself; never degraded (no element type can be invented faithfully)."""

    def fn(node: dict, rel: Segments) -> dict:
        kind = node.get("type")
        if (kind == "array" or (isinstance(kind, list) and "array" in kind)) and "items" not in node:
            raise SchemaProblem(
                "schema.array_missing_items", f"an array schema must have `items` for {target}", rel
            )
        return node

    return fn


def check_required_defined(*, degrade: bool) -> NodeFn:
    """``required`` naming a property ``properties`` lacks: refused, or (degrading) the name dropped."""

    def fn(node: dict, rel: Segments) -> dict:
        required = node.get("required")
        if not isinstance(required, list):
            return node
        props = node.get("properties")
        defined = props if isinstance(props, dict) else {}
        undefined = [i for i, name in enumerate(required) if name not in defined]
        if not undefined:
            return node
        if not degrade:
            i = undefined[0]
            raise SchemaProblem(
                "schema.required_not_in_properties",
                f"`required` names {required[i]!r}, which `properties` does not define",
                rel + ("required", i),
            )
        return {**node, "required": [n for n in required if n in defined]}

    return fn


def one_of_to_any_of(*, degrade: bool, target: str) -> NodeFn:
    """``oneOf`` -> ``anyOf`` (a node with both cannot be merged: refused, or ``oneOf`` dropped)."""

    def fn(node: dict, rel: Segments) -> dict:
        if "oneOf" not in node:
            return node
        rest = {k: v for k, v in node.items() if k != "oneOf"}
        if "anyOf" in node:
            if not degrade:
                raise SchemaProblem(
                    "schema.unsupported_keyword",
                    f"`oneOf` next to `anyOf` cannot be expressed for {target}",
                    rel + ("oneOf",),
                )
            return rest
        return {**rest, "anyOf": node["oneOf"]}

    return fn


def prune_formats(allowed: Callable[[dict], Collection[str]]) -> NodeFn:
    """Remove ``format`` when it is not in ``allowed(node)``."""

    def fn(node: dict, rel: Segments) -> dict:
        if "format" not in node or node["format"] in allowed(node):
            return node
        return {k: v for k, v in node.items() if k != "format"}

    return fn
