"""JSON values as the harness handles them: checked, copied and compared fast (every check copies what it
hands an implementation and looks at what it got back)."""

from __future__ import annotations

import copy
import json
import math
from typing import Any

from .paths import unlocalize

__all__ = ["clip", "first_difference", "json_copy", "json_problem", "same_json", "value_at"]


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, the cut marked with ``…`` (a run's scrubbing cuts such a text
    right after its last placeholder, so that a random id cut in half never reaches results:
    :func:`toolwire.reproducible.scrub`). This machine's paths are written relative first
    (:func:`toolwire.paths.unlocalize`), so where the cut falls does not depend on where the checkout is."""
    text = unlocalize(text)
    return text if len(text) <= limit else text[:limit] + "…"


def _plain(node: Any) -> bool:
    """Whether ``node`` is built of plain JSON types only (the common case, answered without paths)."""
    kind = type(node)
    if kind is str or kind is int or kind is bool or node is None:
        return True
    if kind is float:
        return math.isfinite(node)
    if kind is list:
        return all(map(_plain, node))
    if kind is dict:
        return all(type(k) is str for k in node) and all(map(_plain, node.values()))
    return False


def json_problem(value: Any, path: str = "") -> str | None:
    """Why ``value`` is not a JSON value (with the JSON Pointer of the culprit), or None when it is one."""
    try:
        if _plain(value):
            return None
    except RecursionError:
        pass  # too deep to recurse: the walk below needs no stack
    stack: list[tuple[Any, str]] = [(value, path)]
    ancestors: set[int] = set()  # the lists and dicts that hold the node being looked at
    while stack:
        node, where = stack.pop()
        if isinstance(node, _Leave):
            ancestors.discard(node.container)
            continue
        if node is None or isinstance(node, bool | str):
            continue
        if isinstance(node, int):
            continue
        if isinstance(node, float):
            if not math.isfinite(node):
                return f"{where or '(root)'}: {node!r} is not a JSON number"
            continue
        if isinstance(node, list | dict):
            if id(node) in ancestors:
                return f"{where or '(root)'}: the value contains itself (a reference cycle), no JSON value"
            ancestors.add(id(node))
            stack.append((_Leave(id(node)), where))
        if isinstance(node, list):
            stack.extend((v, f"{where}/{i}") for i, v in enumerate(node))
            continue
        if isinstance(node, dict):
            for k, v in node.items():
                if not isinstance(k, str):
                    return f"{where or '(root)'}: object key {k!r} is a {type(k).__name__}, not a string"
                stack.append((v, where + "/" + k.replace("~", "~0").replace("/", "~1")))
            continue
        return f"{where or '(root)'}: a {type(node).__module__}.{type(node).__qualname__} is not a JSON value"
    return None


class _Leave:
    """A mark on :func:`json_problem`'s stack: the walk has left the container with this ``id``."""

    __slots__ = ("container",)

    def __init__(self, container: int) -> None:
        self.container = container


def json_copy(value: Any) -> Any:
    """A deep copy of a JSON value (lists and dicts rebuilt, scalars shared); anything else is deep-copied."""
    kind = type(value)
    if kind is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if kind is list:
        return [json_copy(v) for v in value]
    if kind in (str, int, float, bool) or value is None:
        return value
    return copy.deepcopy(value)


def same_json(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` serialise alike (unlike ``==``, tells ``1`` from ``1.0`` and ``True``)."""
    try:
        return json.dumps(a) == json.dumps(b)
    except (TypeError, ValueError, RecursionError):
        return False


def first_difference(a: Any, b: Any, at: str = "") -> str | None:
    """The JSON Pointer of the first place where ``a`` and ``b`` differ, or None when they are equal."""
    if type(a) is not type(b):
        return at
    if isinstance(a, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{at}/{str(key).replace('~', '~0').replace('/', '~1')}"
            found = first_difference(a[key], b[key], f"{at}/{str(key).replace('~', '~0').replace('/', '~1')}")
            if found is not None:
                return found
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{at}/{i}")
            if found is not None:
                return found
        return None if len(a) == len(b) else f"{at}/{min(len(a), len(b))}"
    return None if a == b else at


def value_at(doc: Any, pointer: str) -> Any:
    """The value at the JSON Pointer ``pointer`` in ``doc``, or None where there is none."""
    node = doc
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            node = node.get(token)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


def values_at(doc: Any, pattern: str) -> list[Any]:
    """The values at the JSON Pointer ``pattern`` in ``doc``, where a ``*`` token is every member or item."""
    nodes = [doc]
    for token in pattern.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        found: list[Any] = []
        for node in nodes:
            if token == "*":
                found.extend(
                    node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
                )
            elif isinstance(node, dict) and token in node:
                found.append(node[token])
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                found.append(node[int(token)])
        nodes = found
    return nodes
