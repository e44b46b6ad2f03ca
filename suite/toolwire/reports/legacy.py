"""Differences of a format-1 results file, read back from its ``diff`` text.

Results format 2 keeps each difference as a record (``differences``, see ``matchers.Difference.record``);
format 1 (results written before it) had only the sentences of ``diff``. The reports group findings on the
records, so for a format-1 check this module parses the sentences back into the same records. It reads
only what ``matchers`` wrote up to format 1 and can go when format 1 is no longer read.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from typing import Any

__all__ = ["key_of", "legacy_differences"]

_JSON_TYPES = ("string", "number", "integer", "boolean", "object", "array", "null")
_K = r"('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")"
_T = "|".join(_JSON_TYPES)
_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"^missing key {_K}, expected (?P<exp>.*)$", re.S), "missing-key"),
    (re.compile(rf"^unexpected key {_K} \(must be absent\), value (?P<got>.*)$", re.S), "unexpected-key"),
    (re.compile(rf"^unexpected key {_K}, value (?P<got>.*)$", re.S), "unexpected-key"),
    (re.compile(r"^value present where the expectation says the key must be absent$"), "unexpected-key"),
    (re.compile(r"^missing item, expected (?P<exp>.*)$", re.S), "missing-item"),
    (re.compile(r"^no item matches expected item \d+: (?P<exp>.*)$", re.S), "missing-item"),
    (re.compile(r"^unexpected item (?P<got>.*)$", re.S), "extra-item"),
    (re.compile(r"^unmatched output items: (?P<got>.*)$", re.S), "extra-item"),
    (re.compile(r"^item expected at index (?P<from>\d+) is at index \d+ \(out of order\)$"), "moved"),
    (re.compile(r"^expected an (?P<etype>object|array), got (?P<gtype>\w+) (?P<got>.*)$", re.S), "type"),
    (
        re.compile(
            r"^expected (?P<etype>a value of type .+?|a string matching /.*/|a JSON-encoded string"
            r"|a non-empty id string), got (?P<gtype>\w+) (?P<got>.*)$",
            re.S,
        ),
        "type",
    ),
    (re.compile(rf"^expected (?P<etype>{_T}) (?P<exp>.*), got (?P<gtype>{_T}) (?P<got>.*)$", re.S), "type"),
    (re.compile(r"^string is not valid JSON \(.*\): (?P<got>.*)$", re.S), "invalid-json"),
    (re.compile(r"^string (?P<got>.*) does not match (?P<exp>/.*/)$", re.S), "no-match"),
    (re.compile(r"^id (?P<got>.*) does not start with (?P<exp>.*)$", re.S), "id-prefix"),
    (re.compile(r"^id (?P<got>.*) differs from (?P<exp>.*) captured earlier as .*$", re.S), "id-link"),
    (re.compile(r"^id (?P<got>.*) was already captured as .*$", re.S), "id-link"),
    (re.compile(r"^items match individually but not with consistent id captures$"), "id-link"),
    (re.compile(r"^expected (?P<exp>\d+) items in any order, got (?P<got>\d+): .*$", re.S), "item-count"),
    (re.compile(r"^matches none of the (?P<exp>\d+) alternatives; closest differs by:$"), "no-alternative"),
    (re.compile(r"^.*\(corpus error\)$", re.S), "corpus-error"),
    (re.compile(r"^expected (?P<exp>.*), got (?P<got>.*)$", re.S), "value"),
]
_LINE = re.compile(r"^ *(\(root\)|/[^:]*?): (.*)$", re.S)
_IN_JSON = re.compile(r"^in the JSON text, at (\(root\)|/\S*): (.*)$", re.S)


def key_of(text: str) -> str:
    """A member name as a sentence of format 1 quoted it (a Python repr, or bare)."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text.strip("'\"")
    return str(value)


def _lines(diff: str) -> Iterable[tuple[str, str, str]]:
    """(section, pointer, message) of each difference in a format-1 ``diff`` text."""
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
            skipping = True  # wire errors are in `wire_errors`; the others are not differences
            continue
        if skipping or raw.startswith("  output at "):
            continue
        m = _LINE.match(raw)
        if m:
            yield section, ("" if m.group(1) == "(root)" else m.group(1)), m.group(2)


def _record(pointer: str, message: str) -> dict[str, Any]:
    rec: dict[str, Any] = {"pointer": pointer, "kind": "value"}
    text = message
    inner = _IN_JSON.match(text)
    if inner:
        rec["in_json"] = "" if inner.group(1) == "(root)" else inner.group(1)
        text = inner.group(2)
    for pattern, kind in _FORMS:
        m = pattern.match(text)
        if not m:
            continue
        groups = {k: v for k, v in m.groupdict().items() if v is not None}
        rec["kind"] = kind
        if kind in ("missing-key", "unexpected-key"):
            where = rec.get("in_json", pointer)
            rec["key"] = key_of(m.group(1)) if m.groups() and m.group(1) else where.rsplit("/", 1)[-1]
        if kind == "type":
            rec["expected_type"], rec["got_type"] = groups["etype"], groups["gtype"]
        if kind == "moved":
            rec["from"] = int(groups["from"])
        elif kind == "id-prefix":
            rec["expected"] = json.dumps(key_of(groups["exp"]), ensure_ascii=False)  # format 1 wrote a repr
        elif "exp" in groups:
            rec["expected"] = groups["exp"]
        if "got" in groups:
            rec["got"] = groups["got"]
        break
    else:
        rec["kind"] = "other"
    rec["message"] = message
    return rec


def legacy_differences(diff: str) -> list[dict[str, Any]]:
    """The difference records (as format 2 writes them) of a format-1 ``diff`` text; kind ``other`` for a
    sentence it does not know."""
    out = []
    for section, pointer, message in _lines(diff):
        rec = _record(pointer, message)
        if section:
            rec["section"] = section
        out.append(rec)
    return out
