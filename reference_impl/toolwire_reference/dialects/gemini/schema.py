"""JSON Schema -> Gemini's OpenAPI-3.0 subset (``FunctionDeclaration.parameters``), in one walk.

Each schema object is visited once: its members are filtered and checked (``_Encoder.clean``, before
its subschemas, so a node's own problem is reported before its children's), its subschemas encoded
in document order, then the node rewritten (``_Encoder.rewrite``). Every step is guarded by the
keyword it is about, and a node made only of keywords Gemini takes as they are (most leaves) is just
copied. Rules shared with the OpenAI rewrite come from ``keywords``; ``$ref`` inlining from
``walk.RefInliner``. Decoding is in ``schema_decode``.

Choices where RULES.md is silent:
- a ``type`` list with several non-null types becomes ``anyOf`` of one-type branches; each branch
  takes the keywords that constrain its type (``items`` to the array branch, ``maxLength`` to the
  string one...), the others stay on the node;
- ``null`` in ``enum`` (or a ``const`` string) also sets ``nullable: true`` when null is removed;
- an ``enum`` (or ``const``) without ``type`` gets ``type: string``: Gemini's enums are STRING ones;
- a nested object's empty ``properties`` is removed (``{"type": "object"}``), as a root's is;
- boolean subschemas: ``true`` -> ``{}``; ``false`` -> ``schema.unsupported_keyword`` (degrade: ``{}``);
- null-valued keywords are dropped (proto JSON reads null as "unset"), except ``default``/``example``;
- ``properties`` (with the other object keywords) on a node of another single type is dropped: it
  constrains no instance of that type, and Gemini takes ``properties`` on OBJECT nodes only.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..._json import copy_json
from ...errors import SchemaProblem, Segments
from ...schema.keywords import (
    check_required_defined,
    one_of_to_any_of,
    prune_formats,
    require_array_items,
    unsupported,
)
from ...schema.nullable import is_null_schema
from ...schema.walk import NodeFn, RefInliner
from .rules import (
    FORMATS,
    KEPT_KEYWORDS,
    REWRITTEN_KEYWORDS,
    UNSUPPORTED_KEYWORDS,
)

TARGET = "Gemini `parameters` (OpenAPI subset)"
_KEPT = KEPT_KEYWORDS | REWRITTEN_KEYWORDS
_UNSUPPORTED = frozenset(UNSUPPORTED_KEYWORDS)
_NULL_KEPT = frozenset({"default", "example"})
_SCHEMA_LISTS = ("anyOf", "oneOf")
_SCHEMA_SLOTS = frozenset({"items", "properties", *_SCHEMA_LISTS})
# Keywords Gemini takes as they are when their values are scalars (not null): a node made of these
# only is copied without further ado (no format, enum, required, subschema or type list in it).
_AS_IS = frozenset(
    {"type", "title", "description", "nullable", "minItems", "maxItems", "minLength", "maxLength"}
    | {"pattern", "minimum", "maximum", "minProperties", "maxProperties", "default", "example"}
)
_SCALARS = frozenset({str, int, float, bool})
_CHECKED = frozenset({"enum", "const", "required"})  # checked once the node is cleaned
_REWRITTEN = frozenset({"oneOf", "anyOf", "const", "enum", "format"})  # (and a `type` list)
_ALL_FORMATS = frozenset().union(*FORMATS.values())
# The keywords that constrain one instance type only (a `type` list's branch of that type takes them).
_TYPE_KEYWORDS = {
    "array": ("items", "minItems", "maxItems"),
    "string": ("minLength", "maxLength", "pattern"),
    "number": ("minimum", "maximum"),
    "integer": ("minimum", "maximum"),
    "object": ("properties", "required", "minProperties", "maxProperties", "propertyOrdering"),
}


def to_gemini_schema(schema: dict, *, degrade: bool) -> dict | None:
    """Rewrite a JSON Schema into Gemini's subset; ``None`` when the root has no properties.

    Raises SchemaProblem (``unsupported_keyword``, ``required_not_in_properties``, ``recursive_ref``,
    ``unresolvable_ref``) unless ``degrade`` allows dropping the construct, and
    ``array_missing_items`` (Gemini: ``…items: missing field``) under every profile.
    """
    out = _Encoder(schema, degrade=degrade).encode(schema, (), frozenset())
    return out if isinstance(out, dict) and out.get("properties") else None


def _allowed_formats(node: dict) -> frozenset:
    kind = node.get("type")
    return FORMATS.get(kind, frozenset()) if isinstance(kind, str) else _ALL_FORMATS


# the node functions shared with the OpenAI rewrite (built once, not per schema)
_require_array_items = require_array_items(target=TARGET)
_prune_formats = prune_formats(_allowed_formats)


@cache
def _shared_rules(degrade: bool) -> tuple[NodeFn, NodeFn]:
    """The ``required`` check and the ``oneOf`` rewrite under one ``degrade`` setting."""
    return check_required_defined(degrade=degrade), one_of_to_any_of(degrade=degrade, target=TARGET)


class _Encoder:
    """The walk over one schema under one ``degrade`` setting."""

    def __init__(self, root: dict, *, degrade: bool) -> None:
        self.degrade = degrade
        self.refs = RefInliner(root)
        self.required_defined, self.one_of = _shared_rules(degrade)

    def encode(self, node: Any, rel: Segments, active: frozenset) -> Any:
        """A new, encoded ``node``; ``rel`` is its source path, ``active`` the ``$ref`` targets entered."""
        if isinstance(node, dict) and "$ref" in node:
            node, rel, active = self.refs.expand(node, rel, active)
        if not isinstance(node, dict):
            return self.boolean(node, rel)
        if "nullable" in node and type(node["nullable"]) is not bool:  # Gemini's Schema field is a bool
            raise SchemaProblem("payload.invalid", "`nullable` must be a boolean", rel + ("nullable",))
        if _is_as_is(node):
            return dict(node)  # the common leaf: nothing to check, drop or rewrite
        out = self.clean(node, rel)
        if not _SCHEMA_SLOTS.isdisjoint(out):
            self.encode_subschemas(out, rel, active)
        if _REWRITTEN.isdisjoint(out) and not isinstance(out.get("type"), list):
            return out  # already in Gemini's terms
        return self.rewrite(out, rel)

    def encode_subschemas(self, node: dict, rel: Segments, active: frozenset) -> None:
        """Encode ``node``'s subschemas in place, in document order (``node`` is the encoder's copy)."""
        for key, value in node.items():
            if key == "items":
                node[key] = self.encode(value, rel + (key,), active)
            elif key == "properties":
                if isinstance(value, dict):
                    node[key] = {n: self.encode(s, rel + (key, n), active) for n, s in value.items()}
            elif key in _SCHEMA_LISTS and isinstance(value, list):
                node[key] = [self.encode(s, rel + (key, i), active) for i, s in enumerate(value)]
        if node.get("properties") == {}:
            del node["properties"]  # Gemini: "properties: should be non-empty for OBJECT type"

    def boolean(self, value: Any, at: Segments) -> Any:
        """A subschema that is not an object: ``true`` -> ``{}``, ``false`` refused (or ``{}``)."""
        if value is True:
            return {}
        if value is False:
            if not self.degrade:
                raise SchemaProblem(
                    "schema.unsupported_keyword", f"the `false` schema cannot be expressed for {TARGET}", at
                )
            return {}
        return copy_json(value)

    def clean(self, node: dict, rel: Segments) -> dict:
        """The members Gemini can carry, checked and copied; subschemas are encoded afterwards.

        Order of the checks: unsupported keywords, ``false`` subschemas, non-string enum values,
        ``required``, missing ``items``.
        """
        out = {}
        false_at = None
        for key, value in node.items():
            if key in _KEPT:
                if value is None and key not in _NULL_KEPT:
                    continue
                if key in _SCHEMA_SLOTS:
                    if false_at is None and not self.degrade:
                        false_at = _false_subschema(key, value)
                elif isinstance(value, (dict, list)):
                    value = _copy(value)
                out[key] = value
            elif key in _UNSUPPORTED and value is not None and not self.degrade:
                raise unsupported(key, rel, TARGET)
        if false_at is not None:
            self.boolean(False, rel + false_at)
        if "properties" in out and isinstance(out.get("type"), str) and out["type"] != "object":
            for key in _TYPE_KEYWORDS["object"]:  # they constrain objects only: here, nothing
                out.pop(key, None)
        if not _CHECKED.isdisjoint(out):
            if "enum" in out or "const" in out:
                out = self.string_values(out, rel)
            if "required" in out:
                out = self.required_defined(out, rel)
        if "type" in out and "items" not in out:
            _require_array_items(out, rel)
        return out

    def string_values(self, node: dict, rel: Segments) -> dict:
        """A non-string ``enum`` or ``const`` value: refused, or (degrading) the keyword dropped."""
        bad = []
        enum = node.get("enum")
        if isinstance(enum, list) and any(v is not None and not isinstance(v, str) for v in enum):
            bad.append("enum")
        if "const" in node and not isinstance(node["const"], str):
            bad.append("const")
        if not bad:
            return node
        if not self.degrade:
            raise SchemaProblem(
                "schema.unsupported_keyword",
                f"a non-string `{bad[0]}` value cannot be expressed for {TARGET}",
                rel + (bad[0],),
            )
        return {k: v for k, v in node.items() if k not in bad}

    def rewrite(self, node: dict, rel: Segments) -> dict:
        """The encoded node in Gemini's terms (its subschemas are already encoded)."""
        if "oneOf" in node:
            node = self.one_of(node, rel)
        if "anyOf" in node:
            node = _null_branches_to_nullable(node)
        if isinstance(node.get("type"), list):
            node = self.type_list(node, rel)
        if "const" in node:
            node["enum"] = [node.pop("const")]
        if "enum" in node:
            node = _string_enum(node)
        if "format" in node:
            node = _prune_formats(node, rel)
        return node

    def type_list(self, node: dict, rel: Segments) -> dict:
        """``type: [T, "null"]`` -> ``type: T, nullable: true``; several types -> ``anyOf`` branches."""
        kind = node["type"]
        named = [t for t in kind if t != "null"]
        if "null" in kind and named:
            node["nullable"] = True
        if not named:
            node["type"] = "null"
        elif len(named) == 1:
            node["type"] = named[0]
        elif "anyOf" not in node:
            del node["type"]
            node["anyOf"] = _split_by_type(node, named)
        elif not self.degrade:
            raise SchemaProblem(
                "schema.unsupported_keyword",
                f"a multi-type `type` next to `anyOf` cannot be expressed for {TARGET}",
                rel + ("type",),
            )
        else:
            node["type"] = named[0]
        return node


def _is_as_is(node: dict) -> bool:
    """Only ``_AS_IS`` keywords, with scalar values, and not an array (whose ``items`` are missing)."""
    return (
        _AS_IS.issuperset(node)
        and _SCALARS.issuperset(map(type, node.values()))
        and node.get("type") != "array"
    )


def _copy(value: dict | list) -> dict | list:
    """A copy of a member's value (a flat list of scalars, as ``required`` or ``enum``, in one go)."""
    if isinstance(value, list) and _SCALARS.issuperset(map(type, value)):
        return value[:]
    return copy_json(value)


def _false_subschema(key: str, value: Any) -> Segments | None:
    """Where the first ``false`` subschema of the ``key`` member is (relative to the node), if any."""
    if key == "items":
        return (key,) if value is False else None
    if key == "properties" and isinstance(value, dict):
        if bool not in map(type, value.values()):
            return None
        for name, sub in value.items():
            if sub is False:
                return (key, name)
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            if sub is False:
                return (key, index)
    return None


def _split_by_type(node: dict, types: list[str]) -> list[dict]:
    """One ``{"type": T}`` branch per type, each taking out of ``node`` the keywords that constrain T
    (``format`` goes to the branches whose type allows it)."""
    fmt = node.pop("format", None)
    branches = [{"type": t} for t in types]
    for branch, kind in zip(branches, types, strict=True):
        for key in _TYPE_KEYWORDS.get(kind, ()):
            if key in node:
                branch[key] = node[key]
        if fmt in FORMATS.get(kind, ()):
            branch["format"] = fmt
    for kind in types:
        for key in _TYPE_KEYWORDS.get(kind, ()):
            node.pop(key, None)
    return branches


def _null_branches_to_nullable(node: dict) -> dict:
    """``anyOf`` with ``{"type": "null"}`` branches: those removed, ``nullable: true`` (one left: merged)."""
    branches = node["anyOf"]
    if not isinstance(branches, list) or not any(is_null_schema(b) for b in branches):
        return node
    rest = [b for b in branches if not is_null_schema(b)]
    del node["anyOf"]
    if not rest:
        node["type"] = "null"
        return node
    node["nullable"] = True
    if len(rest) == 1 and isinstance(rest[0], dict):
        return {**rest[0], **node}
    node["anyOf"] = rest
    return node


def _string_enum(node: dict) -> dict:
    """``null`` leaves ``enum`` for ``nullable: true``; an enum without ``type`` is a string enum."""
    enum = node["enum"]
    if not isinstance(enum, list):
        return node
    if None in enum:
        node["enum"] = enum = [v for v in enum if v is not None]
        node["nullable"] = True
    if enum and "type" not in node:
        node["type"] = "string"
    return node
