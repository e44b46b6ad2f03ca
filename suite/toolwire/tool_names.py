"""The tool names a tool-choice fragment of any dialect refers to, read from its JSON alone: what the
harness lifting a tool choice into a request (``judge.lifting``) and the peer adapters driving a whole request
(``peers._common.choice_tools``) both need to offer the tools a choice names."""

from __future__ import annotations

from typing import Any

__all__ = ["custom_names", "referenced_names"]


def referenced_names(fragment: Any) -> list[str]:
    """The tool names a tool-choice fragment of any dialect refers to: every string member ``name`` and
    every entry of an ``allowedFunctionNames`` / ``allowed_function_names`` list, in order, once each."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "name" and isinstance(value, str) and value:
                    found.append(value)
                elif key in ("allowedFunctionNames", "allowed_function_names", "tools") and isinstance(
                    value, list
                ):
                    found.extend(v for v in value if isinstance(v, str) and v)
                    walk(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(fragment)
    return list(dict.fromkeys(found))


def custom_names(fragment: Any) -> set[str]:
    """The tool names a tool-choice fragment refers to as custom (free-form) tools: the ``name`` of every
    ``{"type": "custom", …}`` reference (Responses), or of its ``custom`` object (Chat), and the canonical
    choice's ``custom`` list."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "custom":
                inner = node.get("custom")
                name = inner.get("name") if isinstance(inner, dict) else node.get("name")
                if isinstance(name, str):
                    found.add(name)
            elif isinstance(node.get("custom"), list) and "mode" in node:
                found.update(n for n in node["custom"] if isinstance(n, str))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(fragment)
    return found
