"""Gemini's OpenAPI-3.0 schema subset (``FunctionDeclaration.parameters``), both ways.

Choices where RULES.md is silent:
- a ``type`` list with several non-null types becomes ``anyOf`` of one-type branches;
- ``null`` in ``enum`` (or a ``const`` string) also sets ``nullable: true`` when null is removed;
- boolean subschemas: ``true`` -> ``{}``; ``false`` -> ``schema.unsupported_keyword`` (degrade: ``{}``);
- null-valued keywords are dropped (proto JSON reads null as "unset"), except ``default``/``example``;
- decoding accepts proto-JSON snake_case keywords (``any_of``, ``min_items``...), int64 values written as
  strings (``"minItems": "1"``) and ``TYPE_UNSPECIFIED`` (no type).
"""

from __future__ import annotations

from typing import Any

from ..errors import SchemaProblem, Segments
from ..rules import (
    GEMINI_FORMATS,
    GEMINI_INT64_KEYWORDS,
    GEMINI_KEPT_KEYWORDS,
    GEMINI_REWRITTEN_KEYWORDS,
    GEMINI_SCHEMA_ALIASES,
    GEMINI_UNSUPPORTED_KEYWORDS,
)
from .keywords import (
    check_required_defined,
    forbid_keywords,
    keep_only,
    one_of_to_any_of,
    prune_formats,
    require_array_items,
)
from .nullable import is_null_schema, nullable_to_union
from .walk import NodeFn, RefInliner, compose, transform

TARGET = "Gemini `parameters` (OpenAPI subset)"
_NULL_KEPT = frozenset({"default", "example"})
_ALL_FORMATS = frozenset().union(*GEMINI_FORMATS.values())


# ---- encoding: JSON Schema -> Gemini `parameters` -------------------------------------------------


def _drop_nulls(node: dict, rel: Segments) -> dict:
    if all(v is not None or k in _NULL_KEPT for k, v in node.items()):
        return node
    return {k: v for k, v in node.items() if v is not None or k in _NULL_KEPT}


def _boolean_subschemas(*, degrade: bool) -> NodeFn:
    def convert(value: Any, at: Segments) -> Any:
        if value is True:
            return {}
        if value is False:
            if not degrade:
                raise SchemaProblem(
                    "schema.unsupported_keyword", f"the `false` schema cannot be expressed for {TARGET}", at
                )
            return {}
        return value

    def fn(node: dict, rel: Segments) -> dict:
        out = dict(node)
        if "items" in out:
            out["items"] = convert(out["items"], rel + ("items",))
        for key in ("properties",):
            if isinstance(out.get(key), dict):
                out[key] = {n: convert(s, rel + (key, n)) for n, s in out[key].items()}
        for key in ("anyOf", "oneOf"):
            if isinstance(out.get(key), list):
                out[key] = [convert(s, rel + (key, i)) for i, s in enumerate(out[key])]
        return out

    return fn


def _string_values_only(*, degrade: bool) -> NodeFn:
    def fn(node: dict, rel: Segments) -> dict:
        bad = []
        enum = node.get("enum")
        if isinstance(enum, list) and any(v is not None and not isinstance(v, str) for v in enum):
            bad.append("enum")
        if "const" in node and not isinstance(node["const"], str):
            bad.append("const")
        if not bad:
            return node
        if not degrade:
            raise SchemaProblem(
                "schema.unsupported_keyword",
                f"a non-string `{bad[0]}` value cannot be expressed for {TARGET}",
                rel + (bad[0],),
            )
        return {k: v for k, v in node.items() if k not in bad}

    return fn


def _null_branches_to_nullable(node: dict, rel: Segments) -> dict:
    branches = node.get("anyOf")
    if not isinstance(branches, list) or not any(is_null_schema(b) for b in branches):
        return node
    rest = [b for b in branches if not is_null_schema(b)]
    out = {k: v for k, v in node.items() if k != "anyOf"}
    if not rest:
        return {**out, "type": "null"}
    out["nullable"] = True
    if len(rest) == 1 and isinstance(rest[0], dict):
        return {**rest[0], **out}
    return {**out, "anyOf": rest}


def _type_list_to_nullable(*, degrade: bool) -> NodeFn:
    def fn(node: dict, rel: Segments) -> dict:
        kind = node.get("type")
        if not isinstance(kind, list):
            return node
        named = [t for t in kind if t != "null"]
        out = dict(node)
        if "null" in kind and named:
            out["nullable"] = True
        if not named:
            out["type"] = "null"
        elif len(named) == 1:
            out["type"] = named[0]
        elif "anyOf" not in out:
            del out["type"]
            out["anyOf"] = [{"type": t} for t in named]
        elif not degrade:
            raise SchemaProblem(
                "schema.unsupported_keyword",
                f"a multi-type `type` next to `anyOf` cannot be expressed for {TARGET}",
                rel + ("type",),
            )
        else:
            out["type"] = named[0]
        return out

    return fn


def _const_to_enum(node: dict, rel: Segments) -> dict:
    if "const" not in node:
        return node
    out = {k: v for k, v in node.items() if k != "const"}
    out["enum"] = [node["const"]]
    return out


def _enum_null_to_nullable(node: dict, rel: Segments) -> dict:
    enum = node.get("enum")
    if not isinstance(enum, list) or None not in enum:
        return node
    return {**node, "enum": [v for v in enum if v is not None], "nullable": True}


def _allowed_formats(node: dict):
    kind = node.get("type")
    return GEMINI_FORMATS.get(kind, frozenset()) if isinstance(kind, str) else _ALL_FORMATS


def to_gemini_schema(schema: dict, *, degrade: bool) -> dict | None:
    """Rewrite a JSON Schema into Gemini's subset; ``None`` when the root has no properties.

    Raises SchemaProblem (``unsupported_keyword``, ``required_not_in_properties``, ``recursive_ref``,
    ``unresolvable_ref``) unless ``degrade`` allows dropping the construct, and
    ``array_missing_items`` (Gemini: ``…items: missing field``) under every profile.
    """
    pre = compose(
        _drop_nulls,
        forbid_keywords(GEMINI_UNSUPPORTED_KEYWORDS, degrade=degrade, target=TARGET),
        keep_only(GEMINI_KEPT_KEYWORDS | GEMINI_REWRITTEN_KEYWORDS),
        _boolean_subschemas(degrade=degrade),
        _string_values_only(degrade=degrade),
        check_required_defined(degrade=degrade),
        require_array_items(target=TARGET),
    )
    post = compose(
        one_of_to_any_of(degrade=degrade, target=TARGET),
        _null_branches_to_nullable,
        _type_list_to_nullable(degrade=degrade),
        _const_to_enum,
        _enum_null_to_nullable,
        prune_formats(_allowed_formats),
    )
    out = transform(schema, pre=pre, post=post, inline=RefInliner(schema))
    return out if out.get("properties") else None


# ---- decoding: Gemini `parameters` -> JSON Schema ------------------------------------------------


def _rename_aliases(node: dict, rel: Segments) -> dict:
    if not any(k in GEMINI_SCHEMA_ALIASES for k in node):
        return node
    return {
        GEMINI_SCHEMA_ALIASES.get(k, k) if GEMINI_SCHEMA_ALIASES.get(k) not in node else k: v
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
        if k in GEMINI_INT64_KEYWORDS and isinstance(v, str) and v.strip().lstrip("-").isdigit()
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
        for alias, canonical in GEMINI_SCHEMA_ALIASES.items():
            if canonical == segment and alias in node:
                return alias
    return segment
