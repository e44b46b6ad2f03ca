"""Shared validation of canonical tools (made once, whatever the source and the target), and kind ``tools``
between two dialects (:func:`translate_tools`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._json import MAX_DEPTH, MISSING, check_depth, json_type, nests_deeper_outside
from .custom import for_target, has_custom_tools, refuse_tool
from .dialect import Dialect
from .errors import SchemaProblem, Segments, TranslationError, fail, pointer
from .model import NO_ORIGIN, Choice, Tool
from .rules import DialectRules
from .schema.checks import Unusual, check_schema, fast_check


def name_is_valid(name: str, target: DialectRules) -> bool:
    """True when ``name`` satisfies the target dialect's tool-name rule."""
    return target.name_rule(name) is not None


def _invalid_name(name: str, target: DialectRules, path: Segments | str) -> TranslationError:
    message = f"tool name {name!r} does not match {target.name}'s rule {target.tool_name_pattern}"
    return TranslationError("tool.invalid_name", message, path if isinstance(path, str) else pointer(path))


def validate_choice(choice: Choice, target: DialectRules) -> None:
    """Raise ``tool.invalid_name`` (at the member naming them) for a tool the choice names that the
    target's name rule refuses: the rule tool definitions are held to."""
    for name in choice.tools or ():
        if not name_is_valid(name, target):
            raise _invalid_name(name, target, choice.tools_path)


def validate_tools(
    tools: list[Tool],
    target: DialectRules,
    profile: Mapping[str, str],
    *,
    copies: bool = False,
    fast: bool = False,
) -> None:
    """Raise the first problem, tool by tool: name (missing, target rule, duplicate), description,
    parameters (not an object), schema (root object, type names, shape).

    With ``copies`` (the target's encoder copies schemas unchanged: its ``copies_schemas(profile)``),
    the pass that checks each schema also copies it, into ``tool.checked_copy``. With ``fast`` (the
    payload's depth not checked yet), schemas go through ``schema.checks.fast_check`` instead, which
    also bounds their depth and raises ``Unusual`` for anything but a well-formed schema."""
    seen: set[str] = set()
    description_required = profile.get("tool.description") == "required"
    valid_name = target.name_rule
    for tool in tools:
        if not isinstance(tool.name, str):
            what = "no name" if tool.name is MISSING else f"a {json_type(tool.name)} name"
            raise fail(
                "tool.missing_name", f"the tool has {what}; a tool needs a string name", tool.name_path
            )
        if tool.custom and not has_custom_tools(target, profile):
            raise refuse_tool(tool, target.name)
        if valid_name(tool.name) is None:
            raise _invalid_name(tool.name, target, tool.name_path)
        if tool.name in seen:
            raise fail(
                "tool.duplicate_name", f"a tool named {tool.name!r} is already defined", tool.name_path
            )
        seen.add(tool.name)
        if description_required and not tool.description:
            raise fail("tool.missing_description", f"tool {tool.name!r} has no description", tool.path)
        if tool.parameters is MISSING:
            continue
        if not isinstance(tool.parameters, dict):
            raise fail(
                "tool.invalid_parameters",
                f"the parameter schema must be a JSON object, not {json_type(tool.parameters)}",
                tool.params_origin.base,
            )
        if fast:
            if type(tool.parameters) is not dict:
                raise Unusual
            room = MAX_DEPTH - len(tool.params_origin.base) - 1  # the schema's level is its path's length + 1
            checked = fast_check(tool.parameters, room, copies)
            if copies:
                tool.checked_copy = checked
            continue
        try:  # (``params_origin.reporting()`` without a context manager per tool)
            checked = check_schema(tool.parameters, copy=copies)
        except SchemaProblem as problem:
            raise tool.params_origin.error(problem) from None
        if copies:
            tool.checked_copy = checked


def translate_tools(
    payload: Any, source: Dialect, target: Dialect, profile: Mapping[str, str]
) -> list[dict]:
    """Kind ``tools``: decode, validate, encode, with the depth limit (``payload.too_deep``) checked
    in the same walk as the schemas when the decoder does not walk them itself
    (``Dialect.decode_walks_schemas``).

    The fast way: the decoder (which only reads the tool objects' own members), ``validate_tools(fast=
    True)`` (each schema checked, copied when the encoder would copy it, and its depth bounded in one
    walk), then the depth of everything but the schemas. A refusal on the way is only given once the
    whole payload's depth is checked (a payload nesting too deep is refused as such, whatever else is
    wrong with it, as when the depth is checked first); anything the fast walk does not settle (a
    problem in a schema, unusual Python types) goes the exact way: depth first, then the checks that
    name the problem."""
    decoder, encoder, rules = source.tools, target.tools, target.rules
    copies = encoder.copies_schemas(profile)
    if not source.decode_walks_schemas:
        refusal: TranslationError | None = None
        try:
            tools = for_target(decoder.decode_tools(payload, profile), rules, profile)
            validate_tools(tools, rules, profile, copies=copies, fast=True)
            skipped = [  # (a wrapped custom tool's parameters are the reference's own, in no payload)
                tool.params_origin.base for tool in tools
                if tool.parameters is not MISSING and tool.params_origin is not NO_ORIGIN
            ]
            if nests_deeper_outside(payload, skipped):
                raise Unusual
        except TranslationError as exc:
            refusal = exc
        except Unusual:
            pass  # the exact way, below
        else:
            return encoder.encode_tools(tools, profile)
        if refusal is not None:
            check_depth(payload)
            raise refusal
    check_depth(payload)
    tools = for_target(decoder.decode_tools(payload, profile), rules, profile)
    validate_tools(tools, rules, profile, copies=copies)
    return encoder.encode_tools(tools, profile)
