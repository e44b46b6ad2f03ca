"""Small helpers for reading untrusted JSON values without ever raising anything but TranslationError."""

from __future__ import annotations

import json
from typing import Any

from .errors import Segments, TranslationError, fail, pointer

_CONTAINERS = (dict, list)
#: exact types, for set lookups on the hot paths (parsed JSON holds no subclasses; other values take the
#: general ``isinstance`` way)
_SCALAR_TYPES = frozenset((str, int, float, bool, type(None)))

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING", "__bool__": lambda self: False})()


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (dicts and lists are new objects)."""
    if isinstance(value, dict):
        return {k: v if type(v) in _SCALAR_TYPES else copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in _SCALAR_TYPES else copy_json(v) for v in value]
    return value


def json_type(value: Any) -> str:
    """The JSON type name of a Python value, for messages (``"nothing"`` for MISSING)."""
    if value is MISSING:
        return "nothing (it is missing)"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def invalid(message: str, path: Segments):
    """A payload.invalid error."""
    return fail("payload.invalid", message, path)


def expect_object(value: Any, path: Segments, what: str) -> dict:
    if not isinstance(value, dict):
        raise invalid(f"{what} must be an object, not {json_type(value)}", path)
    return value


def expect_list(value: Any, path: Segments, what: str) -> list:
    if not isinstance(value, list):
        raise invalid(f"{what} must be an array, not {json_type(value)}", path)
    return value


def optional_string(obj: dict, key: str, path: Segments, what: str, *, null_is_absent: bool = False) -> Any:
    """``obj[key]`` when it is a string, MISSING when absent (or null, when allowed); anything else is
    payload.invalid."""
    value = obj.get(key, MISSING)
    if value is None and null_is_absent:
        return MISSING
    if value is MISSING or isinstance(value, str):
        return value
    raise invalid(f"{what} must be a string, not {json_type(value)}", path + (key,))


def optional_bool(obj: dict, key: str, path: Segments, what: str, *, null_is_absent: bool) -> Any:
    """``obj[key]`` when it is a boolean, MISSING when absent (or null, when allowed)."""
    value = obj.get(key, MISSING)
    if value is None and null_is_absent:
        return MISSING
    if value is MISSING or isinstance(value, bool):
        return value
    raise invalid(f"{what} must be a boolean, not {json_type(value)}", path + (key,))


def pick_alias(obj: dict, keys: tuple[str, ...], path: Segments) -> tuple[str | None, Any]:
    """The one member of ``obj`` among spellings ``keys`` (camelCase, snake_case); both is invalid."""
    present = [k for k in keys if k in obj]
    if len(present) > 1:
        raise invalid(
            f"`{present[0]}` and `{present[1]}` are the same member; give only one", path + (present[1],)
        )
    if not present:
        return None, MISSING
    return present[0], obj[present[0]]


#: How deep a payload may nest arrays and objects (the root container is level 1). Checked before any
#: recursive walk, in every kind (``payload.too_deep``); JSON texts inside strings (tool-call arguments)
#: are held to the same limit on their own.
MAX_DEPTH = 256


def too_deep(path: Segments) -> TranslationError:
    return fail(
        "payload.too_deep", f"the payload nests arrays and objects deeper than {MAX_DEPTH} levels", path
    )


def check_depth(value: Any, path: Segments = (), level: int = 0) -> None:
    """Raise ``payload.too_deep`` when ``value`` (found ``level`` containers below the payload's root,
    at ``path``) nests deeper than MAX_DEPTH.

    One pass over the containers, depth first, that stops at the limit: the recursion is never more
    than MAX_DEPTH frames deep (the schema walks after it recurse as deep). A caller already so deep in
    the stack that even this overflows gets the same answer from the iterative pass."""
    if type(value) in _SCALAR_TYPES or not isinstance(value, _CONTAINERS):
        return
    room = MAX_DEPTH - level - 1  # container levels allowed below ``value``
    try:
        deep = room < 0 or nests_deeper(value.values() if isinstance(value, dict) else value, room)
    except RecursionError:
        deep = _nests_deeper_iterative(value, room)
    if deep:
        raise too_deep(path + _first_too_deep(value, MAX_DEPTH - level))


def nests_deeper(items: Any, room: int) -> bool:
    """True when the members ``items`` of a container (its values, or its entries) hold containers
    more than ``room`` levels below them.

    (Exact scalar types first, then exact ``dict`` and ``list``, then subclasses: JSON holds more
    scalars than containers, so this order is about 10 % fewer instructions than containers first
    on stream events; an empty container needs no call.)"""
    for v in items:
        kind = type(v)
        if kind in _SCALAR_TYPES:
            continue
        if kind is dict:
            if room == 0 or (v and nests_deeper(v.values(), room - 1)):
                return True
        elif kind is list:
            if room == 0 or (v and nests_deeper(v, room - 1)):
                return True
        elif isinstance(v, dict):
            if room == 0 or nests_deeper(v.values(), room - 1):
                return True
        elif isinstance(v, list) and (room == 0 or nests_deeper(v, room - 1)):
            return True
    return False


def nests_deeper_outside(payload: Any, skipped: list[Segments]) -> bool:
    """Whether ``payload`` nests deeper than MAX_DEPTH anywhere but inside the values at the paths
    ``skipped`` (which the caller bounds itself, e.g. the schema walk of ``schema.checks.fast_check``)."""
    trie: dict = {}
    for path in skipped:
        node = trie
        for seg in path[:-1]:
            node = node.setdefault(seg, {})
        node[path[-1]] = None
    return _nests_outside(payload, trie, MAX_DEPTH - 1)


def _nests_outside(value: Any, trie: dict, room: int) -> bool:
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return False
    for key, v in items:
        if type(v) in _SCALAR_TYPES or not isinstance(v, _CONTAINERS):
            continue
        below = trie.get(key, MISSING) if type(key) in _SCALAR_TYPES else MISSING
        if below is None:  # a skipped value
            continue
        if room == 0:
            return True
        if below is MISSING:
            if nests_deeper([v], room):
                return True
        elif _nests_outside(v, below, room - 1):
            return True
    return False


def _nests_deeper_iterative(value: Any, room: int) -> bool:
    """``nests_deeper`` without recursion: one level at a time."""
    nodes = [value]
    while nodes:
        below: list[Any] = []
        for node in nodes:
            items = node.values() if isinstance(node, dict) else node
            below += [v for v in items if type(v) not in _SCALAR_TYPES and isinstance(v, _CONTAINERS)]
        if below and room == 0:
            return True
        nodes, room = below, room - 1
    return False


def _first_too_deep(value: Any, limit: int) -> Segments:
    """The relative path of the first container (in document order) below ``limit`` levels."""
    stack: list[tuple[Any, Segments]] = [(value, ())]
    while stack:
        node, rel = stack.pop()
        if len(rel) >= limit:
            return rel
        items = list(node.items() if isinstance(node, dict) else enumerate(node))
        stack += [(sub, rel + (key,)) for key, sub in reversed(items) if isinstance(sub, _CONTAINERS)]
    return ()


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON (RFC 8259 has no NaN or Infinity)")


def loads(text: str | bytes) -> Any:
    """``json.loads``, except that ``NaN``, ``Infinity`` and ``-Infinity``, which Python reads but JSON does
    not have, raise ``ValueError`` (read, they would be written back out as invalid JSON)."""
    return json.loads(text, parse_constant=_no_constant)


def load_json(text: str, path: Segments) -> Any:
    """:func:`loads` held to MAX_DEPTH (``payload.too_deep`` at ``path``, the string's place); invalid JSON
    raises ``ValueError`` as ``json.loads`` does."""
    try:
        value = loads(text)
        check_depth(value)
    except (RecursionError, TranslationError):
        raise too_deep(path) from None  # a pointer cannot go inside a string
    return value


def _not_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def lone_surrogate_at(value: Any) -> str | None:
    """The JSON Pointer of a string (or member name) in ``value`` holding a lone surrogate, which UTF-8
    cannot encode (JSON text may spell one, ``"\\ud800"``; it is no Unicode text), or None."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        node, segments = stack.pop()
        if isinstance(node, str):
            if _not_utf8(node):
                return pointer(segments)
        elif isinstance(node, dict):
            for key, item in reversed(list(node.items())):
                if _not_utf8(key):
                    return pointer(segments + (key,))
                stack.append((item, segments + (key,)))
        elif isinstance(node, list):
            stack.extend((node[i], segments + (i,)) for i in reversed(range(len(node))))
    return None
