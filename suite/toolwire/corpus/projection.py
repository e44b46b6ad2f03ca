"""A canonical source written in every provider dialect that can carry it (INTERPRETING.md, "Sources in
every dialect").

Most `tools` and `tool_choice` cases are written from ``canonical``, which no real translator speaks. Each
provider's descriptor holds a ``lift`` block: templates that spell a canonical tool, a tool list and each
tool-choice form in that dialect. Projecting a canonical source is plain substitution into those templates,
so the projected source says exactly what the canonical one says, or there is no projection:

- a canonical member the dialect's templates have no slot for (``strict`` for Anthropic, a choice among
  several tools for Anthropic) means the dialect cannot carry the source: no projection;
- a schema keyword that means something else in the dialect's schema vocabulary (its ``reinterpreted``
  list: ``nullable`` is a JSON Schema annotation but a type union in Gemini's OpenAPI schema) means the
  same bytes would say something else there: no projection;
- a projection the dialect's wire schema rejects (a keyword Gemini's ``parameters`` does not know, a tool
  without ``input_schema`` for Anthropic) is the invalid input it is: it is used only where every
  expectation of the case is a refusal.

A template is JSON in which the string ``"{var}"`` stands for a variable's value; an object member whose
value is ``"{var?}"`` is left out when the variable is absent (``"{var}"`` requires it); ``"{!var}"`` is the
boolean negation. The same templates wrap a source in the smallest request of its dialect (``request``,
with ``"{tools}"`` and the tool-choice members merged in): how `tools` and `tool_choice` checks reach an
implementation that only translates whole requests (:mod:`toolwire.judge.lifting`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..jsonvalue import json_copy

__all__ = [
    "Projection",
    "merge",
    "project_choice",
    "project_path",
    "project_tools",
    "substitute",
]

_ABSENT = object()


class _Missing(Exception):
    """A required template variable has no value: the dialect cannot carry this source."""


def substitute(template: Any, values: dict[str, Any]) -> Any:
    """``template`` with its ``"{var}"`` strings replaced (see the module docstring); raises ``KeyError``
    naming the variable when a required one is absent."""
    try:
        return _fill(template, values)
    except _Missing as exc:
        raise KeyError(str(exc)) from None


def _fill(template: Any, values: dict[str, Any]) -> Any:
    if isinstance(template, str) and len(template) > 2 and template[0] == "{" and template[-1] == "}":
        name = template[1:-1]
        optional = name.endswith("?")
        negate = name.startswith("!")
        name = name.rstrip("?").lstrip("!")
        if name not in values:
            if optional:
                return _ABSENT
            raise _Missing(name)
        value = values[name]
        return (not value) if negate else json_copy(value)
    if isinstance(template, dict):
        out = {}
        for key, item in template.items():
            filled = _fill(item, values)
            if filled is not _ABSENT:
                out[key] = filled
        return out
    if isinstance(template, list):
        return [x for x in (_fill(item, values) for item in template) if x is not _ABSENT]
    return template


def merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """``extra`` merged into a copy of ``base``, objects member by member (for tool-choice fragments that
    share one object, like Anthropic's ``tool_choice`` with ``disable_parallel_tool_use``)."""
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def _slots(template: Any) -> set[str]:
    """The variable names a template uses."""
    if isinstance(template, str) and len(template) > 2 and template[0] == "{" and template[-1] == "}":
        return {template[1:-1].rstrip("?").lstrip("!")}
    if isinstance(template, dict):
        return set().union(*(_slots(v) for v in template.values())) if template else set()
    if isinstance(template, list):
        return set().union(*(_slots(v) for v in template)) if template else set()
    return set()


def _where(template: Any, name: str, at: str = "") -> str | None:
    """The JSON Pointer at which ``template`` puts variable ``name`` (the first place), or None."""
    if isinstance(template, str):
        return at if template in (f"{{{name}}}", f"{{{name}?}}", f"{{!{name}}}") else None
    items = (
        template.items()
        if isinstance(template, dict)
        else enumerate(template)
        if isinstance(template, list)
        else ()
    )
    for key, value in items:
        found = _where(value, name, f"{at}/{str(key).replace('~', '~0').replace('/', '~1')}")
        if found is not None:
            return found
    return None


def project_path(path: str, kind: str, lift: dict[str, Any]) -> str | None:
    """A JSON Pointer into a canonical source, moved to where the projection puts that value (an error
    expectation's ``path``), or None when the templates do not say."""
    if kind == "tools":
        prefix = _where(lift.get("tools"), "tools")
        parts = path.split("/")
        if prefix is None or path == "":
            return None if prefix is None else path
        if len(parts) < 2 or not parts[1].isdigit():
            return None
        moved = f"{prefix}/{parts[1]}"
        if len(parts) == 2:
            return moved
        member = _where(lift.get("tool"), parts[2])
        return None if member is None else moved + member + "".join("/" + x for x in parts[3:])
    forms = lift.get("choice") if isinstance(lift.get("choice"), dict) else {}
    if path == "/parallel_tool_calls":
        return _where(forms.get("parallel"), "parallel")
    return None  # a tool choice is spelled too differently to say where one of its members went


def project_tools(tools: Any, lift: dict[str, Any]) -> Any:
    """The canonical tool list ``tools`` in the dialect of ``lift`` (its descriptor's ``lift`` block), or
    None when the dialect has no slot for one of its members."""
    if not isinstance(tools, list) or "tool" not in lift or "tools" not in lift:
        return None
    slots = _slots(lift["tool"])
    reinterpreted = frozenset(lift.get("reinterpreted", ()))
    spelled = []
    for tool in tools:
        if not isinstance(tool, dict) or not set(tool) <= slots:
            return None
        if reinterpreted and _uses(tool.get("parameters"), reinterpreted):
            return None
        try:
            spelled.append(substitute(lift["tool"], tool))
        except KeyError:
            return None
    return substitute(lift["tools"], {"tools": spelled})


def _uses(schema: Any, keywords: frozenset[str]) -> bool:
    """True when a member named in ``keywords`` appears anywhere in ``schema``."""
    if isinstance(schema, dict):
        return any(k in keywords or _uses(v, keywords) for k, v in schema.items())
    if isinstance(schema, list):
        return any(_uses(v, keywords) for v in schema)
    return False


def _choice_form(choice: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The template name and variables for a canonical ``tool_choice`` object."""
    mode = choice.get("mode")
    names = choice.get("tools")
    if set(choice) - {"mode", "tools"} or mode not in ("auto", "none", "required"):
        return None
    if names is None:
        return str(mode), {}
    if not isinstance(names, list) or not names:
        return None
    if mode == "required" and len(names) == 1:
        return "named", {"name": names[0]}
    if mode == "none":
        return None
    return f"allowed_{mode}", {"names": list(names)}


def project_choice(fragment: Any, lift: dict[str, Any]) -> Any:
    """A canonical tool-choice fragment (``{tool_choice?, parallel_tool_calls?}``) in the dialect of
    ``lift``, or None when the dialect cannot carry it."""
    forms = lift.get("choice")
    if not isinstance(fragment, dict) or not isinstance(forms, dict):
        return None
    if set(fragment) - {"tool_choice", "parallel_tool_calls"}:
        return None
    out: dict[str, Any] = {}
    choice = fragment.get("tool_choice")
    if choice is not None:
        form = _choice_form(choice) if isinstance(choice, dict) else None
        if form is None or forms.get(form[0]) is None:
            return None
        variables = dict(form[1])
        if "names" in variables and "ref" in forms:
            variables["refs"] = [substitute(forms["ref"], {"name": n}) for n in variables["names"]]
        try:
            out = substitute(forms[form[0]], variables)
        except KeyError:
            return None
    if "parallel_tool_calls" in fragment:
        parallel = fragment["parallel_tool_calls"]
        template = forms.get("parallel")
        if not isinstance(parallel, bool) or template is None:
            return None
        if forms.get("parallel_needs_choice") and choice is None:
            return None  # the flag lives inside the choice object: it cannot stand alone
        out = merge(out, substitute(template, {"parallel": parallel}))
    return out


@dataclass(frozen=True)
class Projection:
    """A case's source in another dialect: ``invalid`` when that dialect's wire schema rejects it."""

    dialect: str
    payload: Any
    invalid: bool
