"""Small helpers for reading untrusted JSON values without ever raising anything but TranslationError."""

from __future__ import annotations

from typing import Any

from .errors import Segments, fail

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING", "__bool__": lambda self: False})()


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (dicts and lists are new objects)."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
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


def optional_string(obj: dict, key: str, path: Segments, what: str) -> Any:
    """``obj[key]`` when it is a string, MISSING when absent; anything else is payload.invalid."""
    value = obj.get(key, MISSING)
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
