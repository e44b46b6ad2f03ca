"""Distinct translation bugs ("findings") in a results file: failing checks grouped by the rule they break.

A failing check says *where* and *how* its output differs (its difference records, ``differences``: read
back from the ``diff`` text for a format-1 file by :mod:`.legacy`; the wire-schema errors; the
refusal or crash). Many checks fail for the same few reasons, so the reports group them: every problem a
check shows gets a *signature* and the checks sharing one form a :class:`Finding`; a check with several
problems counts in several findings. A signature names the dialect of the output and the kind of payload,
not the source dialect (the sources are listed in the title; a round trip's output is its source's, reached
"via" the target), then what differs:

- a difference: the JSON Pointer with array indexes as ``*``, the kind of difference and the key; a wrong
  value from a closed set (``"stop"`` for ``"length"``) is its own finding, other wrong values group by
  place. Tool definitions and tool choice inside requests group with ``tools`` and ``tool_choice``
  payloads. Inside a JSON Schema (tool parameters, response formats) the keyword at any depth (``**``), in
  any tool and any kind of payload, is the place: one forgotten nested ``additionalProperties`` is one
  finding, not one per depth, ``$defs`` name or ``anyOf`` branch. An array aligned as a move
  (``matchers``) is one ``moved`` difference;
- a key the wire schema requires or forbids: the same as that key missing or unexpected (one finding with
  the comparison's, when both see it); other wire errors: the place and the message without its values;
- a refusal or crash: the error code and the exception with its volatile parts stripped.

Keys missing or unexpected under the same object in exactly the same checks are one finding, and one missing
with one unexpected of a similar name or value one rename ("`max_tokens` sent where
`max_completion_tokens` is expected"). Titles name a few keys and places, then how many more.

:func:`find_bugs` is a pure function of the check records: the same results always give the same findings
in the same order (most checks first, then by signature).
"""

from __future__ import annotations

import ast
import difflib
import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..corpus.variants import split_variant
from .legacy import key_of as _key
from .legacy import legacy_differences
from .scoring import FAILING, LEVELS

__all__ = [
    "SHOWN_CHECKS",
    "SHOWN_FINDINGS",
    "Code",
    "Finding",
    "find_bugs",
    "http_statuses",
    "pointer_pattern",
    "split_variant",
]


class Code(str):
    """A part of a finding's title shown as inline code (plain ``str`` parts are prose)."""

    __slots__ = ()


Title = tuple[str, ...]

#: longest value shown in a title, and longest line of an example
SHORT = 48
LINE = 300
#: at most this many lines in an example, keys named in one title
EXAMPLE_LINES = 8
TITLE_KEYS = 4
#: at most this many schema places named in a title, and the longest pointer shown whole in one
PLACES = 2
CODE_PART = 72
#: what the reports show: the first findings (the rest are counted) and, per finding, a few check ids
SHOWN_FINDINGS = 40
SHOWN_CHECKS = 5

KIND_LABELS = {
    "request": "requests",
    "response": "responses",
    "stream": "streams",
    "tools": "tool definitions",
    "tool_choice": "tool_choice",
    "schema": "JSON Schemas (tools, response formats)",
    "input": "inputs",
}
#: schema keywords whose members are user-chosen names: abstracted like array indexes
_NAMED_MEMBERS = frozenset({"properties", "patternProperties", "$defs", "definitions"})
_JSON_TYPES = ("string", "number", "integer", "boolean", "object", "array", "null")
_FRAGMENTS = {
    "text": "text",
    "thinking": "thinking text",
    "call_start": "the start of tool calls",
    "arguments": "tool-call arguments",
}


@dataclass(frozen=True)
class Finding:
    """One distinct problem and the failing checks that show it."""

    signature: tuple[str, ...]
    title: Title
    checks: tuple[dict[str, Any], ...]
    example: str
    example_id: str
    example_is_diff: bool = True

    @property
    def count(self) -> int:
        """How many checks show it, a stream case's variants (re-chunked, other deliveries, …) counted once
        with their main check: a cosmetic difference every variant repeats is one check, not seven."""
        return len(self._mains())

    @property
    def runs(self) -> int:
        """How many check records show it, every variant counted."""
        return len(self.checks)

    def _mains(self) -> dict[str, dict[str, Any]]:
        """The checks with their variants folded in: base id → the main check (else the first variant)."""
        out: dict[str, dict[str, Any]] = {}
        for check in sorted(self.checks, key=_main_first):
            out.setdefault(split_variant(str(check.get("id", "?")))[0], check)
        return out

    def variants(self) -> list[str]:
        """The variants among its checks (``rechunk=utf8``, ``delivery=split``, …), sorted."""
        found = {split_variant(str(c.get("id", "?")))[1] for c in self.checks}
        return sorted(found - {""})

    def levels(self) -> list[tuple[str, int]]:
        """(level, number of checks, variants counted once), in the order must, should, may (then any
        other level)."""
        counts = Counter(str(c.get("level", "?")) for c in self._mains().values())
        order = [lv for lv in LEVELS if counts[lv]] + sorted(set(counts) - set(LEVELS))
        return [(lv, counts[lv]) for lv in order]

    def features(self) -> list[tuple[str, int]]:
        """(feature, number of checks, variants counted once), the most checks first."""
        counts = Counter(str(f) for c in self._mains().values() for f in c.get("features") or ())
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))

    def sample(self, n: int) -> list[dict[str, Any]]:
        """Up to ``n`` of the checks, one per case first (a case's main check before its variants)."""
        ordered = sorted(self.checks, key=_main_first)
        seen: set[str] = set()
        first = []
        for check in ordered:
            case = str(check.get("case", check.get("id")))
            if case not in seen:
                seen.add(case)
                first.append(check)
        rest = [c for c in ordered if c not in first]
        return (first + rest)[:n]

    def plain_title(self) -> str:
        """The title as plain text (code parts in backticks)."""
        return "".join(f"`{p}`" if isinstance(p, Code) else p for p in self.title)


def _main_first(check: dict[str, Any]) -> tuple[str, int, str]:
    check_id = str(check.get("id", "?"))
    return (str(check.get("case", check_id)), len(check_id), check_id)


# -- text helpers ------------------------------------------------------------------------------------


def pointer_pattern(pointer: str) -> str:
    """A JSON Pointer with array indexes (and the names under schema ``properties``) replaced by ``*``."""
    if pointer in ("", "/", "(root)"):
        return ""
    tokens = pointer.split("/")[1:]
    out: list[str] = []
    for i, token in enumerate(tokens):
        named = i > 0 and tokens[i - 1] in _NAMED_MEMBERS and i < len(tokens) - 1
        out.append("*" if token.isdigit() or named else token)
    return "".join("/" + t for t in out)


_VOLATILE = [
    (re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"), "<id>"),
    (re.compile(r"\b(chatcmpl|msg|call|toolu|resp|fc|rs|req|srvtoolu)([-_]+)[A-Za-z0-9_-]+"), r"\1\2<id>"),
    (re.compile(r"(?<![\w<])(?=[A-Za-z0-9+/_-]*\d)(?=[A-Za-z0-9+/_-]*[A-Za-z])[A-Za-z0-9+/_-]{20,}"), "<id>"),
    (re.compile(r"\b\w*\d\w*"), "N"),
]


#: an HTTP status in a message (``HTTP 422``, ``status 500``, ``Error code: 400``, ``http.400.…``): kept in
#: signatures, so one finding never holds answers of different statuses
_STATUS = re.compile(r"\b(HTTP[ /]?|http\.|[Ss]tatus(?: code)?:? ?|[Ee]rror code:? ?)([1-5]\d\d)\b")


def _abstract(text: str) -> str:
    """``text`` without its volatile parts (ids, long tokens, numbers but HTTP statuses): for signatures
    only."""
    statuses: list[str] = []

    def keep(match: re.Match[str]) -> str:
        statuses.append(match.group(2))
        return f"{match.group(1)}\x01{chr(97 + len(statuses) % 26)}\x01"  # letters: no number to abstract

    text = _STATUS.sub(keep, text)
    for pattern, repl in _VOLATILE:
        text = pattern.sub(repl, text)
    return re.sub(r"\x01([a-z])\x01", lambda m: statuses[(ord(m.group(1)) - 98) % 26], text)


def http_statuses(text: str) -> list[str]:
    """The HTTP statuses a message names (``HTTP 422`` → ``422``), in order."""
    return [m.group(2) for m in _STATUS.finditer(text)]


def _without_ids(text: str) -> str:
    """``text`` with ids and long tokens as ``<id>`` (numbers kept): for titles. Different ids in one text
    stay told apart (``<id>``, ``<id#2>``): "id <id> differs from <id>" would hide what differs."""
    seen: list[str] = []

    def numbered(match: re.Match[str], repl: str) -> str:
        if match.group(0) not in seen:
            seen.append(match.group(0))
        n = seen.index(match.group(0)) + 1
        return match.expand(repl if n == 1 else repl.replace("<id>", f"<id#{n}>"))

    for pattern, repl in _VOLATILE[:-1]:
        text = pattern.sub(lambda m, r=repl: numbered(m, r), text)
    return text


def _clip(text: str, limit: int = LINE) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _words(text: str, limit: int = 100) -> str:
    """The start of a one-line message: cut before the first payload echo (``{``) and at ``limit``."""
    cut = text.split("{", 1)[0]
    if len(cut) > limit:
        cut = cut[:limit].rsplit(" ", 1)[0]
    cut = cut.rstrip(" ,:;=([")
    return cut + ("…" if cut != text.rstrip() else "")


_EXC = re.compile(r"^((?:[A-Za-z_]\w*\.)*([A-Z]\w*))(?::\s*|$)")


def _exception(text: str) -> tuple[str, str]:
    """(signature, display) of an error message: the exception class and the first words."""
    lines = [line for line in (text or "").strip().splitlines() if line.strip()]
    first = lines[0] if lines else ""
    if first.startswith("Traceback (most recent call last)"):
        first = lines[-1]  # a Python traceback ends with the exception
    m = _EXC.match(first)
    cls = ""
    if m:
        cls, first = m.group(2), first[m.end() :]
        # "litellm.BadRequestError: litellm.BadRequestError: ...": the class again
        while (again := _EXC.match(first)) and again.group(2) == cls and again.end() < len(first):
            first = first[again.end() :]
    rest = _words(first)
    display = f"{cls}: {rest}" if cls and rest else cls or rest or "(no message)"
    return _abstract(display), display


def _type_phrase(name: str) -> str:
    if name == "null":
        return "null"
    return ("an " if name[:1] in "aeiou" else "a ") + name


def _instance_type(text: str) -> str:
    """The JSON type of a Python repr at the start of a jsonschema message."""
    text = text.strip()
    if text == "None":
        return "null"
    if text in ("True", "False"):
        return "boolean"
    if text[:1] in "'\"":
        return "string"
    if text[:1] == "{":
        return "object"
    if text[:1] == "[":
        return "array"
    if re.match(r"^-?\d", text):
        return "number"
    return "value"


_WIRE_TAIL = re.compile(
    r"^(?P<inst>.+?) (?P<rest>is not of type .*|is not valid under any of the given schemas|is not one of .*"
    r"|is too (?:long|short)|is (?:less|greater) than .*|does not match .*|should be non-empty"
    r"|is valid under each of .*|is not a .*|is not allowed for .*|has non-unique elements"
    r"|should not be valid under .*)$",
    re.S,
)


def _event_name(message: str) -> str | None:
    """The event a stream's wire error is about, from the value the message starts with: its ``type`` (or
    ``object``: ``chat.completion.chunk``), a string sent as an event's data (``[DONE]``), or ``""`` for an
    object with neither; None when the message does not start with the value."""
    m = _WIRE_TAIL.match(message)
    if m is None:
        return None
    try:
        value = ast.literal_eval(m.group("inst"))
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, str) and _short(value) and not re.search(r"\d", value):
        return f"data: {value}"
    if isinstance(value, dict):
        name = value.get("type", value.get("object"))
        return name if isinstance(name, str) and _short(name) else ""
    return None


def _event_part(event: str) -> Title:
    """An event named in a title: ``the `response.output_item.added` event``."""
    if not event:
        return ("an event with neither ", Code("type"), " nor ", Code("object"))
    if event.startswith("data: "):
        return ("the ", Code(event), " line")
    return ("the ", Code(event), " event")


def _wire_message(message: str) -> str:
    """A jsonschema message with the offending value replaced by its type."""
    m = _WIRE_TAIL.match(message)
    if m:
        return f"{_instance_type(m.group('inst'))} {_clip(m.group('rest'), 72)}"
    m = re.match(r"^False schema does not allow (.*)$", message, re.S)
    if m:
        return f"{_instance_type(m.group(1))} not allowed here (false schema)"
    if message[:1] in "{['\"" and message.endswith("…"):
        # the offending value came first and the message was cut short: keep its type only
        return f"{_instance_type(message)} is invalid"
    return _clip(_without_ids(message), 160)


# -- what one difference says ------------------------------------------------------------------------------

_KEY_KINDS = frozenset({"missing-key", "unexpected-key"})
#: members whose value is a JSON Schema: a difference under one is grouped by the rule it breaks, at any
#: depth of the schema (``**``), in any tool or response format of the target
SCHEMA_ROOTS = frozenset(
    {
        "parameters",
        "input_schema",
        "inputSchema",
        "parameters_json_schema",
        "parametersJsonSchema",
        "schema",
        "response_schema",
        "responseSchema",
        "response_json_schema",
        "responseJsonSchema",
        "output_schema",
    }
)


@dataclass
class _Obs:
    """One problem one check shows: its signature, what the title needs, the example lines; ``sources``
    the source dialects and ``places`` the schema roots (pointer patterns) it was seen in."""

    sig: tuple[str, ...]
    value: str = ""
    lines: list[str] = field(default_factory=list)
    sources: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    #: a difference the wire schema reported (a key it requires or forbids), not the comparison
    wire: bool = False


def _tokens(pattern: str) -> list[str]:
    return pattern.split("/")[1:] if pattern else []


def _schema_split(pattern: str, inclusive: bool = False) -> tuple[str, list[str]] | None:
    """(the schema root's pattern, the tokens under it) when ``pattern`` lies inside a JSON Schema member
    (:data:`SCHEMA_ROOTS`) of a tool or response format (``inclusive``: or is that member, for the object
    holding a key); None otherwise."""
    tokens = _tokens(pattern)
    for i, token in enumerate(tokens):
        if token in SCHEMA_ROOTS and (inclusive or i + 1 < len(tokens)):
            return "".join("/" + t for t in tokens[: i + 1]), tokens[i + 1 :]
    return None


def _schema_member(inner: list[str]) -> str:
    """The rule-relevant end of a pointer inside a schema: its keyword (and the index or name under it)."""
    end = [inner[-1]]
    if len(inner) > 1 and (inner[-1] == "*" or inner[-2] in _NAMED_MEMBERS):
        end = inner[-2:]
    return "**/" + "/".join(end)


def _display_pointer(rec: dict[str, Any]) -> str:
    pointer = str(rec.get("pointer") or "")
    if "in_json" in rec:
        return f"{pointer} (JSON){rec['in_json']}"
    return pointer


def _pattern(rec: dict[str, Any], parent: bool = False) -> str:
    """The pointer pattern of a difference (of its parent object for a key), ``(JSON)`` marking the step into
    a JSON-encoded string."""
    pointer, inner = str(rec.get("pointer") or ""), rec.get("in_json")
    if inner is None:
        return pointer_pattern(pointer.rsplit("/", 1)[0] if parent else pointer)
    inner = str(inner)
    inside = pointer_pattern(inner.rsplit("/", 1)[0] if parent else inner)
    return pointer_pattern(pointer) + " (JSON)" + inside


_ENUM_LIKE = re.compile(r'^(?:"[a-z][a-z_.-]{0,39}"|true|false|null)$')


def _enum_like(text: str) -> bool:
    """A value from a closed set (a stop reason, a status, a type), told apart from data (ids, text)."""
    return _ENUM_LIKE.match(text) is not None


def _expected_phrase(expected_type: str) -> str:
    if expected_type in _JSON_TYPES:
        return _type_phrase(expected_type)
    if expected_type.startswith(("a ", "an ")):
        return expected_type
    return f"a value of type {expected_type}"


def _diff_obs(kind: str, scope: str, source: str, section: str, rec: dict[str, Any]) -> _Obs | None:
    """The observation of one difference record (``matchers.Difference.record``)."""
    what = str(rec.get("kind") or "other")
    if what == "no-alternative":
        return None  # the closest alternative's differences follow on their own
    line = _clip(f"{_display_pointer(rec) or '(root)'}: {rec.get('message', '')}")
    sources = (source,) if source else ()
    key_name, detail, value = "", "", ""
    if what in _KEY_KINDS:
        where = _pattern(rec, parent=True)
        key_name = str(rec.get("key") or str(rec.get("pointer") or "").rsplit("/", 1)[-1])
        value = str(rec.get("expected" if what == "missing-key" else "got") or "")
    else:
        where = _pattern(rec)
        if what == "type":
            expected, got = str(rec.get("expected_type")), str(rec.get("got_type"))
            detail = f"{_expected_phrase(expected)}|{_type_phrase(got)}"
        elif what in ("value", "no-match", "id-prefix"):
            value = f"{rec.get('expected', '')}\x00{rec.get('got', '')}"
            if what != "value":
                detail = str(rec.get("expected", ""))
            elif _enum_like(str(rec.get("expected", ""))) and _enum_like(str(rec.get("got", ""))):
                detail = value  # one wrong mapping of a closed set (`"stop"` for `"length"`): one rule
            else:  # other wrong values at one place group by how they are wrong (two bugs, two findings)
                detail = _value_change(str(rec.get("expected", "")), str(rec.get("got", "")))
        elif what == "other":
            detail = _clip(_abstract(str(rec.get("message", ""))), 80)
            value = _clip(_without_ids(str(rec.get("message", ""))), 80)
        if what in ("missing-item", "extra-item", "moved") and where.endswith("/*"):
            where = where[:-2]
    return _classified(kind, scope, section, where, what, key_name, detail, value, [line], sources)


#: how a wrong value differs from the expected one: the changes a title names (the others, a value simply
#: replaced, go without saying: "another number")
VALUE_CHANGES = {
    "start-lost": "text missing at its start",
    "end-lost": "text cut short",
    "start-added": "text added at its start",
    "end-added": "text added at its end",
    "part-lost": "part of the text missing",
    "part-added": "text added inside",
    "emptied": "emptied",
    "spacing": "whitespace changed",
    "case": "letter case changed",
}


def _value_change(expected: str, got: str) -> str:
    """How the JSON value ``got`` differs from ``expected`` (both JSON texts): a key of
    :data:`VALUE_CHANGES`, else ``json``, ``number``, ``flag``, ``text`` or ``other``."""
    try:
        exp, out = json.loads(expected), json.loads(got)
    except ValueError:
        return "other"
    if isinstance(exp, bool) or isinstance(out, bool):
        return "flag" if isinstance(exp, bool) and isinstance(out, bool) else "other"
    if isinstance(exp, (int, float)) and isinstance(out, (int, float)):
        return "number"
    if not (isinstance(exp, str) and isinstance(out, str)):
        return "other"
    if exp and not out:
        return "emptied"
    if exp and out:
        for change, holds in (
            ("start-lost", exp.endswith(out)),
            ("end-lost", exp.startswith(out)),
            ("start-added", out.endswith(exp)),
            ("end-added", out.startswith(exp)),
            ("part-lost", out in exp),
            ("part-added", exp in out),
            ("spacing", exp.split() == out.split()),
            ("case", exp.casefold() == out.casefold()),
        ):
            if holds:
                return change
    try:
        json.loads(exp), json.loads(out)
    except ValueError:
        return "text"
    return "json"


def _classified(
    kind: str,
    scope: str,
    section: str,
    where: str,
    what: str,
    key_name: str,
    detail: str,
    value: str,
    lines: list[str],
    sources: tuple[str, ...],
) -> _Obs:
    """The observation of a difference at pattern ``where`` (the object holding the key, for a key): inside
    a JSON Schema, the rule (the keyword at any depth, from any kind of payload); else where it is."""
    places: tuple[str, ...] = ()
    split = _schema_split(where, inclusive=what in _KEY_KINDS) if " (JSON)" not in where else None
    if split is None:
        kind, where = _unit(kind, where)
    else:
        root, inner = split
        kind, places = "schema", (root,)
        if what in _KEY_KINDS:
            where = "**"
        else:
            where = _schema_member(inner)
            if what == "value":
                detail = value  # a wrong value is one rule per (expected, got), not per keyword
    return _Obs(("diff", kind, scope, section, where, what, key_name, detail), value, lines, sources, places)


_REQUIRED = re.compile(r"^'([^']+)' is a required property$")
_ADDITIONAL = re.compile(r"^Additional properties are not allowed \((.*) (?:was|were) unexpected\)$", re.S)


def _wire_keys(kind: str, scope: str, source: str, pointer: str, message: str, line: str) -> list[_Obs]:
    """A wire error that says a key is missing or not allowed, as that difference: it joins the finding of
    the same key missing or unexpected in the comparison (one bug, seen twice)."""
    parent = pointer_pattern(pointer)
    if (m := _REQUIRED.match(message)) is not None:
        keys, what = [m.group(1)], "missing-key"
    elif (m := _ADDITIONAL.match(message)) is not None:
        keys, what = re.findall(r"'([^']*)'", m.group(1)), "unexpected-key"
    else:
        return []
    found = [_classified(kind, scope, "", parent, what, k, "", "", [line], (source,)) for k in keys]
    for ob in found:
        ob.wire = True
    return found


#: top-level members of a request that a ``tool_choice`` payload has too (a request fragment)
_CHOICE_MEMBERS = frozenset({"tool_choice", "parallel_tool_calls", "toolConfig", "tool_config"})


def _unit(kind: str, pattern: str) -> tuple[str, str]:
    """(kind, pattern) as grouped: a request's tool definitions (``/tools/*/…``) and tool choice are grouped
    with ``tools`` and ``tool_choice`` payloads, where the same translator code writes them."""
    if kind != "request":
        return kind, pattern
    tokens = _tokens(pattern.split(" (JSON)", 1)[0])
    if len(tokens) > 1 and tokens[0] == "tools":
        return "tools", pattern[len("/tools") :]
    if tokens and tokens[0] in _CHOICE_MEMBERS:
        return "tool_choice", pattern
    return kind, pattern


def _differences(check: dict[str, Any]) -> list[dict[str, Any]]:
    """The check's difference records: ``differences`` (results format 2), else read from ``diff``."""
    records = check.get("differences")
    if isinstance(records, list):
        return [r for r in records if isinstance(r, dict)]
    return legacy_differences(str(check.get("diff") or ""))


def _scope(check: dict[str, Any]) -> tuple[str, str]:
    """(scope, source): a finding is about the output of one dialect, whatever the source (the sources
    are named in its title). A round trip's output is in its source dialect, written by the way back:
    its source is named ``a→b`` (the way there)."""
    source, target = str(check.get("source", "?")), str(check.get("target", "?"))
    if check.get("round_trip"):
        return source, f"{source}→{target}"
    return target, source


def _strip_label(message: str) -> str:
    message = re.sub(r"^source re-chunked \([^)]*\): ", "", message)
    message = re.sub(r"^upstream stream delivered [^:]*: ", "", message)
    return re.sub(r"^round trip, \S+: ", "", message)


def _crash_example(message: str) -> list[str]:
    lines = message.splitlines()
    if not lines:
        return ["(no message)"]
    first = lines[-1] if lines[0].startswith("Traceback (most recent call last)") else lines[0]
    out = [_clip(_strip_label(first))]
    frames = [i for i, line in enumerate(lines) if line.lstrip().startswith('File "')]
    if frames:
        i = frames[-1]
        out.append(_clip(lines[i]))
        code = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if code and set(code) - set("^~ ") and lines[i + 1] != first:
            out.append(_clip(lines[i + 1]))
    return out


#: one stream-grammar violation in a check's message (``streams.grammar.Violation`` as the judge words it)
_GRAMMAR = re.compile(
    r"(?:^|(?<=; ))(\S+) stream grammar: (?:event \d+: |end of stream: )?(.*?) \[([\w-]+\.[\w.-]+)\](?=; |$)",
    re.S,
)
_MUTATED = re.compile(r"(?:^|; )mutated its input: .* differs afterwards at (/\S*|\(root\))$")


def _rule_where(pattern: str) -> tuple[str, tuple[str, ...]]:
    """A pointer pattern as grouped: inside a JSON Schema, its keyword at any depth (``**/keyword``) and the
    schema's place; else itself."""
    split = _schema_split(pattern)
    if split is None:
        return pattern, ()
    return _schema_member(split[1]), (split[0],)


def _error_path(error: dict[str, Any]) -> str:
    path = error.get("path")
    return "(none)" if path is None else pointer_pattern(str(path)) or "(root)"


def _observations(check: dict[str, Any]) -> list[_Obs]:
    """Every problem a failing check shows (at least one)."""
    kind = str(check.get("kind", "?"))
    pair, source = _scope(check)
    message = str(check.get("message") or "")
    plain = _strip_label(message)
    obs: list[_Obs] = []
    if check.get("outcome") == "errored":
        sig, display = _exception(plain)
        obs.append(_Obs(("crash", kind, pair, sig), display, _crash_example(message)))
        return _from(obs, source)
    expected = check.get("expected_error") if isinstance(check.get("expected_error"), dict) else None
    actual = check.get("actual_error") if isinstance(check.get("actual_error"), dict) else None
    if (mutated := _MUTATED.search(plain)) is not None:
        # the first place it differs is where the comparison stopped: inside schemas, any place is one bug;
        # what the translator answered is judged too (the message before it), never hidden behind it
        where, places = _rule_where(pointer_pattern(mutated.group(1).replace("(root)", "")))
        where = "**" if places else where
        said = [_clip(mutated.group(0).removeprefix("; "))]
        obs.append(_Obs(("mutated", "input", pair, where), "", said, (), places))
        plain = plain[: mutated.start()]
    example = [_clip(plain.splitlines()[0] if plain else "")]
    if actual is not None:
        sig, display = _exception(str(actual.get("message") or ""))
        code = str(actual.get("code"))
        if expected is None:
            obs.append(_Obs(("refused", kind, pair, code, sig), display, example))
        elif expected.get("code") != actual.get("code"):
            obs.append(
                _Obs(("wrong-error", kind, pair, str(expected.get("code")), code, sig), display, example)
            )
        else:
            where = (_error_path(expected), _error_path(actual))
            obs.append(_Obs(("error-path", kind, pair, code, *where), "", example))
    elif expected is not None and plain.startswith("translated where a refusal"):
        path = _error_path(expected)
        output = str(check.get("diff") or "")
        lines = [*example, _clip(output)] if output else example
        obs.append(_Obs(("not-refused", kind, pair, str(expected.get("code")), path), "", lines))
    # differences in the output (the accumulated stream, the events, a round trip's result)
    differences: list[tuple[str, _Obs]] = []
    for rec in _differences(check):
        found = _diff_obs(kind, pair, source, str(rec.get("section") or ""), rec)
        if found is not None:
            obs.append(found)
            if not rec.get("section"):
                differences.append((str(rec.get("pointer") or ""), found))
    # the output's validity for the wire schema (a round trip's is the source's)
    schema = str(check.get("source") if check.get("round_trip") else check.get("target"))
    invalid_input = check.get("source_invalid") is True
    for error in check.get("wire_errors") or ():
        text = str(error)
        if ": " not in text or not text.startswith("/"):
            continue
        pointer, _, what = text.partition(": ")
        if invalid_input:
            # the caller's input was already invalid in its own dialect: what the output's schema says is
            # about that input, never one of the translation's own findings
            unit, where = _unit(kind, pointer_pattern(pointer))
            where, places = _rule_where(where)
            sig = ("invalid-input", unit, schema, where, _wire_message(what))
            obs.append(_Obs(sig, "", [_clip(text)], (source,), places))
            continue
        if kind == "stream":  # a stream's wire errors point into events, not into the output compared
            pass
        elif keys := _wire_keys(kind, pair, source, pointer, what, _clip(text)):
            obs += keys
            continue
        elif (under := _explained(pointer, differences)) is not None:
            # the expected payload is valid for the wire schema: an invalid output at or above a place where
            # it differs is that difference seen by the schema (its finding shows the line)
            under.lines.append(_clip(text))
            continue
        unit, where = _unit(kind, pointer_pattern(pointer))
        where, places = _rule_where(where)
        event = _event_name(what) if kind == "stream" and where == "/*/data" else None
        if event is not None:  # the event that is wrong, by its type, rather than where it is
            sig = ("wire-event", unit, schema, event, _wire_message(what))
        else:
            sig = ("wire", unit, schema, where, _wire_message(what))
        obs.append(_Obs(sig, "", [_clip(text)], (source,), places))
    # streams: grammar, accumulation, incrementality
    # a grammar's message may hold "; " itself: each violation is read up to its closing "[rule]"
    for grammar in _GRAMMAR.finditer(plain):
        sig = ("grammar", kind, pair, grammar.group(3))
        obs.append(_Obs(sig, _clip(_without_ids(grammar.group(2)), 120), [_clip(grammar.group(0))]))
    for part in plain.split("; "):
        accumulate = re.match(r"^the output does not accumulate \(([\w.]+)\): (.*)$", part, re.S)
        if accumulate:
            sig = ("accumulate", kind, pair, accumulate.group(1))
            obs.append(_Obs(sig, _clip(_without_ids(accumulate.group(2)), 120), [_clip(part)]))
    diff = str(check.get("diff") or "")
    if diff.startswith("late fragments: "):
        try:
            late = json.loads(diff[len("late fragments: ") :])
        except ValueError:
            late = []
        for fragment in sorted({str(x.get("kind")) for x in late if isinstance(x, dict)}):
            lines = [_clip(plain.split("; worst:")[0])]
            lines += [
                _clip(json.dumps(x)) for x in late if isinstance(x, dict) and x.get("kind") == fragment
            ][:3]
            obs.append(_Obs(("late", kind, pair, fragment), "", lines))
    if not obs:
        first = plain.splitlines()[0] if plain else "failed without a message"
        obs.append(_Obs(("other", kind, pair, _clip(_abstract(first), 100)), _clip(first, 160), example))
    return _from(obs, source)


def _explained(pointer: str, differences: list[tuple[str, _Obs]]) -> _Obs | None:
    """The first difference at or under the wire error's ``pointer`` (``/``: the whole output)."""
    base = "" if pointer == "/" else pointer
    for where, ob in differences:
        if where == base or where.startswith(base + "/"):
            return ob
    return None


def _from(obs: list[_Obs], source: str) -> list[_Obs]:
    """``obs`` with the check's source dialect recorded (where they have none: wire errors have theirs)."""
    for ob in obs:
        if source and not ob.sources:
            ob.sources = (source,)
    return obs


# -- grouping --------------------------------------------------------------------------------------------


@dataclass
class _Group:
    sig: tuple[str, ...]
    checks: dict[str, dict[str, Any]] = field(default_factory=dict)
    values: dict[str, str] = field(default_factory=dict)
    lines: dict[str, list[str]] = field(default_factory=dict)
    sources: set[str] = field(default_factory=set)
    places: set[str] = field(default_factory=set)
    #: every observation came from the wire schema
    wire_only: bool = True

    def add(self, check_id: str, check: dict[str, Any], ob: _Obs) -> None:
        if check_id not in self.checks:
            self.checks[check_id] = check
            self.values[check_id] = ob.value
            self.lines[check_id] = []
        self.lines[check_id] += [line for line in ob.lines if line not in self.lines[check_id]]
        self.sources.update(ob.sources)
        self.places.update(ob.places)
        self.wire_only = self.wire_only and ob.wire

    def uniform(self) -> str | None:
        """The value every check shows (a check seen through a wire error only shows none)."""
        values = set(self.values.values()) - {""} or {""}
        return next(iter(values)) if len(values) == 1 else None


def _kinds(groups: Iterable[_Group]) -> set[str]:
    return {str(c.get("kind")) for group in groups for c in group.checks.values()}


def _shift(kind: str, groups: Iterable[_Group]) -> str:
    """What goes before a ``tools`` pattern seen only inside requests (``/tools``), so it reads as theirs."""
    return "/tools" if kind == "tools" and _kinds(groups) == {"request"} else ""


def _union(groups: Iterable[_Group], name: str) -> set[str]:
    out: set[str] = set()
    for group in groups:
        out |= getattr(group, name)
    return out


def _prefix(
    kind: str, scope: str, section: str = "", sources: Iterable[str] = (), kinds: Iterable[str] = ()
) -> str:
    """``<sources>→<output dialect> <what>: `` (a round trip's source is its way there, ``a→b``); ``kinds``:
    those of the checks (tool definitions seen inside requests too say so)."""
    label = KIND_LABELS.get(kind, f"{kind} payloads")
    if kind in ("tools", "tool_choice") and set(kinds) == {"request"}:
        label = KIND_LABELS["request"]
    elif kind in ("tools", "tool_choice") and "request" in set(kinds):
        label += " (also inside requests)"
    direct = sorted(s for s in sources if "→" not in s)
    trips = sorted(s for s in sources if "→" in s)
    ways = ", ".join(t.split("→", 1)[1] for t in trips)
    if direct:
        pair = f"{', '.join(direct)}→{scope}"
        if trips:
            label += f" (also round trips via {ways})"
    elif trips:
        pair = f"{scope}→{ways}→{scope}"
        label += " (round trip)"
    else:
        pair = f"?→{scope}"
    if section == "accumulated":
        label += " (accumulated output)"
    elif section == "events":
        label += " (events)"
    return f"{pair} {label}: "


def _where(parent: str, at: str = "in") -> Title:
    return (" at the top level",) if not parent else (f" {at} ", Code(parent))


def _places(places: Iterable[str]) -> Title:
    """Where the JSON Schemas are (``/tools/*/function/parameters``): a few, then how many more."""
    ordered = sorted(places, key=lambda p: (len(p), p))
    shown = ordered[:PLACES]
    parts: list[str] = []
    for i, place in enumerate(shown):
        if i:
            parts.append(" and " if i == len(shown) - 1 and len(ordered) == len(shown) else ", ")
        parts.append(Code(place or "(root)"))
    if len(ordered) > len(shown):
        parts.append(f" and {len(ordered) - len(shown)} more")
    return tuple(parts)


def _keyword(where: str) -> str:
    """``**/items/*`` → ``items/*``: a pattern inside schemas, as shown next to "at any depth"."""
    return where[3:] if where.startswith("**/") else where


def _in_schemas(places: Iterable[str]) -> Title:
    """Where a schema rule is broken: the schemas' places; at their root or any depth below."""
    return (" in the schemas at ", *_places(places), " (any depth)")


def _value_part(text: str) -> Title:
    """A short expected or actual value: JSON as code, a description ("a value of type integer") as prose."""
    if text[:1] in '"{[-0123456789' or text in ("true", "false", "null"):
        return (Code(text),)
    return (text,)


def _keys(keys: list[str]) -> Title:
    shown = keys[:TITLE_KEYS]
    parts: list[str] = []
    for i, key in enumerate(shown):
        if i:
            parts.append(" and " if i == len(shown) - 1 and len(keys) == len(shown) else ", ")
        parts.append(Code(_shorten(key)))
    if len(keys) > len(shown):
        parts.append(f" and {len(keys) - len(shown)} more")
    return tuple(parts)


def _shorten(text: str, limit: int = CODE_PART) -> str:
    """A long pointer with its middle left out."""
    if len(text) <= limit:
        return text
    head = limit // 3
    return text[:head] + "…" + text[-(limit - head - 1) :]


def _short(value: str | None) -> bool:
    return value is not None and 0 < len(value) <= SHORT and "…" not in value


def _member(group: _Group) -> str:
    """The pointer pattern of a missing or unexpected key."""
    parent, key = group.sig[4], group.sig[6]
    return f"{parent}/{key}"


def _key_title(prefix: str, what: str, groups: list[_Group], renamed: list[_Group] | None = None) -> Title:
    everyone = [*groups, *(renamed or ())]
    shift = _shift(groups[0].sig[1], everyone)
    parents = {g.sig[4] for g in everyone}
    parent = next(iter(parents)) if len(parents) == 1 else None
    names = [g.sig[6] if parent is not None else shift + _member(g) for g in groups]
    if parent is not None and parent != "**":
        parent = shift + parent
    values = [g.uniform() for g in groups]
    same = values[0] if len(set(values)) == 1 and _short(values[0]) else None
    in_schemas = parent == "**"
    if renamed is not None:
        sent = [g.sig[6] for g in renamed]
        verb = " is expected" if len(names) == 1 else " are expected"
        if in_schemas:
            where: Title = _in_schemas(_union(everyone, "places"))
        else:
            where = () if not parent else (" in ", Code(parent))
        return (prefix, *_keys(sent), " sent where ", *_keys(names), verb, *where)
    many = len(names) > 1
    wire = all(g.wire_only for g in groups)
    if what == "missing-key":
        title: Title = (prefix, *_keys(names), " missing")
        if in_schemas:
            title += _in_schemas(_union(groups, "places"))
        elif parent is not None:
            title += _where(parent, "from")
        if same is not None:
            title += (" (all expected " if many else " (expected ", *_value_part(same), ")")
        return title + ((f" (the {groups[0].sig[2]} wire schema requires it)",) if wire else ())
    title = (prefix, "unexpected ", *_keys(names))
    if in_schemas:
        title += _in_schemas(_union(groups, "places"))
    elif parent is not None:
        title += _where(parent)
    if same is not None:
        title += (" (all " if many else " (value ", *_value_part(same), ")")
    return title + ((f" (the {groups[0].sig[2]} wire schema does not allow it)",) if wire else ())


def _diff_title(group: _Group) -> Title:
    _, kind, scope, section, where, what, _key_name, detail = group.sig
    prefix = _prefix(kind, scope, section, group.sources, _kinds([group]))
    ptr = Code(_shorten(_keyword(where) if kind == "schema" else _shift(kind, [group]) + where or "(root)"))
    tail: Title = _in_schemas(group.places) if kind == "schema" else ()
    uniform = group.uniform()
    if what == "type":
        expected, got = detail.split("|", 1)
        return (prefix, ptr, f" is {got} where {expected} is expected", *tail)
    if what == "value":
        if uniform is not None:
            exp, got = uniform.split("\x00", 1)
            if _short(exp) and _short(got):
                return (prefix, ptr, " is ", Code(got), " where ", Code(exp), " is expected", *tail)
        sample = group.values[next(iter(group.checks))]
        exp, got = sample.split("\x00", 1)
        how = f" ({VALUE_CHANGES[detail]})" if detail in VALUE_CHANGES else ""
        if _short(exp) and _short(got):
            return (
                prefix,
                ptr,
                f" has the wrong value{how[:-1] + ', e.g. ' if how else ' (e.g. '}",
                Code(got),
                " where ",
                Code(exp),
                " is expected)",
                *tail,
            )
        return (prefix, ptr, f" has the wrong value{how}", *tail)
    if what == "missing-item":
        return (prefix, "items missing from ", ptr, *tail)
    if what == "extra-item":
        return (prefix, "unexpected extra items in ", ptr, *tail)
    if what == "moved":
        return (prefix, "items of ", ptr, " out of order (an item moved)", *tail)
    if what == "invalid-json":
        return (prefix, ptr, " is not valid JSON", *tail)
    if what == "no-match":
        return (prefix, ptr, " does not match ", Code(detail), *tail)
    if what == "id-prefix":
        return (prefix, ptr, " is an id not starting with ", Code(_key(detail)), *tail)
    if what == "id-link":
        return (prefix, ptr, " does not keep the id it must repeat", *tail)
    if what == "item-count":
        return (prefix, ptr, " has the wrong number of items", *tail)
    return (prefix, ptr, f": {group.values[next(iter(group.checks))]}", *tail)


def _title(group: _Group) -> Title:
    sig = group.sig
    category, kind = sig[0], sig[1]
    first = group.values[next(iter(group.checks))]
    if category == "diff":
        return _diff_title(group)
    if category == "wire":
        schema, pointer, message = sig[2], sig[3], sig[4]
        label = "stream" if kind == "stream" else "wire"
        where = _where(_shift(kind, [group]) + pointer, "at")
        if group.places:
            where = (" at ", Code(_keyword(pointer)), *_in_schemas(group.places))
        return (
            _prefix(kind, schema, sources=group.sources, kinds=_kinds([group])),
            f"output invalid for the {schema} {label} schema",
            *where,
            f": {message}",
        )
    if category == "wire-event":
        schema, event, message = sig[2], sig[3], sig[4]
        return (
            _prefix(kind, schema, sources=group.sources, kinds=_kinds([group])),
            *_event_part(event),
            f" is invalid for the {schema} stream schema: {message}",
        )
    if category == "invalid-input":
        schema, pointer = sig[2], sig[3]
        sources = ", ".join(sorted({src.split("→", 1)[0] for src in group.sources})) or "its own dialect"
        where = _where(_shift(kind, [group]) + pointer, "at")
        if group.places:
            where = (" at ", Code(_keyword(pointer)), *_in_schemas(group.places))
        return (
            _prefix(kind, schema, sources=group.sources, kinds=_kinds([group])),
            f"the caller's input is invalid in {sources}; the output carries it on, invalid for the {schema} "
            "wire schema",
            *where,
            f": {sig[4]}",
        )
    prefix = _prefix(kind, sig[2], sources=group.sources)
    if category == "crash":
        return (prefix, "crashes with ", Code(first))
    if category == "refused":
        return (prefix, "refuses with ", Code(sig[3]), " (", Code(first), ") where a translation is expected")
    if category == "wrong-error":
        return (
            prefix,
            "fails with ",
            Code(sig[4]),
            " (",
            Code(first),
            ") where the refusal ",
            Code(sig[3]),
            " is expected",
        )
    if category == "error-path":
        return (
            prefix,
            "refuses with ",
            Code(sig[3]),
            " at ",
            Code(sig[5]),
            " where ",
            Code(sig[4]),
            " is expected",
        )
    if category == "not-refused":
        at = () if sig[4] == "(none)" else (" at ", Code(sig[4]))
        return (prefix, "translates where the refusal ", Code(sig[3]), *at, " is expected")
    if category == "grammar":
        return (prefix, *_grammar_phrase(first), " (", Code(sig[3]), ")")
    if category == "accumulate":
        return (prefix, "the output stream does not accumulate (", Code(sig[3]), f"): {first}")
    if category == "mutated":
        if group.places:
            changes = "changes the JSON Schemas it is handed (the caller's data) in "
            return (prefix, changes, *_places(group.places))
        return (prefix, "changes the payload it is handed (the caller's data)", *_where(sig[3], "at"))
    if category == "late":
        fragment = _FRAGMENTS.get(sig[3], sig[3])
        return (prefix, f"not incremental: {fragment} held back (emitted more than one input event late)")
    return (prefix, first)


#: stream-grammar messages that name a member by where it *is* while the defect is where it is not: the
#: member is missing from the events before (``sequence_number appears mid-stream``: the first events lack
#: it), or from this one while earlier events carry it
_GRAMMAR_MISSING = (
    (re.compile(r"^(\w+) appears mid-stream$"), "missing from the first events (later events carry it)"),
    (re.compile(r"^(\w+) missing \(earlier events carry one\)$"), "missing from an event (earlier have it)"),
)


def _grammar_phrase(message: str) -> Title:
    """What a stream-grammar failure says, with a member missing from some events said to be missing."""
    for pattern, phrase in _GRAMMAR_MISSING:
        m = pattern.match(message)
        if m is not None:
            return (Code(m.group(1)), f" {phrase}")
    return (f"output breaks the stream grammar: {message}",)


def _finding(sig: tuple[str, ...], title: Title, groups: list[_Group], is_diff: bool) -> Finding:
    checks = groups[0].checks
    example_id = str(min(checks.values(), key=_main_first).get("id", "?"))
    lines: list[str] = []
    for group in groups:
        lines += [line for line in group.lines.get(example_id, ()) if line not in lines]
    if len(lines) > EXAMPLE_LINES:
        lines = [*lines[: EXAMPLE_LINES - 1], f"… ({len(lines) - EXAMPLE_LINES + 1} more lines)"]
    ordered = tuple(checks[i] for i in sorted(checks))
    return Finding(sig, title, ordered, "\n".join(lines), example_id, is_diff)


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _renames(
    missing: list[_Group], extra: list[_Group]
) -> tuple[list[tuple[_Group, _Group]], list[_Group], list[_Group]]:
    """Keys missing and unexpected under one object in the same checks that are one key sent under another
    name: (missing, unexpected) pairs, then the keys left. A pair: the same name but for case and
    punctuation (``functionCall``, ``function_call``), or the only two keys, with similar names or the
    same value (``max_tokens`` for ``max_completion_tokens``)."""
    missing = sorted(missing, key=lambda g: g.sig)
    extra = sorted(extra, key=lambda g: g.sig)
    pairs: list[tuple[_Group, _Group]] = []
    for want in list(missing):
        # the same name but for case and punctuation; the very same name missing from one item and
        # unexpected in another is no rename (items out of place): it stays two findings
        got = next(
            (u for u in extra if _norm(u.sig[6]) == _norm(want.sig[6]) and u.sig[6] != want.sig[6]), None
        )
        if got is not None:
            pairs.append((want, got))
            missing.remove(want)
            extra.remove(got)
    if len(missing) == 1 and len(extra) == 1 and missing[0].sig[6] != extra[0].sig[6]:
        want, got = missing[0], extra[0]
        same_value = all(want.values[i] == got.values.get(i) for i in want.checks)
        ratio = difflib.SequenceMatcher(None, _norm(want.sig[6]), _norm(got.sig[6])).ratio()
        if same_value or ratio >= 0.6:
            pairs.append((want, got))
            missing, extra = [], []
    return pairs, missing, extra


def _error_event(
    kind: str, pair: str, section: str, missing: list[_Group], extra: list[_Group]
) -> Finding | None:
    """The finding of a stream's accumulated output that has an ``error`` where it should end normally, or
    no ``error`` where its last event should be one (the keys of the other shape with it); None otherwise."""
    lost = next((g for g in missing if g.sig[6] == "error"), None)
    added = next((g for g in extra if g.sig[6] == "error"), None)
    if (lost is None) == (added is None):
        return None
    members = sorted([*missing, *extra], key=lambda g: (g.sig[5], g.sig[6]))
    prefix = _prefix(kind, pair, section, _union(members, "sources"), _kinds(members))
    if lost is not None:
        shape = next((g.uniform() for g in extra if g.sig[6] in ("type", "object")), None)
        ends: Title = (" (the stream ends normally)",)
        if shape is not None and _short(shape):
            ends = (" (the stream ends as a normal ", Code(shape.strip('"')), ")")
        title: Title = (prefix, "no ", Code("error"), " event where the stream must end in one", *ends)
        sig = ("diff", kind, pair, section, "", "error-event", "missing")
    else:
        title = (prefix, "an ", Code("error"), " event where the stream must end normally")
        sig = ("diff", kind, pair, section, "", "error-event", "unexpected")
    return _finding(sig, title, members, True)


def find_bugs(checks: Iterable[dict[str, Any]]) -> list[Finding]:
    """The distinct problems of the failing (and errored) checks, the most checks first."""
    groups: dict[tuple[str, ...], _Group] = {}
    for check in sorted((c for c in checks if c.get("outcome") in FAILING), key=lambda c: str(c.get("id"))):
        check_id = str(check.get("id", "?"))
        for ob in _observations(check):
            groups.setdefault(ob.sig, _Group(ob.sig)).add(check_id, check, ob)
    findings: list[Finding] = []
    # keys missing or unexpected in exactly the same checks: one finding; one key missing and one
    # unexpected under the same object with similar names or values: a key sent under the wrong name
    by_object: dict[tuple[Any, ...], dict[str, list[_Group]]] = {}
    for sig, group in groups.items():
        if sig[0] == "diff" and sig[5] in _KEY_KINDS:
            where = (*sig[1:5], frozenset(group.checks))
            by_object.setdefault(where, {}).setdefault(sig[5], []).append(group)
        else:
            findings.append(_finding(sig, _title(group), [group], sig[0] == "diff"))
    together: dict[tuple[Any, ...], list[_Group]] = {}
    for where, kinds in sorted(by_object.items(), key=lambda kv: kv[0][:4]):
        kind, pair, section, parent, ids = where
        missing = kinds.get("missing-key", [])
        extra = kinds.get("unexpected-key", [])
        pairs, missing, extra = _renames(missing, extra)
        if pairs:
            wanted, sent = [m for m, _ in pairs], [u for _, u in pairs]
            names = ",".join(f"{u.sig[6]}>{m.sig[6]}" for m, u in pairs)
            sig = ("diff", kind, pair, section, parent, "renamed", names)
            prefix = _prefix(kind, pair, section, _union(sent + wanted, "sources"), _kinds(sent))
            title = _key_title(prefix, "renamed", wanted, renamed=sent)
            findings.append(_finding(sig, title, sent + wanted, True))
        if kind == "stream" and section == "accumulated" and parent == "":
            # a stream whose accumulated output has the wrong members at its top level: an error event
            # lost or added, named as such rather than as a list of the other shape's keys
            event = _error_event(kind, pair, section, missing, extra)
            if event is not None:
                findings.append(event)
                continue
        for group in missing + extra:
            # one finding per object: keys of different objects failing in the same checks are not one rule
            together.setdefault((kind, pair, section, parent, group.sig[5], ids), []).append(group)
    for (kind, pair, section, _parent, what, _ids), members in together.items():
        members.sort(key=lambda g: (g.sig[4], g.sig[6]))
        parents = {g.sig[4] for g in members}
        parent = next(iter(parents)) if len(parents) == 1 else "*"
        sig = ("diff", kind, pair, section, parent, what, ",".join(_member(g) for g in members))
        prefix = _prefix(kind, pair, section, _union(members, "sources"), _kinds(members))
        findings.append(_finding(sig, _key_title(prefix, what, members), members, True))
    findings.sort(key=lambda f: (-f.count, f.signature))
    return findings
