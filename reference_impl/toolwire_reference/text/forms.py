"""The text-embedded tool-call forms, their parsers, and the registry that fixes their precedence.

A call in text starts with an **opening literal** (``<tool_call>``, ``<x.ai:tool_call>``,
``<xai:function_call``, ``<tool>``, ``<function=``). No opening literal is a prefix of another, so at
one position at most one matches. An :class:`Opener` then says whether the literal is really the start
of a call: after its tag (and any whitespace) one of its **starters** must follow (``{`` for a JSON
body, ``<name>`` for the tagged form, ``<parameter=`` …); the starter selects the :class:`Form`, which
knows its closing literal and parses the body. An opening tag followed by anything else is a
*mention* and stays text.

``OPENERS`` is the registry, in precedence order (corpus/RULES.md "Text-embedded tool calls").
Adding a form is adding an entry: an opener (or a starter of an existing one) and a parser.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._json import load_json

#: What counts as whitespace around calls, tags and values: JSON's four whitespace characters.
WS = " \t\n\r"

#: Longest opening tag with attributes (``<xai:function_call name="…">``, ``<function=…>``) that is
#: still read as a tag; a longer one is text.
MAX_TAG = 256

NAME_RE = r"[A-Za-z0-9_.:-]{1,128}"


class Malformed(Exception):
    """A call whose closing tag was found but whose body is not a call of its form."""


Call = tuple[str, dict]
Parser = Callable[[str, "re.Match[str] | None"], list[Call]]


@dataclass(frozen=True)
class Form:
    name: str
    close: str  # the closing literal that ends the call's region
    json_aware: bool  # the closing literal is looked for outside JSON strings only
    parse: Parser  # body (between the opening tag and the closing literal) -> calls


@dataclass(frozen=True)
class Opener:
    literal: str
    tag: re.Pattern[str] | None  # the whole opening tag when it has a name or attributes (to the first `>`)
    starters: tuple[tuple[str, Form], ...]  # after the tag and whitespace: starter literal -> form


# --------------------------------------------------------------------------------------------------
# Shared readers


def _call_object(value: Any) -> Call:
    """A JSON call object: ``{"name", "arguments" | "parameters"}`` (other members ignored)."""
    if not isinstance(value, dict):
        raise Malformed("a call must be a JSON object")
    name = value.get("name")
    if not isinstance(name, str) or not name:
        raise Malformed('a call needs a non-empty string "name"')
    if "arguments" in value and "parameters" in value:
        raise Malformed('a call has both "arguments" and "parameters"')
    args = value.get("arguments", value.get("parameters"))
    return name, _arguments(args)


def _arguments(args: Any) -> dict:
    """Arguments: an object; a JSON text of an object (OpenAI-style); absent or null -> ``{}``."""
    if args is None:
        return {}
    if isinstance(args, str):
        if not args.strip(WS):
            return {}
        try:
            args = load_json(args, ())
        except ValueError as exc:
            raise Malformed(f"the arguments string is not valid JSON ({exc})") from None
    if not isinstance(args, dict):
        raise Malformed("the arguments are not a JSON object")
    return args


def parse_json_body(body: str, match: re.Match[str] | None = None) -> list[Call]:
    """A JSON body: one call object, or a non-empty array of call objects."""
    try:
        value = load_json(body, ())
    except ValueError as exc:
        raise Malformed(f"the body is not valid JSON ({exc})") from None
    if isinstance(value, list):
        if not value:
            raise Malformed("an empty array of calls")
        return [_call_object(v) for v in value]
    return [_call_object(value)]


_TAGGED = re.compile(
    r"[ \t\n\r]*<name>[ \t\n\r]*([^<>]+?)[ \t\n\r]*</name>[ \t\n\r]*"
    r"(?:<arguments>(.*)</arguments>[ \t\n\r]*)?",
    re.S,
)


def parse_tagged(body: str, match: re.Match[str] | None = None) -> list[Call]:
    """``<name>NAME</name>`` then an optional ``<arguments>{json}</arguments>``."""
    m = _TAGGED.fullmatch(body)
    if not m:
        raise Malformed("expected <name>…</name> and an optional <arguments>{…}</arguments>")
    text = m.group(2)
    if text is None or not text.strip(WS):
        return [(m.group(1), {})]
    try:
        args = load_json(text, ())
    except ValueError as exc:
        raise Malformed(f"the <arguments> are not valid JSON ({exc})") from None
    return [(m.group(1), _arguments(args))]


def parameter_value(raw: str) -> Any:
    """A parameter value: one leading and one trailing newline removed (the value-on-its-own-line
    convention), then its JSON value when it is valid JSON, else the string."""
    if raw.startswith("\r\n"):
        raw = raw[2:]
    elif raw.startswith("\n"):
        raw = raw[1:]
    if raw.endswith("\r\n"):
        raw = raw[:-2]
    elif raw.endswith("\n"):
        raw = raw[:-1]
    try:
        return load_json(raw, ())
    except ValueError:
        return raw


def _parameters(body: str, start: int, opening: re.Pattern[str], close: str, group: int = 1) -> dict:
    """``<param name>value</param>`` elements separated by whitespace, from ``start`` to the end."""
    args: dict = {}
    pos = start
    while True:
        while pos < len(body) and body[pos] in WS:
            pos += 1
        if pos == len(body):
            return args
        m = opening.match(body, pos)
        if not m:
            raise Malformed(f"unexpected text {body[pos : pos + 20]!r} between parameters")
        end = body.find(close, m.end())
        if end < 0:
            raise Malformed(f"parameter {m.group(group)!r} has no closing {close}")
        if m.group(group) in args:
            raise Malformed(f"parameter {m.group(group)!r} is given twice")
        args[m.group(group)] = parameter_value(body[m.end() : end])
        pos = end + len(close)


_PARAM_EQ = re.compile(rf"<parameter=({NAME_RE})>")
_FUNCTION_EQ = re.compile(rf"<function=({NAME_RE})>")


def parse_function_equals(body: str, match: re.Match[str] | None) -> list[Call]:
    """The body of a bare ``<function=NAME>`` (the name is in the opening tag)."""
    assert match is not None
    return [(match.group(1), _parameters(body, 0, _PARAM_EQ, "</parameter>"))]


def parse_wrapped_function_equals(body: str, match: re.Match[str] | None = None) -> list[Call]:
    """``<tool_call>`` around ``<function=NAME>…</function>`` (Qwen3-Coder)."""
    start = len(body) - len(body.lstrip(WS))
    m = _FUNCTION_EQ.match(body, start)
    if not m:
        raise Malformed("expected <function=NAME>")
    end = body.find("</function>", m.end())
    if end < 0:
        raise Malformed("<function=…> has no closing </function>")
    if body[end + len("</function>") :].strip(WS):
        raise Malformed("text after </function> inside <tool_call>")
    return [(m.group(1), _parameters(body[:end], m.end(), _PARAM_EQ, "</parameter>"))]


_XAI_PARAM = re.compile(r"""<xai:parameter[ \t\n\r]+name[ \t\n\r]*=[ \t\n\r]*(["'])([^"'<>]*)\1[ \t\n\r]*>""")


def parse_xai_function_call(body: str, match: re.Match[str] | None) -> list[Call]:
    """The body of ``<xai:function_call name="NAME">``: ``<xai:parameter name="p">v</xai:parameter>``…"""
    assert match is not None
    name = match.group(2)
    if not name:
        raise Malformed("<xai:function_call> needs a non-empty name")
    return [(name, _parameters(body, 0, _XAI_PARAM, "</xai:parameter>", group=2))]


# --------------------------------------------------------------------------------------------------
# The registry

HERMES_JSON = Form("hermes-json", "</tool_call>", True, parse_json_body)
TAGGED = Form("tagged", "</tool_call>", True, parse_tagged)
FUNCTION_EQUALS_WRAPPED = Form("function-equals", "</tool_call>", False, parse_wrapped_function_equals)
XAI = Form("xai", "</x.ai:tool_call>", True, parse_json_body)
XAI_FUNCTION_CALL = Form("xai-function-call", "</xai:function_call>", False, parse_xai_function_call)
GENERIC_TOOL = Form("generic-tool", "</tool>", True, parse_json_body)
FUNCTION_EQUALS = Form("function-equals", "</function>", False, parse_function_equals)

#: Opening literals in precedence order. Within ``<tool_call>`` the starter decides the form.
OPENERS: tuple[Opener, ...] = (
    Opener(
        "<tool_call>",
        None,
        (("{", HERMES_JSON), ("[", HERMES_JSON), ("<name>", TAGGED), ("<function=", FUNCTION_EQUALS_WRAPPED)),
    ),
    Opener("<x.ai:tool_call>", None, (("{", XAI), ("[", XAI))),
    Opener(
        "<xai:function_call",
        re.compile(r"""<xai:function_call[ \t\n\r]+name[ \t\n\r]*=[ \t\n\r]*(["'])([^"'<>]*)\1[ \t\n\r]*>"""),
        (("<xai:parameter", XAI_FUNCTION_CALL), ("</xai:function_call>", XAI_FUNCTION_CALL)),
    ),
    Opener("<tool>", None, (("{", GENERIC_TOOL), ("[", GENERIC_TOOL))),
    Opener(
        "<function=",
        re.compile(rf"<function=({NAME_RE})>"),
        (("<parameter=", FUNCTION_EQUALS), ("</function>", FUNCTION_EQUALS)),
    ),
)

FORM_NAMES = ("hermes-json", "tagged", "xai", "xai-function-call", "generic-tool", "function-equals")
