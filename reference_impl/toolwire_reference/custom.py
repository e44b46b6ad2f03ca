"""Custom (free-form) tools: OpenAI's tools whose calls carry one string ``input`` instead of JSON
arguments, optionally constrained by a grammar (corpus/RULES.md, "Custom (free-form) tools").

The canonical tool is ``{"type": "custom", "name", "description"?, "format"?}`` with ``format``
``{"type": "text"}`` or ``{"type": "grammar", "syntax": "lark" | "regex", "definition"}`` (the
Responses spelling; Chat nests the grammar: ``{"type": "grammar", "grammar": {"definition",
"syntax"}}``). A call of a custom tool is a canonical ``tool_call`` part whose ``input`` (a string)
replaces ``arguments``. Only the OpenAI dialects (and canonical) have them (``DialectRules.custom_tools``):
Anthropic and Gemini tools take JSON objects, so a custom tool is ``tool.unsupported_type`` there and a
custom call ``content.unsupported``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ._json import MISSING, expect_object, invalid, optional_string
from .choice import refuse_or_degrade
from .errors import Segments, TranslationError, fail, pointer
from .model import Choice, Tool
from .rules import DialectRules

SYNTAXES = ("lark", "regex")
#: the one string parameter of the function a custom tool becomes under ``custom.tools=wrap`` (the name
#: Codex's own JSON variant of apply_patch uses)
WRAP_PARAMETER = "input"


class FreeInput(str):
    """A custom tool call's ``input`` that remembers the JSON Pointer of its call in the source (for a
    refusal raised while encoding a target without custom tools)."""

    path: str

    def __new__(cls, text: str, path: str = "") -> FreeInput:
        obj = super().__new__(cls, text)
        obj.path = path
        return obj


def has_custom_tools(target: DialectRules, profile: Mapping[str, str] | None = None) -> bool:
    """True when ``target`` has custom (free-form) tools and calls and, for a request under ``profile``,
    receives them as they are (not under ``custom.tools=wrap`` toward a ``custom_wrapped`` dialect)."""
    return target.custom_tools and not (target.custom_wrapped and profile is not None and wrapping(profile))


def is_custom_call(part: Mapping[str, Any]) -> bool:
    """True for a canonical tool_call part of a custom tool (it has ``input``, not ``arguments``)."""
    return "input" in part


def read_format(value: Any, path: Segments, *, nested: bool) -> dict:
    """The canonical format of a custom tool's ``format`` at ``path``; ``nested``: the Chat spelling
    (``grammar: {definition, syntax}``). A wrong shape is ``payload.invalid``."""
    fmt = expect_object(value, path, "a custom tool's `format`")
    kind = fmt.get("type")
    if kind == "text":
        _closed(fmt, ("type",), path)
        return {"type": "text"}
    if kind != "grammar":
        raise invalid('a custom tool\'s `format.type` is "text" or "grammar"', path + ("type",))
    if nested:
        _closed(fmt, ("type", "grammar"), path)
        base = path + ("grammar",)
        grammar = expect_object(fmt.get("grammar", MISSING), base, "`format.grammar`")
    else:
        base, grammar = path, fmt
    _closed(grammar, ("definition", "syntax") if nested else ("type", "definition", "syntax"), base)
    syntax = grammar.get("syntax")
    if syntax not in SYNTAXES:
        raise invalid('a grammar\'s `syntax` is "lark" or "regex"', base + ("syntax",))
    definition = grammar.get("definition")
    if not isinstance(definition, str):
        raise invalid("a grammar's `definition` must be a string", base + ("definition",))
    return {"type": "grammar", "syntax": syntax, "definition": definition}


def _closed(obj: dict, members: tuple[str, ...], path: Segments) -> None:
    for key in obj:
        if key not in members:
            raise invalid(f"a custom tool format has no member `{key}`", path + (key,))


def write_format(fmt: dict, *, nested: bool) -> dict:
    """``fmt`` (canonical) in the Responses spelling, or Chat's with ``nested``."""
    if fmt["type"] == "text" or not nested:
        return dict(fmt)
    return {"type": "grammar", "grammar": {"definition": fmt["definition"], "syntax": fmt["syntax"]}}


def read_tool(obj: dict, path: Segments, *, tool_path: Segments, nested: bool) -> Tool:
    """A custom Tool from the object at ``path`` holding ``name``, ``description``, ``format``
    (``tool_path``: the whole tool, whose ``type`` member says it is custom)."""
    description = optional_string(obj, "description", path, "`description`", null_is_absent=True)
    tool = Tool(obj.get("name", MISSING), tool_path, path + ("name",), description)
    tool.custom = True
    if obj.get("format") is not None:
        tool.format = read_format(obj["format"], path + ("format",), nested=nested)
    return tool


def write_tool(tool: Tool, *, nested: bool) -> dict:
    """``{"name", "description"?, "format"?}`` of a custom tool (``nested``: Chat's format spelling)."""
    out: dict = {"name": tool.name}
    if tool.description is not MISSING:
        out["description"] = tool.description
    if tool.format is not MISSING:
        out["format"] = write_format(tool.format, nested=nested)
    return out


def wrapping(profile: Mapping[str, str]) -> bool:
    """True under ``custom.tools=wrap``: custom tools become functions for targets without them."""
    return profile.get("custom.tools") == "wrap"


def for_target(tools: list[Tool], target: DialectRules, profile: Mapping[str, str]) -> list[Tool]:
    """``tools`` as ``target`` receives them in a request: unchanged, or (``custom.tools=wrap``, a target
    without custom tools or a ``custom_wrapped`` one) with every custom tool made a function
    (:func:`wrapped_tool`)."""
    if has_custom_tools(target, profile) or not wrapping(profile) or not any(tool.custom for tool in tools):
        return tools
    return [wrapped_tool(tool) if tool.custom else tool for tool in tools]


def wrapped_tool(tool: Tool) -> Tool:
    """The function a custom tool becomes: one required string parameter, ``input``; a grammar is told in
    the description, since nothing holds the model to it any more."""
    description = tool.description
    if tool.format is not MISSING and tool.format["type"] == "grammar":
        fmt = tool.format
        note = f"The `{WRAP_PARAMETER}` follows this {fmt['syntax']} grammar:\n{fmt['definition']}"
        description = note if description is MISSING else f"{description}\n\n{note}"
    parameters = {
        "type": "object",
        "properties": {WRAP_PARAMETER: {"type": "string"}},
        "required": [WRAP_PARAMETER],
    }
    return Tool(tool.name, tool.path, tool.name_path, description, parameters)


def wrapped_arguments(text: str) -> dict:
    """The arguments of a wrapped custom tool's call: ``{"input": text}``."""
    return {WRAP_PARAMETER: str(text)}


def refuse_tool(tool: Tool, target: str) -> TranslationError:
    """``tool.unsupported_type`` at the tool's ``type`` for a target without custom tools."""
    return fail(
        "tool.unsupported_type",
        f"the custom (free-form) tool {tool.name!r} takes a text input, and {target} tools take JSON "
        "objects: wrapping it as a function with a string parameter would be a different tool",
        tuple(tool.path) + ("type",),
    )


def refuse_call(part: Mapping[str, Any], target: str, fallback: Segments | str = "") -> TranslationError:
    """``content.unsupported`` at the source pointer of a custom tool call, for a target without them
    (``target``: its name, or a phrase naming it)."""
    where = getattr(part["input"], "path", None)
    if not where:
        where = fallback if isinstance(fallback, str) else pointer(fallback)
    return TranslationError(
        "content.unsupported",
        f"a call of the custom (free-form) tool {part['name']!r} has no equivalent in {target}",
        where,
    )


def read_input(value: Any, path: Segments, call_path: Segments) -> FreeInput:
    """A custom call's ``input`` at ``path`` (a string, else ``payload.invalid``), remembering
    ``call_path``."""
    if not isinstance(value, str):
        raise invalid("a custom tool call's `input` must be a string", path)
    return FreeInput(value, pointer(call_path))


def without_custom_choice(choice: Choice, profile: Mapping[str, str], target: str) -> Choice:
    """The choice a target without custom tools encodes: unchanged when it names no custom tool; the
    same choice of the functions they became under ``custom.tools=wrap``; else ``choice.unsupported`` at
    the choice (degrade: ``auto``, the parallel setting kept)."""
    if not choice.custom:
        return choice
    if wrapping(profile):
        return replace(choice, custom=frozenset())
    refuse_or_degrade(
        profile,
        "choice.unsupported",
        f"the choice names the custom (free-form) tool {sorted(choice.custom)[0]!r}, which {target} "
        "cannot have",
        choice.path,
        None,
    )
    return replace(choice, mode="auto", tools=None, custom=frozenset())
