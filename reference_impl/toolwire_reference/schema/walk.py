"""The generic subschema walkers: ``walk`` (read-only checks) and ``transform`` (rewrites).

The Gemini encoder (``gemini.py``) has its own single pass over the few subschema slots Gemini keeps,
but the same paths, node functions and ``RefInliner``.

A node function ``fn(node, rel) -> node`` sees one schema object and its path relative to the schema
root (a tuple of segments, always a path in the *source* schema, so problems can be located). It must
not mutate ``node``; it returns the same object or a new one. ``transform`` applies ``pre`` on the way
down (before the children are visited: it may drop or replace members, never rename them) and
``post`` on the way up (the children are already transformed, so renaming is safe there).

With a ``RefInliner``, every ``$ref`` is replaced by its target on the way down and ``$defs`` /
``definitions`` are removed; the target is then visited at its own source path.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable, Iterator
from typing import Any

from .._json import copy_json
from ..errors import SchemaProblem, Segments

SINGLE_SLOTS = ("items", "not", "additionalProperties", "if", "then", "else", "contains")
MAP_SLOTS = ("properties", "patternProperties", "$defs", "definitions")
LIST_SLOTS = ("prefixItems", "anyOf", "oneOf", "allOf")
DEF_SLOTS = ("$defs", "definitions")
SINGLE, MAP, LIST = "single", "map", "list"
#: every subschema keyword and the shape of its value (one lookup per member instead of three scans)
SLOTS = {
    **dict.fromkeys(SINGLE_SLOTS, SINGLE),
    **dict.fromkeys(MAP_SLOTS, MAP),
    **dict.fromkeys(LIST_SLOTS, LIST),
}

NodeFn = Callable[[dict, Segments], dict]


def child_slots(node: dict) -> Iterator[tuple[Segments, Any]]:
    """Every subschema position of ``node`` with its value (which may be anything, even null)."""
    for key, value in node.items():
        slot = SLOTS.get(key)
        if slot is SINGLE:
            yield (key,), value
        elif slot is MAP and isinstance(value, dict):
            for name, sub in value.items():
                yield (key, name), sub
        elif slot is LIST and isinstance(value, list):
            for index, sub in enumerate(value):
                yield (key, index), sub


def compose(*fns: NodeFn) -> NodeFn:
    """One node function applying ``fns`` in order."""

    def composed(node: dict, rel: Segments) -> dict:
        for fn in fns:
            node = fn(node, rel)
        return node

    return composed


class RefResolver:
    """Resolves local ``$ref`` values (``#``, ``#/$defs/x``, any local JSON Pointer) in one schema."""

    def __init__(self, root: Any) -> None:
        self.root = root

    def resolve(self, ref: str, at: Segments) -> tuple[Any, Segments]:
        """The target of ``ref`` and its path; ``at`` is the path of the ``$ref`` member (for errors)."""
        if not ref.startswith("#") or (len(ref) > 1 and not ref.startswith("#/")):
            raise SchemaProblem(
                "schema.unresolvable_ref", f"`$ref` {ref!r} is not a local JSON Pointer (`#/...`)", at
            )
        node, path = self.root, ()
        for raw in ref[2:].split("/") if len(ref) > 1 else ():
            seg = urllib.parse.unquote(raw).replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and seg in node:
                node, path = node[seg], path + (seg,)
            elif isinstance(node, list) and seg.isdigit() and int(seg) < len(node):
                node, path = node[int(seg)], path + (int(seg),)
            else:
                raise SchemaProblem("schema.unresolvable_ref", f"`$ref` {ref!r} points to nothing", at)
        if not isinstance(node, (dict, bool)):
            raise SchemaProblem("schema.unresolvable_ref", f"`$ref` {ref!r} does not point to a schema", at)
        return node, path


class RefInliner(RefResolver):
    """Replaces each ``$ref`` by its target (siblings of ``$ref`` win); recursion is an error."""

    def expand(self, node: dict, rel: Segments, active: frozenset) -> tuple[Any, Segments, frozenset]:
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            at = rel + ("$ref",)
            target, target_rel = self.resolve(node["$ref"], at)
            if target_rel in active or rel[: len(target_rel)] == target_rel:
                raise SchemaProblem(
                    "schema.recursive_ref",
                    f"`$ref` {node['$ref']!r} is recursive and cannot be inlined",
                    at,
                )
            active = active | {target_rel}
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            if target is True:
                target = {}
            node = {**target, **siblings} if isinstance(target, dict) else target
            rel = target_rel
        return node, rel, active


def transform(
    schema: Any,
    *,
    pre: NodeFn | None = None,
    post: NodeFn | None = None,
    inline: RefInliner | None = None,
) -> Any:
    """A new schema: ``pre``/``post`` applied to every subschema object (see the module docstring)."""
    if pre is None and post is None and inline is None:
        return copy_json(schema)  # nothing to apply: the same result without visiting the subschemas

    def visit(node: Any, rel: Segments, active: frozenset) -> Any:
        if not isinstance(node, dict):
            return copy_json(node)
        if inline is not None:
            node, rel, active = inline.expand(node, rel, active)
            if not isinstance(node, dict):
                return copy_json(node)
        if pre is not None:
            node = pre(node, rel)
        out = {}
        for key, value in node.items():
            slot = SLOTS.get(key)
            if slot is None:
                out[key] = copy_json(value) if isinstance(value, (dict, list)) else value
            elif inline is not None and key in DEF_SLOTS:
                continue
            elif slot is SINGLE and isinstance(value, dict):
                out[key] = visit(value, rel + (key,), active)
            elif slot is MAP and isinstance(value, dict):
                out[key] = {name: visit(sub, rel + (key, name), active) for name, sub in value.items()}
            elif slot is LIST and isinstance(value, list):
                out[key] = [visit(sub, rel + (key, i), active) for i, sub in enumerate(value)]
            else:
                out[key] = copy_json(value)
        return post(out, rel) if post is not None else out

    return visit(schema, (), frozenset())


def is_object_schema(node: dict) -> bool:
    """A schema describing objects: ``type`` object (or a list with it), or having ``properties``."""
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in node


def walk(
    schema: Any, visit: Callable[[dict, Segments, int], None], *, inline: RefInliner | None = None
) -> None:
    """Call ``visit(node, rel, level)`` for every subschema object, read-only.

    ``level`` is the number of object schemas on the way from the root to ``node``, ``node`` included
    (the root object is level 1).
    """
    # read-only: the same order, paths, `$ref` inlining and levels as ``transform`` with a ``pre``
    # function, without building the copy ``transform`` would (validation walks every tool's schema)

    def enter(node: Any, rel: Segments, active: frozenset, parent_level: int) -> None:
        if not isinstance(node, dict):
            return
        if inline is not None:
            node, rel, active = inline.expand(node, rel, active)
            if not isinstance(node, dict):
                return
        level = parent_level + (1 if is_object_schema(node) else 0)
        visit(node, rel, level)
        for key, value in node.items():
            slot = SLOTS.get(key)
            if slot is None:
                continue
            if slot is SINGLE:
                if isinstance(value, dict):
                    enter(value, rel + (key,), active, level)
            elif slot is MAP:
                if isinstance(value, dict) and (inline is None or key not in DEF_SLOTS):
                    for name, sub in value.items():
                        enter(sub, rel + (key, name), active, level)
            elif isinstance(value, list):
                for index, sub in enumerate(value):
                    enter(sub, rel + (key, index), active, level)

    enter(schema, (), frozenset(), 0)
