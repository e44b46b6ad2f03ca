"""Checks made on every parameter schema, whatever the target: root object, type names, JSON shape."""

from __future__ import annotations

from typing import Any

from .._json import json_type
from ..errors import SchemaProblem, Segments
from ..rules import JSON_TYPES
from .walk import LIST_SLOTS, MAP_SLOTS, SINGLE_SLOTS, walk

_STRING_KEYWORDS = ("title", "description", "pattern", "format", "$ref")


def check_schema(schema: dict) -> None:
    """Raise SchemaProblem for the first problem: root not ``type: object``, bad ``type``, bad shape.

    Null values are left alone here: strict targets refuse them (``schema.null_value``), Gemini drops
    them, the others pass them through.
    """
    if schema.get("type") != "object":
        raise SchemaProblem(
            "schema.root_not_object",
            f'the parameter schema\'s root must say "type": "object", not {_show(schema.get("type"))}',
            (),
        )
    walk(schema, _check_node)


def _show(value: Any) -> str:
    return "nothing" if value is None else repr(value)


def _bad_shape(message: str, rel: Segments) -> SchemaProblem:
    return SchemaProblem("payload.invalid", message, rel)


def _is_schema(value: Any) -> bool:
    return value is None or isinstance(value, (dict, bool))


def _check_node(node: dict, rel: Segments, level: int) -> None:
    for key, value in node.items():
        if value is None:
            continue
        at = rel + (key,)
        if key == "type":
            names = value if isinstance(value, list) else [value]
            if not names or not all(isinstance(n, str) and n in JSON_TYPES for n in names):
                raise SchemaProblem(
                    "schema.invalid_type",
                    f"`type` {value!r} is not one of {', '.join(sorted(JSON_TYPES))} (or a list of them)",
                    at,
                )
        elif key in SINGLE_SLOTS:
            if not _is_schema(value):
                raise _bad_shape(f"`{key}` must be a schema (an object), not {json_type(value)}", at)
        elif key in MAP_SLOTS:
            if not isinstance(value, dict):
                raise _bad_shape(f"`{key}` must be an object of schemas, not {json_type(value)}", at)
            for name, sub in value.items():
                if not _is_schema(sub):
                    raise _bad_shape(f"`{key}/{name}` must be a schema, not {json_type(sub)}", at + (name,))
        elif key in LIST_SLOTS:
            if not isinstance(value, list):
                raise _bad_shape(f"`{key}` must be an array of schemas, not {json_type(value)}", at)
            for index, sub in enumerate(value):
                if not _is_schema(sub):
                    raise _bad_shape(f"`{key}/{index}` must be a schema, not {json_type(sub)}", at + (index,))
        elif key == "required":
            if not isinstance(value, list):
                raise _bad_shape(f"`required` must be an array of names, not {json_type(value)}", at)
            for index, name in enumerate(value):
                if not isinstance(name, str):
                    raise _bad_shape(
                        f"`required` entries must be strings, not {json_type(name)}", at + (index,)
                    )
        elif key == "enum":
            if not isinstance(value, list):
                raise _bad_shape(f"`enum` must be an array, not {json_type(value)}", at)
        elif key in _STRING_KEYWORDS and not isinstance(value, str):
            raise _bad_shape(f"`{key}` must be a string, not {json_type(value)}", at)
