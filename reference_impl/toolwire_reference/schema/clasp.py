"""CLASP's ``required`` filter (``openai.strict=off``): properties that look optional leave ``required``."""

from __future__ import annotations

from typing import Any

from ..errors import Segments
from ..rules import CLASP_OPTIONAL_PHRASES


def looks_optional(prop: Any) -> bool:
    """A default, ``nullable: true``, a boolean type, or an "optional" phrase in the description."""
    if not isinstance(prop, dict):
        return False
    if "default" in prop or prop.get("nullable") is True:
        return True
    kind = prop.get("type")
    if kind == "boolean" or (isinstance(kind, list) and "boolean" in kind):
        return True
    description = prop.get("description")
    if isinstance(description, str):
        text = description.casefold()
        return any(phrase in text for phrase in CLASP_OPTIONAL_PHRASES)
    return False


def filter_required(node: dict, rel: Segments) -> dict:
    """Node function: drop the names of optional-looking properties from ``required`` (may leave ``[]``)."""
    required, props = node.get("required"), node.get("properties")
    if not isinstance(required, list) or not isinstance(props, dict):
        return node
    kept = [name for name in required if not looks_optional(props.get(name))]
    return node if len(kept) == len(required) else {**node, "required": kept}
