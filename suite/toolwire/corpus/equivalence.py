"""Equivalent spellings and the judged scope (``corpus/INTERPRETING.md``, "Equivalent spellings").

A provider reads some outputs that differ as JSON as the same thing: Gemini's snake_case and camelCase
member names, Anthropic's string ``content`` and a list of one text block, a member set to its documented
default and the member left out. Each dialect descriptor lists these equivalences (``equivalent``), and
:func:`normalize` brings an expectation and an output to one spelling before they are compared, so a
translator is never failed for a spelling the provider accepts.

A check judges what its case is about: response members that belong to a feature the case does not list
(the response id, usage counts; the descriptor's ``judged``) are compared leniently by :func:`scoped`.

Rules (members are addressed by pointer patterns: ``*`` is one key or index, ``**`` any number):

- ``default`` ``{at, value}`` (or ``values``): a member at ``at`` whose value equals ``value`` (one of
  ``values``) is the same as no member; an expectation there that accepts that value accepts no member;
  ``chosen`` is the same for a value that is no default but a choice a translator may make on its own
  (asking for usage in a stream, not storing a response);
- ``text-shorthand`` ``{at, types, joined?, beside?}``: at ``at``, an array of exactly one
  ``{"type": T, "text": s}`` with ``T`` in ``types`` (``null``: an untyped ``{"text": s}``, Gemini's part) is
  the same as the string ``s``; with ``joined`` (a
  separator, or a list of them), several such blocks are the same as their texts joined with it (an
  expected array accepts either form; an output's array reads as its texts joined with the first);
  members named in ``beside`` do not keep a block from being text (the wire schema judges them on their own);
- ``rename`` ``{at, to, unless?}``: the member at ``at`` is the same as the member ``to`` of the same
  object (when that one is absent), unless the root member ``unless.at`` matches ``unless.pattern``;
- ``camel-case`` ``{names}``: a member name in snake_case is the same as its lowerCamelCase form, except
  the member names of objects held by a member named in ``names`` (maps of user-chosen names);
- ``lower-case`` ``{at}``: a string at ``at`` is compared without regard to case;
- ``json-text`` ``{at}``: a string at ``at`` holding a JSON object or array (tool-call arguments) is
  compared as that JSON, not as text (``{"a": 1}`` is ``{"a":1}``);
- ``sole-member`` ``{at, to, except?, beside?, unwrap?}``: an object at ``at`` with exactly one member (not
  counting string members named in ``beside``), named neither ``to`` nor one of ``except``, is the same as
  that value under the name ``to`` (also where the object is opaque: only the name changes); with
  ``unwrap``, where that sole member holds an object of several members none named ``to`` or in
  ``except``, the object is that inner object (Gemini reads such a ``response`` whole as the output);
- ``merge-turns`` ``{at, key, items, unless?, alike?}``: in the array at ``at``, an item with the same ``key``
  as the one before it (or one of the same group of ``alike``), none of whose ``items`` has a member named in
  ``unless``, is the same as its ``items`` appended to that one's, which keeps its ``key`` (a follow-up turn
  of the same role; a turn after one whose role is a wrong name for it still differs in that role only);
- ``schema-refs`` ``{at}``: in the JSON Schema at ``at`` (also where it is opaque), every reference into the
  schema's own ``$defs`` / ``definitions`` is the subschema it points to, and those members are then no
  members (a translator that inlines them sends the same schema); a recursive one leaves the schema as it is;
- ``blank-item`` ``{at, blank, beside?}``: in the array at ``at``, an item that, without its members named
  in ``beside``, equals one of ``blank`` (after the rules rewrote it) carries nothing and is the same as no
  item (a Responses message whose only text is ``""``);
- ``error-text`` ``{at, prefix}``: an expected object ``{"error": s}`` at ``at`` (``s`` a string; also where
  it is opaque) also accepts ``{"output": prefix + s}``: the tool's error told in its output text, which the
  model reads as an error as it does through the OpenAI targets' ``text-prefix`` policy (one way: an
  expected output stays an output);
- ``ignored`` ``{at}``: a member at ``at`` that the provider reads past, whatever its value, is the same as
  no member (the ``index`` the official SDK's stream accumulator leaves on a request's tool call);
- ``schema-sole-subschema`` ``{at}``: in the JSON Schema at ``at`` (also where it is opaque), at any depth,
  an ``anyOf``, ``oneOf`` or ``allOf`` of exactly one subschema is that subschema's keywords in the schema
  holding it, where the two share no keyword with different values: ``{"anyOf": [S]}`` accepts what ``S``
  accepts;
- ``schema-branch-annotations`` ``{at, keywords}``: in the JSON Schema at ``at`` (also where it is opaque),
  at any depth, a keyword of ``keywords`` (annotations: ``description``, ``title``) that every branch of an
  ``anyOf`` holds with the same value, and the schema holding the ``anyOf`` does not, is that keyword beside
  the ``anyOf`` (LiteLLM moves a description into each branch for Gemini, which refuses keywords beside
  ``any_of``);
- ``schema-empty`` ``{at, keywords}``: in the JSON Schema at ``at`` (also where it is opaque), at any
  depth, a keyword of ``keywords`` whose value is empty (``[]``, ``{}``) is the same as no keyword
  (``required: []``, ``$defs: {}`` constrain nothing); the names in maps of user-chosen names
  (``properties``, ``$defs``, …) are never taken for keywords.

Values under the descriptor's ``opaque`` patterns (tool arguments, tool results, JSON Schemas carried as
they are) are user data and never rewritten. Matcher objects (``{"$type": …}``) are left as they are, but
for the alternatives of ``$oneOf`` and the value of ``$optional``, which are payloads at the matcher's place
and are rewritten as such.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from .matchers import compare, is_matcher

__all__ = ["empty_is_absent", "empty_scalar", "judged_pointers", "normalize", "scoped"]

Pattern = tuple[str, ...]
_SNAKE = re.compile(r"_([a-z0-9])")


def _patterns(at: str | list[str]) -> list[Pattern]:
    return [_compile(p) for p in ([at] if isinstance(at, str) else at)]


@lru_cache(maxsize=1024)
def _compile(pointer: str) -> Pattern:
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:])


@lru_cache(maxsize=65536)
def _matches(pattern: Pattern, path: tuple[str, ...]) -> bool:
    if not pattern:
        return not path
    head, rest = pattern[0], pattern[1:]
    if head == "**":
        return any(_matches(rest, path[i:]) for i in range(len(path) + 1))
    return bool(path) and (head == "*" or head == path[0]) and _matches(rest, path[1:])


def _any(patterns: Iterable[Pattern], path: tuple[str, ...]) -> bool:
    return any(_matches(p, path) for p in patterns)


def _same(a: Any, b: Any) -> bool:
    """JSON equality for rule values (booleans are never numbers)."""
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b


def _camel(name: str) -> str:
    if "_" not in name or name.startswith("_") or name != name.lower():
        return name
    return _SNAKE.sub(lambda m: m.group(1).upper(), name)


def _ignores(rule: dict[str, Any], value: Any) -> bool:
    """Whether an ``ignored`` rule drops a member holding ``value``: whatever it holds, or, with ``type``,
    only a string (a schema's ``title`` annotation, not a property named ``title``: its value is a schema)."""
    return "type" not in rule or isinstance(value, str)


def _default_values(rule: dict[str, Any]) -> list[Any]:
    return rule["values"] if "values" in rule else [rule["value"]]


class _Rewriter:
    """Apply one dialect's equivalence rules for one kind to a payload (a new value; the input is kept)."""

    def __init__(self, descriptor: dict[str, Any], kind: str, expected: bool = False) -> None:
        #: rewriting an expectation: a spelling with several forms may become a ``$oneOf`` of them
        self.expected = expected
        block = descriptor.get("equivalent") or {}
        self.opaque = _patterns(block.get("opaque", []))
        rules = [r for r in block.get("rules", []) if kind in r.get("kinds", [kind])]
        self.camel_names = [frozenset(r.get("names", [])) for r in rules if r["rule"] == "camel-case"]
        #: the other rules, each with its compiled ``at`` patterns
        self.rules = [(r, _patterns(r["at"])) for r in rules if r["rule"] != "camel-case"]
        self.root: Any = None

    def run(self, payload: Any) -> Any:
        # camel-case renames member names, so it runs alone, first: the other rules' patterns use the
        # camelCase names
        for names in self.camel_names:
            payload = self._camel(payload, (), names, in_names=False)
        if self.rules:
            self.root = payload
            payload = self._walk(payload, ())
        return payload

    def _camel(self, node: Any, path: tuple[str, ...], names: frozenset[str], *, in_names: bool) -> Any:
        if is_matcher(node) or _any(self.opaque, path):
            return node
        if isinstance(node, list):
            return [self._camel(v, (*path, str(i)), names, in_names=False) for i, v in enumerate(node)]
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        for key, value in node.items():
            name = key if in_names else _camel(key)
            if name in out:  # both spellings at once: keep them apart, the comparison shows it
                name = key
            out[name] = self._camel(value, (*path, name), names, in_names=name in names and not in_names)
        return out

    def _matching(self, name: str | tuple[str, ...], path: tuple[str, ...]) -> Iterable[dict[str, Any]]:
        """The rules of kind ``name`` (or of one of several) whose ``at`` matches ``path``."""
        names = (name,) if isinstance(name, str) else name
        return (r for r, at in self.rules if r["rule"] in names and _any(at, path))

    def _walk(self, node: Any, path: tuple[str, ...]) -> Any:
        if _alternatives(node) is not None:  # each alternative of an expectation is a payload at this path
            return _each_alternative(node, lambda v: self._walk(v, path))
        if isinstance(node, dict) and not is_matcher(node):
            node = self._sole(node, path)
        elif isinstance(node, list):
            node = self._merged(node, path)
        if any(self._matching("schema-refs", path)):
            node = _refs_inlined(node)
        if self.expected:
            for r in self._matching("error-text", path):
                node = _or_error_text(node, str(r["prefix"]))
        for r in self._matching("schema-empty", path):
            node = _without_empty_keywords(node, frozenset(r["keywords"]))
        if any(self._matching("schema-sole-subschema", path)):
            node = _sole_subschemas_merged(node)
        for r in self._matching("schema-branch-annotations", path):
            node = _branch_annotations_hoisted(node, tuple(r["keywords"]))
        if is_matcher(node) or (path and _any(self.opaque, path)):
            return node
        if isinstance(node, list):
            node = self._unblanked([self._walk(v, (*path, str(i))) for i, v in enumerate(node)], path)
        elif isinstance(node, dict):
            out: dict[str, Any] = {}
            for key, value in node.items():
                sub = (*path, key)
                if any(_ignores(r, value) for r in self._matching("ignored", sub)):
                    continue
                value = self._walk(value, sub)
                defaults = [d for r in self._matching(_ABSENT_RULES, sub) for d in _default_values(r)]
                if any(_same(value, d) for d in defaults):
                    continue
                if is_matcher(value) and any(not compare(value, d) for d in defaults):
                    value = {"$optional": value}  # an expectation that accepts the default accepts none
                out[self._renamed(node, key, sub)] = value
            node = out
        return self._value(node, path) if path else node

    def _sole(self, obj: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
        for r in self._matching("sole-member", path):
            beside = r.get("beside", ())
            rest = {k: v for k, v in obj.items() if not (k in beside and isinstance(v, str))}
            if len(rest) != 1:
                continue
            ((key, value),) = rest.items()
            names = {r["to"], *r.get("except", ())}
            if key in r.get("except", ()):
                continue
            if r.get("unwrap") and _plain_object(value) and not names & set(value):
                return value
            if key != r["to"]:
                return {str(r["to"]): value}
        return obj

    def _merged(self, items: list[Any], path: tuple[str, ...]) -> list[Any]:
        """``items``, each follow-up item of the same ``key`` merged into the one before it (merge-turns)."""
        for r in self._matching("merge-turns", path):
            key, member, unless = r["key"], r["items"], set(r.get("unless", ()))
            side = {v: i for i, group in enumerate(r.get("alike", ())) for v in group}
            out: list[Any] = []
            for item in items:
                last = out[-1] if out else None
                if (
                    isinstance(item, dict)
                    and isinstance(last, dict)
                    and not is_matcher(item)
                    and not is_matcher(last)
                    and key in item
                    and side.get(item.get(key), item.get(key)) == side.get(last.get(key), last.get(key))
                    and isinstance(item.get(member), list)
                    and isinstance(last.get(member), list)
                    and not any(isinstance(p, dict) and unless & set(p) for p in item[member])
                ):
                    out[-1] = {**last, member: [*last[member], *item[member]]}
                else:
                    out.append(item)
            items = out
        return items

    def _unblanked(self, items: list[Any], path: tuple[str, ...]) -> list[Any]:
        """``items`` without the items a ``blank-item`` rule at ``path`` says carry nothing."""
        for r in self._matching("blank-item", path):
            beside = set(r.get("beside", ()))
            items = [
                item
                for item in items
                if not (
                    isinstance(item, dict)
                    and not is_matcher(item)
                    and {k: v for k, v in item.items() if k not in beside} in r["blank"]
                )
            ]
        return items

    def _renamed(self, obj: dict[str, Any], key: str, path: tuple[str, ...]) -> str:
        for r in self._matching("rename", path):
            if r["to"] in obj:
                continue
            unless = r.get("unless")
            if unless:
                found = self.root.get(unless["at"].lstrip("/")) if isinstance(self.root, dict) else None
                if isinstance(found, str) and re.search(unless["pattern"], found):
                    continue
            return str(r["to"])
        return key

    def _value(self, node: Any, path: tuple[str, ...]) -> Any:
        if isinstance(node, str) and any(self._matching("lower-case", path)):
            return node.lower()
        if isinstance(node, str) and any(self._matching("json-text", path)):
            return _json_text(node)
        if isinstance(node, list) and node:
            for r in self._matching("text-shorthand", path):
                texts = [_text_of(block, r["types"], frozenset(r.get("beside", ()))) for block in node]
                if None in texts or (len(texts) > 1 and "joined" not in r):
                    continue
                if len(texts) == 1:
                    return texts[0]
                seps = r["joined"] if isinstance(r["joined"], list) else [r["joined"]]
                spelled = [str(sep).join(t for t in texts if t is not None) for sep in seps]
                return {"$oneOf": [node, *spelled]} if self.expected else spelled[0]
        return node


#: matchers whose operand is a payload (or a list of payloads) at the matcher's own place
_PAYLOAD_MATCHERS = ("$oneOf", "$optional")


def _alternatives(node: Any) -> tuple[str, list[Any]] | None:
    """``($oneOf, alternatives)`` or ``($optional, [value])`` for such a matcher, else None."""
    if not is_matcher(node):
        return None
    ((key, value),) = node.items()
    if key not in _PAYLOAD_MATCHERS or (key == "$oneOf" and not isinstance(value, list)):
        return None
    return key, value if isinstance(value, list) else [value]


def _or_error_text(node: Any, prefix: str) -> Any:
    """An expected ``{"error": s}`` as ``$oneOf`` itself and ``{"output": prefix + s}`` (else ``node``)."""
    error = node.get("error") if isinstance(node, dict) and not is_matcher(node) and len(node) == 1 else None
    return {"$oneOf": [node, {"output": prefix + error}]} if isinstance(error, str) else node


def _plain_object(node: Any) -> bool:
    """An object of several members (one member is already read as the output) that is no matcher."""
    return isinstance(node, dict) and len(node) > 1 and not is_matcher(node)


def _each_alternative(node: dict[str, Any], rewrite: Callable[[Any], Any]) -> dict[str, Any]:
    """A ``$oneOf`` / ``$optional`` matcher (:func:`_alternatives`) with ``rewrite`` applied to each payload
    it holds."""
    ((key, value),) = node.items()
    return {key: [rewrite(v) for v in value] if isinstance(value, list) else rewrite(value)}


def _text_of(block: Any, types: list[str | None], beside: frozenset[str] = frozenset()) -> str | None:
    """The text of a ``{"type": T, "text": s}`` block with ``T`` in ``types``, or of an untyped
    ``{"text": s}`` (a Gemini part) when ``types`` holds None (members in ``beside`` aside), else None."""
    if not isinstance(block, dict) or not isinstance(block.get("text"), str):
        return None
    rest = set(block) - beside - {"text"}
    if rest == {"type"}:
        return block["text"] if block["type"] in types else None
    return block["text"] if not rest and None in types else None


#: JSON Schema keywords whose value is a map of user-chosen names to subschemas
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})


def _bottom_up(schema: Any, rewrite: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    """``schema`` (a JSON Schema, at any depth) with ``rewrite`` applied to each of its objects once their
    members are rewritten; the names in maps of user-chosen names (``properties``, ``$defs``, …) are never
    taken for keywords, and matchers are left as they are."""
    if is_matcher(schema):
        return schema
    if isinstance(schema, list):
        return [_bottom_up(v, rewrite) for v in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _SCHEMA_MAPS and isinstance(value, dict) and not is_matcher(value):
            out[key] = {name: _bottom_up(sub, rewrite) for name, sub in value.items()}
        else:
            out[key] = _bottom_up(value, rewrite)
    return rewrite(out)


def _without_empty_keywords(schema: Any, keywords: frozenset[str]) -> Any:
    """``schema`` (a JSON Schema, at any depth) without the ``keywords`` whose value is ``[]`` or ``{}``."""
    return _bottom_up(
        schema, lambda node: {k: v for k, v in node.items() if k not in keywords or v not in ([], {})}
    )


#: the keywords whose list of subschemas, when it holds exactly one, is that subschema
_COMBINATORS = ("anyOf", "oneOf", "allOf")


def _sole_subschemas_merged(schema: Any) -> Any:
    """``schema`` (a JSON Schema, at any depth) with each ``anyOf`` / ``oneOf`` / ``allOf`` of exactly one
    subschema merged into the schema holding it, where they share no keyword with different values."""

    def merged(out: dict[str, Any]) -> dict[str, Any]:
        for key in _COMBINATORS:
            subs = out.get(key)
            if not (isinstance(subs, list) and len(subs) == 1 and _plain_object(subs[0])):
                continue
            rest = {k: v for k, v in out.items() if k != key}
            if all(k not in rest or _same(rest[k], v) for k, v in subs[0].items()):
                out = {**rest, **subs[0]}
        return out

    return _bottom_up(schema, merged)


def _branch_annotations_hoisted(schema: Any, keywords: tuple[str, ...]) -> Any:
    """``schema`` (a JSON Schema, at any depth) with each keyword of ``keywords`` that every branch of an
    ``anyOf`` holds with the same value, and the schema holding it does not, moved beside the ``anyOf``."""

    def hoisted(out: dict[str, Any]) -> dict[str, Any]:
        branches = out.get("anyOf")
        schemas = isinstance(branches, list) and len(branches) > 1
        if not (schemas and all(isinstance(b, dict) and not is_matcher(b) for b in branches)):
            return out
        for keyword in keywords:
            if keyword in out or not all(keyword in b for b in branches):
                continue
            values = [b[keyword] for b in branches]
            if any(not _same(v, values[0]) for v in values[1:]):
                continue
            out[keyword] = values[0]
            branches = [{k: v for k, v in b.items() if k != keyword} for b in branches]
        out["anyOf"] = branches
        return out

    return _bottom_up(schema, hoisted)


#: the members of a JSON Schema's root that hold the subschemas its local references point to
_DEFS = ("$defs", "definitions")


def _local_ref(node: Any) -> str | None:
    """The reference of a ``{"$ref": "#/..."}`` node (also spelled ``{"$literal": {"$ref": …}}`` in an
    expectation), or None."""
    if isinstance(node, dict) and set(node) == {"$literal"}:
        node = node["$literal"]
    if isinstance(node, dict) and set(node) == {"$ref"} and isinstance(node["$ref"], str):
        return node["$ref"]
    return None


def _refs_inlined(schema: Any) -> Any:
    """``schema`` with every reference into its own ``$defs`` / ``definitions`` replaced by its target, and
    those then removed: the same schema (it accepts the same instances). A schema with a reference that is
    recursive or points elsewhere is left as it is (inlining it would change it or never end)."""
    if not isinstance(schema, dict) or is_matcher(schema):
        return schema
    targets = {
        f"#/{key}/{name}": sub
        for key in _DEFS
        if isinstance(schema.get(key), dict) and not is_matcher(schema[key])
        for name, sub in schema[key].items()
    }
    if not targets:
        return schema
    kept: list[str] = []

    def walk(node: Any, seen: frozenset[str]) -> Any:
        ref = _local_ref(node)
        if ref is not None:
            if ref in targets and ref not in seen:
                return walk(targets[ref], seen | {ref})
            kept.append(ref)
            return node
        if isinstance(node, list):
            return [walk(v, seen) for v in node]
        if not isinstance(node, dict) or is_matcher(node):
            return node
        return {k: walk(v, seen) for k, v in node.items()}

    out = {k: walk(v, frozenset()) for k, v in schema.items() if k not in _DEFS}
    return schema if kept else out


def _json_text(text: str) -> str:
    """JSON text holding an object or array, in one spelling (compact, keys sorted); other text as it is."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    if not isinstance(value, dict | list):
        return text
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def normalize(descriptor: dict[str, Any] | None, kind: str, payload: Any, *, expected: bool = False) -> Any:
    """``payload`` in the one spelling ``descriptor`` (a dialect's) chooses for ``kind``; a new value. An
    ``expected`` payload may instead get a ``$oneOf`` of the spellings a rule makes the same (``joined``)."""
    if not descriptor or not (descriptor.get("equivalent") or {}).get("rules"):
        return payload
    return _Rewriter(descriptor, kind, expected).run(payload)


_LENIENT = {"$optional": {"$any": True}}
#: the rules under which a member with one of their values is the same as no member
_ABSENT_RULES = ("default", "chosen")


def scoped(descriptor: dict[str, Any] | None, kind: str, features: Iterable[str], expected: Any) -> Any:
    """``expected`` with the members outside the check's scope made lenient (any value, or none): those
    the descriptor's ``judged`` entries tie to features the check does not list."""
    if not descriptor or not isinstance(expected, dict | list):
        return expected
    out = expected
    for entry in _judged_entries(descriptor, kind, features, judged=False):
        for pattern in _patterns(entry["at"]):
            out = _loosen(out, pattern)
    return out


def judged_pointers(descriptor: dict[str, Any] | None, kind: str, features: Iterable[str]) -> set[str]:
    """The pointer patterns of the descriptor's ``judged`` entries that a check of ``kind`` listing
    ``features`` judges (an out-of-scope member is made lenient by :func:`scoped`; these are not)."""
    ats = [entry["at"] for entry in _judged_entries(descriptor or {}, kind, features, judged=True)]
    return {pointer for at in ats for pointer in ([at] if isinstance(at, str) else at)}


def _judged_entries(
    descriptor: dict[str, Any], kind: str, features: Iterable[str], *, judged: bool
) -> list[dict[str, Any]]:
    """The descriptor's ``judged`` entries for ``kind`` that a check listing ``features`` judges (or, with
    ``judged=False``, leaves out of its scope)."""
    listed = set(features)
    return [
        entry
        for entry in descriptor.get("judged", [])
        if kind in entry.get("kinds", [kind]) and bool(listed.intersection(entry["features"])) is judged
    ]


def _loosen(node: Any, pattern: Pattern) -> Any:
    """A copy of ``node`` with every member matched by ``pattern`` (no ``**``) set to the lenient matcher (in
    each alternative of a ``$oneOf`` / ``$optional`` too: each is a payload at the matcher's place)."""
    if pattern and _alternatives(node) is not None:
        return _each_alternative(node, lambda v: _loosen(v, pattern))
    if not pattern or is_matcher(node):
        return node
    head, rest = pattern[0], pattern[1:]
    if isinstance(node, dict):
        keys = [k for k in node if head in ("*", k)]
        if not rest and head != "*" and head not in node:
            return {**node, head: _LENIENT}  # a member the expectation leaves out may still be there
        if not keys:
            return node
        out = dict(node)
        for k in keys:
            out[k] = _LENIENT if not rest else _loosen(node[k], rest)
        return out
    if isinstance(node, list) and not rest:
        return node
    if isinstance(node, list):
        return [_loosen(v, rest) if head in ("*", str(i)) else v for i, v in enumerate(node)]
    return node


def empty_is_absent(descriptor: dict[str, Any] | None, expected: Any) -> Any:
    """``expected`` (of an output a client reads) with every member whose expected value is empty (null,
    ``""``, ``0``, ``false``, or an object or array of only such values) made optional: a client reads a
    counter at zero like no counter, the other way round too. Opaque values (tool arguments) stay exact;
    the wire schema still requires what it requires."""
    opaque = _patterns((descriptor or {}).get("equivalent", {}).get("opaque", [])) if descriptor else []
    return _optional_empties(expected, (), opaque)


def _optional_empties(node: Any, path: tuple[str, ...], opaque: list[Pattern]) -> Any:
    if _alternatives(node) is not None and not (path and _any(opaque, path)):
        return _each_alternative(node, lambda v: _optional_empties(v, path, opaque))
    if is_matcher(node) or (path and _any(opaque, path)):
        return node
    if isinstance(node, list):
        return [_optional_empties(v, (*path, str(i)), opaque) for i, v in enumerate(node)]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        sub = (*path, key)
        if _empty(value) and not _any(opaque, sub):
            # absent, or present with any of its own (empty) members absent
            inner = _optional_empties(value, sub, opaque) if isinstance(value, dict) else value
            out[key] = {"$optional": inner}
        else:
            out[key] = _optional_empties(value, sub, opaque)
    return out


def empty_scalar(value: Any) -> bool:
    """null, ``""``, ``0`` or ``false``: a value a client reads like no value."""
    return value is None or value is False or value == "" or (type(value) in (int, float) and value == 0)


def _empty(value: Any) -> bool:
    if isinstance(value, dict):
        return not is_matcher(value) and all(_empty(v) for v in value.values())
    if isinstance(value, list):
        return all(_empty(v) for v in value)
    return empty_scalar(value)
