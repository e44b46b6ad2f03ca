"""Compare an output with an expected payload, following ``corpus/INTERPRETING.md`` ("Payload expectations").

Equality is JSON value equality (objects: same keys, arrays: same order, numbers as numbers, booleans never
numbers, strings exact) plus the matchers
``$any $absent $optional $type $json $unordered $regex $id $oneOf $literal``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = [
    "KINDS",
    "MATCHERS",
    "Difference",
    "compare",
    "format_diff",
    "instantiate",
    "is_matcher",
    "lookup",
    "pointer",
    "records",
]

MATCHERS = frozenset(
    {"$any", "$absent", "$optional", "$type", "$json", "$unordered", "$regex", "$id", "$oneOf", "$literal"}
)
#: the largest array pair (items × items) aligned when its items differ in place (see ``_array``)
ALIGN_LIMIT = 1600
JSON_TYPES = ("string", "number", "integer", "boolean", "object", "array", "null")


#: what a :class:`Difference` can say (its ``kind``); corpus/INTERPRETING.md and docs/results.md list them
KINDS = frozenset(
    {
        "missing-key",  # ``key`` missing; ``expected`` describes its value
        "unexpected-key",  # ``key`` present where the expectation does not name it (or says $absent)
        "missing-item",  # the output's array has no item here; ``expected`` describes it
        "extra-item",  # an item the expectation does not have; ``got``
        "moved",  # the item expected at index ``from`` is at this pointer (a reordering)
        "type",  # ``got_type`` where ``expected_type`` is expected
        "value",  # ``got`` where ``expected`` is expected (same JSON type)
        "no-match",  # string ``got`` does not match the regular expression ``expected``
        "invalid-json",  # a JSON-encoded string expected; ``got`` does not parse
        "id-prefix",  # id ``got`` does not start with ``expected``
        "id-link",  # id ``got`` should repeat (or must differ from) an id captured earlier
        "item-count",  # $unordered: ``expected`` items, ``got`` items
        "no-alternative",  # $oneOf: none matches; the closest alternative's differences follow
        "corpus-error",  # the expectation itself is malformed
    }
)


@dataclass(frozen=True)
class Difference:
    """One difference between expected and actual: a JSON Pointer into the output, what is wrong there as a
    sentence (``message``) and as fields (``kind``, ``key``, ``expected``, ``got``, ...): see :data:`KINDS`.

    ``expected`` and ``got`` are short display texts (JSON, or a description of a matcher such as "a value
    of type integer"); ``in_json`` is the pointer inside a JSON-encoded string at ``path`` (``$json``)."""

    path: str
    message: str
    # the fields say what the message says: equality is that of (path, message)
    kind: str = field(default="value", compare=False)
    key: str | None = field(default=None, compare=False)
    expected: str | None = field(default=None, compare=False)
    got: str | None = field(default=None, compare=False)
    expected_type: str | None = field(default=None, compare=False)
    got_type: str | None = field(default=None, compare=False)
    moved_from: int | None = field(default=None, compare=False)
    in_json: str | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.path or '(root)'}: {self.message}"

    def record(self, section: str | None = None) -> dict[str, Any]:
        """The JSON record of this difference in a results file (``differences``; schemas/results)."""
        rec: dict[str, Any] = {"pointer": self.path, "kind": self.kind}
        if section:
            rec["section"] = section
        if self.in_json is not None:
            rec["in_json"] = self.in_json
        for name in ("key", "expected", "got", "expected_type", "got_type"):
            value = getattr(self, name)
            if value is not None:
                rec[name] = value
        if self.moved_from is not None:
            rec["from"] = self.moved_from
        rec["message"] = self.message
        return rec

    def inside_json(self, outer: str) -> Difference:
        """This difference (found in a decoded JSON text) as one at ``outer``, the string holding it."""
        return replace(
            self,
            path=outer,
            in_json=self.path if self.in_json is None else self.path + self.in_json,
            message=f"in the JSON text, at {self.path or '(root)'}: {self.message}",
        )


def records(differences: list[Difference], section: str | None = None) -> list[dict[str, Any]]:
    """The JSON records of ``differences`` (see :meth:`Difference.record`)."""
    return [d.record(section) for d in differences]


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
            return [_type_diff(path, "object", actual)]
        diffs: list[Difference] = []
        for key, exp in expected.items():
            sub = path + "/" + _escape(key)
            if is_matcher(exp) and "$absent" in exp:
                if key in actual:
                    diffs.append(
                        Difference(
                            sub,
                            f"unexpected key {key!r} (must be absent), value {_show(actual[key])}",
                            "unexpected-key",
                            key=key,
                            got=_show(actual[key]),
                        )
                    )
                continue
            if is_matcher(exp) and "$optional" in exp:
                if key in actual:
                    diffs.extend(self.compare(exp["$optional"], actual[key], sub))
                continue
            if key not in actual:
                diffs.append(
                    Difference(
                        sub,
                        f"missing key {key!r}, expected {_describe(exp)}",
                        "missing-key",
                        key=key,
                        expected=_describe(exp),
                    )
                )
                continue
            diffs.extend(self.compare(exp, actual[key], sub))
        for key in actual:
            if key not in expected:
                sub = path + "/" + _escape(key)
                if self.tolerate is not None and self.tolerate(sub, actual[key]):
                    continue
                diffs.append(
                    Difference(
                        sub,
                        f"unexpected key {key!r}, value {_show(actual[key])}",
                        "unexpected-key",
                        key=key,
                        got=_show(actual[key]),
                    )
                )
        return diffs

    def _array(self, expected: list[Any], actual: Any, path: str) -> list[Difference]:
        """Item by item; when that gives several differences, the items aligned instead (a longest common
        subsequence of equal items, then equal items found elsewhere as moves) if that says it in fewer:
        one message moved, or one item inserted, is one difference rather than one per later position."""
        if not isinstance(actual, list):
            return [_type_diff(path, "array", actual)]
        pairs = [(i, i) for i in range(min(len(expected), len(actual)))]
        diffs, captures = self._paired(expected, actual, path, pairs, set())
        if len(diffs) >= 2 and 0 < len(expected) * len(actual) <= ALIGN_LIMIT:
            alignment = self._alignment(expected, actual)
            if alignment is not None:
                aligned, aligned_captures = self._paired(expected, actual, path, *alignment)
                if len(aligned) < len(diffs):
                    diffs, captures = aligned, aligned_captures
        self.captures = captures
        return diffs

    def _paired(
        self,
        expected: list[Any],
        actual: list[Any],
        path: str,
        pairs: list[tuple[int, int]],
        moved: set[int],
    ) -> tuple[list[Difference], dict[str, str]]:
        """The differences of ``expected`` and ``actual`` with items paired as in ``pairs`` (expected index,
        actual index; ``moved``: the expected indexes paired out of order); unpaired items are missing or
        extra. Compared on a copy of the captures, in the expected order; the captures returned."""
        saved = self.captures
        self.captures = dict(saved)
        try:
            diffs: list[Difference] = []
            paired = dict(pairs)
            for i, exp in enumerate(expected):
                j = paired.get(i)
                if j is None:
                    diffs.append(_missing_item(f"{path}/{i}", _describe(exp)))
                    continue
                if i in moved:
                    diffs.append(
                        Difference(
                            f"{path}/{j}",
                            f"item expected at index {i} is at index {j} (out of order)",
                            "moved",
                            moved_from=i,
                        )
                    )
                diffs.extend(self.compare(exp, actual[j], f"{path}/{j}"))
            used = set(paired.values())
            diffs.extend(_extra_item(f"{path}/{j}", actual[j]) for j in range(len(actual)) if j not in used)
            return diffs, self.captures
        finally:
            self.captures = saved

    def _alignment(
        self, expected: list[Any], actual: list[Any]
    ) -> tuple[list[tuple[int, int]], set[int]] | None:
        """(pairs, moved) aligning equal items: a longest common subsequence, then the equal items left over
        paired as moves, then the rest in order; None when no two items are equal."""
        n, m = len(expected), len(actual)
        equal = [[not self._fork(expected[i], actual[j], "")[0] for j in range(m)] for i in range(n)]
        if not any(any(row) for row in equal):
            return None
        # longest common subsequence of equal items
        length = [[0] * (m + 1) for _ in range(n + 1)]
        for i in range(n - 1, -1, -1):
            for j in range(m - 1, -1, -1):
                length[i][j] = (
                    length[i + 1][j + 1] + 1 if equal[i][j] else max(length[i + 1][j], length[i][j + 1])
                )
        pairs: list[tuple[int, int]] = []
        i = j = 0
        while i < n and j < m:
            if equal[i][j] and length[i][j] == length[i + 1][j + 1] + 1:
                pairs.append((i, j))
                i, j = i + 1, j + 1
            elif length[i + 1][j] >= length[i][j + 1]:
                i += 1
            else:
                j += 1
        left = [i for i in range(n) if i not in {p for p, _ in pairs}]
        free = [j for j in range(m) if j not in {q for _, q in pairs}]
        moved: set[int] = set()
        for i in list(left):
            j = next((j for j in free if equal[i][j]), None)
            if j is not None:
                pairs.append((i, j))
                moved.add(i)
                left.remove(i)
                free.remove(j)
        pairs += list(zip(left, free, strict=False))
        return sorted(pairs), moved

    # -- matchers -----------------------------------------------------------------------------------
    def _matcher(self, expected: dict[str, Any], actual: Any, path: str) -> list[Difference]:
        name, arg = next(iter(expected.items()))
        if name == "$any":
            return []
        if name == "$absent":
            key = path.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
            return [
                Difference(
                    path,
                    "value present where the expectation says the key must be absent",
                    "unexpected-key",
                    key=key,
                    got=_show(actual),
                )
            ]
        if name == "$optional":
            return self.compare(arg, actual, path)
        if name == "$literal":
            return _literal(arg, actual, path)
        if name == "$type":
            names = arg if isinstance(arg, list) else [arg]
            if any(_has_type(actual, n) for n in names):
                return []
            wanted = " or ".join(map(str, names))
            return [_type_diff(path, wanted, actual, f"a value of type {wanted}")]
        if name == "$regex":
            if not isinstance(actual, str):
                return [_type_diff(path, f"a string matching /{arg}/", actual)]
            if re.search(arg, actual) is None:
                return [
                    Difference(
                        path,
                        f"string {_show(actual)} does not match /{arg}/",
                        "no-match",
                        expected=f"/{arg}/",
                        got=_show(actual),
                    )
                ]
            return []
        if name == "$id":
            return self._id(arg, actual, path)
        if name == "$json":
            if not isinstance(actual, str):
                return [_type_diff(path, "a JSON-encoded string", actual)]
            try:
                decoded = json.loads(actual)
            except ValueError as exc:
                return [
                    Difference(
                        path,
                        f"string is not valid JSON ({exc}): {_show(actual)}",
                        "invalid-json",
                        got=_show(actual),
                    )
                ]
            return [d.inside_json(path) for d in self.compare(arg, decoded, "")]
        if name == "$unordered":
            return self._unordered(arg, actual, path)
        if name == "$oneOf":
            return self._one_of(arg, actual, path)
        return [
            Difference(
                path, f"the expectation uses an unknown matcher {name!r} (corpus error)", "corpus-error"
            )
        ]

    def _id(self, arg: Any, actual: Any, path: str) -> list[Difference]:
        spec = arg if isinstance(arg, dict) else {}
        prefix = spec.get("prefix") or ""
        if not isinstance(actual, str) or not actual:
            return [_type_diff(path, "a non-empty id string", actual)]
        if not actual.startswith(prefix):
            return [
                Difference(
                    path,
                    f"id {_show(actual)} does not start with {prefix!r}",
                    "id-prefix",
                    expected=_show(prefix),
                    got=_show(actual),
                )
            ]
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
                            "id-link",
                            expected=f"an id other than {other!r}",
                            got=_show(actual),
                        )
                    ]
                self.captures[capture] = actual
            elif seen != actual:
                return [
                    Difference(
                        path,
                        f"id {_show(actual)} differs from {_show(seen)} captured earlier as {capture!r}",
                        "id-link",
                        expected=_show(seen),
                        got=_show(actual),
                    )
                ]
        return []

    def _unordered(self, expected: Any, actual: Any, path: str) -> list[Difference]:
        if not isinstance(expected, list):
            return [Difference(path, "$unordered needs a list (corpus error)", "corpus-error")]
        if not isinstance(actual, list):
            return [_type_diff(path, "array", actual)]
        if len(expected) != len(actual):
            return [
                Difference(
                    path,
                    f"expected {len(expected)} items in any order, got {len(actual)}: {_show(actual)}",
                    "item-count",
                    expected=str(len(expected)),
                    got=str(len(actual)),
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
                diffs.append(
                    Difference(
                        path,
                        f"no item matches expected item {i}: {_describe(expected[i])}",
                        "missing-item",
                        expected=_describe(expected[i]),
                    )
                )
        extra = [actual[j] for j in range(n) if j not in matched]
        if extra:
            diffs.append(
                Difference(path, f"unmatched output items: {_show(extra)}", "extra-item", got=_show(extra))
            )
        if not diffs:
            diffs.append(
                Difference(path, "items match individually but not with consistent id captures", "id-link")
            )
        return diffs

    def _one_of(self, alternatives: Any, actual: Any, path: str) -> list[Difference]:
        if not isinstance(alternatives, list) or not alternatives:
            return [Difference(path, "$oneOf needs a non-empty list (corpus error)", "corpus-error")]
        best: tuple[tuple[int, int], list[Difference]] | None = None
        for alt in alternatives:
            diffs, captures = self._fork(alt, actual, path)
            if not diffs:
                self.captures = captures
                return []
            rank = (_other_type(alt, actual), sum(d.kind != "no-alternative" for d in diffs))
            if best is None or rank < best[0]:
                best = (rank, diffs)
        assert best is not None
        head = Difference(
            path,
            f"matches none of the {len(alternatives)} alternatives; closest differs by:",
            "no-alternative",
            expected=str(len(alternatives)),
        )
        return [head, *best[1]]


def _other_type(alternative: Any, actual: Any) -> int:
    """1 when a literal alternative is of another JSON type than the output (0 for a matcher): the closest
    alternative to a string is a string spelling, so its diff names the differing text, not "expected an
    array"."""
    return int(not is_matcher(alternative) and _json_type(alternative) != _json_type(actual))


def _literal(expected: Any, actual: Any, path: str) -> list[Difference]:
    """Plain JSON equality, no matchers at any depth."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [_type_diff(path, "object", actual)]
        diffs: list[Difference] = []
        for key, exp in expected.items():
            sub = path + "/" + _escape(key)
            if key not in actual:
                diffs.append(
                    Difference(
                        sub,
                        f"missing key {key!r}, expected {_show(exp)}",
                        "missing-key",
                        key=key,
                        expected=_show(exp),
                    )
                )
            else:
                diffs.extend(_literal(exp, actual[key], sub))
        diffs.extend(
            Difference(
                path + "/" + _escape(k),
                f"unexpected key {k!r}, value {_show(v)}",
                "unexpected-key",
                key=k,
                got=_show(v),
            )
            for k, v in actual.items()
            if k not in expected
        )
        return diffs
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [_type_diff(path, "array", actual)]
        diffs = []
        for i, exp in enumerate(expected):
            if i >= len(actual):
                diffs.append(_missing_item(f"{path}/{i}", _show(exp)))
            else:
                diffs.extend(_literal(exp, actual[i], f"{path}/{i}"))
        diffs.extend(_extra_item(f"{path}/{i}", actual[i]) for i in range(len(expected), len(actual)))
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
        return [
            Difference(
                path,
                f"expected {_show(expected)}, got {_show(actual)}",
                "value",
                expected=_show(expected),
                got=_show(actual),
            )
        ]
    return [
        Difference(
            path,
            f"expected {_json_type(expected)} {_show(expected)}, got {_json_type(actual)} {_show(actual)}",
            "type",
            expected=_show(expected),
            got=_show(actual),
            expected_type=_json_type(expected),
            got_type=_json_type(actual),
        )
    ]


def _type_diff(path: str, wanted: str, actual: Any, phrase: str | None = None) -> Difference:
    """``actual`` is not of the type ``wanted`` (a JSON type name, or a matcher's description)."""
    text = phrase or (f"an {wanted}" if wanted in ("object", "array") else wanted)
    return Difference(
        path,
        f"expected {text}, got {_json_type(actual)} {_show(actual)}",
        "type",
        got=_show(actual),
        expected_type=wanted,
        got_type=_json_type(actual),
    )


def _missing_item(path: str, expected: str) -> Difference:
    return Difference(path, f"missing item, expected {expected}", "missing-item", expected=expected)


def _extra_item(path: str, actual: Any) -> Difference:
    return Difference(path, f"unexpected item {_show(actual)}", "extra-item", got=_show(actual))


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
    ``$any``, ``$regex``, ``$oneOf``, ``$type`` and an ``$id`` without a prefix. Raises ``ValueError`` on an
    unknown matcher (a literal ``{"$ref": …}`` not written as ``$literal``).
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
                if not prefix:
                    unknown.add(path)  # nothing of the id is known (a dialect may fix its form: Mistral's)
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
            if name not in MATCHERS:
                raise ValueError(
                    f"unknown matcher {name!r} at {path or '(root)'}: an object whose only key starts with $ "
                    'is a matcher; write a literal one as {"$literal": …}'
                )
            unknown.add(path)  # $any, $regex
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
