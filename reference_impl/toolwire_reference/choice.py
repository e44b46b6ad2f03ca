"""Tool-choice logic shared by the dialects: reading restricted tool names, refusing or degrading."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._json import expect_object, invalid, json_type
from .errors import TranslationError
from .profiles import degrading

MODES = ("auto", "none", "required")


def invalid_choice(message: str, path: str) -> TranslationError:
    return TranslationError("choice.invalid", message, path)


def read_payload(payload: Any, members: tuple[str, ...], dialect: str) -> dict:
    """The tool-choice payload (a request's fragment: an object of ``members``); another member, such
    as a bare choice value passed for the fragment, is ``payload.invalid``."""
    obj = expect_object(payload, (), "the tool-choice payload")
    for key in obj:
        if key not in members:
            holds = ", ".join(f"`{m}`" for m in members)
            message = f"the {dialect} tool-choice payload has no member `{key}` (it holds {holds})"
            raise invalid(message, (key,))
    return obj


def read_names(value: Any, path: str) -> list[str]:
    """A non-empty list of non-empty tool names, else ``choice.invalid`` at ``path``."""
    if not isinstance(value, list) or not value:
        raise invalid_choice("the allowed tools must be a non-empty list of tool names", path)
    if not all(isinstance(name, str) and name for name in value):
        raise invalid_choice("every allowed tool must be named by a non-empty string", path)
    return list(value)


def read_flag(obj: dict, key: str, path: str, *, null_is_absent: bool) -> bool | None:
    """A boolean member of a tool-choice payload (None when absent); any other value is ``choice.invalid``."""
    value = obj.get(key)
    if key not in obj or (value is None and null_is_absent):
        return None
    if not isinstance(value, bool):
        raise invalid_choice(f"`{key}` must be a boolean, not {json_type(value)}", path)
    return value


def refuse_or_degrade(profile: Mapping[str, str], code: str, message: str, path: str, fallback: Any) -> Any:
    """Raise ``code`` at ``path``, or return ``fallback`` under ``unsupported=degrade``."""
    if degrading(profile):
        return fallback
    raise TranslationError(code, message, path)
