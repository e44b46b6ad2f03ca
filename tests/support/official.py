"""Checking the corpus's expected payloads against the providers' own definitions (``tests/official/``).

An expectation may accept many payloads (``$oneOf``, ``$optional``, matchers); :func:`variants` gives one
concrete payload per choice it makes (every alternative of every ``$oneOf``, each ``$optional`` member both
present and absent, the rest at their first choice), each with the pointers whose value stands for a matcher.
:func:`problems` validates one against a dialect's definition and keeps the errors that are the payload's:
not those at a matcher's place that only its placeholder causes, not those the exceptions table excuses.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from toolwire.corpus.matchers import is_matcher, pointer
from toolwire.descriptors import descriptor
from toolwire.jsonvalue import values_at
from toolwire.judge.envelope import fill_envelope

ROOT = Path(__file__).resolve().parents[2]
OFFICIAL = ROOT / "tests" / "official"
DIALECTS = ("openai-chat", "openai-responses", "anthropic", "gemini", "bedrock-converse", "mistral")
#: a value of each ``$type``; only the type of what stands there is checked
PLACEHOLDER = {
    "integer": 0,
    "number": 0.5,
    "string": "x",
    "boolean": False,
    "object": {},
    "array": [],
    "null": None,
}


@dataclass
class Variant:
    """One concrete payload an expectation accepts; ``label`` says which choices made it."""

    value: Any
    label: str
    anything: set[str] = field(default_factory=set)  # `$any`: nothing of the value is known
    typed: set[str] = field(default_factory=set)  # `$type`, `$id`, `$regex`: only the type is known


def _choices(node: Any, path: str = "") -> Iterator[tuple[str, int]]:
    """Every choice point of an expectation: (pointer, number of alternatives)."""
    if is_matcher(node):
        name, arg = next(iter(node.items()))
        if name == "$oneOf" and isinstance(arg, list):
            yield path, len(arg)
            for i, alt in enumerate(arg):
                yield from _choices(alt, f"{path}|{i}")
        elif name == "$optional":  # its own choice point, `?`: present (0) or absent (1)
            yield f"{path}?", 2
            yield from _choices(arg, path)
        elif name == "$unordered" and isinstance(arg, list):
            for i, v in enumerate(arg):
                yield from _choices(v, f"{path}/{i}")
        return
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _choices(v, f"{path}{pointer([k])}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _choices(v, f"{path}/{i}")


def _enclosing(where: str) -> dict[str, int]:
    """The alternatives a choice point inside a ``$oneOf`` alternative needs chosen to be reached."""
    return {where[: m.start()]: int(m.group(1)) for m in re.finditer(r"\|(\d+)", where)}


def variants(expected: Any) -> list[Variant]:
    """The base payload (first alternative everywhere, optional members present), then one payload per other
    alternative of each choice point (the rest at the base)."""
    points = dict(_choices(expected))
    picks = [{}] + [{**_enclosing(where), where: i} for where, n in points.items() for i in range(1, n)]
    out = []
    for pick in picks:
        label = ", ".join(
            f"{w[:-1] or '/'}=absent" if w.endswith("?") else f"{w or '/'}={i}" for w, i in pick.items()
        )
        variant = Variant(None, label or "base")
        variant.value = _concrete(expected, "", "", pick, variant)
        out.append(variant)
    return out


_ABSENT = object()


def _concrete(node: Any, choice: str, path: str, pick: dict[str, int], variant: Variant) -> Any:
    """``node`` (at choice pointer ``choice``, payload pointer ``path``) made concrete by ``pick``."""
    if is_matcher(node):
        name, arg = next(iter(node.items()))
        if name == "$literal":
            return arg
        if name == "$absent":
            return _ABSENT
        if name == "$optional":
            if pick.get(f"{choice}?") == 1:
                return _ABSENT
            return _concrete(arg, choice, path, pick, variant)
        if name == "$oneOf":
            i = pick.get(choice, 0)
            return _concrete(arg[i], f"{choice}|{i}", path, pick, variant)
        if name == "$unordered":
            return [_concrete(v, f"{choice}/{i}", f"{path}/{i}", pick, variant) for i, v in enumerate(arg)]
        if name == "$json":
            inner = Variant(None, "")
            return json.dumps(_concrete(arg, f"{choice}/$json", "", pick, inner), ensure_ascii=False)
        if name == "$type":
            variant.typed.add(path)
            first = arg if isinstance(arg, str) else arg[0]
            if first == "null" or first not in PLACEHOLDER:
                variant.anything.add(path)
            return PLACEHOLDER.get(first)
        if name == "$id":
            prefix = (arg.get("prefix") or "") if isinstance(arg, dict) else ""
            variant.typed.add(path)
            return f"{prefix}gen1"
        if name == "$regex":
            variant.typed.add(path)
            return "x"
        variant.anything.add(path)  # $any
        return None
    if isinstance(node, dict):
        out = {}
        for k, v in node.items():
            value = _concrete(v, f"{choice}{pointer([k])}", f"{path}{pointer([k])}", pick, variant)
            if value is not _ABSENT:
                out[k] = value
        return out
    if isinstance(node, list):
        items = [_concrete(v, f"{choice}/{i}", f"{path}/{i}", pick, variant) for i, v in enumerate(node)]
        return [v for v in items if v is not _ABSENT]
    return node


# ---- the definitions and the exceptions table ----


@cache
def definition(dialect: str) -> dict[str, Any]:
    return json.loads((OFFICIAL / "definitions" / f"{dialect}.schema.json").read_text())


@cache
def validator(dialect: str, entry: str) -> jsonschema.Draft202012Validator:
    document = definition(dialect)
    schema = {"$defs": document["$defs"], "$ref": f"#/$defs/entry.{entry}"}
    return jsonschema.Draft202012Validator(schema)


@cache
def exceptions() -> list[dict[str, Any]]:
    return json.loads((OFFICIAL / "exceptions.json").read_text())["exceptions"]


@dataclass(frozen=True)
class Problem:
    """One error of a payload against its provider's definition."""

    at: str  # JSON Pointer into the payload
    error: str  # the JSON Schema keyword that failed
    member: str | None  # the member a `required`/`additionalProperties` error names, the value of an `enum`
    message: str
    upper_listed: bool = False  # an `enum` error whose value, upper-cased, the enum lists

    def __str__(self) -> str:
        return f"{self.at or '/'}: {self.error}: {self.message}"


def problems(dialect: str, entry: str, variant: Variant, used: set[int] | None = None) -> list[Problem]:
    """The errors of ``variant`` against ``dialect``'s ``entry`` that are the payload's own: not caused by a
    matcher's placeholder, not excused by the exceptions table (whose entries used are added to ``used``)."""
    found: list[Problem] = []
    for error in validator(dialect, entry).iter_errors(variant.value):
        found += _real(error, dialect, entry, variant, used)
    return sorted(set(found), key=str)


def _real(error: Any, dialect: str, entry: str, variant: Variant, used: set[int] | None) -> list[Problem]:
    if error.validator in ("anyOf", "oneOf") and error.context:
        by_branch: dict[int, list[Any]] = {}
        for sub in error.context:
            by_branch.setdefault(sub.relative_schema_path[0], []).append(sub)
        branches = []
        for subs in by_branch.values():
            excused: set[int] = set()  # counted as used only where they make the alternative fit
            real = [p for sub in subs for p in _real(sub, dialect, entry, variant, excused)]
            if not real:
                if used is not None:
                    used |= excused
                return []  # an alternative fits but for what matchers or exceptions account for
            branches.append(real)
        # the alternative that came closest: the fewest problems, the deepest first one
        return min(branches, key=lambda ps: (len(ps), -max(len(p.at) for p in ps)))
    at = pointer(list(error.absolute_path))
    if any(at == a or at.startswith(a + "/") for a in variant.anything):
        return []
    if any(at.startswith(t + "/") for t in variant.typed) or (
        at in variant.typed and error.validator != "type"
    ):
        return []  # a matcher's placeholder: only its type stands for what the expectation accepts
    member = _member(error)
    if entry == "tool_choice" and error.validator == "required" and member == "tools":
        return []  # a tool_choice case writes the choice alone: the tools are the tools kind's
    upper = (
        error.validator == "enum"
        and isinstance(error.instance, str)
        and error.instance.upper() in error.validator_value
    )
    problem = Problem(at, str(error.validator), member, error.message[:300], upper)
    for i, exc in enumerate(exceptions()):
        if _excuses(exc, dialect, entry, problem, variant.value):
            if used is not None:
                used.add(i)
            return []
    return [problem]


def _member(error: Any) -> str | None:
    if error.validator == "required":
        match = re.match(r"'([^']*)' is a required property", error.message)
        return match.group(1) if match else None
    if error.validator in ("additionalProperties", "unevaluatedProperties"):
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        return ",".join(extra)
    if error.validator in ("enum", "const", "type"):
        return json.dumps(error.instance)[:80]
    return None


def _excuses(exc: dict[str, Any], dialect: str, entry: str, problem: Problem, payload: Any) -> bool:
    if exc["dialect"] != dialect or entry not in exc["entries"] or exc["error"] != problem.error:
        return False
    places = exc["at"] if isinstance(exc["at"], list) else [exc["at"]]
    if not any(fnmatchcase(problem.at, place) for place in places):
        return False
    member = exc.get("member")
    if isinstance(member, list):  # one of them; for additionalProperties, all the unexpected members
        if not problem.member or not set(problem.member.split(",")) <= set(member):
            return False
    elif member is not None and member != problem.member:
        return False
    if exc.get("upper") and not problem.upper_listed:
        return False
    if "where" in exc:
        holder_at = (
            problem.at
            if problem.error in ("required", "additionalProperties")
            else problem.at.rsplit("/", 1)[0]
        )
        holder = next(iter(values_at(payload, holder_at)), None)
        if not isinstance(holder, dict) or any(holder.get(k) != v for k, v in exc["where"].items()):
            return False
    return True


# ---- what the corpus expects, by entry ----


def expected_payloads(corpus: Any) -> Iterator[tuple[str, str, str, Any]]:
    """(case id, dialect, kind, expectation) for every expectation the corpus writes in a provider dialect:
    a whole payload, a stream's accumulated answer (kind ``stream``) and each of its events (``event``)."""
    for case in corpus.cases:
        for exp in case.expect:
            if exp["dialect"] not in DIALECTS:
                continue
            if case.kind == "stream":
                if "accumulated" in exp:
                    yield case.id, exp["dialect"], "stream", exp["accumulated"]
                for event in exp.get("events") or []:
                    yield case.id, exp["dialect"], "event", event
            elif "payload" in exp:
                yield case.id, exp["dialect"], case.kind, exp["payload"]


def as_sent(dialect: str, kind: str, value: Any) -> tuple[str, Any] | None:
    """The definition's entry for a concrete expected value, and the value as the provider's wire carries it;
    None for what no definition types (the SSE terminator ``[DONE]``).

    - An error body (``{"error": …}``, a stream's answer that ended in an error) is the dialect's error body;
      Anthropic's and Responses' streams carry it as their ``error`` event, whose envelope is added.
    - A stream's accumulated answer is the dialect's response.
    - An event is its SSE ``data`` (Bedrock's events are typed whole: ``{"event", "data"}``).
    - The envelope members the dialect's descriptor lists (``envelope``: OpenAI Chat's ``id``, ``object``,
      ``created``, ``model``, each choice's ``index``) are filled with its blanks where absent: the corpus
      leaves them out for a library's in-process objects (INTERPRETING.md, "Capabilities").
    """
    if kind == "event":
        data = value.get("data") if dialect != "bedrock-converse" and isinstance(value, dict) else value
        return None if data == "[DONE]" else ("stream_event", data)  # its matchers' places: `rebased`
    if kind in ("response", "stream") and isinstance(value, dict) and set(value) == {"error"}:
        if kind == "stream" and dialect == "anthropic":
            return "error", {"type": "error", **value}
        if kind == "stream" and dialect == "openai-responses" and isinstance(value["error"], dict):
            return "stream_event", {"type": "error", "sequence_number": 0, **value["error"]}
        return "error", value
    if kind in ("response", "stream"):
        return "response", _with_envelope(dialect, value)
    return kind, value


def rebased(variant: Variant, kind: str, dialect: str) -> Variant:
    """``variant`` with its matchers' places relative to what :func:`as_sent` validates (an SSE event's
    ``data``)."""
    if kind != "event" or dialect == "bedrock-converse":
        return variant

    def inside(places: set[str]) -> set[str]:
        return {p.removeprefix("/data") for p in places if p == "/data" or p.startswith("/data/")}

    return Variant(variant.value, variant.label, inside(variant.anything), inside(variant.typed))


def _with_envelope(dialect: str, value: Any) -> Any:
    fill_envelope(value, (descriptor(dialect).get("envelope") or {}).get("response") or {})
    return value


# ---- payloads drawn from a definition ----


def resolve(dialect: str, schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with its ``$ref`` (into the dialect's definition) followed."""
    while "$ref" in schema:
        schema = definition(dialect)["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def branches(dialect: str, schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The alternatives of a union (``anyOf``/``oneOf``, nested unions flattened, ``null`` left out)."""
    schema = resolve(dialect, schema)
    alternatives = schema.get("anyOf") or schema.get("oneOf")
    if not alternatives:
        return [] if schema.get("type") == "null" else [schema]
    return [b for alt in alternatives for b in branches(dialect, alt)]


def member(dialect: str, schema: dict[str, Any], name: str) -> dict[str, Any]:
    """The schema of member ``name`` of an object schema (the first alternative that has it)."""
    for branch in branches(dialect, schema):
        for part in [branch, *branch.get("allOf", [])]:
            part = resolve(dialect, part)
            if name in part.get("properties", {}):
                return part["properties"][name]
    raise KeyError(name)


def values(dialect: str, schema: dict[str, Any]) -> list[Any]:
    """Every value an enumerated schema (``enum``, ``const``, a union of them) lists."""
    out: list[Any] = []
    for branch in branches(dialect, schema):
        out += branch.get("enum", []) + ([branch["const"]] if "const" in branch else [])
    return out


def sample(dialect: str, schema: dict[str, Any]) -> Any:
    """The smallest value ``schema`` accepts: its required members only, the first alternative of a union,
    the first listed value, the least number, a one-letter string."""
    options = branches(dialect, schema)
    if not options:
        return None
    schema = options[0]
    if "allOf" in schema:
        return sample(dialect, schema["allOf"][0])
    if "const" in schema or "enum" in schema:
        return schema["const"] if "const" in schema else schema["enum"][0]
    kind = schema.get("type")
    kind = next((k for k in kind if k != "null"), "null") if isinstance(kind, list) else kind
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties", {})
        names = list(schema.get("required", []))
        # a union's tag (a member with one value) tells the alternative; a union structure (Bedrock's,
        # ``minProperties: 1``) takes its first member
        names += [n for n, p in properties.items() if n not in names and _tag(dialect, p) is not None]
        if not names and schema.get("minProperties") and properties:
            names = [next(iter(properties))]
        return {name: sample(dialect, properties[name]) for name in names}
    if kind == "array":
        return [sample(dialect, schema["items"])] * schema.get("minItems", 0) if "items" in schema else []
    if kind == "string":
        return "x" * max(1, schema.get("minLength", 1))
    if kind in ("integer", "number"):
        return schema.get("minimum", 1)
    return {"boolean": False, "null": None}.get(kind, {})


def _tag(dialect: str, schema: dict[str, Any]) -> Any:
    """The one value a member may have first (``const``), if its first alternative is one."""
    options = branches(dialect, schema)
    return options[0].get("const") if options else None
