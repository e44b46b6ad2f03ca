"""Compare an output with an expected payload, following ``corpus/INTERPRETING.md`` ("Payload expectations").

Equality is JSON value equality (objects: same keys, arrays: same order, numbers as numbers, booleans never
numbers, strings exact) plus the matchers
``$any $absent $optional $type $json $unordered $regex $id $oneOf $literal``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MATCHERS",
    "Difference",
    "compare",
    "format_diff",
    "instantiate",
    "is_matcher",
    "lookup",
    "pointer",
]

MATCHERS = frozenset(
    {"$any", "$absent", "$optional", "$type", "$json", "$unordered", "$regex", "$id", "$oneOf", "$literal"}
)
JSON_TYPES = ("string", "number", "integer", "boolean", "object", "array", "null")


@dataclass(frozen=True)
class Difference:
    """One difference between expected and actual: a JSON Pointer into the output and what is wrong there."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path or '(root)'}: {self.message}"


def _escape(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer(tokens: list[str | int] | tuple[str | int, ...]) -> str:
    """A JSON Pointer (RFC 6901) from a list of keys and indexes."""
    return "".join("/" + _escape(t) for t in tokens)


def is_matcher(value: Any) -> bool:
    """True for an object whose only key starts with ``$`` (a matcher, never a literal)."""
    return isinstance(value, dict) and len(value) == 1 and next(iter(value)).startswith("$")


def _show(value: Any, limit: int = 120) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _has_type(value: Any, name: str) -> bool:
    if name == "integer":
        return _is_number(value) and float(value).is_integer()
    if name == "number":
        return _is_number(value)
    return _json_type(value) == name


Tolerate = Callable[[str, Any], bool]


class _Comparer:
    def __init__(self, tolerate: Tolerate | None = None) -> None:
        self.captures: dict[str, str] = {}
        self.tolerate = tolerate

    # -- entry points -------------------------------------------------------------------------------
    def compare(self, expected: Any, actual: Any, path: str) -> list[Difference]:
        if is_matcher(expected):
            return self._matcher(expected, actual, path)
        if isinstance(expected, dict):
            return self._object(expected, actual, path)
        if isinstance(expected, list):
            return self._array(expected, actual, path)
        return _scalar(expected, actual, path)

    def _fork(self, expected: Any, actual: Any, path: str) -> tuple[list[Difference], dict[str, str]]:
        """Compare on a copy of the captures; the caller commits them on success."""
        saved = self.captures
        self.captures = dict(saved)
        try:
            diffs = self.compare(expected, actual, path)
            return diffs, self.captures
        finally:
            self.captures = saved

    # -- containers ---------------------------------------------------------------------------------
    def _object(self, expected: dict[str, Any], actual: Any, path: str) -> list[Difference]:
        if not isinstance(actual, dict):
            return [Difference(path, f"expected an object, got {_json_type(actual)} {_show(actual)}")]
        diffs: list[Difference] = []
        for key, exp in expected.items():
            sub = path + "/" + _escape(key)
            if is_matcher(exp) and "$absent" in exp:
                if key in actual:
                    diffs.append(
                        Difference(
                            sub, f"unexpected key {key!r} (must be absent), value {_show(actual[key])}"
                        )
                    )
                continue
            if is_matcher(exp) and "$optional" in exp:
                if key in actual:
                    diffs.extend(self.compare(exp["$optional"], actual[key], sub))
                continue
            if key not in actual:
                diffs.append(Difference(sub, f"missing key {key!r}, expected {_describe(exp)}"))
                continue
            diffs.extend(self.compare(exp, actual[key], sub))
        for key in actual:
            if key not in expected:
                sub = path + "/" + _escape(key)
                if self.tolerate is not None and self.tolerate(sub, actual[key]):
                    continue
                diffs.append(Difference(sub, f"unexpected key {key!r}, value {_show(actual[key])}"))
        return diffs

    def _array(self, expected: list[Any], actual: Any, path: str) -> list[Difference]:
        if not isinstance(actual, list):
            return [Difference(path, f"expected an array, got {_json_type(actual)} {_show(actual)}")]
        diffs: list[Difference] = []
        for i, exp in enumerate(expected):
            if i >= len(actual):
                diffs.append(Difference(f"{path}/{i}", f"missing item, expected {_describe(exp)}"))
            else:
                diffs.extend(self.compare(exp, actual[i], f"{path}/{i}"))
        for i in range(len(expected), len(actual)):
            diffs.append(Difference(f"{path}/{i}", f"unexpected item {_show(actual[i])}"))
        return diffs

    # -- matchers -----------------------------------------------------------------------------------
    def _matcher(self, expected: dict[str, Any], actual: Any, path: str) -> list[Difference]:
        name, arg = next(iter(expected.items()))
        if name == "$any":
            return []
        if name == "$absent":
            return [Difference(path, "value present where the expectation says the key must be absent")]
        if name == "$optional":
            return self.compare(arg, actual, path)
        if name == "$literal":
            return _literal(arg, actual, path)
        if name == "$type":
            names = arg if isinstance(arg, list) else [arg]
            if any(_has_type(actual, n) for n in names):
                return []
            return [
                Difference(
                    path,
                    f"expected a value of type {' or '.join(map(str, names))}, "
                    f"got {_json_type(actual)} {_show(actual)}",
                )
            ]
        if name == "$regex":
            if not isinstance(actual, str):
                return [
                    Difference(
                        path, f"expected a string matching /{arg}/, got {_json_type(actual)} {_show(actual)}"
                    )
                ]
            if re.search(arg, actual) is None:
                return [Difference(path, f"string {_show(actual)} does not match /{arg}/")]
            return []
        if name == "$id":
            return self._id(arg, actual, path)
        if name == "$json":
            if not isinstance(actual, str):
                return [
                    Difference(
                        path, f"expected a JSON-encoded string, got {_json_type(actual)} {_show(actual)}"
                    )
                ]
            try:
                decoded = json.loads(actual)
            except ValueError as exc:
                return [Difference(path, f"string is not valid JSON ({exc}): {_show(actual)}")]
            inner = self.compare(arg, decoded, "")
            return [
                Difference(path, f"in the JSON text, at {d.path or '(root)'}: {d.message}") for d in inner
            ]
        if name == "$unordered":
            return self._unordered(arg, actual, path)
        if name == "$oneOf":
            return self._one_of(arg, actual, path)
        return [Difference(path, f"the expectation uses an unknown matcher {name!r} (corpus error)")]

    def _id(self, arg: Any, actual: Any, path: str) -> list[Difference]:
        spec = arg if isinstance(arg, dict) else {}
        prefix = spec.get("prefix") or ""
        if not isinstance(actual, str) or not actual:
            return [
                Difference(path, f"expected a non-empty id string, got {_json_type(actual)} {_show(actual)}")
            ]
        if not actual.startswith(prefix):
            return [Difference(path, f"id {_show(actual)} does not start with {prefix!r}")]
        capture = spec.get("capture")
        if capture:
            seen = self.captures.get(capture)
            if seen is None:
                other = next((n for n, v in self.captures.items() if v == actual), None)
                if other is not None:
                    return [
                        Difference(
                            path,
                            f"id {_show(actual)} was already captured as {other!r}: "
                            f"{capture!r} must be a different id",
                        )
                    ]
                self.captures[capture] = actual
            elif seen != actual:
                return [
                    Difference(
                        path, f"id {_show(actual)} differs from {_show(seen)} captured earlier as {capture!r}"
                    )
                ]
        return []

    def _unordered(self, expected: Any, actual: Any, path: str) -> list[Difference]:
        if not isinstance(expected, list):
            return [Difference(path, "$unordered needs a list (corpus error)")]
        if not isinstance(actual, list):
            return [Difference(path, f"expected an array, got {_json_type(actual)} {_show(actual)}")]
        if len(expected) != len(actual):
            return [
                Difference(
                    path, f"expected {len(expected)} items in any order, got {len(actual)}: {_show(actual)}"
                )
            ]
        n = len(expected)
        # which actual items each expected item can match on its own (captures ignored for the pruning)
        candidates = [
            [j for j in range(n) if not self._fork(expected[i], actual[j], "")[0]] for i in range(n)
        ]

        def search(i: int, used: set[int]) -> bool:
            if i == n:
                return True
            for j in candidates[i]:
                if j in used:
                    continue
                diffs, captures = self._fork(expected[i], actual[j], f"{path}/{j}")
                if diffs:
                    continue
                saved = self.captures
                self.captures = captures
                if search(i + 1, used | {j}):
                    return True
                self.captures = saved
            return False

        if search(0, set()):
            return []
        diffs: list[Difference] = []
        matched: set[int] = set()
        for i, cands in enumerate(candidates):
            free = [j for j in cands if j not in matched]
            if free:
                matched.add(free[0])
            else:
                diffs.append(Difference(path, f"no item matches expected item {i}: {_describe(expected[i])}"))
        extra = [actual[j] for j in range(n) if j not in matched]
        if extra:
            diffs.append(Difference(path, f"unmatched output items: {_show(extra)}"))
        if not diffs:
            diffs.append(Difference(path, "items match individually but not with consistent id captures"))
        return diffs

    def _one_of(self, alternatives: Any, actual: Any, path: str) -> list[Difference]:
        if not isinstance(alternatives, list) or not alternatives:
            return [Difference(path, "$oneOf needs a non-empty list (corpus error)")]
        best: list[Difference] | None = None
        for alt in alternatives:
            diffs, captures = self._fork(alt, actual, path)
            if not diffs:
                self.captures = captures
                return []
            if best is None or len(diffs) < len(best):
                best = diffs
        assert best is not None
        head = Difference(path, f"matches none of the {len(alternatives)} alternatives; closest differs by:")
        return [head, *best]


def _literal(expected: Any, actual: Any, path: str) -> list[Difference]:
    """Plain JSON equality, no matchers at any depth."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [Difference(path, f"expected an object, got {_json_type(actual)} {_show(actual)}")]
        diffs: list[Difference] = []
        for key, exp in expected.items():
            sub = path + "/" + _escape(key)
            if key not in actual:
                diffs.append(Difference(sub, f"missing key {key!r}, expected {_show(exp)}"))
            else:
                diffs.extend(_literal(exp, actual[key], sub))
        diffs.extend(
            Difference(path + "/" + _escape(k), f"unexpected key {k!r}, value {_show(v)}")
            for k, v in actual.items()
            if k not in expected
        )
        return diffs
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [Difference(path, f"expected an array, got {_json_type(actual)} {_show(actual)}")]
        diffs = []
        for i, exp in enumerate(expected):
            if i >= len(actual):
                diffs.append(Difference(f"{path}/{i}", f"missing item, expected {_show(exp)}"))
            else:
                diffs.extend(_literal(exp, actual[i], f"{path}/{i}"))
        diffs.extend(
            Difference(f"{path}/{i}", f"unexpected item {_show(actual[i])}")
            for i in range(len(expected), len(actual))
        )
        return diffs
    return _scalar(expected, actual, path)


def _scalar_equal(expected: Any, actual: Any) -> bool:
    if _is_number(expected):
        return _is_number(actual) and expected == actual
    if isinstance(expected, bool):
        return isinstance(actual, bool) and expected is actual
    if expected is None:
        return actual is None
    return isinstance(expected, str) and isinstance(actual, str) and expected == actual


def _scalar(expected: Any, actual: Any, path: str) -> list[Difference]:
    if _scalar_equal(expected, actual):
        return []
    if _json_type(expected) == _json_type(actual):
        return [Difference(path, f"expected {_show(expected)}, got {_show(actual)}")]
    return [
        Difference(
            path,
            f"expected {_json_type(expected)} {_show(expected)}, got {_json_type(actual)} {_show(actual)}",
        )
    ]


def _describe(expected: Any) -> str:
    """A short human description of an expected value (matchers spelled out)."""
    if is_matcher(expected):
        name, arg = next(iter(expected.items()))
        if name == "$any":
            return "any value"
        if name == "$type":
            return f"a value of type {arg}"
        if name == "$regex":
            return f"a string matching /{arg}/"
        if name == "$id":
            prefix = arg.get("prefix") if isinstance(arg, dict) else None
            return f"an id starting with {prefix!r}" if prefix else "an id"
        if name == "$json":
            return f"a JSON string encoding {_show(arg)}"
        if name == "$literal":
            return _show(arg)
    return _show(expected)


def compare(expected: Any, actual: Any, tolerate: Tolerate | None = None) -> list[Difference]:
    """Every difference between an expected payload (with matchers) and an output; empty when they match.

    ``$id`` captures are shared across the whole comparison (one check). ``tolerate(pointer, value)``, when
    given, says which members the output may have that the expectation does not name.
    """
    return _Comparer(tolerate).compare(expected, actual, "")


def lookup(doc: Any, path: str) -> tuple[bool, Any]:
    """(True, value) at JSON Pointer ``path`` in ``doc``, or (False, None) when nothing is there."""
    if not path:
        return True, doc
    node = doc
    for raw in path.split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False, None
    return True, node


def format_diff(differences: list[Difference], expected: Any = None, actual: Any = None) -> str:
    """A readable diff: one line per difference, each naming the JSON Pointer into the output."""
    if not differences:
        return ""
    lines = [
        f"{len(differences)} difference{'s' if len(differences) != 1 else ''} (JSON Pointer into the output):"
    ]
    for d in differences:
        lines.append(f"  {d.path or '(root)'}: {d.message}")
    if actual is not None and len(differences) <= 3:
        # show the enclosing object of the first difference, to give context
        parent = differences[0].path.rsplit("/", 1)[0] if differences[0].path else ""
        found, node = lookup(actual, parent)
        if found and isinstance(node, dict | list):
            text = _show(node, 400)
            lines.append(f"  output at {parent or '(root)'}: {text}")
    return "\n".join(lines)


# -- instantiate: a concrete sample of an expected payload (for lint's wire validation) -------------------

_SAMPLES: dict[str, Any] = {
    "string": "x",
    "number": 0.5,
    "integer": 0,
    "boolean": False,
    "object": {},
    "array": [],
    "null": None,
}


def instantiate(expected: Any) -> tuple[Any, set[str]]:
    """A concrete value for an expected payload, and the JSON Pointers of places whose value is unknown.

    ``$json`` → the JSON text of the instantiated inner value, ``$id`` → prefix + "x1", ``$type`` → a value
    of that type, ``$unordered`` → the list, ``$literal`` → its content, ``$optional`` → its value
    (present), ``$absent`` members removed. Unknown (errors at or under these pointers should be ignored):
    ``$any``, ``$regex``, ``$oneOf`` and ``$type``.
    """
    unknown: set[str] = set()

    def walk(node: Any, path: str) -> Any:
        if is_matcher(node):
            name, arg = next(iter(node.items()))
            if name == "$literal":
                return arg
            if name == "$optional":
                return walk(arg, path)
            if name == "$json":
                value = walk(arg, path + "/$json")
                return json.dumps(value, ensure_ascii=False)
            if name == "$id":
                prefix = arg.get("prefix", "") if isinstance(arg, dict) else ""
                return f"{prefix or ''}x1"
            if name == "$type":
                unknown.add(path)
                first = arg[0] if isinstance(arg, list) and arg else arg
                return _SAMPLES.get(first)
            if name == "$unordered":
                return [walk(v, f"{path}/{i}") for i, v in enumerate(arg)] if isinstance(arg, list) else []
            if name == "$oneOf":
                unknown.add(path)
                return walk(arg[0], path) if isinstance(arg, list) and arg else None
            unknown.add(path)  # $any, $regex, unknown matchers
            return "" if name == "$regex" else None
        if isinstance(node, dict):
            return {
                k: walk(v, path + "/" + _escape(k))
                for k, v in node.items()
                if not (is_matcher(v) and "$absent" in v)
            }
        if isinstance(node, list):
            return [walk(v, f"{path}/{i}") for i, v in enumerate(node)]
        return node

    value = walk(expected, "")
    unknown = {u for u in unknown if "/$json" not in u}
    return value, unknown
