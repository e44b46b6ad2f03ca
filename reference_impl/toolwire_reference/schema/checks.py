"""Checks made on every parameter schema, whatever the target: root object, type names, JSON shape."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from .._json import _SCALAR_TYPES, copy_json, json_type
from ..errors import SchemaProblem, Segments
from ..rules import JSON_TYPES
from .walk import LIST, MAP, SINGLE, SLOTS

_TYPE, _REQUIRED, _ENUM, _STRING = "type", "required", "enum", "string"
_NUMBER, _POSITIVE, _COUNT, _BOOL = "number", "positive", "count", "boolean"
_ARRAY, _OBJECT = "array", "object"
#: what each JSON Schema keyword's value must be (the 2020-12 meta-schema, which OpenAI and Anthropic check
#: parameter schemas against, with the draft-07 names it keeps); other keywords are not checked. ``const``
#: and ``default`` take any value.
_ROLES = {
    **SLOTS,
    **dict.fromkeys(("propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema"), SINGLE),
    "dependentSchemas": MAP,
    "type": _TYPE,
    "required": _REQUIRED,
    "enum": _ENUM,
    **dict.fromkeys(
        (
            "title", "description", "pattern", "format", "$ref", "$schema", "$id", "$anchor", "$dynamicRef",
            "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "$comment", "contentEncoding",
            "contentMediaType",
        ),
        _STRING,
    ),
    **dict.fromkeys(("maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"), _NUMBER),
    "multipleOf": _POSITIVE,
    **dict.fromkeys(
        (
            "maxLength", "minLength", "maxItems", "minItems", "maxContains", "minContains", "maxProperties",
            "minProperties",
        ),
        _COUNT,
    ),
    **dict.fromkeys(("uniqueItems", "deprecated", "readOnly", "writeOnly"), _BOOL),
    "examples": _ARRAY,
    **dict.fromkeys(("$vocabulary", "dependentRequired", "dependencies"), _OBJECT),
}
#: how each role is named in a message about a value of the wrong shape
_WANTS = {
    _NUMBER: "a number",
    _POSITIVE: "a number above 0",
    _COUNT: "a non-negative integer",
    _BOOL: "a boolean",
    _ARRAY: "an array",
    _OBJECT: "an object",
    _STRING: "a string",
}
_SCHEMA_CLASSES = frozenset({dict, bool})  # what a subschema may be
_STR_CLASS = frozenset({str})
_NUMBERS = frozenset({int, float})


def check_schema(schema: dict, *, copy: bool = False) -> dict | None:
    """Raise SchemaProblem for the first problem: root not ``type: object``, bad ``type``, bad shape.

    A null where a checked keyword or a subschema belongs is refused (``schema.null_value``): JSON
    Schema gives none of them a null form, and OpenAI and Anthropic validate parameter schemas against
    its meta-schema. (A null ``const``, ``default`` or ``enum`` entry is a value, left alone.) With
    ``copy``, returns a deep copy of the schema (what ``copy_json`` gives) made in the same pass, for an
    encoder that would copy it unchanged.
    """
    if schema.get("type") != "object":
        raise SchemaProblem(
            "schema.root_not_object",
            f'the parameter schema\'s root must say "type": "object", not {_show(schema.get("type"))}',
            (),
        )
    if copy:
        return _check_copy(schema, ())
    _check(schema, ())
    return None


def check_shape(schema: dict) -> None:
    """Raise SchemaProblem for a bad ``type`` or a keyword of the wrong JSON shape, at any depth (the
    checks of ``check_schema`` but the root rule: a response-format schema may have any root)."""
    _check(schema, ())


def _show(value: Any) -> str:
    return "nothing" if value is None else repr(value)


def _is_schema(value: Any) -> bool:
    return isinstance(value, (dict, bool))


def _all_schemas(values: Collection[Any]) -> bool:
    return _SCHEMA_CLASSES.issuperset(map(type, values)) or all(_is_schema(v) for v in values)


def _all_strings(values: Collection[Any]) -> bool:
    return _STR_CLASS.issuperset(map(type, values)) or all(isinstance(v, str) for v in values)


def _valid_type(value: Any) -> bool:
    if isinstance(value, str):
        return value in JSON_TYPES
    return (
        isinstance(value, list)
        and bool(value)
        and _all_strings(value)
        and JSON_TYPES.issuperset(value)
        and len(set(value)) == len(value)
    )


#: whether a (non-null) value of each role is well-formed (set operations over the value types: no
#: Python call per entry); the message is only worked out (``_problem``) for a value that is not
_VALID: dict[str, Callable[[Any], bool]] = {
    _TYPE: _valid_type,
    SINGLE: _is_schema,
    MAP: lambda v: isinstance(v, dict) and _all_schemas(v.values()),
    LIST: lambda v: isinstance(v, list) and bool(v) and _all_schemas(v),
    _REQUIRED: lambda v: isinstance(v, list) and _all_strings(v) and len(set(v)) == len(v),
    _ENUM: lambda v: isinstance(v, list),
    _STRING: lambda v: isinstance(v, str),
    _NUMBER: lambda v: type(v) in _NUMBERS,
    _POSITIVE: lambda v: type(v) in _NUMBERS and v > 0,
    _COUNT: lambda v: type(v) is int and v >= 0,
    _BOOL: lambda v: type(v) is bool,
    _ARRAY: lambda v: isinstance(v, list),
    _OBJECT: lambda v: isinstance(v, dict),
}


def _check_members(node: dict, rel: Segments) -> list[tuple[str, str, Any]] | None:
    """Check ``node``'s own members; returns its subschema members (role, key, value), None for none."""
    subschemas = None
    for key, value in node.items():
        role = _ROLES.get(key)
        if role is None:
            continue
        if value is None:
            raise _null_value(f"`{key}` is null", rel + (key,))
        # the usual well-formed values are recognised inline; anything else goes through _VALID
        if role is _STRING:
            if type(value) is str:
                continue
        elif role is _TYPE:
            if type(value) is str and value in JSON_TYPES:
                continue
        elif role is MAP and type(value) is dict and _SCHEMA_CLASSES.issuperset(map(type, value.values())):
            (subschemas := subschemas or []).append((role, key, value))
            continue
        if not _VALID[role](value):
            raise _problem(role, key, value, rel + (key,))
        if role is SINGLE or role is MAP or role is LIST:
            (subschemas := subschemas or []).append((role, key, value))
    return subschemas


def _check(node: dict, rel: Segments) -> None:
    """Check ``node``'s members, then its subschemas (as ``walk.walk`` visits them: the node before its
    children, children in member order), so the first problem is the same whatever the walk."""
    subschemas = _check_members(node, rel)
    if subschemas is None:
        return
    for role, key, value in subschemas:
        if role is SINGLE:
            if isinstance(value, dict):
                _check(value, rel + (key,))
        elif role is MAP:
            for name, sub in value.items():
                if isinstance(sub, dict):
                    _check(sub, rel + (key, name))
        else:
            for index, sub in enumerate(value):
                if isinstance(sub, dict):
                    _check(sub, rel + (key, index))


def _check_copy(node: dict, rel: Segments) -> dict:
    """``_check`` that also returns a deep copy of ``node`` (what ``copy_json`` gives), in one pass
    instead of a check and a copy. The same checks in the same order: all of ``node``'s own members
    (copied as they are checked), then its subschemas, checked and copied in member order."""
    out = {}
    subschemas = None
    for key, value in node.items():
        role = _ROLES.get(key)
        if type(value) in _SCALAR_TYPES:
            out[key] = value
            if role is None:
                continue
            if value is None:
                raise _null_value(f"`{key}` is null", rel + (key,))
            # the usual well-formed values are recognised inline; anything else goes through _VALID
            if role is _STRING:
                if type(value) is str:
                    continue
            elif role is _TYPE and type(value) is str and value in JSON_TYPES:
                continue
        else:
            if role is None:
                out[key] = copy_json(value)
                continue
            if (
                role is MAP
                and type(value) is dict
                and _SCHEMA_CLASSES.issuperset(map(type, value.values()))
            ):
                out[key] = value  # replaced by its copy below
                (subschemas := subschemas or []).append((role, key, value))
                continue
            # a subschema slot's copy is made below, once checked; other members are plain JSON
            out[key] = value if role is SINGLE or role is MAP or role is LIST else copy_json(value)
        if not _VALID[role](value):
            raise _problem(role, key, value, rel + (key,))
        if (role is SINGLE or role is MAP or role is LIST) and type(value) not in _SCALAR_TYPES:
            (subschemas := subschemas or []).append((role, key, value))
    if subschemas is None:
        return out
    for role, key, value in subschemas:
        if role is SINGLE:
            if isinstance(value, dict):
                out[key] = _check_copy(value, rel + (key,))
        elif role is MAP:  # checked: an object of schemas (objects, booleans)
            out[key] = {
                name: _check_copy(sub, rel + (key, name)) if isinstance(sub, dict) else sub
                for name, sub in value.items()
            }
        else:  # LIST, checked: an array of schemas
            out[key] = [
                _check_copy(sub, rel + (key, index)) if isinstance(sub, dict) else sub
                for index, sub in enumerate(value)
            ]
    return out


# -- the fast pass: checks, copies and bounds the depth in one walk, or gives up ---------------------------
class Unusual(Exception):
    """Raised by the fast pass for anything it does not settle itself: a problem, a value of an unusual
    Python type, or nesting past the depth limit. The caller then runs the exact pass (``check_schema``,
    which names the first problem) once the payload's depth is known to be within the limit."""


def fast_check(node: dict, room: int, copy: bool) -> dict | None:
    """What ``check_schema`` gives for a schema without problems (with ``copy``, the same deep copy),
    checking in the same walk that nothing nests more than ``room`` container levels below ``node``
    (``_json.MAX_DEPTH`` minus the level of ``node``, the payload's root being level 1); raises
    Unusual instead of anything else (the exact pass then reports the problem)."""
    if node.get("type") != "object":
        raise Unusual
    return _fast_copy(node, room) if copy else _fast(node, room)


#: the scalar members the fast walk accepts as they are: role -> exact types (and ``type``: a JSON type
#: name; ``count``: a non-negative int)
_SCALAR_KINDS = {_STRING: _STR_CLASS, SINGLE: frozenset({bool}), _NUMBER: _NUMBERS, _BOOL: frozenset({bool})}


def _fast_copy(node: dict, room: int) -> dict:
    """``_check_copy`` for exact JSON types, bounded to ``room`` levels below ``node``, with no paths
    (Unusual for anything else)."""
    out = {}
    for key, value in node.items():
        kind = type(value)
        role = _ROLES.get(key)
        if kind in _SCALAR_TYPES:
            out[key] = value
            if role is None or kind in _SCALAR_KINDS.get(role, ()):
                continue
            if role is _TYPE and kind is str and value in JSON_TYPES:
                continue
            if role is _COUNT and kind is int and value >= 0:
                continue
            raise Unusual
        if room <= 0:
            raise Unusual
        if role is None:
            out[key] = bounded_copy(value, room - 1)
        elif role is MAP:
            if kind is not dict:
                raise Unusual
            out[key] = sub = {}
            for name, item in value.items():
                if type(item) is dict:
                    if room <= 1:
                        raise Unusual
                    sub[name] = _fast_copy(item, room - 2)
                elif type(item) is bool:
                    sub[name] = item
                else:
                    raise Unusual
        elif role is SINGLE:
            if kind is not dict:
                raise Unusual
            out[key] = _fast_copy(value, room - 1)
        elif role is LIST:
            if kind is not list or not value:
                raise Unusual
            out[key] = items = []
            for item in value:
                if type(item) is dict:
                    if room <= 1:
                        raise Unusual
                    items.append(_fast_copy(item, room - 2))
                elif type(item) is bool:
                    items.append(item)
                else:
                    raise Unusual
        else:
            out[key] = _fast_value(role, kind, value, room)
    return out


def _fast_value(role: str, kind: type, value: Any, room: int) -> Any:
    """A copy of the container ``value`` of a ``type``, ``required`` or ``enum`` member (Unusual when
    it is not well-formed, or nests too deep)."""
    if role is _REQUIRED:
        if kind is list and _STR_CLASS.issuperset(map(type, value)) and len(set(value)) == len(value):
            return list(value)
    elif role is _TYPE:
        if (
            kind is list
            and value
            and _STR_CLASS.issuperset(map(type, value))
            and JSON_TYPES.issuperset(value)
            and len(set(value)) == len(value)
        ):
            return list(value)
    elif (role is _ENUM or role is _ARRAY) and kind is list or role is _OBJECT and kind is dict:
        return bounded_copy(value, room - 1)
    raise Unusual


def _fast(node: dict, room: int) -> None:
    """``_fast_copy`` without the copy (the check of ``_check``, bounded)."""
    for key, value in node.items():
        kind = type(value)
        role = _ROLES.get(key)
        if kind in _SCALAR_TYPES:
            if role is None or kind in _SCALAR_KINDS.get(role, ()):
                continue
            if role is _TYPE and kind is str and value in JSON_TYPES:
                continue
            if role is _COUNT and kind is int and value >= 0:
                continue
            raise Unusual
        if room <= 0:
            raise Unusual
        if role is None:
            bounded(value, room - 1)
        elif role is MAP or role is LIST:
            if kind is not (dict if role is MAP else list) or role is LIST and not value:
                raise Unusual
            for item in value.values() if role is MAP else value:
                if type(item) is dict:
                    if room <= 1:
                        raise Unusual
                    _fast(item, room - 2)
                elif type(item) is not bool:
                    raise Unusual
        elif role is SINGLE:
            if kind is not dict:
                raise Unusual
            _fast(value, room - 1)
        else:
            _fast_value(role, kind, value, room)


def bounded_copy(value: Any, room: int) -> Any:
    """A deep copy of the container ``value`` (what ``copy_json`` gives), raising Unusual when it nests
    more than ``room`` levels below itself or holds a value of another Python type."""
    kind = type(value)
    if kind is dict:
        if _SCALAR_TYPES.issuperset(map(type, value.values())):
            return dict(value)
        if room <= 0:
            raise Unusual
        return {
            k: v if type(v) in _SCALAR_TYPES else bounded_copy(v, room - 1) for k, v in value.items()
        }
    if kind is list:
        if _SCALAR_TYPES.issuperset(map(type, value)):
            return list(value)
        if room <= 0:
            raise Unusual
        return [v if type(v) in _SCALAR_TYPES else bounded_copy(v, room - 1) for v in value]
    raise Unusual


def bounded(value: Any, room: int) -> None:
    """``bounded_copy`` without the copy."""
    kind = type(value)
    if kind is dict:
        items = value.values()
    elif kind is list:
        items = value
    else:
        raise Unusual
    if _SCALAR_TYPES.issuperset(map(type, items)):
        return
    if room <= 0:
        raise Unusual
    for v in items:
        if type(v) not in _SCALAR_TYPES:
            bounded(v, room - 1)


def _problem(role: str, key: str, value: Any, at: Segments) -> SchemaProblem:
    """The problem with the ``key`` member of role ``role`` (a value ``_VALID`` refused)."""
    if role is _TYPE:
        return SchemaProblem(
            "schema.invalid_type",
            f"`type` {value!r} is not one of {', '.join(sorted(JSON_TYPES))} (or a list of different ones)",
            at,
        )
    if role is SINGLE:
        return _bad_shape(f"`{key}` must be a schema (an object), not {json_type(value)}", at)
    if role is MAP:
        if not isinstance(value, dict):
            return _bad_shape(f"`{key}` must be an object of schemas, not {json_type(value)}", at)
        name, sub = next((n, s) for n, s in value.items() if not _is_schema(s))
        if sub is None:
            return _null_value("a subschema is null", at + (name,))
        return _bad_shape(f"`{key}/{name}` must be a schema, not {json_type(sub)}", at + (name,))
    if role is LIST:
        if not isinstance(value, list):
            return _bad_shape(f"`{key}` must be an array of schemas, not {json_type(value)}", at)
        if not value:
            return _bad_shape(f"`{key}` must name at least one schema", at)
        index, sub = next((i, s) for i, s in enumerate(value) if not _is_schema(s))
        if sub is None:
            return _null_value("a subschema is null", at + (index,))
        return _bad_shape(f"`{key}/{index}` must be a schema, not {json_type(sub)}", at + (index,))
    if role is _REQUIRED:
        if not isinstance(value, list):
            return _bad_shape(f"`required` must be an array of names, not {json_type(value)}", at)
        index, name = next(((i, n) for i, n in enumerate(value) if not isinstance(n, str)), (None, None))
        if index is None:
            index = next(i for i, n in enumerate(value) if n in value[:i])
            return _bad_shape(f"`required` names {value[index]!r} twice", at + (index,))
        return _bad_shape(f"`required` entries must be strings, not {json_type(name)}", at + (index,))
    if role is _ENUM:
        return _bad_shape(f"`enum` must be an array, not {json_type(value)}", at)
    return _bad_shape(f"`{key}` must be {_WANTS[role]}, not {_show_value(value)}", at)


def _show_value(value: Any) -> str:
    return repr(value) if type(value) in _NUMBERS else json_type(value)


def _bad_shape(message: str, rel: Segments) -> SchemaProblem:
    return SchemaProblem("payload.invalid", message, rel)


def _null_value(message: str, rel: Segments) -> SchemaProblem:
    return SchemaProblem("schema.null_value", message, rel)
