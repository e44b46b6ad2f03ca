"""Distinct translation bugs ("findings") in a results file: failing checks grouped by root cause.

A failing check says *where* and *how* its output differs (the diff's JSON Pointers and messages, the
wire-schema errors, the refusal or crash). Many checks fail for the same few reasons, so the reports group
them: every problem a check shows gets a *signature* (kind, dialect pair, the JSON Pointer with array
indexes as ``*``, the kind of difference; for refusals and crashes the error code and the exception with its
volatile parts stripped) and the checks sharing a signature form one :class:`Finding`. A check with several
problems counts in several findings. Keys missing or unexpected under the same object in exactly the same
checks are one finding ("`max_tokens` sent where `max_completion_tokens` is expected").

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

from .scoring import FAILING, LEVELS

__all__ = ["SHOWN_CHECKS", "SHOWN_FINDINGS", "Code", "Finding", "find_bugs", "pointer_pattern"]


class Code(str):
    """A part of a finding's title shown as inline code (plain ``str`` parts are prose)."""

    __slots__ = ()


Title = tuple[str, ...]

#: longest value shown in a title, and longest line of an example
SHORT = 48
LINE = 300
#: at most this many lines in an example, keys named in one title
EXAMPLE_LINES = 8
TITLE_KEYS = 6
#: what the reports show: the first findings (the rest are counted) and, per finding, a few check ids
SHOWN_FINDINGS = 40
SHOWN_CHECKS = 5

KIND_LABELS = {
    "request": "requests",
    "response": "responses",
    "stream": "streams",
    "tools": "tool definitions",
    "tool_choice": "tool_choice",
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
        return len(self.checks)

    def levels(self) -> list[tuple[str, int]]:
        """(level, number of checks), in the order must, should, may (then any other level)."""
        counts = Counter(str(c.get("level", "?")) for c in self.checks)
        order = [lv for lv in LEVELS if counts[lv]] + sorted(set(counts) - set(LEVELS))
        return [(lv, counts[lv]) for lv in order]

    def features(self) -> list[tuple[str, int]]:
        """(feature, number of checks), the most checks first."""
        counts = Counter(str(f) for c in self.checks for f in c.get("features") or ())
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


def _abstract(text: str) -> str:
    """``text`` without its volatile parts (ids, long tokens, numbers): for signatures only."""
    for pattern, repl in _VOLATILE:
        text = pattern.sub(repl, text)
    return text


def _without_ids(text: str) -> str:
    """``text`` with ids and long tokens as ``<id>`` (numbers kept): for titles."""
    for pattern, repl in _VOLATILE[:-1]:
        text = pattern.sub(repl, text)
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


def _wire_message(message: str) -> str:
    """A jsonschema message with the offending value replaced by its type."""
    m = _WIRE_TAIL.match(message)
    if m:
        return f"{_instance_type(m.group('inst'))} {_clip(m.group('rest'), 120)}"
    m = re.match(r"^False schema does not allow (.*)$", message, re.S)
    if m:
        return f"{_instance_type(m.group(1))} not allowed here (false schema)"
    if message[:1] in "{['\"" and message.endswith("…"):
        # the offending value came first and the message was cut short: keep its type only
        return f"{_instance_type(message)} is invalid"
    return _clip(_without_ids(message), 160)


def _key(text: str) -> str:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text.strip("'\"")
    return str(value)


# -- what one difference line says ------------------------------------------------------------------------

_K = r"('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")"
_T = "|".join(_JSON_TYPES)
_DIFF_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"^missing key {_K}, expected (?P<exp>.*)$", re.S), "missing-key"),
    (re.compile(rf"^unexpected key {_K} \(must be absent\), value (?P<got>.*)$", re.S), "unexpected-key"),
    (re.compile(rf"^unexpected key {_K}, value (?P<got>.*)$", re.S), "unexpected-key"),
    (re.compile(r"^value present where the expectation says the key must be absent$"), "unexpected-key"),
    (re.compile(r"^missing item, expected (?P<exp>.*)$", re.S), "missing-item"),
    (re.compile(r"^no item matches expected item \d+: (?P<exp>.*)$", re.S), "missing-item"),
    (re.compile(r"^unexpected item (?P<got>.*)$", re.S), "extra-item"),
    (re.compile(r"^unmatched output items: (?P<got>.*)$", re.S), "extra-item"),
    (re.compile(r"^expected (?P<etype>an object|an array), got (?P<gtype>\w+) (?P<got>.*)$", re.S), "type"),
    (re.compile(r"^expected a value of type (?P<etype>.+?), got (?P<gtype>\w+) (?P<got>.*)$", re.S), "type"),
    (
        re.compile(r"^expected (?P<etype>a string matching /.*/), got (?P<gtype>\w+) (?P<got>.*)$", re.S),
        "type",
    ),
    (
        re.compile(r"^expected (?P<etype>a JSON-encoded string), got (?P<gtype>\w+) (?P<got>.*)$", re.S),
        "type",
    ),
    (
        re.compile(r"^expected (?P<etype>a non-empty id string), got (?P<gtype>\w+) (?P<got>.*)$", re.S),
        "type",
    ),
    (re.compile(rf"^expected (?P<etype>{_T}) (?P<exp>.*), got (?P<gtype>{_T}) (?P<got>.*)$", re.S), "type"),
    (re.compile(r"^string is not valid JSON \(.*\): (?P<got>.*)$", re.S), "invalid-json"),
    (re.compile(r"^string (?P<got>.*) does not match (?P<exp>/.*/)$", re.S), "no-match"),
    (re.compile(r"^id (?P<got>.*) does not start with (?P<exp>.*)$", re.S), "id-prefix"),
    (
        re.compile(r"^id .* (?:was already captured as|differs from .* captured earlier as) .*$", re.S),
        "id-link",
    ),
    (re.compile(r"^items match individually but not with consistent id captures$"), "id-link"),
    (re.compile(r"^expected \d+ items in any order, got \d+: (?P<got>.*)$", re.S), "item-count"),
    (re.compile(r"^expected (?P<exp>.*), got (?P<got>.*)$", re.S), "value"),
]
_KEY_KINDS = frozenset({"missing-key", "unexpected-key"})


@dataclass
class _Obs:
    """One problem one check shows: its signature, what the title needs, the example lines."""

    sig: tuple[str, ...]
    value: str = ""
    lines: list[str] = field(default_factory=list)
    sources: tuple[str, ...] = ()


def _diff_obs(prefix: tuple[str, ...], pointer: str, message: str, line: str) -> _Obs | None:
    if message.startswith("in the JSON text, at "):
        inner = re.match(r"^in the JSON text, at (\(root\)|/\S*): (.*)$", message, re.S)
        if inner:
            nested = "" if inner.group(1) == "(root)" else inner.group(1)
            return _diff_obs(prefix, f"{pointer} (JSON){nested}", inner.group(2), line)
    if re.match(r"^matches none of the \d+ alternatives; closest differs by:$", message):
        return None  # the closest alternative's differences follow on their own lines
    for pattern, what in _DIFF_FORMS:
        m = pattern.match(message)
        if not m:
            continue
        groups = m.groupdict()
        if what in _KEY_KINDS:
            key = _key(m.group(1)) if m.groups() and m.group(1) else pointer.rsplit("/", 1)[-1]
            parent = pointer.rsplit("/", 1)[0] if "/" in pointer else ""
            value = groups.get("exp") if what == "missing-key" else groups.get("got")
            sig = (*prefix, _parent_pattern(parent), what, key, "")
            return _Obs(sig, value or "", [line])
        detail = ""
        if what == "type":
            etype = groups["etype"]
            if etype in _JSON_TYPES:
                etype = _type_phrase(etype)
            elif not etype.startswith(("a ", "an ")):
                etype = f"a value of type {etype}"
            detail = f"{etype}|{_type_phrase(groups['gtype'])}"
            value = ""
        elif what in ("value", "no-match", "id-prefix"):
            value = f"{groups.get('exp', '')}\x00{groups.get('got', '')}"
            if what != "value":
                detail = groups.get("exp", "")
        else:
            value = ""
        where = _parent_pattern(pointer)
        if what in ("missing-item", "extra-item") and where.endswith("/*"):
            where = where[:-2]
        return _Obs((*prefix, where, what, "", detail), value, [line])
    sig = (*prefix, _parent_pattern(pointer), "other", "", _clip(_abstract(message), 80))
    return _Obs(sig, _clip(_without_ids(message), 80), [line])


def _parent_pattern(pointer: str) -> str:
    """Pattern of a pointer that may carry a `` (JSON)`` step into a JSON-encoded string."""
    if " (JSON)" in pointer:
        outer, inner = pointer.split(" (JSON)", 1)
        return pointer_pattern(outer) + " (JSON)" + pointer_pattern(inner)
    return pointer_pattern(pointer)


_DIFF_LINE = re.compile(r"^ *(\(root\)|/[^:]*?): (.*)$", re.S)


def _diff_lines(diff: str) -> Iterable[tuple[str, str, str]]:
    """(section, pointer, message) of each difference in a check's ``diff`` text."""
    section = ""
    skipping = False
    for raw in diff.splitlines():
        if not raw.strip():
            section, skipping = "", False
            continue
        if raw in ("accumulated:", "events:"):
            section, skipping = raw[:-1], False
            continue
        if raw == "wire:" or raw.startswith(("late fragments: ", "output: ")):
            skipping = True  # wire errors come from `wire_errors`; the others are read elsewhere
            continue
        if skipping or raw.startswith("  output at "):
            continue
        m = _DIFF_LINE.match(raw)
        if m:
            yield section, ("" if m.group(1) == "(root)" else m.group(1)), m.group(2)


def _pair(check: dict[str, Any]) -> str:
    source, target = str(check.get("source", "?")), str(check.get("target", "?"))
    return f"{source}→{target}→{source}" if check.get("round_trip") else f"{source}→{target}"


def _strip_label(message: str) -> str:
    message = re.sub(r"^source re-chunked \([^)]*\): ", "", message)
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


def _error_path(error: dict[str, Any]) -> str:
    path = error.get("path")
    return "(none)" if path is None else pointer_pattern(str(path)) or "(root)"


def _observations(check: dict[str, Any]) -> list[_Obs]:
    """Every problem a failing check shows (at least one)."""
    kind = str(check.get("kind", "?"))
    pair = _pair(check)
    message = str(check.get("message") or "")
    plain = _strip_label(message)
    obs: list[_Obs] = []
    if check.get("outcome") == "errored":
        sig, display = _exception(plain)
        obs.append(_Obs(("crash", kind, pair, sig), display, _crash_example(message)))
        return obs
    expected = check.get("expected_error") if isinstance(check.get("expected_error"), dict) else None
    actual = check.get("actual_error") if isinstance(check.get("actual_error"), dict) else None
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
    for section, pointer, text in _diff_lines(str(check.get("diff") or "")):
        found = _diff_obs(
            ("diff", kind, pair, section), pointer, text, _clip(f"{pointer or '(root)'}: {text}")
        )
        if found is not None:
            obs.append(found)
    # the output's validity for the wire schema (a round trip's is the source's)
    schema = str(check.get("source") if check.get("round_trip") else check.get("target"))
    for error in check.get("wire_errors") or ():
        text = str(error)
        if ": " not in text or not text.startswith("/"):
            continue
        pointer, _, what = text.partition(": ")
        sig = ("wire", kind, schema, pointer_pattern(pointer), _wire_message(what))
        via = f"{check.get('source', '?')}→{check.get('target', '?')}" if check.get("round_trip") else ""
        sig = (*sig, "round trip") if via else sig
        obs.append(_Obs(sig, "", [_clip(text)], (via or str(check.get("source", "?")),)))
    # streams: grammar, accumulation, incrementality
    for part in plain.split("; "):
        grammar = re.match(r"^(\S+) stream grammar: (?:event \d+: )?(.*) \[([\w.-]+)\]$", part, re.S)
        if grammar:
            sig = ("grammar", kind, pair, grammar.group(3))
            obs.append(_Obs(sig, _clip(_without_ids(grammar.group(2)), 120), [_clip(part)]))
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
    return obs


# -- grouping --------------------------------------------------------------------------------------------


@dataclass
class _Group:
    sig: tuple[str, ...]
    checks: dict[str, dict[str, Any]] = field(default_factory=dict)
    values: dict[str, str] = field(default_factory=dict)
    lines: dict[str, list[str]] = field(default_factory=dict)
    sources: set[str] = field(default_factory=set)

    def add(self, check_id: str, check: dict[str, Any], ob: _Obs) -> None:
        if check_id not in self.checks:
            self.checks[check_id] = check
            self.values[check_id] = ob.value
            self.lines[check_id] = []
        self.lines[check_id] += [line for line in ob.lines if line not in self.lines[check_id]]
        self.sources.update(ob.sources)

    def uniform(self) -> str | None:
        values = set(self.values.values())
        return next(iter(values)) if len(values) == 1 else None


def _prefix(kind: str, pair: str, section: str = "") -> str:
    label = KIND_LABELS.get(kind, f"{kind} payloads")
    if pair.count("→") == 2:
        label += " (round trip)"
    if section == "accumulated":
        label += " (accumulated output)"
    elif section == "events":
        label += " (events)"
    return f"{pair} {label}: "


def _where(parent: str, at: str = "in") -> Title:
    return (" at the top level",) if not parent else (f" {at} ", Code(parent))


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
        parts.append(Code(key))
    if len(keys) > len(shown):
        parts.append(f" and {len(keys) - len(shown)} more")
    return tuple(parts)


def _short(value: str | None) -> bool:
    return value is not None and 0 < len(value) <= SHORT and "…" not in value


def _member(group: _Group) -> str:
    """The pointer pattern of a missing or unexpected key."""
    parent, key = group.sig[4], group.sig[6]
    return f"{parent}/{key}"


def _key_title(prefix: str, what: str, groups: list[_Group], renamed: list[_Group] | None = None) -> Title:
    parents = {g.sig[4] for g in groups} | {g.sig[4] for g in renamed or ()}
    parent = next(iter(parents)) if len(parents) == 1 else None
    names = [g.sig[6] if parent is not None else _member(g) for g in groups]
    values = [g.uniform() for g in groups]
    same = values[0] if len(set(values)) == 1 and _short(values[0]) else None
    if renamed is not None:
        sent = [g.sig[6] for g in renamed]
        verb = " is expected" if len(names) == 1 else " are expected"
        where = () if not parent else (" in ", Code(parent))
        return (prefix, *_keys(sent), " sent where ", *_keys(names), verb, *where)
    many = len(names) > 1
    if what == "missing-key":
        title: Title = (prefix, *_keys(names), " missing")
        if parent is not None:
            title += _where(parent, "from")
        if same is not None:
            title += (" (all expected " if many else " (expected ", *_value_part(same), ")")
        return title
    title = (prefix, "unexpected ", *_keys(names))
    if parent is not None:
        title += _where(parent)
    if same is not None:
        title += (" (all " if many else " (value ", *_value_part(same), ")")
    return title


def _diff_title(group: _Group) -> Title:
    _, kind, pair, section, where, what, _key_name, detail = group.sig
    prefix = _prefix(kind, pair, section)
    ptr = Code(where or "(root)")
    uniform = group.uniform()
    if what == "type":
        expected, got = detail.split("|", 1)
        return (prefix, ptr, f" is {got} where {expected} is expected")
    if what == "value":
        if uniform is not None:
            exp, got = uniform.split("\x00", 1)
            if _short(exp) and _short(got):
                return (prefix, ptr, " is ", Code(got), " where ", Code(exp), " is expected")
        sample = group.values[next(iter(group.checks))]
        exp, got = sample.split("\x00", 1)
        if _short(exp) and _short(got):
            return (
                prefix,
                ptr,
                " has the wrong value (e.g. ",
                Code(got),
                " where ",
                Code(exp),
                " is expected)",
            )
        return (prefix, ptr, " has the wrong value")
    if what == "missing-item":
        return (prefix, "items missing from ", ptr)
    if what == "extra-item":
        return (prefix, "unexpected extra items in ", ptr)
    if what == "invalid-json":
        return (prefix, ptr, " is not valid JSON")
    if what == "no-match":
        return (prefix, ptr, " does not match ", Code(detail))
    if what == "id-prefix":
        return (prefix, ptr, " is an id not starting with ", Code(_key(detail)))
    if what == "id-link":
        return (prefix, ptr, " does not keep the id it must repeat")
    if what == "item-count":
        return (prefix, ptr, " has the wrong number of items")
    return (prefix, ptr, f": {group.values[next(iter(group.checks))]}")


def _title(group: _Group) -> Title:
    sig = group.sig
    category, kind = sig[0], sig[1]
    first = group.values[next(iter(group.checks))]
    if category == "diff":
        return _diff_title(group)
    if category == "wire":
        schema, pointer, message = sig[2], sig[3], sig[4]
        sources = ", ".join(sorted(group.sources))
        label = "stream" if kind == "stream" else "wire"
        return (
            _prefix(kind, f"{sources}→{schema}"),
            f"output invalid for the {schema} {label} schema",
            *_where(pointer, "at"),
            f": {message}",
        )
    prefix = _prefix(kind, sig[2])
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
        return (prefix, f"output breaks the stream grammar: {first} (", Code(sig[3]), ")")
    if category == "accumulate":
        return (prefix, "the output stream does not accumulate (", Code(sig[3]), f"): {first}")
    if category == "late":
        fragment = _FRAGMENTS.get(sig[3], sig[3])
        return (prefix, f"not incremental: {fragment} held back (emitted more than one input event late)")
    return (prefix, first)


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
        got = next((u for u in extra if _norm(u.sig[6]) == _norm(want.sig[6])), None)
        if got is not None:
            pairs.append((want, got))
            missing.remove(want)
            extra.remove(got)
    if len(missing) == 1 and len(extra) == 1:
        want, got = missing[0], extra[0]
        same_value = all(want.values[i] == got.values.get(i) for i in want.checks)
        ratio = difflib.SequenceMatcher(None, _norm(want.sig[6]), _norm(got.sig[6])).ratio()
        if same_value or ratio >= 0.6:
            pairs.append((want, got))
            missing, extra = [], []
    return pairs, missing, extra


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
            title = _key_title(_prefix(kind, pair, section), "renamed", wanted, renamed=sent)
            findings.append(_finding(sig, title, sent + wanted, True))
        for group in missing + extra:
            together.setdefault((kind, pair, section, group.sig[5], ids), []).append(group)
    for (kind, pair, section, what, _ids), members in together.items():
        members.sort(key=lambda g: (g.sig[4], g.sig[6]))
        parents = {g.sig[4] for g in members}
        parent = next(iter(parents)) if len(parents) == 1 else "*"
        sig = ("diff", kind, pair, section, parent, what, ",".join(_member(g) for g in members))
        findings.append(_finding(sig, _key_title(_prefix(kind, pair, section), what, members), members, True))
    findings.sort(key=lambda f: (-f.count, f.signature))
    return findings
