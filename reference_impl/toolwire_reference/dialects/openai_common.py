"""What the two OpenAI dialects share: the strict-mode schema pipeline per ``openai.strict`` profile,
the ``strict`` flag, the tool envelope, and the tool-choice model (strings, named function or custom
tool, ``allowed_tools``).

Readings where RULES.md is silent:
- ``openai.refs=inline`` applies under every ``openai.strict`` value (``as-is`` included); under
  ``keep`` only the strict profiles check that references resolve;
- ``strict: null`` and ``parallel_tool_calls: null`` mean "absent";
- a source choice OpenAI cannot translate (a hosted tool, also inside ``allowed_tools``) degrades to
  ``auto``; a custom (free-form) tool's reference is read and written in each dialect's form.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .._json import MISSING, expect_object, invalid
from ..calls import arguments_for_text, arguments_to_text
from ..choice import invalid_choice, read_flag, read_payload, refuse_or_degrade
from ..custom import wrapped_arguments
from ..errors import SchemaProblem, fail
from ..model import Choice, Tool
from ..profiles import degrading
from ..rules import OPENAI_STRICT_FORMATS, OPENAI_STRICT_LIMITS, OPENAI_STRICT_UNSUPPORTED
from ..schema.clasp import filter_required
from ..schema.keywords import (
    check_required_defined,
    forbid_keywords,
    one_of_to_any_of,
    prune_formats,
    require_array_items,
)
from ..schema.limits import check_limits
from ..schema.nullable import nullable_to_union
from ..schema.refs import refs_must_resolve
from ..schema.strict import close_additional_properties, reject_nulls, require_all
from ..schema.walk import RefInliner, compose, transform
from .common import schema_copy

STRICT_PROFILES = ("all-required", "nullable-optional")
TARGET = "OpenAI strict mode"
#: the root keywords OpenAI refuses beside ``type: "object"`` in every mode (schemas/wire/openai-parameters)
ROOT_COMBINATORS = ("oneOf", "anyOf", "allOf", "enum", "not")
ROOT_UNIONS = ("oneOf", "anyOf")
EMPTY_STRICT_PARAMETERS = {"type": "object", "properties": {}, "required": [], "additionalProperties": False}


def _openai_formats(node: dict) -> frozenset:
    return OPENAI_STRICT_FORMATS


def rewrite_schema(schema: dict, *, strict: str, inline: bool, degrade: bool) -> dict:
    """The schema OpenAI receives under ``openai.strict=strict`` (raises SchemaProblem)."""
    # every mode: "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the
    # top level" (and strict mode's "Root objects must not be anyOf"); a union is never degraded, a constraint
    # beside the object (allOf, enum, not) is dropped under degrade
    for key in ROOT_COMBINATORS:
        if key in schema and (key in ROOT_UNIONS or not degrade):
            raise SchemaProblem("schema.root_not_object", f"OpenAI takes no root `{key}`", (key,))
    schema = {k: v for k, v in schema.items() if k not in ROOT_COMBINATORS}
    inliner = RefInliner(schema) if inline else None
    if strict in STRICT_PROFILES:
        checks = [
            reject_nulls,
            forbid_keywords(OPENAI_STRICT_UNSUPPORTED, degrade=degrade, target=TARGET),
            close_additional_properties(degrade=degrade),
            require_array_items(target=TARGET),
            check_required_defined(degrade=False),
            prune_formats(_openai_formats),
        ]
        if not inline:
            checks.append(refs_must_resolve(schema))
        out = transform(
            schema,
            pre=compose(*checks),
            post=compose(
                nullable_to_union,
                one_of_to_any_of(degrade=degrade, target=TARGET),
                require_all(nullable_optional=strict == "nullable-optional"),
            ),
            inline=inliner,
        )
        check_limits(schema, inline=inliner, **OPENAI_STRICT_LIMITS)
        return out
    # every mode: OpenAI answers 400 to an array schema without items ("array schema missing items")
    items = require_array_items(target="OpenAI")
    if strict == "off":
        pre = compose(items, prune_formats(_openai_formats))
        return transform(schema, pre=pre, post=filter_required, inline=inliner)
    return transform(schema, pre=items, inline=inliner)


def copies_schemas(profile: Mapping[str, str]) -> bool:
    """Whether the parameter schemas are copied unchanged (``validate_tools(copies=...)``): never, since
    OpenAI refuses an array schema without ``items`` in every mode, so every schema is checked."""
    return False


def parameters(tool: Tool, profile: Mapping[str, str], *, always: bool) -> Any:
    """The ``parameters`` value for ``tool``; MISSING when it is left out (``always`` forbids that)."""
    strict = profile["openai.strict"]
    if not tool.has_parameters:
        if strict in STRICT_PROFILES:
            return dict(EMPTY_STRICT_PARAMETERS, properties={}, required=[])
        return {"type": "object", "properties": {}} if always else MISSING
    inline = profile["openai.refs"] == "inline"
    try:
        return rewrite_schema(tool.parameters, strict=strict, inline=inline, degrade=degrading(profile))
    except SchemaProblem as problem:
        raise tool.params_origin.error(problem) from None


def strict_flag(tool: Tool, profile: Mapping[str, str], *, undeclared: Any) -> Any:
    """``strict`` per profile; under ``as-is`` the declared value, else ``undeclared`` (MISSING = omit)."""
    strict = profile["openai.strict"]
    if strict in STRICT_PROFILES:
        return True
    if strict == "off":
        return False
    return tool.strict if tool.strict is not MISSING else undeclared


def function_fields(
    tool: Tool, profile: Mapping[str, str], *, always_parameters: bool, undeclared_strict: Any
):
    """``{name, description?, parameters?, strict?}`` as OpenAI receives them."""
    out = {"name": tool.name}
    if tool.description is not MISSING:
        out["description"] = tool.description
    if tool.checked_copy is not MISSING:  # validation made the copy ``parameters`` would give
        out["parameters"] = schema_copy(tool)
    else:
        params = parameters(tool, profile, always=always_parameters)
        if params is not MISSING:
            out["parameters"] = params
    flag = strict_flag(tool, profile, undeclared=undeclared_strict)
    if flag is not MISSING:
        out["strict"] = flag
    return out


def openai_tool(item: Any, i: int) -> dict:
    """The ``i``-th tool object, which must be ``type: "function"`` or ``"custom"`` (a free-form tool,
    toolwire_reference.custom): any other named type is ``tool.unsupported_type`` (hosted tools), a
    missing or non-string type payload.invalid."""
    obj = item if type(item) is dict else expect_object(item, (i,), "a tool")
    kind = obj.get("type", MISSING)
    if kind not in ("function", "custom"):
        if isinstance(kind, str):
            raise fail(
                "tool.unsupported_type",
                f"a `{kind}` tool has no equivalent in other dialects",
                (i, "type"),
            )
        raise invalid('a tool needs `type: "function"` (or `"custom"`)', (i, "type"))
    return obj


def chat_call_body(part: Mapping[str, Any], wrap: bool = False) -> dict:
    """The ``type`` and body of a Chat ``tool_calls`` entry for a canonical tool_call part: a function
    call's JSON-text arguments, or a custom (free-form) call's ``input`` (with ``wrap``, a call of the
    function the custom tool became: ``custom.tools=wrap`` in a request)."""
    if "input" in part and wrap:
        arguments = arguments_to_text(wrapped_arguments(part["input"]))
        return {"type": "function", "function": {"name": part["name"], "arguments": arguments}}
    if "input" in part:
        return {"type": "custom", "custom": {"name": part["name"], "input": str(part["input"])}}
    return {"type": "function", "function": {"name": part["name"], "arguments": arguments_for_text(part)}}


# ---- tool choice -------------------------------------------------------------------------------

#: the string tool choices of OpenAI's dialects, each its canonical mode
STRING_MODES: Mapping[str, str] = {"auto": "auto", "none": "none", "required": "required"}
ToolRef = Callable[[str, bool], dict]  # (name, custom) -> the dialect's reference to that tool
ReadRef = Callable[[Any, str], "str | None"]  # (a reference, its type) -> the tool name, or None


def decode_choice(
    payload: object,
    profile: Mapping[str, str],
    *,
    read_ref: ReadRef,
    allowed_members: Callable[[dict], tuple[Any, Any]] | None,
    unsupported_types: frozenset[str],
    legacy: bool,
    dialect: str,
    strings: Mapping[str, str] = STRING_MODES,
    default_type: str | None = None,
) -> Choice:
    """Decode ``{tool_choice?, parallel_tool_calls?, function_call? (chat only)}``.

    Each dialect names itself (``dialect``, in messages); the Chat-like dialects that are not OpenAI's
    (Mistral) map their own strings to modes (``strings``: Mistral's ``any`` is ``required``), and may
    leave an object choice's ``type`` out (``default_type``); without ``allowed_members`` they have no
    ``allowed_tools``."""
    members = ("tool_choice", "parallel_tool_calls") + (("function_call",) if legacy else ())
    obj = read_payload(payload, members, dialect)
    choice = Choice()
    value, path = obj.get("tool_choice"), "/tool_choice"
    if legacy and obj.get("function_call") is not None:
        if value is not None:
            raise invalid_choice(
                "`tool_choice` and the legacy `function_call` are both given", "/function_call"
            )
        value, path = obj["function_call"], "/function_call"
        if value == "required" or (isinstance(value, dict) and "type" in value):
            raise invalid_choice('`function_call` is "none", "auto" or {"name": ...}', path)
        if isinstance(value, dict):
            value = {"type": "function", "function": value}
    choice.path = choice.tools_path = path
    if value is None:
        pass
    elif isinstance(value, str):
        if value not in strings:
            raise invalid_choice(f"unknown tool choice {value!r}", path)
        choice.mode = strings[value]
    elif isinstance(value, dict):
        if default_type is not None and "type" not in value:
            value = {"type": default_type, **value}
        _decode_object_choice(choice, value, path, profile, read_ref, allowed_members, unsupported_types)
    else:
        raise invalid_choice("the tool choice must be a string or an object", path)
    choice.parallel = read_flag(obj, "parallel_tool_calls", "/parallel_tool_calls", null_is_absent=True)
    return choice


def _decode_object_choice(choice, value, path, profile, read_ref, allowed_members, unsupported_types) -> None:
    kind = value.get("type")
    kind = kind if isinstance(kind, str) else None
    if kind in ("function", "custom"):
        name = read_ref(value, kind)
        if not name:
            raise invalid_choice(f"a {kind} tool choice needs a non-empty name", path)
        choice.mode, choice.tools = "required", [name]
        if kind == "custom":
            choice.custom = frozenset((name,))
    elif kind == "allowed_tools" and allowed_members is not None:
        mode, refs = allowed_members(value)
        if mode not in ("auto", "required"):
            raise invalid_choice('`allowed_tools` mode must be "auto" or "required"', path)
        if not isinstance(refs, list) or not refs:
            raise invalid_choice("`allowed_tools` needs a non-empty list of tools", path)
        names, custom = [], set()
        for ref in refs:
            ref_type = ref.get("type") if isinstance(ref, dict) else None
            ref_type = ref_type if isinstance(ref_type, str) else None
            if ref_type in unsupported_types:
                _unsupported_source(choice, profile, f"an allowed `{ref_type}` tool", path)
                return
            name = read_ref(ref, ref_type) if ref_type in ("function", "custom") else None
            if not name:
                raise invalid_choice("every allowed tool must be a named function or custom tool", path)
            names.append(name)
            if ref_type == "custom":
                custom.add(name)
        choice.mode, choice.tools, choice.custom = mode, names, frozenset(custom)
    elif kind in unsupported_types:
        _unsupported_source(choice, profile, f"a `{kind}` tool choice", path)
    else:
        raise invalid_choice(f"unknown tool choice type {kind!r}", path)


def _unsupported_source(choice: Choice, profile: Mapping[str, str], what: str, path: str) -> None:
    refuse_or_degrade(profile, "choice.unsupported", f"{what} has no equivalent outside OpenAI", path, None)
    choice.mode, choice.tools = "auto", None


def encode_choice(choice: Choice, *, tool_ref: ToolRef, allowed: Callable[[str, list], dict]) -> dict:
    """``{tool_choice?, parallel_tool_calls?}``: a string, the named form (one required tool), or
    ``allowed_tools``."""
    out: dict = {}
    if choice.mode is not None:
        if not choice.tools:
            out["tool_choice"] = choice.mode
        elif choice.mode == "required" and len(choice.tools) == 1:
            out["tool_choice"] = tool_ref(choice.tools[0], choice.tools[0] in choice.custom)
        else:
            refs = [tool_ref(name, name in choice.custom) for name in choice.tools]
            out["tool_choice"] = allowed(choice.mode, refs)
    if choice.parallel is not None:
        out["parallel_tool_calls"] = choice.parallel
    return out
